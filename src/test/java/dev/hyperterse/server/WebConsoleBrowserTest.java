package dev.hyperterse.server;

import dev.hyperterse.telemetry.TelemetrySetup;
import dev.hyperterse.testing.ProjectFiles;
import dev.hyperterse.testing.RunningServer;
import dev.hyperterse.testing.TestServer;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.openqa.selenium.By;
import org.openqa.selenium.OutputType;
import org.openqa.selenium.TakesScreenshot;
import org.openqa.selenium.WebDriver;
import org.openqa.selenium.WebElement;
import org.openqa.selenium.chrome.ChromeDriver;
import org.openqa.selenium.chrome.ChromeDriverService;
import org.openqa.selenium.chrome.ChromeOptions;
import org.openqa.selenium.logging.LogEntry;
import org.openqa.selenium.logging.LogType;
import org.openqa.selenium.support.ui.Select;
import org.openqa.selenium.support.ui.WebDriverWait;

import java.io.File;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.logging.Level;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The web console in a real browser (Debian's chromium, headless, driven through chromedriver)
 * against a real server on the quickstart, guarded by an API key and a metrics token: a tool run
 * through the form generated from its input schema (a constraint checked before sending), a
 * search's hits with their scores and matched fields, a prompt rendered with a suggested argument,
 * the Live page's counts and charts, and a wrong key and token getting only what an agent with
 * them gets. Each page's screenshot is written to {@code target/console-screenshots/}. The page
 * must load without any error in the browser's console (a Content-Security-Policy violation
 * shows there).
 */
class WebConsoleBrowserTest {
    static final String KEY = "console-test-key-5b1e";
    static final String METRICS_TOKEN = "console-metrics-token-77c2";
    static final Path SCREENSHOTS = Path.of("target", "console-screenshots");
    static final Path CHROMIUM = Path.of("/usr/bin/chromium");
    static final Path CHROMEDRIVER = Path.of("/usr/bin/chromedriver");
    /** A 128×80 PNG of three bars (blue, orange, green) on white: small, and visible in the screenshot. */
    static final String BARS_PNG = "iVBORw0KGgoAAAANSUhEUgAAAIAAAABQCAIAAABeYuqzAAAAuklEQVR42u3RQQ3AIBBEURRgoQaQUF8cawUR9dcq4LaBTXg/o2Be+bS14gIAAAQAgAAAEAAAAgBAAAAIAACdDvDUmAEAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAgGlXf0MGAAAAAAAAAAAAAAAAAAAAAAAAAEA2gDZayAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAyABwa0kAsgJofQAAABAAANrUD8/UkL4bTTvRAAAAAElFTkSuQmCC";
    static final int BARS_WIDTH = 128;
    /** Eight silent samples of 16-bit mono WAV. */
    static final String SILENT_WAV = "UklGRjQAAABXQVZFZm10IBAAAAABAAEAQB8AAIA+AAACABAAZGF0YRAAAAAAAAAAAAAAAAAAAAAAAAAA";

    @RegisterExtension
    static final TestServer server = TestServer.of(scratch -> {
        Path dir = RunningServer.copyExample("quickstart", scratch);
        Files.writeString(dir.resolve(".hyperterse"), Files.readString(dir.resolve(".hyperterse"))
                + "auth:\n  plugin: api_key\n  policy: { value: '{{ env.SHOP_API_KEY }}' }\n");
        ProjectFiles.write(dir, "app/tools/sign-in/config.terse", "description: 'Check a user name and password'\n"
                + "use: shop\nstatement: SELECT {{ inputs.user }} AS user_name\n"
                + "inputs:\n  user:\n    type: string\n  password:\n    type: string\n");
        // a handler answering with an image (three bars) and a sound (eight silent samples)
        ProjectFiles.write(dir, "app/tools/bars-chime/config.terse",
                "description: 'Draw three bars and play a chime'\n");
        ProjectFiles.write(dir, "app/tools/bars-chime/handler.ts", "export default () => ['Three bars and a chime.',\n"
                + "  Image('" + BARS_PNG + "', 'image/png'),\n  Audio('" + SILENT_WAV + "', 'audio/wav')];\n");
        TelemetrySetup telemetry = TelemetrySetup.forTesting(null, false, true);
        return RunningServer.start(dir, Map.of("SHOP_API_KEY", KEY),
                s -> s.console(true).metricsToken(METRICS_TOKEN),
                ServeOptions.DEFAULTS.withTelemetry(telemetry)).alsoClosing(telemetry);
    });

    static final String JWT_SECRET = "console-jwt-secret-of-32-characters-x";

    /** A project whose root auth block is jwt: the server refuses a request without a good token (401). */
    @RegisterExtension
    static final TestServer jwt = TestServer.of(dir -> {
        ProjectFiles.write(dir, ".hyperterse", "name: secured\nauth:\n  plugin: jwt\n  policy:\n"
                + "    secret: '{{ env.JWT_SECRET }}'\n    audience: https://mcp.example.test/mcp\n    issuer: https://login.example.test\n");
        ProjectFiles.write(dir, "schema.sql", "CREATE TABLE orders (id INTEGER PRIMARY KEY, owner TEXT, item TEXT);\n"
                + "INSERT INTO orders VALUES (1, 'alice', 'book'), (2, 'bob', 'lamp'), (3, 'alice', 'pen');\n");
        ProjectFiles.write(dir, "app/adapters/db.terse",
                "connector: sqlite\nconnection_string: ':memory:'\noptions:\n  init_sql: schema.sql\n");
        RunningServer.writeTool(dir, "my-orders", "description: 'The orders of the caller'\nuse: db\n"
                + "statement: SELECT id, item FROM orders WHERE owner = {{ auth.claims.sub }} ORDER BY id\n");
        return RunningServer.start(dir, Map.of("JWT_SECRET", JWT_SECRET),
                s -> s.console(true).metricsToken(METRICS_TOKEN));
    });

    Path profile;
    WebDriver browser;
    WebDriverWait wait;

    @BeforeAll
    static void startDriver() throws IOException {
        assertTrue(Files.isExecutable(CHROMIUM) && Files.isExecutable(CHROMEDRIVER),
                "the browser tests need Debian's chromium and chromium-driver "
                        + "(apt-get install -y chromium chromium-driver; .ci/run installs them)");
        Files.createDirectories(SCREENSHOTS);
    }

    @BeforeEach
    void openBrowser() throws IOException {
        profile = Files.createTempDirectory("hyperterse-console-chromium");
        ChromeOptions options = new ChromeOptions();
        options.setBinary(CHROMIUM.toFile());
        // the machine's network is closed: nothing that would reach out on start
        options.addArguments("--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
                "--disable-background-networking", "--disable-component-update", "--disable-sync",
                "--user-data-dir=" + profile, "--window-size=1280,1500");
        org.openqa.selenium.logging.LoggingPreferences logs = new org.openqa.selenium.logging.LoggingPreferences();
        logs.enable(LogType.BROWSER, Level.ALL);
        options.setCapability("goog:loggingPrefs", logs);
        // a driver of its own per browser: quitting the browser stops its driver
        browser = new ChromeDriver(new ChromeDriverService.Builder().usingDriverExecutable(CHROMEDRIVER.toFile())
                .usingAnyFreePort().build(), options);
        wait = new WebDriverWait(browser, Duration.ofSeconds(20));
        browser.get(server.baseUrl() + "/console/");
    }

    @AfterEach
    void closeBrowser() throws IOException {
        try {
            List<LogEntry> errors = browser.manage().logs().get(LogType.BROWSER).getAll().stream()
                    .filter(e -> e.getLevel().intValue() >= Level.SEVERE.intValue())
                    // the refusals the tests provoke on purpose are logged by the browser as failed loads
                    .filter(e -> !e.getMessage().contains("status of 401") && !e.getMessage().contains("status of 403"))
                    .toList();
            assertEquals(List.of(), errors.stream().map(LogEntry::getMessage).toList(),
                    "the page loads and runs without errors (a blocked script or style shows here)");
        } finally {
            browser.quit();
            try (java.util.stream.Stream<Path> files = Files.walk(profile)) {
                files.sorted(java.util.Comparator.reverseOrder()).forEach(f -> f.toFile().delete());
            }
        }
    }

    @Test
    void runsAToolThroughTheFormGeneratedFromItsInputSchema() throws IOException {
        connect(KEY);
        find("orders by status");
        click(By.xpath("//ul[@id='catalog']//button[text()='list-orders']"));
        WebElement status = wait.until(d -> d.findElement(By.xpath("//label[starts-with(., 'status')]")));
        assertEquals("status (required)", status.getText());
        Select choice = new Select(browser.findElement(By.id(status.getAttribute("for"))));
        assertEquals(List.of("(not set)", "pending", "shipped", "delivered", "cancelled"),
                choice.getOptions().stream().map(WebElement::getText).toList(), "the enum is a choice");
        WebElement limit = fieldFor("limit");
        String limitHelp = browser.findElement(By.id(limit.getAttribute("id") + "-help")).getText();
        assertTrue(limitHelp.contains("at least 1") && limitHelp.contains("at most 500") && limitHelp.contains("default 50"),
                limitHelp);

        // a constraint is checked before anything is sent
        choice.selectByVisibleText("pending");
        limit.sendKeys("0");
        click(By.xpath("//form[@aria-label='Inputs of list-orders']//button[text()='Run']"));
        WebElement refused = wait.until(d -> d.findElement(By.cssSelector("#tool-detail .result .outcome")));
        assertEquals("Not sent: 1 input needs fixing.", refused.getText());
        assertEquals("true", limit.getAttribute("aria-invalid"));
        assertEquals("limit must be at least 1",
                browser.findElement(By.id(limit.getAttribute("id") + "-problem")).getText());

        limit.clear();
        limit.sendKeys("2");
        fieldFor("customer_ids").sendKeys("1\n2\n3\n4\n5");
        click(By.xpath("//form[@aria-label='Inputs of list-orders']//button[text()='Run']"));
        WebElement ok = wait.until(d -> d.findElement(By.cssSelector("#tool-detail .result .outcome.good")));
        assertTrue(ok.getText().startsWith("OK in ") && ok.getText().endsWith(" · 2 rows"), ok.getText());
        List<WebElement> rows = browser.findElements(By.cssSelector("#tool-detail .result table tbody tr"));
        assertEquals(2, rows.size());
        for (WebElement row : rows) {
            assertTrue(row.getText().contains("pending"), row.getText());
        }
        assertFalse(browser.findElement(By.id("tool-detail")).getText().lines().anyMatch("null"::equals),
                "nothing absent shows as null");
        screenshot("tools");
    }

    @Test
    void showsAToolErrorAsAnAgentGetsIt() throws Exception {
        connect(KEY);
        // execute itself, as tools/list gives it, with inputs the tool refuses
        click(By.xpath("//ul[@id='catalog']//button[text()='execute']"));
        fieldFor("tool").sendKeys("get-customer");
        fieldFor("inputs").sendKeys("{\"customer_id\": \"seven\"}");
        click(By.xpath("//form[@aria-label='Inputs of execute']//button[text()='Run']"));
        WebElement outcome = wait.until(d -> d.findElement(By.cssSelector("#tool-detail .result .outcome")));
        assertTrue(outcome.getText().startsWith("Tool error (isError: true) in "), outcome.getText());
        String shown = browser.findElement(By.cssSelector("#tool-detail .result .error-text")).getText();
        io.vertx.core.json.JsonObject agent = server.http().call("get-customer",
                new io.vertx.core.json.JsonObject().put("customer_id", "seven"), "X-API-Key", KEY);
        String agentText = agent.getJsonObject("result").getJsonArray("content").getJsonObject(0).getString("text");
        assertTrue(agentText.contains("customer_id"), agentText);
        assertEquals(agentText, shown, "the error text exactly as an agent gets it");
        assertFalse(browser.findElement(By.id("tool-detail")).getText().lines().anyMatch("null"::equals),
                "nothing absent (execute declares no output schema) shows as null");
    }

    @Test
    void showsAToolsImageAndAudioContent() throws IOException {
        connect(KEY);
        find("draw bars");
        click(By.xpath("//ul[@id='catalog']//button[text()='bars-chime']"));
        click(By.xpath("//form[@aria-label='Inputs of bars-chime']//button[text()='Run']"));
        wait.until(d -> d.findElement(By.cssSelector("#tool-detail .result .outcome.good")));
        WebElement image = browser.findElement(By.cssSelector("#tool-detail .result figure img"));
        assertEquals("data:image/png;base64," + BARS_PNG, image.getAttribute("src"));
        assertEquals("Image from content[1] (image/png)", image.getAttribute("alt"));
        org.openqa.selenium.JavascriptExecutor page = (org.openqa.selenium.JavascriptExecutor) browser;
        // decoded: the page's policy let the data: URL load, and it is the bars
        wait.until(d -> Long.valueOf(BARS_WIDTH).equals(page.executeScript(
                "return arguments[0].complete ? arguments[0].naturalWidth : null;", image)));
        WebElement audio = browser.findElement(By.cssSelector("#tool-detail .result figure audio"));
        assertEquals("data:audio/wav;base64," + SILENT_WAV, audio.getAttribute("src"));
        assertTrue(audio.getAttribute("controls") != null, "the sound has its controls");
        assertEquals("Audio from content[2] (audio/wav)", audio.getAttribute("aria-label"));
        wait.until(d -> Boolean.TRUE.equals(page.executeScript(
                "return arguments[0].error === null && arguments[0].readyState >= 1;", audio)));
        assertEquals("Three bars and a chime.",
                browser.findElement(By.xpath("//div[@id='tool-detail']//details[summary='Text content']/pre"))
                        .getAttribute("textContent"));
        page.executeScript("arguments[0].scrollIntoView({block: 'center'});", image);
        screenshot("media");
    }

    @Test
    void explainsASearch() throws IOException {
        connect(KEY);
        // the pages are tabs: the arrow keys move between them
        browser.findElement(By.id("tab-tools")).sendKeys(org.openqa.selenium.Keys.ARROW_RIGHT);
        assertEquals("true", browser.findElement(By.id("tab-search")).getAttribute("aria-selected"));
        assertEquals(browser.findElement(By.id("tab-search")), browser.switchTo().activeElement());
        assertFalse(browser.findElement(By.id("page-search")).getAttribute("hidden") != null);
        assertTrue(browser.findElement(By.id("page-tools")).getAttribute("hidden") != null);
        browser.findElement(By.id("search-query")).sendKeys("orders by status");
        click(By.xpath("//form[@id='search-form']//button"));
        List<WebElement> hits = wait.until(d -> {
            List<WebElement> found = d.findElements(By.cssSelector("#search-results li.hit"));
            return found.isEmpty() ? null : found;
        });
        WebElement first = hits.get(0);
        assertTrue(first.getText().startsWith("list-orders"), first.getText());
        String relevance = first.findElement(By.className("relevance")).getText();
        assertTrue(relevance.matches("relevance \\d{1,3} of 100"), relevance);
        String why = first.findElement(By.className("why")).getText();
        assertTrue(why.startsWith("Words of your request in: ") && why.contains("description (orders, status)"), why);
        screenshot("search");
    }

    @Test
    void rendersAPromptWithASuggestedArgument() throws IOException {
        connect(KEY);
        click(By.id("tab-prompts"));
        click(By.xpath("//ul[@id='prompt-list']//button[text()='order-update']"));
        WebElement orderId = wait.until(d -> d.findElement(By.xpath("//label[starts-with(., 'order_id')]")));
        browser.findElement(By.id(orderId.getAttribute("for"))).sendKeys("9");
        WebElement tone = browser.findElement(By.id(
                browser.findElement(By.xpath("//label[starts-with(., 'tone')]")).getAttribute("for")));
        tone.sendKeys("fo");
        click(By.xpath("//label[starts-with(., 'tone')]/following-sibling::button[text()='Suggest values']"));
        click(By.xpath("//span[@class='suggestions']/button[text()='formal']"));
        assertEquals("formal", tone.getAttribute("value"));
        click(By.xpath("//form[@aria-label='Arguments of order-update']//button[text()='Render']"));
        List<WebElement> messages = wait.until(d -> {
            List<WebElement> found = d.findElements(By.cssSelector("#prompt-detail pre.prompt-message"));
            return found.size() < 2 ? null : found;
        });
        assertEquals("Tell the customer where order 9 is, in a formal tone.", messages.get(1).getText());
        screenshot("prompts");

        click(By.xpath("//ul[@id='template-list']//button[text()='shop://orders/{id}']"));
        WebElement id = wait.until(d -> d.findElement(By.xpath("//form[@aria-label='Variables of shop://orders/{id}']//input")));
        id.sendKeys("9");
        click(By.xpath("//form[@aria-label='Variables of shop://orders/{id}']//button[text()='Read']"));
        WebElement content = wait.until(d -> d.findElement(By.cssSelector("#prompt-detail pre")));
        assertTrue(content.getText().contains("\"status\": \"pending\""), content.getText());
    }

    @Test
    void watchesCallsLive() throws Exception {
        connect(KEY);
        // calls by an agent elsewhere
        for (int i = 1; i <= 3; i++) {
            server.http().call("get-customer", new io.vertx.core.json.JsonObject().put("customer_id", i), "X-API-Key", KEY);
        }
        click(By.id("tab-live"));
        browser.findElement(By.id("metrics-token")).sendKeys(METRICS_TOKEN);
        click(By.id("live-start"));
        // the charts need two readings; a few more, with calls between them, draw lines
        wait.until(d -> d.findElements(By.cssSelector("#charts canvas")).size() >= 5);
        for (int reading = 0; reading < 4; reading++) {
            String shown = browser.findElement(By.id("live-status")).getText();
            for (int i = 0; i <= reading; i++) {
                server.http().call("list-orders", new io.vertx.core.json.JsonObject().put("status", "pending"),
                        "X-API-Key", KEY);
                server.http().call("get-customer", new io.vertx.core.json.JsonObject().put("customer_id", "x" + i),
                        "X-API-Key", KEY);
            }
            wait.until(d -> !d.findElement(By.id("live-status")).getText().equals(shown));
        }
        // the server is shared by this class's tests: at least the three calls above
        int calls = Integer.parseInt(browser.findElement(
                By.xpath("//div[@id='live-tools']//tr[td[1]='get-customer']/td[2]")).getText());
        assertTrue(calls >= 3, "get-customer calls: " + calls);
        click(By.id("tab-tools"));
        click(By.xpath("//ul[@id='catalog']//button[text()='execute']"));
        fieldFor("tool").sendKeys("sign-in");
        fieldFor("inputs").sendKeys("{\"user\": \"ada\", \"password\": \"hunter2\"}");
        click(By.xpath("//form[@aria-label='Inputs of execute']//button[text()='Run']"));
        wait.until(d -> d.findElement(By.cssSelector("#tool-detail .result .outcome.good")));
        click(By.id("tab-live"));
        WebElement recent = wait.until(d -> {
            WebElement table = d.findElement(By.id("live-recent"));
            return table.getText().contains("sign-in") ? table : null;
        });
        assertTrue(recent.getText().contains("{\"user\":\"ada\",\"password\":\"***\"}"),
                "inputs are shown as traces show them: " + recent.getText());
        assertFalse(recent.getText().contains("hunter2"));
        screenshot("live");
        click(By.id("live-stop"));
    }

    @Test
    void aWrongKeyGetsWhatAnAgentWithItGets() throws IOException {
        connect("not-the-key");
        // the tools it may not run are hidden from it, as from an agent
        find("orders by status");
        WebElement note = browser.findElement(By.id("catalog-note"));
        assertEquals("search found no tool for this (a key that may not run a tool does not see it).", note.getText());
        click(By.xpath("//ul[@id='catalog']//button[text()='execute']"));
        fieldFor("tool").sendKeys("list-orders");
        fieldFor("inputs").sendKeys("{\"status\": \"pending\"}");
        click(By.xpath("//form[@aria-label='Inputs of execute']//button[text()='Run']"));
        WebElement error = wait.until(d -> d.findElement(By.cssSelector("#tool-detail .result .error-text")));
        assertTrue(error.getText().contains("tool not found: list-orders"), error.getText());
        assertFalse(browser.getPageSource().contains("Edsger"), "no row of the guarded tool reached the page");

        // the Live page's data asks for the metrics token
        click(By.id("tab-live"));
        browser.findElement(By.id("metrics-token")).sendKeys("not-the-token");
        click(By.id("live-start"));
        WebElement status = wait.until(d -> {
            WebElement s = d.findElement(By.id("live-status"));
            return s.getText().startsWith("Refused") ? s : null;
        });
        assertEquals("Refused (HTTP 401): Unauthorized: the metrics need the bearer token set in server.metrics.token",
                status.getText());
        assertEquals("", browser.findElement(By.id("live-recent")).getText());
        screenshot("refused");
    }

    @Test
    void aServerThatRefusesTheTokenIsNotConnectedAndTheRightOneSeesItsCaller() throws IOException {
        browser.get(jwt.baseUrl() + "/console/");
        new Select(wait.until(d -> d.findElement(By.id("credential-kind")))).selectByValue("bearer");
        browser.findElement(By.id("credential")).sendKeys("not.a.token");
        click(By.id("connect-button"));
        WebElement status = wait.until(d -> {
            WebElement s = d.findElement(By.id("connection"));
            return s.getText().startsWith("Not connected") ? s : null;
        });
        assertTrue(status.getText().startsWith("Not connected: the server refused the request (HTTP 401)"),
                status.getText());
        assertEquals("", browser.findElement(By.id("catalog")).getText(), "nothing of the project reached the page");

        io.vertx.core.Vertx vertx = io.vertx.core.Vertx.vertx();
        try {
            String token = io.vertx.ext.auth.jwt.JWTAuth.create(vertx, new io.vertx.ext.auth.jwt.JWTAuthOptions()
                            .addPubSecKey(new io.vertx.ext.auth.PubSecKeyOptions().setAlgorithm("HS256")
                                    .setBuffer(JWT_SECRET)))
                    .generateToken(new io.vertx.core.json.JsonObject().put("sub", "alice")
                                    .put("aud", "https://mcp.example.test/mcp").put("iss", "https://login.example.test")
                                    .put("exp", System.currentTimeMillis() / 1000 + 300),
                            new io.vertx.ext.auth.JWTOptions().setNoTimestamp(true));
            WebElement credential = browser.findElement(By.id("credential"));
            credential.clear();
            credential.sendKeys(token);
        } finally {
            vertx.close();
        }
        click(By.id("connect-button"));
        wait.until(d -> d.findElement(By.id("connection")).getText().startsWith("Connected to secured"));
        find("orders of the caller");
        click(By.xpath("//ul[@id='catalog']//button[text()='my-orders']"));
        click(By.xpath("//form[@aria-label='Inputs of my-orders']//button[text()='Run']"));
        WebElement ok = wait.until(d -> d.findElement(By.cssSelector("#tool-detail .result .outcome.good")));
        assertTrue(ok.getText().endsWith(" · 2 rows"), ok.getText());
        assertFalse(browser.findElement(By.cssSelector("#tool-detail .result table")).getText().contains("lamp"),
                "only the caller's rows");
        click(By.id("tab-live"));
        browser.findElement(By.id("metrics-token")).sendKeys(METRICS_TOKEN);
        click(By.id("live-start"));
        WebElement recent = wait.until(d -> {
            WebElement table = d.findElement(By.id("live-recent"));
            return table.getText().contains("my-orders") ? table : null;
        });
        assertTrue(browser.findElement(By.xpath("//div[@id='live-recent']//tr[td[2]='my-orders']/td[3]")).getText()
                .equals("alice"), recent.getText());
    }

    private void connect(String key) {
        WebElement credential = wait.until(d -> d.findElement(By.id("credential")));
        credential.clear();
        credential.sendKeys(key);
        click(By.id("connect-button"));
        wait.until(d -> d.findElement(By.id("connection")).getText().startsWith("Connected"));
    }

    private void find(String query) {
        click(By.id("tab-tools"));
        WebElement box = browser.findElement(By.id("find-query"));
        box.clear();
        box.sendKeys(query);
        click(By.xpath("//form[@id='find-tools']//button"));
        wait.until(d -> d.findElement(By.id("catalog-note")).getText().startsWith("search "));
    }

    /** The input of the field labelled {@code name} in the open tool's form. */
    private WebElement fieldFor(String name) {
        WebElement label = wait.until(d -> d.findElement(By.xpath("//div[@id='tool-detail']//label[text()='" + name
                + "' or text()='" + name + " (required)']")));
        return browser.findElement(By.id(label.getAttribute("for")));
    }

    private void click(By by) {
        wait.until(d -> {
            WebElement element = d.findElement(by);
            return element.isDisplayed() && element.isEnabled() ? element : null;
        }).click();
    }

    private void screenshot(String page) throws IOException {
        File shot = ((TakesScreenshot) browser).getScreenshotAs(OutputType.FILE);
        Files.copy(shot.toPath(), SCREENSHOTS.resolve(page + ".png"), StandardCopyOption.REPLACE_EXISTING);
    }
}

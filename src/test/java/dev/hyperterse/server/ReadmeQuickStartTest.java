package dev.hyperterse.server;

import dev.hyperterse.testing.RawHttp;
import dev.hyperterse.testing.TestServer;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import java.io.IOException;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

/**
 * The README's quick start as a reader runs it, against the quickstart project: every curl
 * command of "Talk to it with curl" sent as written (only the address changed to this server's),
 * the answer shown below them, and the TypeScript SDK snippet run with Node, which must exit.
 */
class ReadmeQuickStartTest {
    private static final String README_ADDRESS = "http://127.0.0.1:8080";

    @RegisterExtension
    static final TestServer server = TestServer.quickstart();
    static String readme;

    @BeforeAll
    static void readReadme() throws Exception {
        readme = Files.readString(Path.of("README.md"));
    }

    @Test
    void everyCurlCommandAnswersAsShown() throws Exception {
        List<List<String>> commands = curlCommands(section("### Talk to it with curl"));
        assertEquals(4, commands.size(), "the README's curl commands: " + commands);
        RawHttp http = server.http();
        JsonObject executed = null;
        for (List<String> command : commands) {
            Curl curl = Curl.parse(command);
            assertTrue(curl.url.startsWith(README_ADDRESS), curl.url);
            String path = curl.url.substring(README_ADDRESS.length());
            HttpResponse<String> response = curl.body == null
                    ? http.send("GET", path, curl.headers.toArray(String[]::new))
                    : http.post(path, curl.body, curl.headers.toArray(String[]::new));
            assertEquals(200, response.statusCode(), curl.url + " " + curl.body + " → " + response.body());
            if (curl.comment != null) {
                assertEquals(new JsonObject(curl.comment), new JsonObject(response.body()), "as the README's comment says");
            }
            if (curl.body != null) {
                JsonObject answer = new JsonObject(jsonOf(response));
                assertFalse(answer.containsKey("error"), answer.encode());
                assertNotNull(answer.getJsonObject("result"), answer.encode());
                if (new JsonObject(curl.body).getJsonObject("params").getString("name", "").equals("execute")) {
                    executed = answer;
                }
            }
        }
        assertNotNull(executed, "the README runs a tool with execute");

        // the answer the README shows, its rows elided with "..."
        Matcher shown = Pattern.compile("```json\\n(\\{\"jsonrpc\".*)\\n```").matcher(section("### Talk to it with curl"));
        assertTrue(shown.find(), "the README shows the execute answer");
        JsonObject expected = new JsonObject(shown.group(1).replace(",...", ""));
        assertEquals(expected.getValue("id"), executed.getValue("id"));
        JsonObject expectedBlock = expected.getJsonObject("result").getJsonArray("content").getJsonObject(0);
        JsonObject block = executed.getJsonObject("result").getJsonArray("content").getJsonObject(0);
        assertEquals(expectedBlock.getString("type"), block.getString("type"));
        JsonObject expectedRow = new JsonArray(expectedBlock.getString("text")).getJsonObject(0);
        JsonObject row = new JsonArray(block.getString("text")).getJsonObject(0);
        expectedRow.forEach(field -> assertEquals(field.getValue(), row.getValue(field.getKey()), field.getKey()));
    }

    /** The snippet used to print its results and then never exit: the client's GET stream stayed open. */
    @Test
    void theTypeScriptSdkSnippetRunsAndExits() throws Exception {
        Path clientHome = Path.of(System.getenv().getOrDefault("MCP_CLIENT_HOME",
                System.getProperty("user.home") + "/.cache/mcp-black-box-client"));
        assumeTrue(Files.isDirectory(clientHome.resolve("node_modules/@modelcontextprotocol/sdk")),
                "the TypeScript SDK is not installed (../shared/mcp-client/run.sh installs it into " + clientHome + ")");
        Matcher block = Pattern.compile("```js\\n(.*?)\\n\\s*```", Pattern.DOTALL).matcher(readme);
        assertTrue(block.find(), "the README's TypeScript SDK snippet");
        String snippet = block.group(1).replaceAll("(?m)^  ", "").replace(README_ADDRESS, server.baseUrl());
        // beside the SDK's node_modules, so its imports resolve as they do in a reader's project
        Path script = clientHome.resolve("readme-snippet-" + UUID.randomUUID() + ".mjs");
        Files.writeString(script, snippet);
        try {
            Process node = new ProcessBuilder("node", script.toString()).redirectErrorStream(true).start();
            node.getOutputStream().close();
            StringBuilder output = new StringBuilder();
            Thread reader = new Thread(() -> {
                try {
                    output.append(new String(node.getInputStream().readAllBytes(), StandardCharsets.UTF_8));
                } catch (IOException ignored) {
                    // the process was killed
                }
            });
            reader.start();
            boolean exited = node.waitFor(2, TimeUnit.MINUTES);
            if (!exited) {
                node.destroyForcibly().waitFor();
            }
            reader.join(10_000);
            assertTrue(exited, "the snippet did not exit:\n" + output);
            assertEquals(0, node.exitValue(), output.toString());
            assertTrue(output.toString().contains("Ada Lovelace"), output.toString());
        } finally {
            Files.deleteIfExists(script);
        }
    }

    private static String section(String heading) {
        int start = readme.indexOf(heading);
        assertTrue(start >= 0, heading);
        // "# " inside the sh blocks starts comments: the section ends at the next ## or ### heading
        Matcher next = Pattern.compile("\\n#{2,3} ").matcher(readme);
        int end = next.find(start + heading.length()) ? next.start() : readme.length();
        return readme.substring(start, end);
    }

    /** The curl commands of the section's sh block, continuation lines joined, each as its words. */
    private static List<List<String>> curlCommands(String section) {
        Matcher sh = Pattern.compile("```sh\\n(.*?)```", Pattern.DOTALL).matcher(section);
        assertTrue(sh.find(), "a sh block");
        List<List<String>> commands = new ArrayList<>();
        for (String line : sh.group(1).replace("\\\n", " ").split("\n")) {
            List<String> words = words(line);
            if (!words.isEmpty() && words.get(0).equals("curl")) {
                commands.add(words);
            }
        }
        return commands;
    }

    /** Shell words of one line: whitespace-separated, '...' quoted; a trailing # comment is one word starting with '#'. */
    private static List<String> words(String line) {
        List<String> words = new ArrayList<>();
        int i = 0;
        while (i < line.length()) {
            char c = line.charAt(i);
            if (Character.isWhitespace(c)) {
                i++;
            } else if (c == '#') {
                words.add(line.substring(i));
                break;
            } else {
                StringBuilder word = new StringBuilder();
                while (i < line.length() && !Character.isWhitespace(line.charAt(i))) {
                    if (line.charAt(i) == '\'') {
                        int close = line.indexOf('\'', i + 1);
                        word.append(line, i + 1, close);
                        i = close + 1;
                    } else {
                        word.append(line.charAt(i++));
                    }
                }
                words.add(word.toString());
            }
        }
        return words;
    }

    /** The body of a JSON answer, or the data of the one event of an event-stream answer. */
    private static String jsonOf(HttpResponse<String> response) {
        String type = response.headers().firstValue("Content-Type").orElse("");
        if (!type.startsWith("text/event-stream")) {
            return response.body();
        }
        return response.body().lines().filter(l -> l.startsWith("data:")).map(l -> l.substring(5).strip())
                .reduce((a, b) -> b).orElseThrow();
    }

    /** What a README curl command asks for: {@code -s URL -H 'Name: value'... -d 'BODY'  # expected}. */
    private record Curl(String url, List<String> headers, String body, String comment) {
        static Curl parse(List<String> words) {
            String url = null;
            String body = null;
            String comment = null;
            List<String> headers = new ArrayList<>();
            for (int i = 1; i < words.size(); i++) {
                String w = words.get(i);
                switch (w) {
                    case "-s" -> { }
                    case "-H" -> {
                        String header = words.get(++i);
                        int colon = header.indexOf(':');
                        headers.add(header.substring(0, colon).strip());
                        headers.add(header.substring(colon + 1).strip());
                    }
                    case "-d" -> body = words.get(++i);
                    default -> {
                        if (w.startsWith("#")) {
                            comment = w.substring(1).strip();
                        } else if (w.startsWith("http")) {
                            url = w;
                        } else {
                            throw new AssertionError("a curl option this check does not know: " + w);
                        }
                    }
                }
            }
            return new Curl(url, headers, body, comment);
        }
    }
}

package dev.hyperterse;

import dev.hyperterse.testing.ProjectFiles;
import dev.hyperterse.testing.RawHttp;
import dev.hyperterse.testing.RunningServer;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.net.ServerSocket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

/**
 * The packaged jar, run as users run it ({@code java -jar}): what the build leaves out of it (the
 * platforms' native libraries it keeps, the parts of its dependencies it drops) must not take away
 * anything a project uses. Runs after {@code package}, in {@code mvn verify}.
 */
class PackagedJarIT {
    @TempDir
    Path dir;
    private Process server;
    private Path log;

    @AfterEach
    void stop() throws Exception {
        if (server != null) {
            server.destroy();
            if (!server.waitFor(20, TimeUnit.SECONDS)) {
                server.destroyForcibly();
            }
        }
    }

    /** Starts {@code java -jar} on a project and waits for {@code /heartbeat}; returns the client. */
    private RawHttp start(Path project) throws Exception {
        return start(Path.of(System.getProperty("java.home"), "bin", "java"), project, Map.of());
    }

    /** Starts {@code java -jar} of this {@code java}, with these environment variables added. */
    private RawHttp start(Path java, Path project, Map<String, String> environment, String... arguments) throws Exception {
        return start(java, packagedJar(), project, environment, arguments);
    }

    private static Path packagedJar() {
        Path jar = Path.of(System.getProperty("hyperterse.jar", "target/hyperterse.jar")).toAbsolutePath();
        assertTrue(Files.isRegularFile(jar), "no packaged jar at " + jar + " (mvn package builds it)");
        return jar;
    }

    private static int freePort() throws IOException {
        try (ServerSocket probe = new ServerSocket(0)) {
            return probe.getLocalPort();
        }
    }

    private RawHttp start(Path java, Path jar, Path project, Map<String, String> environment, String... arguments)
            throws Exception {
        int port = freePort();
        server = launch(java, jar, project, environment, port, arguments);
        RawHttp http = new RawHttp("http://127.0.0.1:" + port);
        long until = System.nanoTime() + TimeUnit.SECONDS.toNanos(90);
        while (System.nanoTime() < until) {
            if (!server.isAlive()) {
                fail("the server stopped (exit " + server.exitValue() + "):\n" + Files.readString(log));
            }
            try {
                if (http.send("GET", "/heartbeat").statusCode() == 200) {
                    return http;
                }
            } catch (IOException notYet) {
                // not listening yet
            }
            Thread.sleep(100);
        }
        fail("no /heartbeat within 90 s:\n" + Files.readString(log));
        return null;
    }

    private Process launch(Path java, Path jar, Path project, Map<String, String> environment, int port,
                           String... arguments) throws IOException {
        log = dir.resolve("server.log");
        List<String> command = new ArrayList<>(List.of(java.toString(),
                "-Dhyperterse.scripts.cache=" + dir.resolve("script-cache"), "-Xmx256m",
                "-jar", jar.toString(), "start", project.toString(), "--port", Integer.toString(port)));
        command.addAll(List.of(arguments));
        ProcessBuilder builder = new ProcessBuilder(command).redirectErrorStream(true).redirectOutput(log.toFile());
        // the runner's own settings stay out of the server's start
        builder.environment().keySet().removeAll(List.of("HYPERTERSE_AOT_CACHE", "JAVA_TOOL_OPTIONS", "JDK_JAVA_OPTIONS",
                "_JAVA_OPTIONS"));
        builder.environment().putAll(environment);
        return builder.start();
    }

    /** The cluster manager is an add-on: a node whose jar lies alone says so and stops, naming the file and folder. */
    @Test
    void aClusterNeedsTheAddOnBesideTheJar() throws Exception {
        Path alone = Files.createDirectories(dir.resolve("alone"));
        Path jar = Files.copy(packagedJar(), alone.resolve("hyperterse.jar"));
        Process node = launch(Path.of(System.getProperty("java.home"), "bin", "java"), jar,
                RunningServer.copyExample("quickstart", dir), Map.of(), freePort(), "--cluster");
        server = node;
        assertTrue(node.waitFor(60, TimeUnit.SECONDS), "a node without the add-on still runs:\n" + Files.readString(log));
        String logged = Files.readString(log);
        assertEquals(1, node.exitValue(), logged);
        assertTrue(logged.contains("error: a cluster needs the add-on hyperterse-cluster.jar (Hazelcast) beside hyperterse.jar in "
                + alone), logged);
        assertFalse(logged.contains("Exception"), logged);
    }

    /** The add-on the build leaves beside the jar is loaded through the jar's manifest: the node joins its cluster. */
    @Test
    void theAddOnBesideTheJarJoinsACluster() throws Exception {
        assertTrue(Files.isRegularFile(packagedJar().resolveSibling("hyperterse-cluster.jar")), "mvn package builds the add-on");
        RawHttp http = start(Path.of(System.getProperty("java.home"), "bin", "java"), RunningServer.copyExample("quickstart", dir),
                Map.of(), "--cluster", "--cluster-host", "127.0.0.1", "--cluster-port", Integer.toString(freePort()),
                "--cluster-name", "packaged-" + ProcessHandle.current().pid());
        assertEquals(1, http.rows("get-customer", new JsonObject().put("customer_id", 1)).size());
        String logged = Files.readString(log);
        assertTrue(logged.contains("joined cluster 'packaged-"), logged);
    }

    /**
     * The semantic ranking's models are an add-on too: beside the jar, search ranks by them (the
     * default) once their vectors are ready; a jar copied alone ranks as static and says so once, and
     * a project that asks for semantic there is refused, naming the file and the folder.
     */
    @Test
    void theSemanticRankingRunsFromItsAddOnAndAJarAloneRanksAsStatic() throws Exception {
        assertTrue(Files.isRegularFile(packagedJar().resolveSibling("hyperterse-semantic.jar")), "mvn package builds the add-on");
        Path java = Path.of(System.getProperty("java.home"), "bin", "java");
        Path project = RunningServer.copyExample("quickstart", dir);
        Map<String, String> cache = Map.of("XDG_CACHE_HOME", dir.resolve("cache").toString());
        RawHttp http = start(java, project, cache);
        String logged = "";
        for (long end = System.nanoTime() + TimeUnit.SECONDS.toNanos(120);
                System.nanoTime() < end && !logged.contains("search: ranking by meaning ("); logged = Files.readString(log)) {
            // static answers at once; the first search starts the index, and the models' vectors follow
            assertEquals("get-customer", http.searchHits("customer by id").getJsonObject(0).getString("name"));
            Thread.sleep(200);
        }
        assertTrue(logged.contains("search: ranking by meaning (4 tools embedded, 0 from the cache"), logged);
        assertEquals("get-customer", http.searchHits("customer by id").getJsonObject(0).getString("name"));
        assertFalse(logged.contains("ranking as static"), logged);
        stop();
        server = null;

        Path alone = Files.createDirectories(dir.resolve("alone"));
        Path jar = Files.copy(packagedJar(), alone.resolve("hyperterse.jar"));
        http = start(java, jar, project, cache);
        assertEquals("get-customer", http.searchHits("customer by id").getJsonObject(0).getString("name"));
        assertEquals("get-customer", http.searchHits("customer by id").getJsonObject(0).getString("name"));
        logged = Files.readString(log);
        String note = "search: ranking as static; the semantic ranking, the default, needs the add-on hyperterse-semantic.jar";
        assertEquals(1, logged.split(Pattern.quote(note), -1).length - 1, logged);
        assertTrue(logged.contains("beside hyperterse.jar in " + alone), logged);
        assertFalse(logged.contains("Exception"), logged);
        stop();
        server = null;

        Files.writeString(project.resolve(".hyperterse"), "name: quickstart\ntools:\n  search:\n    ranking: semantic\n");
        Process node = launch(java, jar, project, cache, freePort());
        server = node;
        assertTrue(node.waitFor(60, TimeUnit.SECONDS), "a project asking for semantic without the add-on still runs:\n"
                + Files.readString(log));
        logged = Files.readString(log);
        assertEquals(1, node.exitValue(), logged);
        assertTrue(logged.contains("'tools.search.ranking: semantic' needs the add-on hyperterse-semantic.jar"), logged);
        assertTrue(logged.contains("beside hyperterse.jar in " + alone + ", or use 'static'"), logged);
        assertFalse(logged.contains("Exception"), logged);
    }

    @Test
    void theQuickstartAnswersFromItsEmbeddedDatabase() throws Exception {
        RawHttp http = start(RunningServer.copyExample("quickstart", dir));
        JsonArray rows = http.rows("get-customer", new JsonObject().put("customer_id", 1));
        assertEquals(1, rows.size(), rows.encode());
        String logged = Files.readString(log);
        assertTrue(!logged.contains("Exception"), logged);
    }

    /** A TypeScript handler (the native stripper where the platform has one) using the Intl APIs ICU serves. */
    @Test
    void aTypeScriptHandlerHasTheInternationalizationApis() throws Exception {
        ProjectFiles.write(dir, "intl/.hyperterse", "name: intl\n");
        ProjectFiles.write(dir, "intl/app/tools/intl/config.terse", "description: Intl from a script\nhandler: ./handler.ts\n");
        ProjectFiles.write(dir, "intl/app/tools/intl/handler.ts", String.join("\n",
                "export default function (): Record<string, unknown> {",
                "  const at: Date = new Date(Date.UTC(2024, 0, 2, 12, 0, 0));",
                "  return {",
                "    money: new Intl.NumberFormat('de-DE', { style: 'currency', currency: 'EUR' }).format(1234.5),",
                "    tokyo: at.toLocaleString('en-US', { timeZone: 'Asia/Tokyo' }),",
                "    sorted: ['z', 'ä', 'a'].sort(new Intl.Collator('de').compare),",
                "    words: [...new Intl.Segmenter('en', { granularity: 'word' }).segment('hello big world')]",
                "        .filter(s => s.isWordLike).length,",
                "    nfc: 'A\\u030A'.normalize('NFC') === '\\u00C5',",
                "    turkish: 'i'.toLocaleUpperCase('tr'),",
                "    region: new Intl.DisplayNames(['en'], { type: 'region' }).of('DE'),",
                "    unit: new Intl.NumberFormat('en', { style: 'unit', unit: 'kilometer-per-hour' }).format(50),",
                "    relative: new Intl.RelativeTimeFormat('fr').format(-1, 'day'),",
                "    hebrew: at.toLocaleDateString('he-IL-u-ca-hebrew'),",
                "  };",
                "}", ""));
        RawHttp http = start(dir.resolve("intl"));
        JsonObject got = http.rows("intl", new JsonObject()).getJsonObject(0);
        assertEquals(new JsonObject()
                .put("money", "1.234,50\u00a0€")
                .put("tokyo", "1/2/2024, 9:00:00\u202fPM")
                .put("sorted", new JsonArray().add("a").add("ä").add("z"))
                .put("words", 3)
                .put("nfc", true)
                .put("turkish", "İ")
                .put("region", "Germany")
                .put("unit", "50 km/h")
                .put("relative", "il y a 1 jour")
                .put("hebrew", "21 בטבת 5784"), got);
    }

    /**
     * A start-up cache beside the project: the JVM starts again with it in the same process (JDK
     * 25 here, whose cache is {@code hyperterse.aot}; JDK 22 to 24 take {@code hyperterse.jsa}, Linux
     * and macOS). The file here is not a cache, so the new JVM says so, starts
     * without it and serves, and start tells how to make one: what this checks is that the process
     * now runs with the cache's flag, the same process the test started.
     */
    @Test
    void aStartUpCacheBesideTheProjectIsUsedWithoutAFlag() throws Exception {
        Path java = relaunchingJdk();
        Path project = RunningServer.copyExample("quickstart", dir);
        Path cache = Files.writeString(project.resolve("hyperterse.aot"), "not a cache");
        RawHttp http = start(java, project, Map.of());
        List<String> arguments = List.of(ProcessHandle.of(server.pid()).orElseThrow().info().arguments().orElseThrow());
        assertEquals("-XX:AOTCache=" + cache.toAbsolutePath(), arguments.get(0), arguments.toString());
        assertEquals(1, http.rows("get-customer", new JsonObject().put("customer_id", 1)).size());
        String logged = Files.readString(log);
        assertTrue(logged.contains("the start-up cache " + cache.toAbsolutePath() + " is not in use"), logged);
    }

    /** The README's way: aot-cache writes a cache beside the project, and a plain start maps it. */
    @Test
    void aCacheMadeByAotCacheIsMappedByAPlainStart() throws Exception {
        Path java = relaunchingJdk();
        Path project = RunningServer.copyExample("quickstart", dir);
        Path cache = project.resolve("hyperterse.aot");
        Path jar = packagedJar();
        Path trainingLog = dir.resolve("aot-cache.log");
        ProcessBuilder training = new ProcessBuilder(java.toString(), "-jar", jar.toString(), "aot-cache",
                project.toString(), "-o", cache.toString(), "--call", "get-customer={\"customer_id\":1}")
                .redirectErrorStream(true).redirectOutput(trainingLog.toFile());
        training.environment().keySet().removeAll(List.of("HYPERTERSE_AOT_CACHE", "JAVA_TOOL_OPTIONS",
                "JDK_JAVA_OPTIONS", "_JAVA_OPTIONS"));
        Process trainer = training.start();
        if (!trainer.waitFor(300, TimeUnit.SECONDS)) {
            trainer.destroyForcibly();
            fail("aot-cache did not finish within 300 s:\n" + Files.readString(trainingLog));
        }
        assertEquals(0, trainer.exitValue(), Files.readString(trainingLog));
        assertTrue(Files.size(cache) > 0, Files.readString(trainingLog));

        RawHttp http = start(java, project, Map.of());
        List<String> arguments = List.of(ProcessHandle.of(server.pid()).orElseThrow().info().arguments().orElseThrow());
        assertEquals("-XX:AOTCache=" + cache.toAbsolutePath(), arguments.get(0), arguments.toString());
        assertEquals(1, http.rows("get-customer", new JsonObject().put("customer_id", 1)).size());
        String logged = Files.readString(log);
        // start warns when the JVM was given a cache it did not map
        assertFalse(logged.contains("is not in use") || logged.contains("[error") || logged.contains("[warning]"), logged);
    }

    @Test
    void theVariableKeepsTheJvmAsStarted() throws Exception {
        Path java = relaunchingJdk();
        Path project = RunningServer.copyExample("quickstart", dir);
        Files.writeString(project.resolve("hyperterse.aot"), "not a cache");
        start(java, project, Map.of("HYPERTERSE_AOT_CACHE", "off"));
        List<String> arguments = List.of(ProcessHandle.of(server.pid()).orElseThrow().info().arguments().orElseThrow());
        assertFalse(arguments.stream().anyMatch(a -> a.startsWith("-XX:AOTCache")), arguments.toString());
        String logged = Files.readString(log);
        assertFalse(logged.contains("start-up cache"), logged);
    }

    /** A JDK 25 or later's java on Linux or macOS, where a start can start again with a cache; the test is skipped otherwise. */
    private static Path relaunchingJdk() throws IOException {
        Path java = jdk25OrLater();
        org.junit.jupiter.api.Assumptions.assumeTrue(java != null, "no JDK 25 or later here");
        String os = System.getProperty("os.name");
        org.junit.jupiter.api.Assumptions.assumeTrue(os.startsWith("Linux") || os.startsWith("Mac"), "execv replaces the process");
        return java;
    }

    /** The running JVM when it is JDK 25 or later, else the newest such under /usr/lib/jvm, else null. */
    private static Path jdk25OrLater() throws IOException {
        if (Runtime.version().feature() >= 25) {
            return Path.of(System.getProperty("java.home"), "bin", "java");
        }
        Path jvms = Path.of("/usr/lib/jvm");
        if (!Files.isDirectory(jvms)) {
            return null;
        }
        Path newest = null;
        int newestVersion = 24;
        try (var homes = Files.list(jvms)) {
            for (Path home : homes.sorted().toList()) {
                Path release = home.resolve("release");
                Path launcher = home.resolve("bin/java");
                if (!Files.isRegularFile(release) || !Files.isExecutable(launcher)) {
                    continue;
                }
                Matcher m = Pattern.compile("JAVA_VERSION=\"(\\d+)").matcher(Files.readString(release));
                if (m.find() && Integer.parseInt(m.group(1)) > newestVersion) {
                    newestVersion = Integer.parseInt(m.group(1));
                    newest = launcher;
                }
            }
        }
        return newest;
    }
}

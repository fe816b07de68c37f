package dev.hyperterse.cli;

import org.junit.jupiter.api.Test;

import java.nio.file.Path;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

class AotCacheCommandTest {

    @Test
    void jdk25AndLaterGetAnAotCacheEarlierOnesAnAppCdsArchive() {
        assertEquals("-XX:AOTCacheOutput=", AotCacheCommand.Flags.forJdk(25).write());
        assertEquals("-XX:AOTCache=", AotCacheCommand.Flags.forJdk(26).use());
        assertEquals("-XX:ArchiveClassesAtExit=", AotCacheCommand.Flags.forJdk(17).write());
        assertEquals("-XX:SharedArchiveFile=", AotCacheCommand.Flags.forJdk(21).use());
        assertEquals("hyperterse.jsa", AotCacheCommand.Flags.forJdk(17).defaultFile());
    }

    @Test
    void thePrintedCommandUsesTheCacheWithTheTrainingFlags() {
        String command = AotCacheCommand.runCommand("/opt/jdk/bin/java", AotCacheCommand.Flags.forJdk(25),
                Path.of("/srv/hyperterse.aot"), List.of("-XX:+UseSerialGC"), Path.of("/srv/hyperterse.jar"),
                Path.of("my project"));
        assertEquals("/opt/jdk/bin/java -XX:AOTCache=/srv/hyperterse.aot -XX:+UseSerialGC -jar /srv/hyperterse.jar "
                + "start 'my project'", command);
    }

    @Test
    void callsAreToolEqualsAJsonObject() {
        var calls = AotCacheCommand.parseCalls(List.of("get-user={\"id\":1}"));
        assertEquals("get-user", calls.get(0).getKey());
        assertEquals(1, calls.get(0).getValue().getInteger("id"));
        IllegalArgumentException noTool = assertThrows(IllegalArgumentException.class,
                () -> AotCacheCommand.parseCalls(List.of("{\"id\":1}")));
        assertTrue(noTool.getMessage().contains("TOOL=JSON"), noTool.getMessage());
        IllegalArgumentException notJson = assertThrows(IllegalArgumentException.class,
                () -> AotCacheCommand.parseCalls(List.of("get-user=[1]")));
        assertTrue(notJson.getMessage().startsWith("--call get-user: the inputs must be a JSON object"),
                notJson.getMessage());
    }

    @Test
    void headersAreNameEqualsValueAndOnesTheClientMaySend() {
        var headers = AotCacheCommand.parseHeaders(List.of("X-API-Key=k=1", "Authorization=Bearer abc"));
        assertEquals(List.of(java.util.Map.entry("X-API-Key", "k=1"), java.util.Map.entry("Authorization", "Bearer abc")),
                headers);
        IllegalArgumentException noValue = assertThrows(IllegalArgumentException.class,
                () -> AotCacheCommand.parseHeaders(List.of("X-API-Key")));
        assertTrue(noValue.getMessage().startsWith("--header takes NAME=VALUE"), noValue.getMessage());
        IllegalArgumentException restricted = assertThrows(IllegalArgumentException.class,
                () -> AotCacheCommand.parseHeaders(List.of("Content-Length=secret-looking")));
        assertTrue(restricted.getMessage().startsWith("--header Content-Length: not a header this client may send"),
                restricted.getMessage());
        assertTrue(!restricted.getMessage().contains("secret-looking"), "the value is never repeated");
    }

    /**
     * Every training request to /mcp carries the --header headers, so a project whose tools need
     * a key is trained with its tools found and run (without, search found none and execute said
     * "tool not found"); without headers, an empty search says how to give one.
     */
    @Test
    void trainingSendsTheHeadersWithEveryCall() throws Exception {
        List<String> keys = java.util.Collections.synchronizedList(new java.util.ArrayList<>());
        com.sun.net.httpserver.HttpServer server = com.sun.net.httpserver.HttpServer.create(
                new java.net.InetSocketAddress("127.0.0.1", 0), 0);
        server.createContext("/", exchange -> {
            if (exchange.getRequestMethod().equals("POST")) {
                keys.add(String.valueOf(exchange.getRequestHeaders().getFirst("X-API-Key")));
            }
            byte[] body = "{\"jsonrpc\":\"2.0\",\"id\":1,\"result\":{\"content\":[{\"type\":\"text\",\"text\":\"[]\"}]}}"
                    .getBytes(java.nio.charset.StandardCharsets.UTF_8);
            exchange.sendResponseHeaders(200, body.length);
            exchange.getResponseBody().write(body);
            exchange.close();
        });
        server.start();
        try {
            String url = "http://127.0.0.1:" + server.getAddress().getPort() + "/mcp";
            java.io.StringWriter err = new java.io.StringWriter();
            AotCacheCommand.exercise(url, AotCacheCommand.parseCalls(List.of("get-user={\"id\":1}")),
                    AotCacheCommand.parseHeaders(List.of("X-API-Key=k123")), new java.io.PrintWriter(err, true));
            assertEquals(AotCacheCommand.ROUNDS * 4, keys.size(), "initialize, tools/list, search, the call: " + keys);
            assertTrue(keys.stream().allMatch("k123"::equals), keys.toString());
            assertTrue(!err.toString().contains("--header"), err.toString());

            java.io.StringWriter bare = new java.io.StringWriter();
            AotCacheCommand.exercise(url, List.of(), List.of(), new java.io.PrintWriter(bare, true));
            assertTrue(bare.toString().contains("search found no tools; tools behind an auth block are hidden from a "
                    + "caller without its key: give it with --header NAME=VALUE"), bare.toString());
        } finally {
            server.stop(0);
        }
    }

    /** The training waits for the scripts' loading, which a server begins once their checks passed. */
    @Test
    void trainingWaitsForTheScriptsToLoadWhenTheProjectHasSome() throws Exception {
        java.io.StringWriter said = new java.io.StringWriter();
        java.io.PrintWriter err = new java.io.PrintWriter(said, true);
        AotCacheCommand.ScriptLines noScripts = new AotCacheCommand.ScriptLines();
        noScripts.read("12:00:00.000 INFO  HyperterseServer - serving");
        long t0 = System.nanoTime();
        AotCacheCommand.awaitScriptsLoaded(noScripts, 30, err);
        assertTrue(System.nanoTime() - t0 < 5_000_000_000L, "no scripts: nothing to wait for");

        AotCacheCommand.ScriptLines log = new AotCacheCommand.ScriptLines();
        log.read("12:00:00.100 INFO  ToolAssembly - scripts: 2 checked in 11 ms (2 unchanged since a check that passed, 0 loaded)");
        Thread later = new Thread(() -> {
            try {
                Thread.sleep(700);
            } catch (InterruptedException e) {
                return;
            }
            log.read("12:00:02.500 INFO  ScriptRuntime - scripts: 2 ready in 480 ms (loaded and warmed on 1 thread)");
        });
        t0 = System.nanoTime();
        later.start();
        AotCacheCommand.awaitScriptsLoaded(log, 30, err);
        long waited = System.nanoTime() - t0;
        assertTrue(waited >= 600_000_000L && waited < 20_000_000_000L, "waited " + waited / 1_000_000 + " ms");
        assertEquals("", said.toString());

        AotCacheCommand.ScriptLines never = new AotCacheCommand.ScriptLines();
        never.read("{\"message\":\"scripts: 1 checked in 9 ms\"}");
        AotCacheCommand.awaitScriptsLoaded(never, 1, err);
        assertTrue(said.toString().contains("the scripts were not all loaded within 1 s"), said.toString());
    }

    @Test
    void startWarnsOnlyAboutACacheTheJvmDidNotMap() {
        assertNull(StartCommand.unusedCacheWarning(List.of("-Xmx256m"), "mixed mode"), "no cache given");
        assertNull(StartCommand.unusedCacheWarning(List.of("-XX:AOTCache=/srv/h.aot"), "mixed mode, sharing"));
        String stale = StartCommand.unusedCacheWarning(List.of("-XX:AOTCache=/srv/h.aot"), "mixed mode");
        assertTrue(stale != null && stale.startsWith("the start-up cache /srv/h.aot is not in use")
                && stale.contains("aot-cache"), stale);
        String appCds = StartCommand.unusedCacheWarning(List.of("-XX:SharedArchiveFile=/srv/h.jsa"), "mixed mode");
        assertTrue(appCds != null && appCds.contains("/srv/h.jsa"), appCds);
    }

    @Test
    void startPointsToACacheLeftWhereAotCachePutsItWhenTheJvmWasNotGivenOne(@org.junit.jupiter.api.io.TempDir Path dir)
            throws Exception {
        Path project = java.nio.file.Files.createDirectories(dir.resolve("project"));
        Path jarFolder = java.nio.file.Files.createDirectories(dir.resolve("srv"));
        List<Path> folders = List.of(project, jarFolder);
        assertNull(hint(List.of("-Xmx256m"), folders, null, 25), "no cache anywhere");
        java.nio.file.Files.writeString(jarFolder.resolve("hyperterse.aot"), "x");
        String hint = hint(List.of("-Xmx256m"), folders, null, 25);
        assertTrue(hint != null && hint.contains("-XX:AOTCache=" + jarFolder.resolve("hyperterse.aot")), hint);
        assertNull(hint(List.of("-XX:AOTCache=/elsewhere.aot"), folders, null, 25),
                "the JVM was given a cache (whether it maps it is the other warning's business)");
        assertNull(hint(List.of(), folders, null, 21), "JDK 21 uses an AppCDS archive, not this file");
        java.nio.file.Files.writeString(project.resolve("hyperterse.jsa"), "x");
        String appCds = hint(List.of(), folders, null, 21);
        assertTrue(appCds != null && appCds.contains("-XX:SharedArchiveFile=" + project.resolve("hyperterse.jsa")), appCds);
        // a jar built after the cache: the cache is for an earlier build
        Path jar = java.nio.file.Files.writeString(jarFolder.resolve("hyperterse.jar"), "jar");
        java.nio.file.Files.setLastModifiedTime(jarFolder.resolve("hyperterse.aot"),
                java.nio.file.attribute.FileTime.fromMillis(System.currentTimeMillis() - 60_000));
        String stale = hint(List.of(), folders, jar, 25);
        assertTrue(stale != null && stale.startsWith("the start-up cache " + jarFolder.resolve("hyperterse.aot")
                + " is older than the jar") && stale.contains("aot-cache"), stale);
        // HYPERTERSE_AOT_CACHE names the cache, or turns the hint off with the cache's use
        Path named = java.nio.file.Files.writeString(dir.resolve("elsewhere.aot"), "x");
        AotCacheCommand.Flags flags = AotCacheCommand.Flags.forJdk(25);
        String namedHint = StartCommand.cacheNotGivenHint(List.of(), CacheRelaunch.cache(named.toString(), flags, folders),
                null, flags);
        assertTrue(namedHint != null && namedHint.contains("-XX:AOTCache=" + named), namedHint);
        assertNull(StartCommand.cacheNotGivenHint(List.of(), CacheRelaunch.cache("off", flags, folders), null, flags));
    }

    /** The hint for the cache a start finds in {@code folders} (no HYPERTERSE_AOT_CACHE). */
    private static String hint(List<String> jvmArguments, List<Path> folders, Path jar, int jdk) {
        AotCacheCommand.Flags flags = AotCacheCommand.Flags.forJdk(jdk);
        return StartCommand.cacheNotGivenHint(jvmArguments, CacheRelaunch.cache("", flags, folders), jar, flags);
    }
}

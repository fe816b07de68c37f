package dev.hyperterse.server;

import com.hazelcast.core.Hazelcast;
import com.hazelcast.core.HazelcastInstance;
import dev.hyperterse.auth.AuthPlugins;
import dev.hyperterse.connector.Connectors;
import dev.hyperterse.model.ServerSettings;
import dev.hyperterse.project.Project;
import dev.hyperterse.project.ProjectCompiler;
import dev.hyperterse.testing.RawHttp;
import dev.hyperterse.testing.RunningServer;
import io.vertx.core.Vertx;
import io.vertx.core.VertxOptions;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.net.ServerSocket;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Three clustered nodes in this JVM on loopback, each serving the same project from its own
 * database file: sessions live in the cluster, invalidations reach every node.
 */
class ClusterTest {
    @TempDir
    Path dir;
    final List<Node> nodes = new ArrayList<>();

    record Node(HazelcastInstance hazelcast, Vertx vertx, HyperterseServer server, RawHttp http) {
    }

    @AfterEach
    void stop() throws Exception {
        for (Node n : nodes) {
            try {
                n.server().close().toCompletionStage().toCompletableFuture().get(20, TimeUnit.SECONDS);
            } catch (Exception ignored) {
                // a killed node's server cannot close cleanly
            }
            n.vertx().close().toCompletionStage().toCompletableFuture().get(20, TimeUnit.SECONDS);
            if (n.hazelcast().getLifecycleService().isRunning()) {
                n.hazelcast().shutdown();
            }
        }
    }

    Path project(String name) throws Exception {
        Path p = dir.resolve(name);
        if (Files.exists(p.resolve(".hyperterse"))) {
            return p;
        }
        Files.createDirectories(p);
        Files.writeString(p.resolve(".hyperterse"), "name: clustered\ntools:\n  cache:\n    enabled: true\n    ttl: 300\n");
        Files.createDirectories(p.resolve("app/adapters"));
        Files.writeString(p.resolve("schema.sql"), "CREATE TABLE counters (id INTEGER PRIMARY KEY, n INTEGER);\n"
                + "INSERT INTO counters VALUES (1, 0);\n");
        Files.writeString(p.resolve("app/adapters/db.terse"),
                "connector: sqlite\nconnection_string: 'sqlite:data/c.db'\noptions:\n  init_sql: schema.sql\n");
        RunningServer.writeTool(p, "get-counter", "use: db\nstatement: SELECT n FROM counters WHERE id = 1\n");
        RunningServer.writeTool(p, "get-counter-fresh", "use: db\nstatement: SELECT n FROM counters WHERE id = 1\ncache:\n  enabled: false\n");
        RunningServer.writeTool(p, "bump", "use: db\nstatement: UPDATE counters SET n = n + 1 WHERE id = 1\n"
                + "cache:\n  enabled: false\ninvalidates: [get-counter]\n");
        RunningServer.writeTool(p, "bump-quietly", "use: db\nstatement: UPDATE counters SET n = n + 1 WHERE id = 1\n"
                + "cache:\n  enabled: false\n");
        RunningServer.writeTool(p, "slow-count", "use: db\ntimeout: 20s\ncache:\n  enabled: false\nstatement: '"
                + "WITH RECURSIVE c(x) AS (SELECT 1 UNION ALL SELECT x + 1 FROM c) SELECT count(*) AS n FROM c'\n");
        return p;
    }

    Node start(String cluster, int port, String projectName) throws Exception {
        return start(cluster, port, projectName, null);
    }

    /** @param watch null: no reloads; zero: reloads when told (no watcher); else the watch interval */
    Node start(String cluster, int port, String projectName, java.time.Duration watch) throws Exception {
        ClusterOptions options = new ClusterOptions(cluster, "127.0.0.1", port,
                List.of("127.0.0.1:" + port, "127.0.0.1:" + (port + 1), "127.0.0.1:" + (port + 2)), false, null);
        HazelcastInstance hz = Hazelcast.newHazelcastInstance(Clustering.hazelcastConfig(options));
        Vertx vertx = Clustering.start(new VertxOptions(), hz, "127.0.0.1")
                .toCompletionStage().toCompletableFuture().get(60, TimeUnit.SECONDS);
        Connectors connectors = Connectors.builtIn();
        AuthPlugins auth = AuthPlugins.builtIn();
        Project p = new ProjectCompiler(Map.of(), connectors.types(), auth.names()).compile(project(projectName));
        Path folder = p.config().folders().projectDir();
        ServeOptions serve = watch == null ? ServeOptions.DEFAULTS : ServeOptions.DEFAULTS.withReloads(
                () -> new ProjectCompiler(Map.of(), connectors.types(), auth.names()).compile(folder),
                watch.isZero() ? null : watch);
        ServerSettings settings = p.config().server().toBuilder()
                .timeouts(t -> t.progressInterval(java.time.Duration.ofMillis(50))).build();
        HyperterseServer server = HyperterseServer.start(vertx, p, settings, 0, connectors, auth, serve)
                .toCompletionStage().toCompletableFuture().get(60, TimeUnit.SECONDS);
        Node node = new Node(hz, vertx, server, new RawHttp("http://127.0.0.1:" + server.port()));
        nodes.add(node);
        return node;
    }

    static int freePortBlock() throws Exception {
        try (ServerSocket s = new ServerSocket(0)) {
            return 20000 + (s.getLocalPort() % 20000);
        }
    }

    static JsonObject call(Node node, String session, String tool) throws Exception {
        JsonObject request = RawHttp.request(UUID.randomUUID().toString(), "tools/call", new JsonObject()
                .put("name", "execute").put("arguments", new JsonObject().put("tool", tool).put("inputs", new JsonObject())));
        HttpResponse<String> r = session == null ? node.http().mcp(request)
                : node.http().mcp(request, "Mcp-Session-Id", session);
        assertEquals(200, r.statusCode(), r.body());
        return new JsonObject(r.body());
    }

    static int counter(Node node) throws Exception {
        JsonObject body = call(node, null, "get-counter");
        return new JsonArray(body.getJsonObject("result").getJsonArray("content").getJsonObject(0).getString("text"))
                .getJsonObject(0).getInteger("n");
    }

    static int fresh(Node node) throws Exception {
        JsonObject body = call(node, null, "get-counter-fresh");
        return new JsonArray(body.getJsonObject("result").getJsonArray("content").getJsonObject(0).getString("text"))
                .getJsonObject(0).getInteger("n");
    }

    /** A call on node A with progress, so its stream shows it is running. */
    static dev.hyperterse.testing.SseStream slowCall(Node node, String session, String id) throws Exception {
        JsonObject request = RawHttp.execute(id, "slow-count", new JsonObject());
        request.getJsonObject("params").put("_meta", new JsonObject().put("progressToken", id));
        dev.hyperterse.testing.SseStream stream = node.http().mcpStream(request, "Mcp-Session-Id", session);
        java.time.Duration wait = java.time.Duration.ofSeconds(10);
        assertTrue(stream.next(wait).priming());
        assertEquals("notifications/progress", stream.next(wait).json().getString("method"), "the statement runs");
        return stream;
    }

    /** The stream ends within the time given, with nothing but progress: the call was cut, unanswered. */
    static void endsUnanswered(dev.hyperterse.testing.SseStream stream) throws Exception {
        for (dev.hyperterse.testing.SseStream.Event e : stream.rest(java.time.Duration.ofSeconds(10))) {
            assertEquals("notifications/progress", e.json().getString("method"), "no response after the cut: " + e);
        }
    }

    @Test
    void aCancelOrADeleteSentToAnotherNodeReachesTheCall() throws Exception {
        String cluster = "hyperterse-test-" + UUID.randomUUID();
        int port = freePortBlock();
        Node a = start(cluster, port, "a");
        Node b = start(cluster, port, "b");
        String session = a.http().mcp(RawHttp.initialize("2025-11-25")).headers().firstValue("mcp-session-id").orElseThrow();

        // the load balancer sends the cancellation to B; the 20 s statement runs on A
        dev.hyperterse.testing.SseStream first = slowCall(a, session, "slow-1");
        assertEquals(202, b.http().mcp(RawHttp.notification("notifications/cancelled",
                new JsonObject().put("requestId", "slow-1")), "Mcp-Session-Id", session).statusCode());
        endsUnanswered(first);

        // a DELETE on B ends the session's streams and calls on A at once
        dev.hyperterse.testing.SseStream second = slowCall(a, session, "slow-2");
        assertEquals(200, b.http().send("DELETE", "/mcp", "Mcp-Session-Id", session).statusCode());
        endsUnanswered(second);
        assertEquals(404, a.http().mcp(RawHttp.request(3, "ping", null), "Mcp-Session-Id", session).statusCode());
    }

    @Test
    void aGetStreamEndedByADrainingNodeResumesOnAnotherNode() throws Exception {
        String cluster = "hyperterse-test-" + UUID.randomUUID();
        int port = freePortBlock();
        Node a = start(cluster, port, "a");
        Node b = start(cluster, port, "b");
        HttpResponse<String> init = a.http().mcp(RawHttp.initialize("2025-11-25"));
        String session = init.headers().firstValue("mcp-session-id").orElseThrow();
        java.time.Duration wait = java.time.Duration.ofSeconds(10);
        try (dev.hyperterse.testing.SseStream onA = a.http().listen(session, null)) {
            dev.hyperterse.testing.SseStream.Event priming = onA.next(wait);
            assertTrue(priming.priming(), "2025-11-25 streams start with an id to resume from");
            a.server().shutdown(java.time.Duration.ofMillis(300), java.time.Duration.ofSeconds(5))
                    .toCompletionStage().toCompletableFuture().get(20, TimeUnit.SECONDS);
            assertEquals(null, onA.nextMessage(wait), "A ended the stream when it stopped");
            // the client reconnects as SSE says, with the last id it saw; the balancer sends it to B
            try (dev.hyperterse.testing.SseStream onB = b.http().listen(session, priming.id())) {
                assertEquals(200, onB.status(), "B opens a new GET stream for the session");
                b.server().mcp().notify(session, RawHttp.notification("notifications/message",
                        new JsonObject().put("level", "info").put("data", "after the move")));
                assertEquals("after the move", onB.nextMessage(wait).json().getJsonObject("params").getString("data"));
            }
        }
    }

    @Test
    void sessionsOutliveTheNodeThatCreatedThem() throws Exception {
        String cluster = "hyperterse-test-" + UUID.randomUUID();
        int port = freePortBlock();
        Node a = start(cluster, port, "a");
        Node b = start(cluster, port, "b");
        Node c = start(cluster, port, "c");
        assertEquals(3, a.hazelcast().getCluster().getMembers().size());

        HttpResponse<String> init = a.http().mcp(RawHttp.initialize("2025-11-25"));
        String session = init.headers().firstValue("mcp-session-id").orElseThrow();
        HttpResponse<String> ping = b.http().mcp(RawHttp.request(1, "ping", null), "Mcp-Session-Id", session);
        assertEquals(200, ping.statusCode(), "a session created on A works on B");

        a.hazelcast().getLifecycleService().terminate(); // A dies without saying goodbye
        for (Node survivor : List.of(b, c)) {
            HttpResponse<String> during = survivor.http().mcp(RawHttp.request(9, "ping", null), "Mcp-Session-Id", session);
            assertEquals(200, during.statusCode(), "the session answers even before the cluster noticed A is gone");
        }
        // Once the survivors noticed and promoted A's backups, the map is consistent again: from
        // then on an ended session is gone everywhere at once.
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
        while (!(b.hazelcast().getCluster().getMembers().size() == 2 && c.hazelcast().getCluster().getMembers().size() == 2
                && b.hazelcast().getPartitionService().isClusterSafe()) && System.nanoTime() < deadline) {
            Thread.sleep(100);
        }
        assertEquals(2, b.hazelcast().getCluster().getMembers().size());
        for (Node survivor : List.of(b, c)) {
            HttpResponse<String> again = survivor.http().mcp(RawHttp.request(2, "ping", null), "Mcp-Session-Id", session);
            assertEquals(200, again.statusCode(), "the session survives A");
        }
        assertEquals(200, c.http().send("DELETE", "/mcp", "Mcp-Session-Id", session).statusCode());
        assertEquals(404, b.http().mcp(RawHttp.request(3, "ping", null), "Mcp-Session-Id", session).statusCode(),
                "a session ended on C is gone on B");
    }

    @Test
    void anInvalidationOnOneNodeClearsTheOthers() throws Exception {
        String cluster = "hyperterse-test-" + UUID.randomUUID();
        int port = freePortBlock();
        // both nodes serve one project on one database, as a real deployment does
        Node a = start(cluster, port, "shared");
        Node b = start(cluster, port, "shared");
        assertEquals(0, counter(b));
        assertEquals(0, counter(a));
        // each node caches its own results: a write that invalidates nothing leaves B answering
        // its cached 0 while the table says 1
        call(a, null, "bump-quietly");
        assertEquals(0, counter(b), "B answers from its own cache");
        assertEquals(1, fresh(b), "the table holds 1");
        call(a, null, "bump");
        assertEquals(2, counter(a), "A dropped its own entry");
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
        int seen = counter(b);
        while (seen != 2 && System.nanoTime() < deadline) {
            Thread.sleep(50);
            seen = counter(b);
        }
        assertEquals(2, seen, "B's cached 0 was dropped by A's invalidation (its TTL is 300 s)");
    }

    @Test
    void aSubscriptionTakenOnOneNodeIsHonouredByTheNodeHoldingTheStream() throws Exception {
        String cluster = "hyperterse-test-" + UUID.randomUUID();
        int port = freePortBlock();
        Path notes = Files.createDirectories(project("watched").resolve("app/resources/notes"));
        Files.writeString(notes.resolve("config.terse"), "uri: docs://notes\ntext: 'first'\n");
        Node a = start(cluster, port, "watched", java.time.Duration.ofMillis(200));
        Node b = start(cluster, port, "watched", java.time.Duration.ZERO); // reloads only when told
        String session = a.http().session("2025-11-25");
        HttpResponse<String> subscribed = b.http().mcp(RawHttp.request(1, "resources/subscribe",
                new JsonObject().put("uri", "docs://notes")), "Mcp-Session-Id", session, "MCP-Protocol-Version", "2025-11-25");
        assertEquals(200, subscribed.statusCode(), subscribed.body());
        assertEquals(new JsonObject(), new JsonObject(subscribed.body()).getJsonObject("result"), subscribed.body());
        try (dev.hyperterse.testing.SseStream stream = a.http().listen(session, null)) {
            assertEquals(200, stream.status());
            Files.writeString(notes.resolve("config.terse"), "uri: docs://notes\ntext: 'second'\n");
            JsonObject updated = stream.nextMessage(java.time.Duration.ofSeconds(20)).json();
            assertEquals("notifications/resources/updated", updated.getString("method"), updated.encode());
            assertEquals("docs://notes", updated.getJsonObject("params").getString("uri"));
        }
    }

    @Test
    void aReloadOnOneNodeReachesTheOthers() throws Exception {
        String cluster = "hyperterse-test-" + UUID.randomUUID();
        int port = freePortBlock();
        Node a = start(cluster, port, "shared", java.time.Duration.ofMillis(200));
        Node b = start(cluster, port, "shared", java.time.Duration.ZERO); // reloads only when told
        Path tool = Files.createDirectories(dir.resolve("shared/app/tools/get-two"));
        Files.writeString(tool.resolve("config.terse"), "use: db\nstatement: SELECT 2 AS two\n");
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
        JsonObject answer = call(b, null, "get-two");
        // until B reloads, the tool is not found: an isError result
        while ((answer.containsKey("error") || answer.getJsonObject("result").containsKey("isError"))
                && System.nanoTime() < deadline) {
            Thread.sleep(100);
            answer = call(b, null, "get-two");
        }
        assertEquals("[{\"two\":2}]", answer.getJsonObject("result").getJsonArray("content").getJsonObject(0)
                .getString("text"), "B serves the tool A's watcher found: " + answer);
    }
    // ---- what clients hear of a change, whichever node took it ----

    /** A 2026-07-28 request with its _meta and headers, as a conformant client sends it. */
    static dev.hyperterse.testing.SseStream listen(Node node, String id, JsonObject filter) throws Exception {
        JsonObject meta = new JsonObject().put("io.modelcontextprotocol/protocolVersion", "2026-07-28")
                .put("io.modelcontextprotocol/clientInfo", new JsonObject().put("name", "test").put("version", "1"))
                .put("io.modelcontextprotocol/clientCapabilities", new JsonObject());
        JsonObject request = RawHttp.request(id, "subscriptions/listen",
                new JsonObject().put("_meta", meta).put("notifications", filter));
        return node.http().mcpStream(request, "MCP-Protocol-Version", "2026-07-28", "Mcp-Method", "subscriptions/listen");
    }

    /** The methods (with the resource's URI for an update) a stream carries until it is quiet for {@code quiet}. */
    static List<String> heard(dev.hyperterse.testing.SseStream stream, java.time.Duration first, java.time.Duration quiet)
            throws Exception {
        List<String> methods = new ArrayList<>();
        dev.hyperterse.testing.SseStream.Event e = stream.nextMessage(first);
        while (e != null) {
            if (e.data() != null && !e.data().isEmpty()) {
                JsonObject m = e.json();
                JsonObject params = m.getJsonObject("params", new JsonObject());
                methods.add(m.getString("method") + (params.containsKey("uri") ? " " + params.getString("uri") : ""));
            }
            e = stream.silentFor(quiet) ? null : stream.next(quiet);
        }
        return methods;
    }

    Path withNotes(String name) throws Exception {
        Path notes = Files.createDirectories(project(name).resolve("app/resources/notes"));
        Files.writeString(notes.resolve("config.terse"), "uri: docs://notes\ntext: 'first'\n");
        return project(name);
    }

    static void change(Path project) throws Exception {
        RunningServer.writeTool(project, "get-two", "use: db\nstatement: SELECT 2 AS two\n");
        Files.writeString(project.resolve("app/resources/notes/config.terse"), "uri: docs://notes\ntext: 'second'\n");
    }

    /**
     * Node A's copy of the project changes; node B's copy does not (yet): a ConfigMap that reaches
     * nodes at different times, or a project edited on one machine. B's clients, of both
     * generations, still hear of the change A took, once, and A's clients hear of it once too.
     */
    @Test
    void clientsOfEveryNodeHearOfAChangeOneNodeTook() throws Exception {
        String cluster = "hyperterse-test-" + UUID.randomUUID();
        int port = freePortBlock();
        Path onA = withNotes("copy-a");
        withNotes("copy-b");
        Node a = start(cluster, port, "copy-a", java.time.Duration.ofMillis(200));
        Node b = start(cluster, port, "copy-b", java.time.Duration.ZERO); // reloads only when told
        java.time.Duration wait = java.time.Duration.ofSeconds(20);
        java.time.Duration quiet = java.time.Duration.ofSeconds(2);
        String onB = b.http().session("2025-11-25");
        String stayOnA = a.http().session("2025-11-25");
        for (String session : List.of(onB, stayOnA)) {
            HttpResponse<String> subscribed = b.http().mcp(RawHttp.request(1, "resources/subscribe",
                            new JsonObject().put("uri", "docs://notes")), "Mcp-Session-Id", session,
                    "MCP-Protocol-Version", "2025-11-25");
            assertEquals(200, subscribed.statusCode(), subscribed.body());
        }
        JsonObject everything = new JsonObject().put("toolsListChanged", true).put("promptsListChanged", true)
                .put("resourcesListChanged", true).put("resourceSubscriptions", new JsonArray().add("docs://notes").add("docs://none"));
        try (dev.hyperterse.testing.SseStream sessionB = b.http().listen(onB, null);
             dev.hyperterse.testing.SseStream sessionA = a.http().listen(stayOnA, null);
             dev.hyperterse.testing.SseStream listenB = listen(b, "sub-b", everything)) {
            JsonObject ack = listenB.nextMessage(wait).json();
            assertEquals("notifications/subscriptions/acknowledged", ack.getString("method"));
            assertEquals(new JsonObject().put("toolsListChanged", true).put("resourcesListChanged", true)
                            .put("resourceSubscriptions", new JsonArray().add("docs://notes")),
                    ack.getJsonObject("params").getJsonObject("notifications"),
                    "no prompts in the project, and no resource docs://none: neither is promised");

            change(onA);
            List<String> expected = List.of("notifications/tools/list_changed", "notifications/resources/updated docs://notes");
            assertEquals(expected, heard(sessionB, wait, quiet), "B's session hears of A's change once");
            assertEquals(expected, heard(listenB, wait, quiet), "B's listen stream hears of A's change once");
            assertEquals(expected, heard(sessionA, wait, quiet), "A tells its own clients once");
        }
    }

    /**
     * Both nodes serve one copy (a shared volume): B reloads the change itself and hears of it from
     * A; its clients are told once.
     */
    @Test
    void aChangeBothNodesReloadedIsAnnouncedOnce() throws Exception {
        String cluster = "hyperterse-test-" + UUID.randomUUID();
        int port = freePortBlock();
        Path shared = withNotes("one-copy");
        Node a = start(cluster, port, "one-copy", java.time.Duration.ofMillis(200));
        Node b = start(cluster, port, "one-copy", java.time.Duration.ZERO);
        try (dev.hyperterse.testing.SseStream listenB = listen(b, "sub-b", new JsonObject().put("toolsListChanged", true)
                .put("resourceSubscriptions", new JsonArray().add("docs://notes")))) {
            assertEquals("notifications/subscriptions/acknowledged",
                    listenB.nextMessage(java.time.Duration.ofSeconds(20)).json().getString("method"));
            change(shared);
            assertEquals(List.of("notifications/tools/list_changed", "notifications/resources/updated docs://notes"),
                    heard(listenB, java.time.Duration.ofSeconds(20), java.time.Duration.ofSeconds(3)));
            assertEquals(1, call(b, null, "get-two").getJsonObject("result").getJsonArray("content").size(),
                    "B serves the new tool: it reloaded the change itself");
        }
    }
}

package dev.hyperterse.server;

import com.hazelcast.core.Hazelcast;
import com.hazelcast.core.HazelcastInstance;
import dev.hyperterse.auth.AuthPlugins;
import dev.hyperterse.connector.Connectors;
import dev.hyperterse.project.Project;
import dev.hyperterse.project.ProjectCompiler;
import dev.hyperterse.testing.RawHttp;
import dev.hyperterse.testing.RunningServer;
import io.vertx.core.Vertx;
import io.vertx.core.VertxOptions;
import io.vertx.core.json.JsonObject;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Two clustered nodes answer the requests of one 2026-07-28 conversation in turn: nothing is kept
 * per client, and the input round one node opens (a sealed confirmation state) is finished on the
 * other, because the nodes agree on the sealing key through the cluster, and runs its call once
 * across the cluster.
 */
class StatelessClusterTest {
    @TempDir
    Path dir;
    final List<Runnable> stops = new ArrayList<>();

    @AfterEach
    void stop() {
        stops.forEach(Runnable::run);
    }

    RawHttp start(int port, Path project) throws Exception {
        ClusterOptions options = new ClusterOptions("stateless-" + port / 10, "127.0.0.1", port,
                List.of("127.0.0.1:" + (port - port % 10), "127.0.0.1:" + (port - port % 10 + 1)), false, null);
        HazelcastInstance hz = Hazelcast.newHazelcastInstance(Clustering.hazelcastConfig(options));
        Vertx vertx = Clustering.start(new VertxOptions(), hz, "127.0.0.1")
                .toCompletionStage().toCompletableFuture().get(60, TimeUnit.SECONDS);
        Connectors connectors = Connectors.builtIn();
        AuthPlugins auth = AuthPlugins.builtIn();
        Project p = new ProjectCompiler(Map.of(), connectors.types(), auth.names()).compile(project);
        HyperterseServer server = HyperterseServer.start(vertx, p, p.config().server(), 0, connectors, auth,
                ServeOptions.DEFAULTS).toCompletionStage().toCompletableFuture().get(60, TimeUnit.SECONDS);
        stops.add(() -> {
            try {
                server.close().toCompletionStage().toCompletableFuture().get(20, TimeUnit.SECONDS);
                vertx.close().toCompletionStage().toCompletableFuture().get(20, TimeUnit.SECONDS);
            } catch (Exception ignored) {
                // best effort: the next node still shuts down
            }
            hz.shutdown();
        });
        return new RawHttp("http://127.0.0.1:" + server.port());
    }

    static HttpResponse<String> send(RawHttp node, JsonObject message) throws Exception {
        return node.mcp(message, McpStatelessTest.headers(message));
    }

    @Test
    void twoNodesAnswerOneConversationInTurn() throws Exception {
        int base = (ClusterTest.freePortBlock() / 10) * 10;
        Path a = RunningServer.copyExample("quickstart", dir.resolve("a"));
        Path b = RunningServer.copyExample("quickstart", dir.resolve("b"));
        String confirmTool = "description: 'How many customers there are'\nuse: shop\n"
                + "statement: SELECT count(*) AS n FROM customers\nconfirm: true\n";
        RunningServer.writeTool(a, "count-customers", confirmTool);
        RunningServer.writeTool(b, "count-customers", confirmTool);
        RawHttp nodeA = start(base, a);
        RawHttp nodeB = start(base + 1, b);

        JsonObject discover = McpStatelessTest.request(1, "server/discover",
                new JsonObject().put("_meta", McpStatelessTest.meta(new JsonObject())));
        assertEquals(200, send(nodeA, discover).statusCode());
        JsonObject list = McpStatelessTest.request(2, "tools/list",
                new JsonObject().put("_meta", McpStatelessTest.meta(new JsonObject())));
        assertEquals(2, McpStatelessTest.result(send(nodeB, list)).getJsonArray("tools").size());

        JsonObject first = McpStatelessTest.call(3, "execute", new JsonObject().put("tool", "count-customers")
                .put("inputs", new JsonObject()), McpStatelessTest.ELICITATION);
        JsonObject asked = McpStatelessTest.result(send(nodeA, first));
        assertEquals("input_required", asked.getString("resultType"));
        String state = asked.getString("requestState");
        assertNotNull(state);

        JsonObject accept = new JsonObject().put("action", "accept").put("content", new JsonObject().put("confirm", true));
        JsonObject ran = McpStatelessTest.result(send(nodeB, McpStatelessTest.retry(first, accept, state)));
        assertEquals("complete", ran.getString("resultType"), "node B verified the state node A sealed: " + ran);
        assertTrue(ran.getJsonArray("content").getJsonObject(0).getString("text").contains("\"n\":"));

        HttpResponse<String> tampered = send(nodeB, McpStatelessTest.retry(first, accept, state + "x"));
        McpStatelessTest.assertError(tampered, 200, 3, -32602);
        // and back on node A, the same state opens but was spent on node B: the user is asked again
        JsonObject again = McpStatelessTest.result(send(nodeA, McpStatelessTest.retry(first, accept, state)));
        assertEquals("input_required", again.getString("resultType"), again.encode());
        // a fresh confirmation runs on node A
        JsonObject rerun = McpStatelessTest.result(send(nodeA, McpStatelessTest.retry(first, accept,
                again.getString("requestState"))));
        assertEquals("complete", rerun.getString("resultType"), rerun.encode());
    }
}

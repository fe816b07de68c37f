package dev.hyperterse.mcp.session;

import dev.hyperterse.mcp.CallScope;
import dev.hyperterse.mcp.McpException;
import io.vertx.core.Context;
import io.vertx.core.Future;
import io.vertx.core.Vertx;
import io.vertx.core.json.JsonObject;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.function.Supplier;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The server's requests to a session's client, without HTTP: what is sent on the call's stream,
 * which answers complete them and on which context, and the bounds (declared capabilities, at most
 * {@link ClientRequests#MAX_PENDING} open per session, the answer time, the call's end).
 */
class SessionClientTest {
    private static final Vertx vertx = Vertx.vertx();
    private static final Session SAMPLING_ONLY = Session.created("s", "2025-11-25", Instant.EPOCH)
            .withClientCapabilities(List.of("sampling"));

    @AfterAll
    static void close() {
        vertx.close();
    }

    /** A call's client: what it sends lands in {@code sent}; requests start on {@code context}, as a call's do. */
    private record Call(SessionClient client, List<JsonObject> sent, Context context) {
        static Call of(ClientRequests open, Duration answerWithin) {
            List<JsonObject> sent = new CopyOnWriteArrayList<>();
            return new Call(new SessionClient(vertx, SAMPLING_ONLY, open, sent::add, answerWithin), sent,
                    vertx.getOrCreateContext());
        }

        Future<JsonObject> request(String method, JsonObject params) throws Exception {
            return onContext(() -> client.request(method, params));
        }

        <T> T onContext(Supplier<T> work) throws Exception {
            CompletableFuture<T> done = new CompletableFuture<>();
            context.runOnContext(v -> done.complete(work.get()));
            return done.get(5, TimeUnit.SECONDS);
        }

        Object lastId() {
            return sent.get(sent.size() - 1).getValue("id");
        }
    }

    private static <T> T await(Future<T> future) throws Exception {
        return future.toCompletionStage().toCompletableFuture().get(5, TimeUnit.SECONDS);
    }

    private static Throwable failure(Future<?> future) {
        ExecutionException e = assertThrows(ExecutionException.class, () -> await(future));
        return e.getCause();
    }

    private static JsonObject response(Object id, JsonObject result) {
        return new JsonObject().put("jsonrpc", "2.0").put("id", id).put("result", result);
    }

    @Test
    void aRequestTravelsOnTheCallsStreamAndItsResultCompletesOnTheCallsContext() throws Exception {
        ClientRequests open = new ClientRequests();
        Call call = Call.of(open, Duration.ofMinutes(1));
        JsonObject params = new JsonObject().put("maxTokens", 100);
        Future<JsonObject> asked = call.request("sampling/createMessage", params);

        assertEquals(1, call.sent().size());
        JsonObject request = call.sent().get(0);
        assertEquals("2.0", request.getString("jsonrpc"));
        assertEquals("sampling/createMessage", request.getString("method"));
        assertEquals(params, request.getJsonObject("params"));
        assertTrue(request.getString("id").startsWith("hyperterse-"), request.encode());
        assertFalse(asked.isComplete());

        CompletableFuture<Context> completedOn = new CompletableFuture<>();
        asked.onComplete(ar -> completedOn.complete(Vertx.currentContext()));
        // the response comes in on a thread of its own (another connection, the event bus)
        JsonObject result = new JsonObject().put("role", "assistant").put("model", "m");
        assertTrue(open.answered(request.getValue("id"), response(request.getValue("id"), result)));
        assertEquals(result, await(asked));
        assertSame(call.context(), completedOn.get(5, TimeUnit.SECONDS), "the call continues on its own context");
        assertFalse(open.answered(request.getValue("id"), response(request.getValue("id"), result)), "answered once");
    }

    @Test
    void aMethodWhoseCapabilityTheClientDidNotDeclareIsNotSent() throws Exception {
        Call call = Call.of(new ClientRequests(), Duration.ofMinutes(1));
        Throwable refused = failure(call.request("elicitation/create", new JsonObject()));
        assertInstanceOf(McpException.class, refused);
        assertEquals("cannot send elicitation/create to the client: it did not declare the 'elicitation' capability"
                + " at initialize", refused.getMessage());
        assertTrue(failure(call.request("roots/list", null)).getMessage().contains("'roots' capability"));
        assertTrue(call.sent().isEmpty());

        call.request("ping", null);
        assertEquals("ping", call.sent().get(0).getString("method"), "ping needs no capability");
        assertEquals(new JsonObject(), call.sent().get(0).getJsonObject("params"));
    }

    @Test
    void anErrorResponseFailsTheRequestWithTheClientsCodeAndMessage() throws Exception {
        ClientRequests open = new ClientRequests();
        Call call = Call.of(open, Duration.ofMinutes(1));
        Future<JsonObject> asked = call.request("sampling/createMessage", new JsonObject());
        Object id = call.lastId();
        open.answered(id, new JsonObject().put("jsonrpc", "2.0").put("id", id)
                .put("error", new JsonObject().put("code", -1).put("message", "User rejected sampling request")));
        Throwable failed = failure(asked);
        assertInstanceOf(CallScope.NoAnswer.class, failed);
        assertEquals("sampling/createMessage", ((CallScope.NoAnswer) failed).method());
        assertEquals("sampling/createMessage: the client answered with error -1: User rejected sampling request",
                failed.getMessage());
    }

    @Test
    void aRequestNotAnsweredInTimeIsForgotten() throws Exception {
        ClientRequests open = new ClientRequests();
        Call call = Call.of(open, Duration.ofMillis(100));
        Future<JsonObject> asked = call.request("sampling/createMessage", new JsonObject());
        Throwable failed = failure(asked);
        assertInstanceOf(CallScope.NoAnswer.class, failed);
        assertEquals("sampling/createMessage: no answer within 100 ms", failed.getMessage());
        Object id = call.lastId();
        assertFalse(open.answered(id, response(id, new JsonObject())), "a late answer finds no one waiting");
    }

    @Test
    void theCallsEndForgetsItsRequestsAndSendsNoMore() throws Exception {
        ClientRequests open = new ClientRequests();
        Call call = Call.of(open, Duration.ofMinutes(1));
        Future<JsonObject> asked = call.request("sampling/createMessage", new JsonObject());
        Object id = call.lastId();
        call.client().ended("the call was cancelled");
        assertEquals("sampling/createMessage: the call was cancelled", failure(asked).getMessage());
        assertFalse(open.answered(id, response(id, new JsonObject())));

        Throwable after = failure(call.request("sampling/createMessage", new JsonObject()));
        assertInstanceOf(CallScope.NoAnswer.class, after);
        assertEquals(1, call.sent().size(), "nothing is sent after the call ended");
    }

    @Test
    void atMostMaxPendingRequestsAwaitAnswersPerSession() throws Exception {
        ClientRequests open = new ClientRequests();
        Call first = Call.of(open, Duration.ofMinutes(1));
        Call second = Call.of(open, Duration.ofMinutes(1));
        for (int i = 0; i < ClientRequests.MAX_PENDING; i++) {
            first.request("sampling/createMessage", new JsonObject());
        }
        Throwable refused = failure(second.request("sampling/createMessage", new JsonObject()));
        assertInstanceOf(McpException.class, refused, "the session's bound holds across its calls");
        assertEquals("cannot send sampling/createMessage to the client: 16 requests to it await answers in this"
                + " session already; answer them first", refused.getMessage());
        assertTrue(second.sent().isEmpty());

        Object id = first.lastId();
        open.answered(id, response(id, new JsonObject()));
        Future<JsonObject> next = second.request("sampling/createMessage", new JsonObject());
        assertEquals(1, second.sent().size(), "an answer frees a place");
        first.client().ended("the call ended before the client answered");
        Object nextId = second.lastId();
        assertTrue(open.answered(nextId, response(nextId, new JsonObject().put("ok", true))),
                "one call's end forgets only its own requests");
        assertEquals(new JsonObject().put("ok", true), await(next));
    }
}

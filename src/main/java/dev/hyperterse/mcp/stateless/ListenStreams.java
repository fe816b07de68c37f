package dev.hyperterse.mcp.stateless;

import dev.hyperterse.mcp.SseKeepAlive;
import io.vertx.core.http.HttpServerResponse;
import dev.hyperterse.mcp.JsonRpc;
import io.vertx.core.json.JsonObject;

import java.util.HashMap;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The open {@code subscriptions/listen} streams of this node. Each stream carries only the
 * notification types its request opted in to, each tagged with the subscription id (the listen
 * request's JSON-RPC id). A stream lives until the client closes it, or until {@link #endAll}
 * (shutdown) ends it with a result.
 */
final class ListenStreams {
    static final String TOOLS_LIST_CHANGED = "notifications/tools/list_changed";

    /** One open stream: its response, its subscription id, whether it wants tool-list changes, and its client. */
    private record Listener(HttpServerResponse response, Object subscriptionId, boolean toolsListChanged, long timer,
                            String client) {
    }

    private final SseKeepAlive keepAlive;
    private final int max;
    private final int perClient;
    private final Set<Listener> open = ConcurrentHashMap.newKeySet();
    /** Open streams per client, and in all; guarded by this. */
    private final Map<String, Integer> byClient = new HashMap<>();
    private int total;

    /**
     * @param keepAlive keeps idle streams from being cut by the server's idle timeout, proxies and clients
     * @param max       the most streams open on this node at once
     * @param perClient the most streams one client (network address, as sessions are counted) holds open
     */
    ListenStreams(SseKeepAlive keepAlive, int max, int perClient) {
        this.keepAlive = keepAlive;
        this.max = max;
        this.perClient = perClient;
    }

    SseKeepAlive keepAlive() {
        return keepAlive;
    }

    /**
     * Opens a listen stream on {@code response}: the acknowledgement (naming the notification
     * types this server will send of those requested) goes first.
     *
     * @param toolsListChanged whether the client asked for tool-list changes and the server sends them
     * @param client           the client's network identity, its share counted by
     * @throws StatelessError  (429) when this node holds as many streams as it may, or this client its share
     */
    void open(HttpServerResponse response, Object subscriptionId, boolean toolsListChanged, String client) {
        admit(client);
        SseKeepAlive.openStream(response);
        JsonObject honoured = new JsonObject();
        if (toolsListChanged) {
            honoured.put("toolsListChanged", true);
        }
        response.write(StatelessExchange.frame(StatelessExchange.notification(
                "notifications/subscriptions/acknowledged",
                new JsonObject().put("_meta", tag(subscriptionId)).put("notifications", honoured))));
        long timer = keepAlive.start(response);
        Listener listener = new Listener(response, subscriptionId, toolsListChanged, timer, client);
        open.add(listener);
        response.closeHandler(v -> close(listener));
        if (response.closed()) {
            close(listener);
        }
    }

    /** Tells every stream that asked for it that the tool list changed; returns how many it reached. */
    int toolsListChanged() {
        int sent = 0;
        for (Listener l : open) {
            if (l.toolsListChanged() && !l.response().closed() && !l.response().ended()) {
                l.response().write(StatelessExchange.frame(StatelessExchange.notification(TOOLS_LIST_CHANGED,
                        new JsonObject().put("_meta", tag(l.subscriptionId())))));
                sent++;
            }
        }
        return sent;
    }

    int size() {
        return open.size();
    }

    /** Ends every stream gracefully with its {@code SubscriptionsListenResult} (shutdown). */
    void endAll() {
        for (Listener l : open) {
            close(l);
            if (!l.response().closed() && !l.response().ended()) {
                l.response().end(StatelessExchange.frame(new JsonObject().put("jsonrpc", "2.0")
                        .put("id", l.subscriptionId())
                        .put("result", new JsonObject().put("resultType", "complete")
                                .put("_meta", tag(l.subscriptionId())))));
            }
        }
    }

    /** Takes a place for a new stream of {@code client}, or refuses it. */
    private synchronized void admit(String client) {
        int held = byClient.getOrDefault(client, 0);
        if (total >= max || held >= perClient) {
            throw new StatelessError(429, JsonRpc.SERVER_ERROR, "Too many open subscriptions/listen streams ("
                    + (held >= perClient ? "at most " + perClient + " per client" : "at most " + max + " on this server")
                    + "); close one before opening another");
        }
        byClient.put(client, held + 1);
        total++;
    }

    private synchronized void release(String client) {
        total--;
        byClient.computeIfPresent(client, (c, held) -> held <= 1 ? null : held - 1);
    }

    private void close(Listener listener) {
        if (open.remove(listener)) {
            keepAlive.stop(listener.timer());
            release(listener.client());
        }
    }

    private static JsonObject tag(Object subscriptionId) {
        return new JsonObject().put(RequestMeta.SUBSCRIPTION_ID, subscriptionId);
    }
}

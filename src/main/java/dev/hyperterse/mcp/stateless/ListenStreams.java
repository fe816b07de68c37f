package dev.hyperterse.mcp.stateless;

import dev.hyperterse.mcp.SseKeepAlive;
import io.vertx.core.http.HttpServerResponse;
import io.vertx.core.json.JsonObject;

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

    /** One open stream: its response, its subscription id and whether it wants tool-list changes. */
    private record Listener(HttpServerResponse response, Object subscriptionId, boolean toolsListChanged, long timer) {
    }

    private final SseKeepAlive keepAlive;
    private final Set<Listener> open = ConcurrentHashMap.newKeySet();

    /** @param keepAlive keeps idle streams from being cut by the server's idle timeout, proxies and clients */
    ListenStreams(SseKeepAlive keepAlive) {
        this.keepAlive = keepAlive;
    }

    SseKeepAlive keepAlive() {
        return keepAlive;
    }

    /**
     * Opens a listen stream on {@code response}: the acknowledgement (naming the notification
     * types this server will send of those requested) goes first.
     *
     * @param toolsListChanged whether the client asked for tool-list changes and the server sends them
     */
    void open(HttpServerResponse response, Object subscriptionId, boolean toolsListChanged) {
        SseKeepAlive.openStream(response);
        JsonObject honoured = new JsonObject();
        if (toolsListChanged) {
            honoured.put("toolsListChanged", true);
        }
        response.write(StatelessExchange.frame(StatelessExchange.notification(
                "notifications/subscriptions/acknowledged",
                new JsonObject().put("_meta", tag(subscriptionId)).put("notifications", honoured))));
        long timer = keepAlive.start(response);
        Listener listener = new Listener(response, subscriptionId, toolsListChanged, timer);
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

    private void close(Listener listener) {
        if (open.remove(listener)) {
            keepAlive.stop(listener.timer());
        }
    }

    private static JsonObject tag(Object subscriptionId) {
        return new JsonObject().put(RequestMeta.SUBSCRIPTION_ID, subscriptionId);
    }
}

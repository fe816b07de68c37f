package dev.hyperterse.mcp.stateless;

import dev.hyperterse.mcp.SseKeepAlive;
import io.vertx.core.http.HttpServerResponse;
import dev.hyperterse.mcp.JsonRpc;
import io.vertx.core.json.JsonObject;

import dev.hyperterse.mcp.ClientCounts;

import java.util.HashMap;
import java.util.LinkedHashSet;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The open {@code subscriptions/listen} streams of this node. Each stream carries only the
 * notification types its request opted in to, each tagged with the subscription id (the listen
 * request's JSON-RPC id). A stream lives until the client closes it, until {@link #endAll}
 * (shutdown) ends it with a result, or until a node holding all the streams it may gives its
 * place to another client (see {@link #open}).
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
    /** Each client's open streams, oldest first, how many it holds, and how many in all; guarded by this. */
    private final Map<String, LinkedHashSet<Listener>> byClient = new HashMap<>();
    private final ClientCounts counts = new ClientCounts();
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
     * types this server will send of those requested) goes first. When the node holds as many
     * streams as it may, the oldest stream of the client holding the most ends (with its result,
     * as at shutdown) to make room, if that client holds at least two more than this one: streams
     * held open by a few clients never lock every other client out.
     *
     * @param toolsListChanged whether the client asked for tool-list changes and the server sends them
     * @param client           the client's network identity, its share counted by
     * @throws StatelessError  (429) when this client holds its share, or the node is full and no
     *                         client holds two more streams than this one
     */
    void open(HttpServerResponse response, Object subscriptionId, boolean toolsListChanged, String client) {
        Listener listener = new Listener(response, subscriptionId, toolsListChanged, keepAlive.start(response), client);
        Listener replaced;
        try {
            replaced = admit(listener);
        } catch (StatelessError e) {
            keepAlive.stop(listener.timer());
            throw e;
        }
        if (replaced != null) {
            endWithResult(replaced);
        }
        SseKeepAlive.openStream(response);
        JsonObject honoured = new JsonObject();
        if (toolsListChanged) {
            honoured.put("toolsListChanged", true);
        }
        response.write(StatelessExchange.frame(StatelessExchange.notification(
                "notifications/subscriptions/acknowledged",
                new JsonObject().put("_meta", tag(subscriptionId)).put("notifications", honoured))));
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
            endWithResult(l);
        }
    }

    /** Ends a stream with its {@code SubscriptionsListenResult}: the subscription is over. */
    private void endWithResult(Listener l) {
        close(l);
        if (!l.response().closed() && !l.response().ended()) {
            l.response().end(StatelessExchange.frame(new JsonObject().put("jsonrpc", "2.0")
                    .put("id", l.subscriptionId())
                    .put("result", new JsonObject().put("resultType", "complete")
                            .put("_meta", tag(l.subscriptionId())))));
        }
    }

    /**
     * Takes a place for a new stream, or refuses it; returns the stream whose place it took (no
     * longer counted, to be ended by the caller), or null.
     */
    private synchronized Listener admit(Listener listener) {
        String client = listener.client();
        int held = counts.of(client);
        if (held >= perClient) {
            throw refused("at most " + perClient + " per client");
        }
        Listener replaced = null;
        if (total >= max) {
            String donor = counts.donorFor(held);
            if (donor == null) {
                throw refused("at most " + max + " on this server");
            }
            replaced = byClient.get(donor).iterator().next();
            forget(replaced);
        }
        byClient.computeIfAbsent(client, c -> new LinkedHashSet<>()).add(listener);
        counts.increment(client);
        total++;
        return replaced;
    }

    private static StatelessError refused(String limit) {
        return new StatelessError(429, JsonRpc.SERVER_ERROR, "Too many open subscriptions/listen streams ("
                + limit + "); close one before opening another");
    }

    /** Gives up a stream's place, if it still holds one. */
    private synchronized void forget(Listener listener) {
        LinkedHashSet<Listener> own = byClient.get(listener.client());
        if (own == null || !own.remove(listener)) {
            return;
        }
        if (own.isEmpty()) {
            byClient.remove(listener.client());
        }
        counts.decrement(listener.client());
        total--;
    }

    private void close(Listener listener) {
        open.remove(listener);
        forget(listener);
        keepAlive.stop(listener.timer());
    }

    private static JsonObject tag(Object subscriptionId) {
        return new JsonObject().put(RequestMeta.SUBSCRIPTION_ID, subscriptionId);
    }
}

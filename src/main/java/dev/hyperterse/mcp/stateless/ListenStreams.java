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
 * notification types its request opted in to (list changes of tools, prompts, resources; updates
 * of the resources it names), each tagged with the subscription id (the listen request's JSON-RPC id). A stream lives until the client closes it, until {@link #endAll}
 * (shutdown) ends it with a result, or until a node holding all the streams it may gives its
 * place to another client (see {@link #open}).
 */
final class ListenStreams {
    static final String TOOLS_LIST_CHANGED = "notifications/tools/list_changed";
    static final String PROMPTS_LIST_CHANGED = "notifications/prompts/list_changed";
    static final String RESOURCES_LIST_CHANGED = "notifications/resources/list_changed";
    static final String RESOURCE_UPDATED = "notifications/resources/updated";

    /**
     * What a stream was acknowledged: the list changes ({@code notifications/…/list_changed}
     * methods) and the resources whose updates it gets.
     */
    record Wanted(Set<String> lists, Set<String> resources) {
        Wanted {
            lists = Set.copyOf(lists);
            resources = java.util.Collections.unmodifiableSet(new LinkedHashSet<>(resources));
        }

        /** The {@code notifications} filter of the acknowledgement: only what will be sent. */
        JsonObject acknowledged() {
            JsonObject honoured = new JsonObject();
            if (lists.contains(TOOLS_LIST_CHANGED)) {
                honoured.put("toolsListChanged", true);
            }
            if (lists.contains(PROMPTS_LIST_CHANGED)) {
                honoured.put("promptsListChanged", true);
            }
            if (lists.contains(RESOURCES_LIST_CHANGED)) {
                honoured.put("resourcesListChanged", true);
            }
            if (!resources.isEmpty()) {
                honoured.put("resourceSubscriptions", new io.vertx.core.json.JsonArray(new java.util.ArrayList<>(resources)));
            }
            return honoured;
        }
    }

    /** One open stream: its response, its subscription id, what it wants, and its client. */
    private record Listener(HttpServerResponse response, Object subscriptionId, Wanted wanted, long timer,
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
     * @param wanted           what the client asked for, of what the server sends
     * @param client           the client's network identity, its share counted by
     * @throws StatelessError  (429) when this client holds its share, or the node is full and no
     *                         client holds two more streams than this one
     */
    void open(HttpServerResponse response, Object subscriptionId, Wanted wanted, String client) {
        Listener listener = new Listener(response, subscriptionId, wanted, keepAlive.start(response), client);
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
        response.write(StatelessExchange.frame(StatelessExchange.notification(
                "notifications/subscriptions/acknowledged",
                new JsonObject().put("_meta", tag(subscriptionId)).put("notifications", wanted.acknowledged()))));
        open.add(listener);
        response.closeHandler(v -> close(listener));
        if (response.closed()) {
            close(listener);
        }
    }

    /** Tells every stream that asked for it that the tool list changed; returns how many it reached. */
    int toolsListChanged() {
        return listChanged(TOOLS_LIST_CHANGED);
    }

    /**
     * Tells every stream that asked for it that a list changed ({@code method}: one of the
     * {@code notifications/…/list_changed}); returns how many it reached.
     */
    int listChanged(String method) {
        int sent = 0;
        for (Listener l : open) {
            if (l.wanted().lists().contains(method) && send(l, method, new JsonObject())) {
                sent++;
            }
        }
        return sent;
    }

    /** Tells every stream watching {@code uri} that its content changed; returns how many it reached. */
    int resourceUpdated(String uri) {
        int sent = 0;
        for (Listener l : open) {
            if (l.wanted().resources().contains(uri) && send(l, RESOURCE_UPDATED, new JsonObject().put("uri", uri))) {
                sent++;
            }
        }
        return sent;
    }

    private static boolean send(Listener l, String method, JsonObject params) {
        if (l.response().closed() || l.response().ended()) {
            return false;
        }
        l.response().write(StatelessExchange.frame(StatelessExchange.notification(method,
                params.put("_meta", tag(l.subscriptionId())))));
        return true;
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

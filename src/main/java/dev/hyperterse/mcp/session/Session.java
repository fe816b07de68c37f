package dev.hyperterse.mcp.session;

import java.io.Serializable;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;

/**
 * One MCP session as data: its id, the negotiated protocol version, the client's log level (null
 * until {@code logging/setLevel}), the resources it watches ({@code resources/subscribe}: kept
 * with the session, so whichever node of a cluster holds its stream tells it of changes) and
 * when it was created and last used, and what the client declared it can answer when the server
 * asks (its {@code elicitation}, {@code sampling} and {@code roots} capabilities). Immutable and
 * serialisable, so a cluster-wide store can hold it; what only lives on one node (open streams,
 * running calls) is kept apart, in {@link LiveSessions}.
 */
public record Session(String id, String protocolVersion, String logLevel, Instant created, Instant lastSeen,
                      List<String> subscriptions, List<String> clientCapabilities) implements Serializable {

    public Session {
        subscriptions = subscriptions == null ? List.of() : List.copyOf(subscriptions);
        clientCapabilities = clientCapabilities == null ? List.of() : List.copyOf(clientCapabilities);
    }

    /** A new session: no log level chosen, no resources watched, no client capability known. */
    public static Session created(String id, String protocolVersion, Instant created) {
        return new Session(id, protocolVersion, null, created, created, List.of(), List.of());
    }

    /** Whether the client declared it can answer the server's requests of a kind ({@code elicitation}, …). */
    public boolean declares(String capability) {
        return clientCapabilities.contains(capability);
    }

    public Session withClientCapabilities(List<String> declared) {
        return new Session(id, protocolVersion, logLevel, created, lastSeen, subscriptions, declared);
    }

    public Session touched(Instant now) {
        return new Session(id, protocolVersion, logLevel, created, now, subscriptions, clientCapabilities);
    }

    public Session withLogLevel(String level) {
        return new Session(id, protocolVersion, level, created, lastSeen, subscriptions, clientCapabilities);
    }

    /** Whether the session watches the resource {@code uri} ({@code resources/subscribe}). */
    public boolean subscribes(String uri) {
        return subscriptions.contains(uri);
    }

    /** The session watching {@code uri} as well ({@code on}) or no longer. */
    public Session withSubscription(String uri, boolean on) {
        if (on == subscribes(uri)) {
            return this;
        }
        List<String> changed = new ArrayList<>(subscriptions);
        if (on) {
            changed.add(uri);
        } else {
            changed.remove(uri);
        }
        return new Session(id, protocolVersion, logLevel, created, lastSeen, changed, clientCapabilities);
    }
}

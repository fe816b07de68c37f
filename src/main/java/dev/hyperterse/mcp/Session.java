package dev.hyperterse.mcp;

import java.io.Serializable;
import java.time.Instant;

/**
 * One MCP session as data: its id, the negotiated protocol version, the client's log level (null
 * until {@code logging/setLevel}) and when it was created and last used. Immutable and
 * serialisable, so a cluster-wide store can hold it; what only lives on one node (open streams,
 * running calls) is kept apart, in {@link LiveSessions}.
 */
public record Session(String id, String protocolVersion, String logLevel, Instant created, Instant lastSeen)
        implements Serializable {

    public Session touched(Instant now) {
        return new Session(id, protocolVersion, logLevel, created, now);
    }

    public Session withLogLevel(String level) {
        return new Session(id, protocolVersion, level, created, lastSeen);
    }
}

package dev.hyperterse.model;

import java.util.Map;

/**
 * A compiled adapter. {@code connectionString} has {@code {{ env.X }}} resolved and is a secret:
 * never log it; use {@link #redactedConnection()} in messages.
 */
public record AdapterDef(String name, String connector, String connectionString,
                         Map<String, String> options, SourceLocation location) {
    public AdapterDef {
        options = Map.copyOf(options);
    }

    /** The connection string with any password removed, safe for logs and errors. */
    public String redactedConnection() {
        return Redaction.connectionString(connectionString);
    }
}

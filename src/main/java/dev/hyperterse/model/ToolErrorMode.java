package dev.hyperterse.model;

/** How a failed tool call reaches the caller. */
public enum ToolErrorMode {
    /** A JSON-RPC error (-32000, or -32601 for an unknown tool), as Hyperterse does. */
    PROTOCOL,
    /** A normal result with {@code isError: true} and the message as text (MCP 2025-11-25 advice). */
    RESULT
}

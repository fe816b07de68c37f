package dev.hyperterse.model;

/**
 * How a failed tool call reaches the caller ({@code server.tool_errors}). Only failures of the
 * tool run are meant (its resolution, auth, inputs, scripts, statement, output), and arguments
 * {@code search} or {@code execute} cannot use (their input validation); a request that does not
 * fit the protocol, or names a tool the server does not offer, is a JSON-RPC error either way.
 */
public enum ToolErrorMode {
    /**
     * A normal result with {@code isError: true} whose text block is the failure as JSON
     * ({@code error}, {@code code}, {@code stage}, {@code tool}), as Hyperterse 2.x answers and
     * MCP 2025-11-25 advises: agent loops hand results to the model, which can read and correct
     * its input, while they raise JSON-RPC errors as exceptions the model never sees.
     */
    RESULT,
    /**
     * A JSON-RPC error (-32000, -32601 for an unknown {@code execute} target, -32602 for
     * arguments {@code search} or {@code execute} cannot use) with
     * {@code data: {stage, tool}}, as Hyperterse's documentation describes. Written {@code rpc},
     * or {@code protocol}, its name before {@link #RESULT} became the default.
     */
    RPC
}

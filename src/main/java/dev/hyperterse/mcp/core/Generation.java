package dev.hyperterse.mcp.core;

/** The wire generations of MCP this server speaks; a method is offered in some of them. */
public enum Generation {
    /** 2025-03-26 … 2025-11-25: {@code initialize}, {@code Mcp-Session-Id}, SSE streams, resumption. */
    SESSION,
    /** 2026-07-28: every request self-contained ({@code _meta} envelope, {@code server/discover}). */
    STATELESS
}

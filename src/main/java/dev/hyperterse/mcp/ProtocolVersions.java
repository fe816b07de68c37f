package dev.hyperterse.mcp;

import java.util.List;

/** The MCP protocol revisions this server speaks, oldest first. */
public final class ProtocolVersions {
    public static final String V2025_03_26 = "2025-03-26";
    public static final String V2025_06_18 = "2025-06-18";
    public static final String V2025_11_25 = "2025-11-25";
    public static final List<String> SUPPORTED = List.of(V2025_03_26, V2025_06_18, V2025_11_25);
    public static final String LATEST = V2025_11_25;
    /** What a request without a session or a version header is assumed to speak (transport rule). */
    public static final String ASSUMED = V2025_03_26;

    private ProtocolVersions() {
    }

    public static boolean supported(String version) {
        return SUPPORTED.contains(version);
    }

    /**
     * Whether SSE streams of a session at this version start with a priming event and may be
     * closed for the client to resume (SEP-1699, from 2025-11-25 on).
     */
    public static boolean primesStreams(String version) {
        return version != null && version.compareTo(V2025_11_25) >= 0;
    }

    /**
     * Whether a tool at this version may carry {@code outputSchema} and its result
     * {@code structuredContent} (from 2025-06-18 on).
     */
    public static boolean structuredOutput(String version) {
        return version != null && version.compareTo(V2025_06_18) >= 0;
    }

    /** The version answered to an initialize request: the client's when supported, else our latest. */
    public static String negotiate(String requested) {
        return supported(requested) ? requested : LATEST;
    }
}

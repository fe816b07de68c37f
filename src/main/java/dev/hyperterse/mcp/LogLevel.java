package dev.hyperterse.mcp;

import java.util.Locale;

/** The RFC 5424 severities MCP logging uses, least severe first. */
public enum LogLevel {
    DEBUG, INFO, NOTICE, WARNING, ERROR, CRITICAL, ALERT, EMERGENCY;

    public static final String ALL = "debug, info, notice, warning, error, critical, alert, emergency";

    /** The level written on the wire, e.g. {@code warning}. */
    public String keyword() {
        return name().toLowerCase(Locale.ROOT);
    }

    /** The level for a wire keyword, or null when there is none (keywords are lower case). */
    public static LogLevel of(Object keyword) {
        if (!(keyword instanceof String)) {
            return null;
        }
        for (LogLevel level : values()) {
            if (level.keyword().equals(keyword)) {
                return level;
            }
        }
        return null;
    }

    public boolean atLeast(LogLevel threshold) {
        return compareTo(threshold) >= 0;
    }
}

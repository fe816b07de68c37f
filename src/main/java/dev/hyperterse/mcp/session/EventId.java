package dev.hyperterse.mcp.session;

import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * A parsed SSE event id, {@code <epoch>-<stream>-<seq>}: the epoch names one life of a session's
 * live state on one node (so ids stay unique even if that state is rebuilt), the stream which
 * stream of the session the event belongs to, and seq its position there.
 */
record EventId(String epoch, int stream, long seq) {
    private static final Pattern FORM = Pattern.compile("([0-9a-z]{1,13})-(\\d{1,9})-(\\d{1,18})");

    /** Parses an id this server issued; null when the text is not one. */
    static EventId parse(String text) {
        if (text == null) {
            return null;
        }
        Matcher m = FORM.matcher(text.trim());
        if (!m.matches()) {
            return null;
        }
        return new EventId(m.group(1), Integer.parseInt(m.group(2)), Long.parseLong(m.group(3)));
    }

    static String format(String epoch, int stream, long seq) {
        return epoch + "-" + stream + "-" + seq;
    }
}

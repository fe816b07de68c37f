package dev.hyperterse.connector;

import dev.hyperterse.model.BoundedText;
import dev.hyperterse.model.Redaction;
import io.vertx.sqlclient.ClosedConnectionException;

import java.net.ConnectException;
import java.net.UnknownHostException;
import java.nio.channels.ClosedChannelException;
import java.util.Locale;
import java.util.function.Function;

/**
 * Turns a client failure into a message a caller can read: the database's own reason for a
 * statement that failed, or "unavailable" (with host and port, never credentials) for a database
 * that cannot be reached or went away, so a caller can tell a bad query from an outage.
 */
public final class Failures {

    private Failures() {
    }

    /**
     * @param where  the server, for messages: {@code host:port/database}
     * @param reason the driver's words for any other failure
     */
    public static ConnectorException of(Throwable failure, String where, Function<Throwable, String> reason) {
        if (failure instanceof ConnectorException) {
            return (ConnectorException) failure;
        }
        Throwable unreachable = find(failure, true);
        if (unreachable != null) {
            return new ConnectorException("database unavailable: cannot connect to " + where + ": "
                    + oneLine(unreachable), failure);
        }
        if (find(failure, false) != null) {
            return new ConnectorException("database unavailable: the connection to " + where + " was lost", failure);
        }
        return new ConnectorException(reason.apply(failure), failure);
    }

    /**
     * What to add to a "table does not exist" failure: the usual cause is a database whose
     * tables were never created. The example projects load theirs with {@code tools-examples/load.sh},
     * whose argument is the connector keyword.
     */
    public static String missingTableHint(String adapter, String connector) {
        if (connector.equals("sqlite")) {
            return " (is the schema loaded? adapter '" + adapter + "' (sqlite) runs its init_sql only when it creates "
                    + "the database file: create the table, or delete the file to have it created afresh)";
        }
        return " (is the schema loaded? adapter '" + adapter + "' (" + connector + ") reaches its database, but "
                + "the table is not there: create the tables its tools use; for the example projects run "
                + "tools-examples/load.sh " + connector + ")";
    }

    /** {@code statement timed out after 30s} (or {@code 250ms}), the same words from every connector. */
    public static ConnectorException timedOut(java.time.Duration timeout) {
        long millis = timeout.toMillis();
        String text = millis % 1000 == 0 ? (millis / 1000) + "s" : millis + "ms";
        return new ConnectorException("statement timed out after " + text);
    }

    /** The failure or a cause of it that says the server cannot be reached (or, if not, that the connection dropped). */
    private static Throwable find(Throwable failure, boolean unreachable) {
        for (Throwable t = failure; t != null; t = t.getCause() == t ? null : t.getCause()) {
            if (unreachable ? isUnreachable(t) : connectionLost(t)) {
                return t;
            }
        }
        return null;
    }

    private static boolean isUnreachable(Throwable failure) {
        return failure instanceof ConnectException || failure instanceof UnknownHostException;
    }

    /** Whether the failure is the connection's (it closed or broke under a command), not the statement's. */
    public static boolean connectionLost(Throwable failure) {
        if (failure instanceof ClosedConnectionException || failure instanceof ClosedChannelException) {
            return true;
        }
        String message = String.valueOf(failure.getMessage()).toLowerCase(Locale.ROOT);
        // the clients' words for a socket that closed under a command
        return message.contains("connection is not active") || message.contains("connection reset")
                || message.contains("connection closed") || message.contains("pending requests failed")
                || message.contains("connection was closed") || message.contains("connection is closed")
                || message.equals("connection_closed");
    }

    /**
     * The failure's message without line breaks (or its class name when it has none), with any
     * password a driver might echo from a connection string masked. Databases quote the caller's
     * value in many messages ({@code syntax error in tsquery: "…"}, {@code Key (email)=(…) already
     * exists}), so the message is cut to {@link BoundedText#MESSAGE_CHARS} before anything else
     * reads it: this runs on the event loop that received the failure.
     */
    public static String oneLine(Throwable failure) {
        String message = failure.getMessage();
        if (message == null || message.isBlank()) {
            return failure.getClass().getSimpleName();
        }
        return Redaction.connectionString(joinLines(BoundedText.cut(message, BoundedText.MESSAGE_CHARS)).trim());
    }

    /** Each run of white space holding a line break becomes one space (one pass, unlike {@code \s*\R\s*}). */
    static String joinLines(String text) {
        StringBuilder out = new StringBuilder(text.length());
        int i = 0;
        while (i < text.length()) {
            char c = text.charAt(i);
            if (!isBlankOrBreak(c)) {
                out.append(c);
                i++;
                continue;
            }
            int end = i;
            boolean breaks = false;
            while (end < text.length() && isBlankOrBreak(text.charAt(end))) {
                breaks |= isBreak(text.charAt(end));
                end++;
            }
            if (breaks) {
                out.append(' ');
            } else {
                out.append(text, i, end);
            }
            i = end;
        }
        return out.toString();
    }

    /** {@code \R}'s characters. */
    private static boolean isBreak(char c) {
        return c == '\n' || c == '\r' || c == 0x0B || c == '\f' || c == 0x85 || c == 0x2028 || c == 0x2029;
    }

    private static boolean isBlankOrBreak(char c) {
        return c == ' ' || c == '\t' || isBreak(c);
    }
}

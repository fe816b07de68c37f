package dev.hyperterse.connector.sqlite;

import org.sqlite.SQLiteException;

import java.util.regex.Matcher;
import java.util.regex.Pattern;

/** The driver's reason for a failure, in one line a caller can read; no stack trace, no class names. */
final class DriverMessages {
    /** xerial's form: {@code [SQLITE_ERROR] SQL error or missing database (no such column: x)}. */
    private static final Pattern XERIAL = Pattern.compile("\\[[A-Z_]+\\] .*? \\((.*)\\)", Pattern.DOTALL);

    private DriverMessages() {
    }

    /** {@code SQLITE_ERROR: no such column: x}. */
    static String of(Throwable failure) {
        if (failure instanceof SQLiteException) {
            SQLiteException e = (SQLiteException) failure;
            String message = String.valueOf(e.getMessage());
            Matcher m = XERIAL.matcher(message);
            return e.getResultCode().name() + ": " + (m.matches() ? m.group(1) : message);
        }
        String message = failure.getMessage();
        return message == null || message.isBlank() ? failure.getClass().getSimpleName() : message;
    }
}

package dev.hyperterse.connector;

/** A database failure whose message is safe to return to a caller (no secrets, no stack trace). */
public final class ConnectorException extends RuntimeException {
    private static final long serialVersionUID = 1L;

    public ConnectorException(String message) {
        super(message);
    }

    public ConnectorException(String message, Throwable cause) {
        super(message, cause);
    }

    /**
     * Why an adapter could not connect, for a line that already names the adapter: connectors
     * start their messages with {@code adapter 'name': }, which would then be said twice.
     */
    public static String reasonWithoutAdapter(String adapter, Throwable failure) {
        if (failure == null) {
            return "no answer";
        }
        String reason = String.valueOf(failure.getMessage());
        String named = "adapter '" + adapter + "': ";
        return reason.startsWith(named) ? reason.substring(named.length()) : reason;
    }
}

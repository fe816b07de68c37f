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
}

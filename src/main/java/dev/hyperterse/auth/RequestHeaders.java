package dev.hyperterse.auth;

/** Read access to a request's headers, case-insensitive by name. */
@FunctionalInterface
public interface RequestHeaders {
    /** The header's value, or null when absent. */
    String get(String name);
}

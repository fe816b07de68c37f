package dev.hyperterse.auth;

import java.util.Map;

/** Read access to a request's headers, case-insensitive by name. */
@FunctionalInterface
public interface RequestHeaders {
    /** The header's value, or null when absent. */
    String get(String name);

    /**
     * Every header by lower-case name (the first value of a repeated one), for checks that hand
     * the request to a script; empty when the source can only answer {@link #get}.
     */
    default Map<String, String> all() {
        return Map.of();
    }
}

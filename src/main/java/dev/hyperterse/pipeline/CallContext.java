package dev.hyperterse.pipeline;

import dev.hyperterse.auth.RequestHeaders;
import io.vertx.core.Future;
import io.vertx.core.Promise;

import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;

/**
 * What a tool call knows about its request: the HTTP headers (for auth plugins; names are
 * case-insensitive) and the MCP session, if any.
 */
public final class CallContext implements RequestHeaders {
    private final Map<String, String> headers;
    private final String sessionId;
    private final Future<Void> cancellation;

    /**
     * @param cancellation completes when the caller cancels the call; null when it cannot be cancelled
     */
    public CallContext(Map<String, String> headers, String sessionId, Future<Void> cancellation) {
        TreeMap<String, String> copy = new TreeMap<>(String.CASE_INSENSITIVE_ORDER);
        copy.putAll(headers);
        this.headers = java.util.Collections.unmodifiableMap(copy);
        this.sessionId = sessionId;
        this.cancellation = cancellation == null ? Promise.<Void>promise().future() : cancellation;
    }

    /**
     * The context of an HTTP request: its headers as sent (the first value of a repeated header
     * counts), the MCP session if any, and the call's cancellation.
     */
    public static CallContext fromRequest(Iterable<Map.Entry<String, String>> requestHeaders, String sessionId,
                                          Future<Void> cancellation) {
        Map<String, String> headers = new TreeMap<>(String.CASE_INSENSITIVE_ORDER);
        requestHeaders.forEach(h -> headers.putIfAbsent(h.getKey().toLowerCase(Locale.ROOT), h.getValue()));
        return new CallContext(headers, sessionId, cancellation);
    }

    public static CallContext empty() {
        return new CallContext(Map.of(), null, null);
    }

    /** Completes when the caller cancelled this call; stages stop their work then. */
    public Future<Void> cancellation() {
        return cancellation;
    }

    /** A request header, case-insensitively, or null. */
    public String header(String name) {
        return headers.get(name.toLowerCase(Locale.ROOT));
    }

    public Map<String, String> headers() {
        return headers;
    }

    @Override
    public String get(String name) {
        return header(name);
    }

    /** Every header, names lower-cased. */
    @Override
    public Map<String, String> all() {
        Map<String, String> out = new java.util.LinkedHashMap<>();
        headers.forEach((name, value) -> out.put(name.toLowerCase(Locale.ROOT), value));
        return out;
    }

    public String sessionId() {
        return sessionId;
    }
}

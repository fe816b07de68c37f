package dev.hyperterse.pipeline;

import dev.hyperterse.auth.AuthCheck;
import dev.hyperterse.auth.Caller;
import dev.hyperterse.auth.RequestHeaders;
import dev.hyperterse.script.ClientReach;
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
    private final Iterable<Map.Entry<String, String>> source;
    private final String sessionId;
    private final Future<Void> cancellation;
    /** The headers by name, case-insensitively; read from {@code source} when first asked for. */
    private volatile Map<String, String> headers;
    /**
     * Auth decisions taken for this request, by check (and tool, for checks that decide per tool);
     * shared by the request's contexts ({@link #reaching}), which lock it to read or add one.
     */
    private final Map<Object, Future<Caller>> decided;
    /** What the call's scripts reach with {@code ctx}: its client, or nothing. */
    private final ClientReach reach;

    /**
     * @param cancellation completes when the caller cancels the call; null when it cannot be cancelled
     */
    public CallContext(Map<String, String> headers, String sessionId, Future<Void> cancellation) {
        this(new java.util.LinkedHashMap<>(headers).entrySet(), sessionId, cancellation);
    }

    private CallContext(Iterable<Map.Entry<String, String>> source, String sessionId, Future<Void> cancellation) {
        this(source, sessionId, cancellation == null ? Promise.<Void>promise().future() : cancellation,
                new java.util.HashMap<>(), ClientReach.NONE);
    }

    private CallContext(Iterable<Map.Entry<String, String>> source, String sessionId, Future<Void> cancellation,
                        Map<Object, Future<Caller>> decided, ClientReach reach) {
        this.source = source;
        this.sessionId = sessionId;
        this.cancellation = cancellation;
        this.decided = decided;
        this.reach = reach;
    }

    /**
     * This request's context for one call whose scripts reach {@code reach} with {@code ctx}: the
     * same headers, session, cancellation and auth decisions.
     */
    public CallContext reaching(ClientReach reach) {
        CallContext call = new CallContext(source, sessionId, cancellation, decided, reach);
        call.headers = headers;
        return call;
    }

    /** What the call's scripts reach with {@code ctx}. */
    public ClientReach reach() {
        return reach;
    }

    /**
     * The context of an HTTP request: its headers as sent (the first value of a repeated header
     * counts), the MCP session if any, and the call's cancellation. The headers are copied only
     * when something reads them (an auth check): most calls never do.
     */
    public static CallContext fromRequest(Iterable<Map.Entry<String, String>> requestHeaders, String sessionId,
                                          Future<Void> cancellation) {
        return new CallContext(requestHeaders, sessionId, cancellation);
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
        return headers().get(name);
    }

    /** Every header, by name case-insensitively (read-only). */
    public Map<String, String> headers() {
        Map<String, String> read = headers;
        if (read == null) {
            TreeMap<String, String> copy = new TreeMap<>(String.CASE_INSENSITIVE_ORDER);
            source.forEach(h -> copy.putIfAbsent(h.getKey().toLowerCase(Locale.ROOT), h.getValue()));
            read = java.util.Collections.unmodifiableMap(copy);
            headers = read;
        }
        return read;
    }

    @Override
    public String get(String name) {
        return header(name);
    }

    /** Every header, names lower-cased. */
    @Override
    public Map<String, String> all() {
        Map<String, String> out = new java.util.LinkedHashMap<>();
        headers().forEach((name, value) -> out.put(name.toLowerCase(Locale.ROOT), value));
        return out;
    }

    public String sessionId() {
        return sessionId;
    }

    /**
     * What {@code check} decides about this request (for {@code tool}, when the check decides per
     * tool), asked once: every stage that needs the decision (a list's filter, a direct call's
     * visibility check, a confirmation's, the call itself) reads the same outcome, so a request runs
     * each check once, however many stages ask.
     */
    public Future<Caller> decidedBy(AuthCheck check, String tool) {
        Object key = check.perTool() ? java.util.List.of(new Identity(check), String.valueOf(tool)) : new Identity(check);
        synchronized (decided) {
            Future<Caller> outcome = decided.get(key);
            if (outcome == null) {
                try {
                    outcome = tool == null ? check.authenticate(this) : check.authenticate(tool, this);
                } catch (RuntimeException e) {
                    outcome = Future.failedFuture(e);
                }
                decided.put(key, outcome);
            }
            return outcome;
        }
    }

    /** A check as a key by identity: two checks that compare equal are still two decisions. */
    private record Identity(AuthCheck check) {
        @Override
        public boolean equals(Object other) {
            return other instanceof Identity && ((Identity) other).check == check;
        }

        @Override
        public int hashCode() {
            return System.identityHashCode(check);
        }
    }
}

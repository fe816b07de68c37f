package dev.hyperterse.mcp;

import io.vertx.core.http.HttpHeaders;
import io.vertx.core.http.HttpServerRequest;
import io.vertx.core.net.HostAndPort;

import java.net.URI;
import java.util.List;
import java.util.Locale;
import java.util.Set;

/**
 * Which browser origins and Host names may reach the server. Loopback origins are always
 * allowed; others only when configured. When the server is bound to a loopback address, the
 * Host header must name a loopback host (or a configured one): this defeats DNS rebinding.
 */
public final class OriginPolicy {
    private static final Set<String> LOOPBACK_HOSTS = Set.of("localhost", "127.0.0.1", "[::1]", "::1");

    private final List<String> allowedOrigins;
    private final List<String> allowedHosts;
    private final boolean checkHost;

    public OriginPolicy(List<String> allowedOrigins, List<String> allowedHosts, String bindHost) {
        this.allowedOrigins = allowedOrigins.stream().map(OriginPolicy::normaliseOrigin).toList();
        this.allowedHosts = allowedHosts.stream().map(h -> h.toLowerCase(Locale.ROOT)).toList();
        this.checkHost = isLoopback(bindHost) || !allowedHosts.isEmpty();
    }

    /**
     * Why a request may not reach the server ({@code Forbidden: origin not allowed} or
     * {@code Forbidden: host not allowed}), or null when its Origin and Host pass.
     */
    public String refusal(HttpServerRequest request) {
        if (!originAllowed(request.getHeader(HttpHeaders.ORIGIN))) {
            return "Forbidden: origin not allowed";
        }
        // Vert.x 5 moves the Host header of HTTP/1.1 (and :authority of HTTP/2) into authority()
        HostAndPort authority = request.authority();
        if (!hostAllowed(authority != null ? authority.host() : request.getHeader(HttpHeaders.HOST))) {
            return "Forbidden: host not allowed";
        }
        return null;
    }

    /** True when an {@code Origin} header value may make requests (absent origins are allowed). */
    public boolean originAllowed(String origin) {
        if (origin == null) {
            return true;
        }
        if (allowedOrigins.contains("*") || allowedOrigins.contains(normaliseOrigin(origin))) {
            return true;
        }
        try {
            URI uri = URI.create(origin.trim());
            String host = uri.getHost();
            return host != null && LOOPBACK_HOSTS.contains(host.toLowerCase(Locale.ROOT))
                    && ("http".equals(uri.getScheme()) || "https".equals(uri.getScheme()));
        } catch (IllegalArgumentException e) {
            return false;
        }
    }

    /** True when a {@code Host} header value is acceptable for this bind address. */
    public boolean hostAllowed(String hostHeader) {
        if (!checkHost) {
            return true;
        }
        if (hostHeader == null) {
            return false;
        }
        String host = stripPort(hostHeader.trim().toLowerCase(Locale.ROOT));
        return LOOPBACK_HOSTS.contains(host) || allowedHosts.contains("*") || allowedHosts.contains(host);
    }

    static boolean isLoopback(String bindHost) {
        return bindHost != null && (LOOPBACK_HOSTS.contains(bindHost.toLowerCase(Locale.ROOT))
                || bindHost.startsWith("127."));
    }

    private static String stripPort(String host) {
        if (host.startsWith("[")) {
            int end = host.indexOf(']');
            return end > 0 ? host.substring(0, end + 1) : host;
        }
        int colon = host.lastIndexOf(':');
        return colon > 0 && host.indexOf(':') == colon ? host.substring(0, colon) : host;
    }

    private static String normaliseOrigin(String origin) {
        String o = origin.trim().toLowerCase(Locale.ROOT);
        return o.endsWith("/") ? o.substring(0, o.length() - 1) : o;
    }
}

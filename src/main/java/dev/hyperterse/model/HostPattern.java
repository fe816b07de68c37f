package dev.hyperterse.model;

import java.util.Locale;

/**
 * One entry of {@code tools.fetch.allow_hosts}: a host name or IP address ({@code api.example.com},
 * {@code 10.0.0.7}, {@code [::1]}), or every subdomain of a name ({@code *.example.com}), with an
 * optional port ({@code api.example.com:8443}). Names compare case-insensitively.
 *
 * @param host     the name or address, lower-cased, IPv6 without brackets; for a wildcard the
 *                 suffix after {@code *.}
 * @param wildcard true for {@code *.suffix}: any name ending in {@code .suffix}
 * @param port     the port, or -1 for any
 */
public record HostPattern(String host, boolean wildcard, int port) {

    /** @throws IllegalArgumentException saying what is wrong with the entry */
    public static HostPattern parse(String written) {
        String text = written.strip().toLowerCase(Locale.ROOT);
        if (text.isEmpty()) {
            throw new IllegalArgumentException("an entry is empty");
        }
        if (text.contains("/") || text.contains("@") || text.contains(" ")) {
            throw new IllegalArgumentException("'" + written + "' is not a host (write api.example.com, "
                    + "*.example.com or host:port, without scheme or path)");
        }
        String host = text;
        int port = -1;
        if (text.startsWith("[")) {
            int close = text.indexOf(']');
            if (close < 0) {
                throw new IllegalArgumentException("'" + written + "' has no closing ']'");
            }
            host = text.substring(1, close);
            String rest = text.substring(close + 1);
            if (!rest.isEmpty()) {
                if (!rest.startsWith(":")) {
                    throw new IllegalArgumentException("'" + written + "' is not [address] or [address]:port");
                }
                port = port(rest.substring(1), written);
            }
        } else if (text.indexOf(':') >= 0 && text.indexOf(':') == text.lastIndexOf(':')) {
            host = text.substring(0, text.indexOf(':'));
            port = port(text.substring(text.indexOf(':') + 1), written);
        }
        boolean wildcard = host.startsWith("*.");
        if (wildcard) {
            host = host.substring(2);
        }
        if (host.isEmpty() || host.contains("*")) {
            throw new IllegalArgumentException("'" + written + "': a '*' may only start an entry, as in *.example.com");
        }
        return new HostPattern(host, wildcard, port);
    }

    private static int port(String text, String written) {
        try {
            int port = Integer.parseInt(text);
            if (port >= 1 && port <= 65535) {
                return port;
            }
        } catch (NumberFormatException notANumber) {
            // reported below
        }
        throw new IllegalArgumentException("'" + written + "' has no valid port (1 to 65535) after ':'");
    }

    /** True when a request to {@code requestHost}:{@code requestPort} matches this entry. */
    public boolean matches(String requestHost, int requestPort) {
        if (port != -1 && port != requestPort) {
            return false;
        }
        String h = requestHost.toLowerCase(Locale.ROOT);
        if (h.startsWith("[") && h.endsWith("]")) {
            h = h.substring(1, h.length() - 1);
        }
        if (h.endsWith(".")) {
            h = h.substring(0, h.length() - 1);
        }
        return wildcard ? h.endsWith("." + host) : h.equals(host);
    }

    @Override
    public String toString() {
        String shown = (wildcard ? "*." : "") + (host.contains(":") ? "[" + host + "]" : host);
        return port == -1 ? shown : shown + ":" + port;
    }
}

package dev.hyperterse.script;

import dev.hyperterse.model.HostPattern;

import java.util.List;
import java.util.function.IntSupplier;

/**
 * Where a script's {@code fetch} may go.
 *
 * @param allowHosts {@code tools.fetch.allow_hosts}: when not empty, the only hosts a script may
 *                   fetch from (redirects included); empty allows any host
 * @param serverPort the port this server listens on (asked at each fetch: known once it listens;
 *                   0 or less while unknown). A fetch to this machine at that port is refused,
 *                   unless an {@code allowHosts} entry names the host with that very port: a
 *                   script calling its own server can recurse without end.
 */
public record FetchRules(List<HostPattern> allowHosts, IntSupplier serverPort) {
    /** Any host, and no own server to protect (checks, tests). */
    public static final FetchRules OPEN = new FetchRules(List.of(), () -> -1);

    public FetchRules {
        allowHosts = List.copyOf(allowHosts);
    }

    boolean allowed(String host, int port) {
        return allowHosts.isEmpty() || allowHosts.stream().anyMatch(p -> p.matches(host, port));
    }

    /** True when an entry names this host with this port: the operator allowed calls to it deliberately. */
    boolean namedWithPort(String host, int port) {
        return allowHosts.stream().anyMatch(p -> p.port() == port && p.matches(host, port));
    }
}

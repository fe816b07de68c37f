package dev.hyperterse.mcp;

import io.vertx.core.net.SocketAddress;

import java.net.Inet6Address;
import java.net.InetAddress;
import java.net.UnknownHostException;

/**
 * The network identity a client's share of sessions is counted by: its IPv4 address, or the /64
 * network of its IPv6 address (one host commonly holds a whole /64, so counting single IPv6
 * addresses would give it billions of shares). Behind a proxy every client has the proxy's.
 */
public final class ClientAddress {
    private ClientAddress() {
    }

    public static String of(SocketAddress remote) {
        // read once: the socket address writes its IP address out anew on each call
        String host = remote == null ? null : remote.hostAddress();
        if (host == null || host.isEmpty()) {
            // no IP: a Unix domain socket, whose clients are all local
            return "local";
        }
        if (host.indexOf(':') < 0) {
            return host;
        }
        try {
            // a literal address: parsed, never looked up
            InetAddress address = InetAddress.getByName(host.startsWith("[") ? host.substring(1, host.length() - 1) : host);
            if (!(address instanceof Inet6Address)) {
                return address.getHostAddress();
            }
            byte[] bytes = address.getAddress();
            StringBuilder network = new StringBuilder();
            for (int i = 0; i < 8; i += 2) {
                network.append(Integer.toHexString(((bytes[i] & 0xff) << 8) | (bytes[i + 1] & 0xff))).append(':');
            }
            return network.append(":/64").toString();
        } catch (UnknownHostException e) {
            return host;
        }
    }
}

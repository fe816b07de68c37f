package dev.hyperterse.testing;

import io.vertx.core.Future;
import io.vertx.core.Vertx;
import io.vertx.core.net.NetClient;
import io.vertx.core.net.NetClientOptions;
import io.vertx.core.net.NetServer;
import io.vertx.core.net.NetSocket;

import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;

/**
 * A TCP relay between a client and a real server, for outage tests that must not stop a shared
 * database: {@link #cut()} closes every relayed connection and stops listening (new connections
 * are refused, as when the database is down), {@link #restore()} listens on the same port again;
 * {@link #stallNewConnections()} leaves new connections unanswered.
 */
public final class TcpProxy implements AutoCloseable {
    private final Vertx vertx;
    private final String targetHost;
    private final int targetPort;
    private final NetClient client;
    private final List<NetSocket> open = new CopyOnWriteArrayList<>();
    private volatile NetServer server;
    private volatile boolean stalled;
    private int port;

    private TcpProxy(Vertx vertx, String targetHost, int targetPort) {
        this.vertx = vertx;
        this.targetHost = targetHost;
        this.targetPort = targetPort;
        this.client = vertx.createNetClient(new NetClientOptions().setConnectTimeout(5000));
    }

    public static TcpProxy start(Vertx vertx, String targetHost, int targetPort) {
        TcpProxy proxy = new TcpProxy(vertx, targetHost, targetPort);
        proxy.listen(0);
        return proxy;
    }

    public int port() {
        return port;
    }

    private void listen(int onPort) {
        NetServer s = vertx.createNetServer().connectHandler(this::relay);
        server = await(s.listen(onPort, "127.0.0.1"));
        port = server.actualPort();
    }

    private void relay(NetSocket downstream) {
        downstream.pause();
        open.add(downstream);
        if (stalled) {
            return;
        }
        client.connect(targetPort, targetHost).onComplete(ar -> {
            if (ar.failed()) {
                downstream.close();
                return;
            }
            NetSocket upstream = ar.result();
            open.add(upstream);
            downstream.handler(upstream::write);
            upstream.handler(downstream::write);
            downstream.closeHandler(v -> upstream.close());
            upstream.closeHandler(v -> downstream.close());
            downstream.resume();
        });
    }

    /**
     * The database "hangs" for new connections: they are accepted and then never answered, while
     * the connections already relayed go on.
     */
    public void stallNewConnections() {
        stalled = true;
    }

    /** The database "goes down": relayed connections drop, new ones are refused. */
    public void cut() {
        await(server.close());
        for (NetSocket socket : open) {
            socket.close();
        }
        open.clear();
    }

    /**
     * The database "is back" on the same address. The port was free a moment ago; binding it
     * again is retried briefly, as the OS may still be releasing it.
     */
    public void restore() {
        IllegalStateException last = null;
        for (int attempt = 0; attempt < 40; attempt++) {
            try {
                listen(port);
                return;
            } catch (IllegalStateException e) {
                last = e;
                try {
                    Thread.sleep(50);
                } catch (InterruptedException interrupted) {
                    Thread.currentThread().interrupt();
                    throw e;
                }
            }
        }
        throw last;
    }

    @Override
    public void close() {
        await(server.close());
        open.forEach(NetSocket::close);
        await(client.close());
    }

    private static <T> T await(Future<T> future) {
        try {
            return future.toCompletionStage().toCompletableFuture().get(10, TimeUnit.SECONDS);
        } catch (Exception e) {
            throw new IllegalStateException(e);
        }
    }
}

package dev.hyperterse.connector.postgres;

import io.vertx.core.Future;
import io.vertx.core.Promise;
import io.vertx.core.Vertx;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.net.NetClient;
import io.vertx.core.net.NetClientOptions;
import io.vertx.pgclient.PgConnection;
import io.vertx.sqlclient.SqlConnection;

/**
 * PostgreSQL's cancel request, known to be done only once the server has acted on it.
 *
 * <p>The server handles a cancel request in a process of its own, which signals the backend
 * running the statement and then closes the request's connection. The client's own
 * {@link PgConnection#cancelRequest()} completes once the request is written, before that signal:
 * a statement that ended on its own meanwhile let its connection go back to the pool, and the late
 * signal stopped the next caller's statement there (6 of 25 in a test on one connection). Here the
 * request completes when the server closes its connection, after the signal was sent, and the
 * backend acts on a pending signal before it reads its next command (discarding it when idle). As
 * libpq does, the request travels unencrypted: it holds only the backend's key. A server that
 * never closes is given up on after a few seconds.
 */
final class CancelRequests {
    /** CancelRequest's code in the startup packet (1234 in the high half, 5678 in the low). */
    private static final int CANCEL_REQUEST_CODE = 80877102;
    private static final long GIVE_UP_MILLIS = 5000;

    private final Vertx vertx;
    private final String host;
    private final int port;
    private final NetClientOptions options;

    CancelRequests(Vertx vertx, String host, int port, NetClientOptions options) {
        this.vertx = vertx;
        this.host = host;
        this.port = port;
        this.options = new NetClientOptions(options).setSsl(false);
    }

    /** Asks the server to stop what {@code conn} runs; completes once the server acted (or gave no sign for 5 s). */
    Future<Void> cancel(SqlConnection conn) {
        if (host.startsWith("/")) {
            // a Unix socket: the client's own request reaches it, with the race described above
            return PgConnection.cast(conn).cancelRequest();
        }
        PgConnection pg = PgConnection.cast(conn);
        Buffer request = Buffer.buffer(16).appendInt(16).appendInt(CANCEL_REQUEST_CODE)
                .appendInt(pg.processId()).appendInt(pg.secretKey());
        NetClient client = vertx.createNetClient(options);
        Promise<Void> done = Promise.promise();
        long giveUp = vertx.setTimer(GIVE_UP_MILLIS, id -> done.tryComplete());
        client.connect(port, host).onComplete(connected -> {
            if (connected.failed()) {
                done.tryFail(connected.cause());
                return;
            }
            connected.result().handler(ignored -> { })
                    .closeHandler(closed -> done.tryComplete())
                    .exceptionHandler(done::tryFail)
                    .write(request);
        });
        return done.future().andThen(x -> {
            vertx.cancelTimer(giveUp);
            client.close();
        });
    }
}

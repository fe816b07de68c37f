package dev.hyperterse.server;

import io.vertx.core.Future;
import io.vertx.core.Handler;
import io.vertx.core.VerticleBase;
import io.vertx.core.http.HttpConnection;
import io.vertx.core.http.HttpServer;
import io.vertx.core.http.HttpServerOptions;
import io.vertx.ext.web.Router;

import java.util.function.Function;

/**
 * One of the server's HTTP listeners: a verticle deployed once per event loop
 * ({@code server.instances}), serving the shared port from its own context. The database pools
 * meant for it are opened on that context as well ({@link LoopLocalConnector}), so a request and
 * its statements stay on one event loop. It starts without listening: the server first connects
 * the project from every listener's loop, then has each listen.
 */
final class HttpInstance extends VerticleBase {
    private volatile Loop loop;

    @Override
    public Future<?> start() {
        loop = new Loop(context, Thread.currentThread());
        return Future.succeededFuture();
    }

    /** The event loop this listener runs on (set once deployed). */
    Loop loop() {
        return loop;
    }

    /**
     * Listens from this listener's context, with a router of its own made by {@code routes}.
     * Closing is up to the caller (or undeploying, which closes what the context opened).
     */
    Future<HttpServer> listen(HttpServerOptions options, Handler<HttpConnection> connections,
                              Function<io.vertx.core.Vertx, Router> routes) {
        // made and bound on a worker, in this listener's context (its connections are served on its
        // loop): the router and the first bind load and link classes, which would hold the loop
        return context.executeBlocking(() -> vertx.createHttpServer(options)
                        .connectionHandler(connections)
                        .requestHandler(routes.apply(vertx))
                        .listen(), false)
                .compose(listening -> listening);
    }
}

package dev.hyperterse.server;

import io.vertx.core.DeploymentOptions;
import io.vertx.core.Future;
import io.vertx.core.Handler;
import io.vertx.core.Vertx;
import io.vertx.core.http.HttpConnection;
import io.vertx.core.http.HttpServer;
import io.vertx.core.http.HttpServerOptions;
import io.vertx.ext.web.Router;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import java.util.function.Function;

/**
 * The server's HTTP listeners: {@link HttpInstance} deployed {@code server.instances} times
 * (Vert.x gives each instance its own event-loop context, round-robin over the event loops) and
 * all listening on one port, which Vert.x shares between them: each new connection goes to the
 * next listener in turn, and its requests are served on that listener's loop.
 */
final class Listeners {
    /** Local map handing out the negative port numbers by which listeners share a random port. */
    private static final String SHARED_RANDOM_PORTS = "hyperterse.listeners.random-ports";

    private final Vertx vertx;
    private final String deployment;
    private final List<HttpInstance> instances;
    private final List<HttpServer> servers = new CopyOnWriteArrayList<>();

    private Listeners(Vertx vertx, String deployment, List<HttpInstance> instances) {
        this.vertx = vertx;
        this.deployment = deployment;
        this.instances = List.copyOf(instances);
    }

    /** Deploys {@code count} listeners, not yet listening. */
    static Future<Listeners> deploy(Vertx vertx, int count) {
        List<HttpInstance> made = new CopyOnWriteArrayList<>();
        return vertx.deployVerticle(() -> {
                    HttpInstance instance = new HttpInstance();
                    made.add(instance);
                    return instance;
                }, new DeploymentOptions().setInstances(count))
                .map(id -> new Listeners(vertx, id, made));
    }

    int count() {
        return instances.size();
    }

    /**
     * The distinct event loops the listeners run on, in deployment order (more listeners than
     * event loops share loops, and each loop is named once).
     */
    List<Loop> loops() {
        Map<Thread, Loop> distinct = new LinkedHashMap<>();
        for (HttpInstance instance : instances) {
            distinct.putIfAbsent(instance.loop().thread(), instance.loop());
        }
        return List.copyOf(distinct.values());
    }

    /**
     * Has every listener listen on {@code options}' port; port 0 picks one free port that they
     * all share. The first listener binds first, so a port in use fails once, clearly.
     *
     * @return the port bound
     */
    Future<Integer> listen(HttpServerOptions options, Handler<HttpConnection> connections,
                           Function<Vertx, Router> routes) {
        HttpServerOptions shared = new HttpServerOptions(options);
        if (options.getPort() == 0 && instances.size() > 1) {
            // a negative port is Vert.x's way to share one random port among the servers asking for it
            int key = vertx.sharedData().<String, Integer>getLocalMap(SHARED_RANDOM_PORTS)
                    .merge("last", 1, (a, b) -> a % 60_000 + b);
            shared.setPort(-key);
        }
        return instances.get(0).listen(shared, connections, routes).compose(first -> {
            servers.add(first);
            List<Future<HttpServer>> others = new ArrayList<>();
            for (HttpInstance instance : instances.subList(1, instances.size())) {
                others.add(instance.listen(shared, connections, routes).onSuccess(servers::add));
            }
            return Future.all(others).map(x -> first.actualPort());
        });
    }

    /** The port bound, or -1 before listening. */
    int port() {
        return servers.isEmpty() ? -1 : servers.get(0).actualPort();
    }

    /** Stops accepting connections at once and gives open ones until {@code millis} to finish. */
    Future<Void> shutdown(long millis) {
        return Future.join(servers.stream().map(s -> s.shutdown(millis, TimeUnit.MILLISECONDS)).toList()).mapEmpty();
    }

    /** Closes every listener and its connections at once. */
    Future<Void> close() {
        return Future.join(servers.stream().map(HttpServer::close).toList()).mapEmpty();
    }

    /** Undeploys the listeners; what their contexts opened and was not closed yet is closed with them. */
    Future<Void> undeploy() {
        return vertx.undeploy(deployment).recover(e -> Future.succeededFuture());
    }
}

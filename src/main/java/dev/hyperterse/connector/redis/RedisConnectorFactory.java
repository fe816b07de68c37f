package dev.hyperterse.connector.redis;

import dev.hyperterse.connector.CompiledStatement;
import dev.hyperterse.connector.Connector;
import dev.hyperterse.connector.ConnectorException;
import dev.hyperterse.connector.ConnectorFactory;
import dev.hyperterse.connector.Failures;
import dev.hyperterse.connector.StatementDialect;
import dev.hyperterse.connector.StatementException;
import dev.hyperterse.model.AdapterDef;
import io.vertx.core.Future;
import io.vertx.core.Vertx;
import io.vertx.redis.client.Command;
import io.vertx.redis.client.Redis;
import io.vertx.redis.client.Request;

import java.nio.file.Path;
import java.util.Map;

/**
 * {@code connector: redis}: a statement is one command ({@code HGETALL user:{{ inputs.id }}}),
 * split into words before any value is pasted (see {@link RedisCommandTemplate}).
 *
 * <p>{@code connection_string}: {@code redis://[user:password@]host[:port][/db]}, {@code rediss://}
 * for TLS. Options: {@code max_connections} (default 10), {@code connect_timeout} (default 5s),
 * {@code idle_timeout} (default 10m), {@code ssl_ca} (a PEM CA to trust for {@code rediss://}).
 */
public final class RedisConnectorFactory implements ConnectorFactory {

    @Override
    public String type() {
        return "redis";
    }

    @Override
    public StatementDialect dialect() {
        return StatementDialect.REDIS;
    }

    @Override
    public CompiledStatement compile(String template, Map<String, String> env) throws StatementException {
        return RedisCommandTemplate.compile(template, env);
    }

    @Override
    public java.util.List<String> check(AdapterDef adapter, Path projectDir) {
        return RedisSettings.parse(adapter.name(), adapter.connectionString(), adapter.options()).warnings();
    }

    @Override
    public int splittableConnections(AdapterDef adapter) {
        try {
            return RedisSettings.parse(adapter.name(), adapter.connectionString(), adapter.options()).maxConnections();
        } catch (ConnectorException e) {
            return 0;
        }
    }

    @Override
    public Future<Connector> connect(Vertx vertx, AdapterDef adapter, Path projectDir) {
        return connect(vertx, adapter, projectDir, 0);
    }

    /** @param maxConnections this pool's share of the adapter's connections, or 0 for all of them */
    @Override
    public Future<Connector> connect(Vertx vertx, AdapterDef adapter, Path projectDir, int maxConnections) {
        RedisSettings settings;
        try {
            settings = RedisSettings.parse(adapter.name(), adapter.connectionString(), adapter.options());
        } catch (ConnectorException e) {
            return Future.failedFuture(e);
        }
        if (maxConnections > 0) {
            settings = settings.withMaxConnections(maxConnections);
        }
        Redis client = Redis.createClient(vertx, settings.redisOptions(projectDir));
        String where = settings.endpoint().describe();
        return client.send(Request.cmd(Command.PING))
                .<Connector>map(pong -> new RedisConnector(vertx, adapter.name(), client, where))
                .recover(e -> client.close().transform(closed -> Future.failedFuture(new ConnectorException(
                        "cannot connect to Redis at " + where + ": " + Failures.oneLine(e), e))));
    }
}

package dev.hyperterse.connector.redis;

import dev.hyperterse.connector.CompiledStatement;
import dev.hyperterse.connector.Connector;
import dev.hyperterse.connector.ConnectorException;
import dev.hyperterse.connector.SettingsConnectorFactory;
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
import java.util.List;
import java.util.Map;

/**
 * {@code connector: redis}: a statement is one command ({@code HGETALL user:{{ inputs.id }}}),
 * split into words before any value is pasted (see {@link RedisCommandTemplate}).
 *
 * <p>{@code connection_string}: {@code redis://[user:password@]host[:port][/db]}, {@code rediss://}
 * for TLS. Options: {@code max_connections} (default 10), {@code connect_timeout} (default 5s),
 * {@code idle_timeout} (default 10m), {@code ssl_ca} (a PEM CA to trust for {@code rediss://}).
 */
public final class RedisConnectorFactory extends SettingsConnectorFactory<RedisSettings> {

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
    protected RedisSettings settings(AdapterDef adapter) {
        return RedisSettings.parse(adapter.name(), adapter.connectionString(), adapter.options());
    }

    @Override
    protected List<String> warnings(RedisSettings settings) {
        return settings.warnings();
    }

    @Override
    protected int maxConnections(RedisSettings settings) {
        return settings.maxConnections();
    }

    @Override
    protected Future<Connector> open(Vertx vertx, AdapterDef adapter, Path projectDir, RedisSettings settings,
                                     int maxConnections) {
        RedisSettings pool = maxConnections > 0 ? settings.withMaxConnections(maxConnections) : settings;
        Redis client = Redis.createClient(vertx, pool.redisOptions(projectDir));
        String where = settings.endpoint().describe();
        return client.send(Request.cmd(Command.PING))
                .<Connector>map(pong -> new RedisConnector(vertx, adapter.name(), client, where))
                .recover(e -> client.close().transform(closed -> Future.failedFuture(new ConnectorException(
                        "cannot connect to Redis at " + where + ": " + Failures.oneLine(e), e))));
    }
}

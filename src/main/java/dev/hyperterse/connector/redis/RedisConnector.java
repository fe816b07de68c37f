package dev.hyperterse.connector.redis;

import dev.hyperterse.model.Counted;
import dev.hyperterse.connector.CompiledStatement;
import dev.hyperterse.connector.Connector;
import dev.hyperterse.connector.ConnectorException;
import dev.hyperterse.connector.Failures;
import dev.hyperterse.connector.QueryOptions;
import dev.hyperterse.connector.QueryResult;
import dev.hyperterse.connector.StatementDialect;
import io.vertx.core.Future;
import io.vertx.core.Promise;
import io.vertx.core.Vertx;
import io.vertx.redis.client.Command;
import io.vertx.redis.client.Redis;
import io.vertx.redis.client.Request;
import io.vertx.redis.client.Response;

import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * One redis adapter: the Vert.x Redis client's connection pool. A call sends one command and
 * maps its reply ({@link RedisReplies}). Redis runs commands one at a time and offers no way to
 * stop one, so a time limit or a cancellation fails the call at once and the command finishes on
 * its own (blocking commands such as BLPOP should carry their own timeout argument).
 */
final class RedisConnector implements Connector {
    private final Vertx vertx;
    private final String adapterName;
    private final Redis client;
    /** {@code host:port/db} for messages. */
    private final String where;
    private final Map<String, RedisCommand> commands = new ConcurrentHashMap<>();

    RedisConnector(Vertx vertx, String adapterName, Redis client, String where) {
        this.vertx = vertx;
        this.adapterName = adapterName;
        this.client = client;
        this.where = where;
    }

    @Override
    public String adapterName() {
        return adapterName;
    }

    @Override
    public StatementDialect dialect() {
        return StatementDialect.REDIS;
    }

    @Override
    public Future<Void> ping() {
        return client.send(Request.cmd(Command.PING)).<Void>mapEmpty()
                .recover(e -> Future.failedFuture(Failures.of(e, where, Failures::oneLine)));
    }

    /** The command must exist on this server and accept the template's number of arguments. */
    @Override
    public Future<Void> check(CompiledStatement statement) {
        if (statement.dialect() != StatementDialect.REDIS) {
            return Future.failedFuture(new IllegalArgumentException("statement compiled for " + statement.dialect()));
        }
        RedisCommand command = command(statement);
        return client.send(Request.cmd(Command.COMMAND).arg("INFO").arg(command.name()))
                .recover(e -> Future.failedFuture(Failures.of(e, where, Failures::oneLine)))
                .compose(reply -> {
                    Response info = reply == null || reply.size() == 0 ? null : reply.get(0);
                    if (info == null) {
                        return Future.failedFuture(new ConnectorException("unknown Redis command '" + command.name() + "'"));
                    }
                    int arity = info.get(1).toInteger();
                    int given = command.words().size();
                    if (arity > 0 && given != arity) {
                        return Future.failedFuture(new ConnectorException(command.name() + " takes " + arguments(arity - 1)
                                + ", the statement gives " + (given - 1)));
                    }
                    if (arity < 0 && given < -arity) {
                        return Future.failedFuture(new ConnectorException(command.name() + " takes at least "
                                + arguments(-arity - 1) + ", the statement gives " + (given - 1)));
                    }
                    return Future.<Void>succeededFuture();
                });
    }

    private static String arguments(int n) {
        return n == 1 ? "1 argument" : n + " arguments";
    }

    @Override
    public Future<QueryResult> execute(CompiledStatement statement, List<Object> values, QueryOptions options) {
        if (statement.dialect() != StatementDialect.REDIS) {
            return Future.failedFuture(new IllegalArgumentException("statement compiled for " + statement.dialect()));
        }
        if (values.size() != statement.parameters().size()) {
            return Future.failedFuture(new IllegalArgumentException("statement has "
                    + Counted.of(statement.parameters().size(), "parameter") + " but "
                    + Counted.of(values.size(), "value was", "values were") + " given"));
        }
        if (options.rowLimit() < 1) {
            return Future.failedFuture(new IllegalArgumentException("row limit must be at least 1, was "
                    + options.rowLimit()));
        }
        if (options.byteLimit() < 1) {
            return Future.failedFuture(new IllegalArgumentException("result size limit must be at least 1 byte, was "
                    + options.byteLimit()));
        }
        RedisCommand command = command(statement);
        Request request = Request.cmd(Command.create(command.name()));
        try {
            command.arguments(statement, values).forEach(request::arg);
        } catch (ConnectorException e) {
            return Future.failedFuture(e);
        }
        Promise<QueryResult> result = Promise.promise();
        Duration timeout = options.timeout();
        long timer = timeout == null || timeout.isZero() || timeout.isNegative() ? -1
                : vertx.setTimer(Math.max(1, timeout.toMillis()), id -> result.tryFail(Failures.timedOut(timeout)));
        options.cancellation().onSuccess(ignored -> result.tryFail(new ConnectorException("statement cancelled")));
        client.send(request).onComplete(done -> {
            if (timer >= 0) {
                vertx.cancelTimer(timer);
            }
            if (done.succeeded()) {
                result.tryComplete(RedisReplies.row(done.result(), options.budget()));
            } else {
                result.tryFail(Failures.of(done.cause(), where, Failures::oneLine));
            }
        });
        return result.future();
    }

    private RedisCommand command(CompiledStatement statement) {
        return commands.computeIfAbsent(statement.text(), text -> RedisCommand.of(statement));
    }

    @Override
    public Future<Void> close() {
        return client.close();
    }
}

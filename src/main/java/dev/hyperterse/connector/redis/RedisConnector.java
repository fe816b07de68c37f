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
import io.vertx.redis.client.RedisConnection;
import io.vertx.redis.client.Request;
import io.vertx.redis.client.Response;
import io.vertx.redis.client.impl.PooledRedisConnection;

import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicReference;

/**
 * One redis adapter: the Vert.x Redis client's connection pool. A call takes a connection, sends
 * one command and maps its reply ({@link RedisReplies}). Redis offers no way to stop a command, so
 * a time limit or a cancellation fails the call at once and closes the call's connection: a
 * blocking command such as {@code BLPOP key 0} ends with it, and one that is already running
 * finishes on its own.
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
        // the connection the command runs on, once it has one; taken (set to DONE) by whichever
        // comes first, the reply or the end of the call
        AtomicReference<Object> held = new AtomicReference<>();
        Duration timeout = options.timeout();
        long timer = timeout == null || timeout.isZero() || timeout.isNegative() ? -1
                : vertx.setTimer(Math.max(1, timeout.toMillis()), id -> {
                    if (result.tryFail(Failures.timedOut(timeout))) {
                        abandon(held);
                    }
                });
        options.cancellation().onSuccess(ignored -> {
            if (result.tryFail(new ConnectorException("statement cancelled"))) {
                abandon(held);
            }
        });
        client.connect().onComplete(connected -> {
            if (connected.failed()) {
                cancel(timer);
                result.tryFail(Failures.of(connected.cause(), where, Failures::oneLine));
                return;
            }
            RedisConnection conn = connected.result();
            if (!held.compareAndSet(null, conn)) {
                // the call ended while it waited for a connection: the command is never sent
                conn.close();
                return;
            }
            conn.send(request).onComplete(done -> {
                cancel(timer);
                if (held.getAndSet(DONE) != DONE) {
                    conn.close();
                }
                if (done.succeeded()) {
                    result.tryComplete(RedisReplies.row(done.result(), options.budget()));
                } else {
                    result.tryFail(Failures.of(done.cause(), where, Failures::oneLine));
                }
            });
        });
        return result.future();
    }

    /** In place of a call's connection once it was given back or discarded, so that happens once. */
    private static final Object DONE = new Object();

    private void cancel(long timer) {
        if (timer >= 0) {
            vertx.cancelTimer(timer);
        }
    }

    /**
     * The call ended before its reply: the command still runs on the server and would hold the
     * connection until it finishes (a {@code BLPOP key 0} for ever, taking the pool's connections
     * one by one and, with no time limit of its own, popping an element no caller will see). Its
     * connection is closed instead, which ends the command on the server, and the pool opens a
     * fresh one. A call still waiting for a connection sends nothing.
     */
    private static void abandon(AtomicReference<Object> held) {
        Object taken = held.getAndSet(DONE);
        if (!(taken instanceof RedisConnection)) {
            return;
        }
        RedisConnection conn = (RedisConnection) taken;
        if (!(conn instanceof PooledRedisConnection)) {
            conn.close();
            return;
        }
        PooledRedisConnection pooled = (PooledRedisConnection) conn;
        // given back only once closed: the pool has dropped it by then, where given back at once
        // the next caller would have been handed a connection on its way out
        pooled.endHandler(ended -> pooled.close());
        pooled.actual().forceClose();
    }

    private RedisCommand command(CompiledStatement statement) {
        return commands.computeIfAbsent(statement.text(), text -> RedisCommand.of(statement));
    }

    @Override
    public Future<Void> close() {
        return client.close();
    }
}

package dev.hyperterse.testing;

import dev.hyperterse.connector.CompiledStatement;
import dev.hyperterse.connector.Connector;
import dev.hyperterse.connector.ConnectorException;
import dev.hyperterse.connector.ConnectorFactory;
import dev.hyperterse.connector.QueryOptions;
import dev.hyperterse.connector.QueryResult;
import dev.hyperterse.model.ResultCut;
import dev.hyperterse.connector.StatementDialect;
import dev.hyperterse.model.AdapterDef;
import io.vertx.core.Future;
import io.vertx.core.Promise;
import io.vertx.core.Vertx;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;

import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * {@code connector: delay}, for operations tests that need calls of a known length without
 * burning CPU: a statement's first bound value is how many milliseconds it "runs" (on a Vert.x
 * timer), and the result is {@code [{"slept": ms, "adapter": name}]}. Counts what it did, and
 * its pings fail while {@link #down} is set.
 */
public final class DelayConnectors implements ConnectorFactory {
    public static final String TYPE = "delay";
    /** Tool {@code slow}: waits {@code inputs.ms} milliseconds on adapter {@code slow}. */
    public static final String SLOW_TOOL = "description: 'Waits'\nuse: slow\nstatement: SELECT {{ inputs.ms }}\n"
            + "inputs:\n  ms:\n    type: int\n";

    public final AtomicBoolean down = new AtomicBoolean();
    public final AtomicInteger opened = new AtomicInteger();
    public final AtomicInteger closed = new AtomicInteger();
    /** Statements still running when their connector was closed: calls a close cut off. */
    public final AtomicInteger cutOff = new AtomicInteger();
    /** Statements run (each, cached or not, reached the connector). */
    public final AtomicInteger executed = new AtomicInteger();

    /**
     * Copies the quickstart example into {@code scratch} and adds adapter {@code slow} ({@code
     * connector: delay}) and tool {@link #SLOW_TOOL}; returns the project folder.
     */
    public static Path quickstartWithSlowTool(Path scratch) {
        Path project = RunningServer.copyExample("quickstart", scratch);
        ProjectFiles.write(project, "app/adapters/slow.terse", "connector: delay\nconnection_string: 'delay://'\n");
        RunningServer.writeTool(project, "slow", SLOW_TOOL);
        return project;
    }

    @Override
    public String type() {
        return TYPE;
    }

    @Override
    public StatementDialect dialect() {
        return StatementDialect.SQLITE;
    }

    @Override
    public java.util.List<String> check(AdapterDef adapter, Path projectDir) {
        return java.util.List.of();
    }

    @Override
    public Future<Connector> connect(Vertx vertx, AdapterDef adapter, Path projectDir) {
        opened.incrementAndGet();
        return Future.succeededFuture(new DelayConnector(vertx, adapter.name()));
    }

    private final class DelayConnector implements Connector {
        private final Vertx vertx;
        private final String name;
        private final AtomicInteger running = new AtomicInteger();
        private volatile boolean isClosed;

        DelayConnector(Vertx vertx, String name) {
            this.vertx = vertx;
            this.name = name;
        }

        @Override
        public String adapterName() {
            return name;
        }

        @Override
        public StatementDialect dialect() {
            return StatementDialect.SQLITE;
        }

        @Override
        public Future<Void> check(CompiledStatement statement) {
            return Future.succeededFuture();
        }

        @Override
        public Future<Void> ping() {
            return down.get() ? Future.failedFuture(new ConnectorException("connection refused (password=hunter2)"))
                    : Future.succeededFuture();
        }

        @Override
        public Future<QueryResult> execute(CompiledStatement statement, List<Object> values, QueryOptions options) {
            if (isClosed) {
                return Future.failedFuture(new ConnectorException("pool closed"));
            }
            long ms = values.isEmpty() || values.get(0) == null ? 0 : ((Number) values.get(0)).longValue();
            Promise<QueryResult> result = Promise.promise();
            executed.incrementAndGet();
            running.incrementAndGet();
            Runnable done = () -> {
                running.decrementAndGet();
                if (isClosed) {
                    result.tryFail(new ConnectorException("pool closed"));
                } else {
                    result.tryComplete(new QueryResult(new JsonArray().add(new JsonObject().put("slept", ms)
                            .put("adapter", name)), ResultCut.NONE));
                }
            };
            if (ms <= 0) {
                done.run();
            } else {
                vertx.setTimer(ms, id -> done.run());
            }
            return result.future();
        }

        @Override
        public Future<Void> close() {
            isClosed = true;
            cutOff.addAndGet(running.get());
            closed.incrementAndGet();
            return Future.succeededFuture();
        }
    }
}

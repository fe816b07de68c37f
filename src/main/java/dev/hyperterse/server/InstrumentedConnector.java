package dev.hyperterse.server;

import dev.hyperterse.connector.CompiledStatement;
import dev.hyperterse.connector.Connector;
import dev.hyperterse.connector.QueryOptions;
import dev.hyperterse.connector.QueryResult;
import dev.hyperterse.connector.ResultColumns;
import dev.hyperterse.connector.StatementDialect;
import dev.hyperterse.telemetry.Telemetry;
import dev.hyperterse.telemetry.TraceSpan;
import io.vertx.core.Future;

import java.util.List;
import java.util.Locale;
import java.util.function.Supplier;

/**
 * A connector as the pipeline sees it: every operation is counted and timed by adapter and
 * connector type, and each statement run gets a span ({@code query <adapter>}, with
 * {@code db.system}) under which the database client's own spans nest. Connectors stay free of
 * telemetry.
 */
final class InstrumentedConnector implements Connector {
    private final Connector delegate;
    private final String type;
    private final String dbSystem;
    private final Telemetry telemetry;

    InstrumentedConnector(Connector delegate, String type, Telemetry telemetry) {
        this.delegate = delegate;
        this.type = type;
        this.dbSystem = dbSystem(type);
        this.telemetry = telemetry;
    }

    /** OpenTelemetry's {@code db.system} names for the connector keywords. */
    static String dbSystem(String type) {
        switch (type.toLowerCase(Locale.ROOT)) {
            case "postgres":
            case "postgresql":
                return "postgresql";
            case "mysql":
                return "mysql";
            case "mariadb":
                return "mariadb";
            default:
                return type.toLowerCase(Locale.ROOT);
        }
    }

    /** The connector keyword ({@code sqlite}, {@code postgres}, …). */
    String type() {
        return type;
    }

    @Override
    public String adapterName() {
        return delegate.adapterName();
    }

    @Override
    public StatementDialect dialect() {
        return delegate.dialect();
    }

    @Override
    public Future<Void> check(CompiledStatement statement) {
        return timed("check", delegate::check, statement);
    }

    @Override
    public Future<ResultColumns> describe(CompiledStatement statement) {
        return timed("check", delegate::describe, statement);
    }

    @Override
    public Future<Void> ping() {
        long started = System.nanoTime();
        return delegate.ping().andThen(ar -> record("ping", ar.succeeded(), started));
    }

    @Override
    public Future<QueryResult> execute(CompiledStatement statement, List<Object> values, QueryOptions options) {
        long started = System.nanoTime();
        TraceSpan span = TraceSpan.NONE;
        if (telemetry.tracing().enabled()) {
            span = telemetry.tracing().start("query " + adapterName());
            span.set("db.system", dbSystem).set("hyperterse.adapter", adapterName()).set("hyperterse.connector", type);
        }
        TraceSpan traced = span;
        Supplier<Future<QueryResult>> run = () -> delegate.execute(statement, values, options);
        return telemetry.tracing().within(traced, run).andThen(ar -> {
            if (ar.succeeded()) {
                traced.set("hyperterse.rows", ar.result().rows().size());
                if (ar.result().truncated()) {
                    traced.set("hyperterse.truncated", true);
                }
            } else {
                traced.fail(ar.cause().getClass().getSimpleName(), ar.cause().getMessage());
            }
            traced.end();
            record("execute", ar.succeeded(), started);
        });
    }

    @Override
    public Future<Void> close() {
        return delegate.close();
    }

    private <T> Future<T> timed(String operation, java.util.function.Function<CompiledStatement, Future<T>> call,
                                CompiledStatement statement) {
        long started = System.nanoTime();
        return call.apply(statement).andThen(ar -> record(operation, ar.succeeded(), started));
    }

    private void record(String operation, boolean ok, long started) {
        telemetry.metrics().connectorOperation(adapterName(), type, operation, ok ? "ok" : "error",
                System.nanoTime() - started);
    }
}

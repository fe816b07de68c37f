package dev.hyperterse.telemetry;

import java.util.function.DoubleSupplier;
import java.util.function.Supplier;

/**
 * Metrics that pass every event on to the metrics they wrap: the base of a wrapper that changes or
 * observes only some events (it overrides those), so an event a wrapper does not mention is never
 * dropped, including one added to {@link Metrics} later.
 */
public abstract class ForwardingMetrics implements Metrics {
    /** The metrics every event goes on to. */
    protected final Metrics metrics;

    protected ForwardingMetrics(Metrics metrics) {
        this.metrics = metrics;
    }

    @Override
    public void request(String method, String status, long nanos) {
        metrics.request(method, status, nanos);
    }

    @Override
    public void toolCall(String tool, String outcome, long nanos) {
        metrics.toolCall(tool, outcome, nanos);
    }

    @Override
    public boolean recordsCalls() {
        return metrics.recordsCalls();
    }

    @Override
    public void callFinished(String tool, String caller, Supplier<String> inputs, String outcome, String error,
                             String cache, long nanos) {
        metrics.callFinished(tool, caller, inputs, outcome, error, cache, nanos);
    }

    @Override
    public void cacheLookup(String tool, boolean hit) {
        metrics.cacheLookup(tool, hit);
    }

    @Override
    public void connectorOperation(String adapter, String connector, String operation, String outcome, long nanos) {
        metrics.connectorOperation(adapter, connector, operation, outcome, nanos);
    }

    @Override
    public void scriptCall(String tool, String outcome, long nanos) {
        metrics.scriptCall(tool, outcome, nanos);
    }

    @Override
    public void scriptWorkerBusy(long queuedNanos) {
        metrics.scriptWorkerBusy(queuedNanos);
    }

    @Override
    public void scriptQueueTimedOut(long waitedNanos) {
        metrics.scriptQueueTimedOut(waitedNanos);
    }

    @Override
    public void scriptWorkerIdle() {
        metrics.scriptWorkerIdle();
    }

    @Override
    public void scriptContextsChanged(int delta) {
        metrics.scriptContextsChanged(delta);
    }

    @Override
    public void reload(boolean applied) {
        metrics.reload(applied);
    }

    @Override
    public void gauge(String name, String description, DoubleSupplier value) {
        metrics.gauge(name, description, value);
    }
}

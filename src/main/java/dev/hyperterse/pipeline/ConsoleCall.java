package dev.hyperterse.pipeline;

import io.vertx.core.json.JsonObject;

import java.util.function.Supplier;

/**
 * What the web console is told of one call besides its tool, outcome and duration, gathered along
 * the call: its cache lookup, and its inputs as traces show them ({@link TracedInputs#of}), made
 * into text when the Live page reads them. The pipeline makes one per call only when its metrics
 * record calls ({@link dev.hyperterse.telemetry.Metrics#recordsCalls}: the console is on); without
 * the console no call makes one.
 */
final class ConsoleCall implements Supplier<String> {
    /**
     * The inputs while the call runs, and after it when they are small (at most
     * {@link TracedInputs#MAX_VALUES} values, short names and strings, numbers of a fixed size), so
     * that keeping them holds no more than their text would; their text once the call ended when
     * they are larger. Nothing changes a call's inputs once it ended, so the text is the same
     * whenever it is made.
     */
    private Object inputs;
    private String cache;

    ConsoleCall(JsonObject inputs) {
        this.inputs = inputs;
    }

    /** The call's result was looked up in the cache: found, or loaded. */
    void cacheLookup(boolean hit) {
        cache = hit ? "hit" : "miss";
    }

    /** {@code hit} or {@code miss} when the call looked up the cache, else null. */
    String cache() {
        return cache;
    }

    /** The call ended: large inputs become their text now, so the console never holds a large request. */
    ConsoleCall ended() {
        if (inputs instanceof JsonObject && !TracedInputs.small((JsonObject) inputs)) {
            inputs = TracedInputs.of((JsonObject) inputs);
        }
        return this;
    }

    /** The inputs as traces show them; asked for on any thread, any number of times, after {@link #ended}. */
    @Override
    public String get() {
        Object kept = inputs;
        return kept instanceof String ? (String) kept : TracedInputs.of((JsonObject) kept);
    }
}

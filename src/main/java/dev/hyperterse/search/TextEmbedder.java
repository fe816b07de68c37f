package dev.hyperterse.search;

import java.util.Optional;

/**
 * Turns text into a unit-length vector whose dot product with another text's measures how close
 * their meanings are. Implementations are safe to call from several threads at once and may
 * take milliseconds per call: never call one on an event loop.
 */
public interface TextEmbedder {

    /**
     * The model and its version: vectors cached under another name are not reused.
     */
    String model();

    /**
     * The models whose vectors this one's are, one after another: one name for one model. With
     * {@code n} of them, each model's unit vector scaled by {@code 1/√n} takes a part of equal length,
     * so the whole is unit length and each model's cosine is {@code n} times its part's dot product.
     */
    default java.util.List<String> models() {
        return java.util.List.of(model());
    }

    /** The text's vector, unit length. */
    float[] embed(String text);

    /**
     * The text's vector where only the first of {@link #models()} is read: that model's part as
     * {@link #embed} gives it, the other models' parts zeros (not unit length with several models). For
     * a cosine by the first model alone, which then runs no other model. One model: {@link #embed}.
     */
    default float[] embedFirst(String text) {
        return embed(text);
    }

    /**
     * The text's vector ({@link #embed}, from the same run of the models) with the vectors each model gives
     * its tokens, for a late-interaction reading ({@link TokenVectors}); null when this embedder gives none
     * (the static table: its tokens' vectors know no context).
     */
    default TokenVectors embedTokens(String text) {
        return null;
    }

    /**
     * A text's vector as {@link #embed} gives it, and per model of {@link #models()} its tokens' vectors in
     * context, each unit length, one after another ({@code tokens[m].length / count(m)} floats each), the
     * model's markers of where a text starts and ends left out.
     */
    record TokenVectors(float[] vector, float[][] tokens) {
        /** How many token vectors model {@code model} gave. */
        int count(int model) {
            return tokens[model].length == 0 ? 0 : tokens[model].length / width();
        }

        /** How many numbers a token vector has (every model's as many: a model's part of {@link #vector}). */
        int width() {
            return vector.length / tokens.length;
        }
    }

    /**
     * Makes the model ready to answer (loads it, for a model loaded on first use), so that the
     * first search does not wait for it; blocking.
     */
    default void load() {
    }

    /**
     * Once loaded: why the model runs otherwise than it is meant to (the same vectors at a higher cost,
     * say), for the log; null when it runs as meant.
     */
    default String degraded() {
        return null;
    }

    /**
     * The semantic ranking's models, from the add-on beside the server's jar (two models, read
     * together, {@link #models()}), or empty when the server runs without it. The models load on the
     * first {@link #embed}.
     */
    static Optional<TextEmbedder> bundled() {
        return BundledEmbedder.instance();
    }

    /**
     * Null when {@link #bundled()} has the models, else what the server lacks for them and where it
     * belongs ("the add-on hyperterse-semantic.jar … beside hyperterse.jar in /opt/x, …").
     */
    static String bundledMissing() {
        return BundledEmbedder.missing();
    }

    /**
     * Null unless {@link #bundled()}'s models come from an add-on of another release than the server,
     * else what to say of it. Reads the add-on's manifest: off the event loop.
     */
    static String bundledOtherRelease() {
        return BundledEmbedder.otherRelease();
    }

    /** Whether the process is stopping, so that the models start no new work (a failure then is no fault of theirs). */
    static boolean processStopping() {
        return BundledEmbedder.NativeCalls.PROCESS.closing();
    }

    /** Thrown by a model's load or a text's embedding once the process is stopping: nothing is wrong with the model. */
    final class Stopping extends IllegalStateException {
        private static final long serialVersionUID = 1L;

        Stopping() {
            super("embedding model: the process is stopping");
        }
    }
}

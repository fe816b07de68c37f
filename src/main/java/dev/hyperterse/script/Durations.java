package dev.hyperterse.script;

import java.time.Duration;

/** Durations as messages show them: {@code 5s}, {@code 1500ms}, {@code 2m}. */
final class Durations {
    private Durations() {
    }

    static String show(Duration d) {
        long ms = d.toMillis();
        if (ms % 60_000 == 0 && ms > 0) {
            return ms / 60_000 + "m";
        }
        if (ms % 1000 == 0) {
            return ms / 1000 + "s";
        }
        return ms + "ms";
    }
}

package dev.hyperterse.model;

/** A number with its noun in the right form for messages: "1 tool", "2 tools", "0 tools". */
public final class Counted {

    private Counted() {
    }

    /** {@code n} and {@code noun}, with an "s" added unless {@code n} is 1. */
    public static String of(long n, String noun) {
        return of(n, noun, noun + "s");
    }

    /** {@code n} and {@code singular} when {@code n} is 1, else {@code plural}. */
    public static String of(long n, String singular, String plural) {
        return n + " " + (n == 1 ? singular : plural);
    }
}

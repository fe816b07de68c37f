package dev.hyperterse.pipeline;

/** The stages of one tool call, in order; used in errors, logs and traces. */
public enum Stage {
    RESOLUTION("tool resolution"),
    AUTH("auth"),
    INPUT_TRANSFORM("input transform"),
    INPUT_VALIDATION("input validation"),
    EXECUTION("execution"),
    HANDLER("handler"),
    OUTPUT_TRANSFORM("output transform"),
    OUTPUT_VALIDATION("output validation");

    private final String label;

    Stage(String label) {
        this.label = label;
    }

    /** The human name, e.g. {@code input validation}. */
    public String label() {
        return label;
    }

    /** The key used in {@code error.data.stage}, e.g. {@code input_validation}. */
    public String key() {
        return name().toLowerCase(java.util.Locale.ROOT);
    }
}

package dev.hyperterse.model;

/**
 * A value that does not fit an input's declaration; the message says why, without the field name.
 * {@code position} is where inside the input the value sits ({@code [3]}, {@code .address.city}),
 * empty for the input's own value.
 */
public final class InputValueException extends Exception {
    private static final long serialVersionUID = 1L;

    private final String position;

    public InputValueException(String reason) {
        this(reason, "");
    }

    public InputValueException(String reason, String position) {
        super(reason, null, false, false);
        this.position = position;
    }

    public String position() {
        return position;
    }

    /** The same reason, one level further out: {@code [3]} inside {@code .ids} is {@code .ids[3]}. */
    public InputValueException within(String step) {
        return new InputValueException(getMessage(), step + position);
    }
}

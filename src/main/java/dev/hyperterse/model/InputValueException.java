package dev.hyperterse.model;

/** A value that does not fit an input's declared type; the message says why, without the field name. */
public final class InputValueException extends Exception {
    private static final long serialVersionUID = 1L;

    public InputValueException(String reason) {
        super(reason, null, false, false);
    }
}

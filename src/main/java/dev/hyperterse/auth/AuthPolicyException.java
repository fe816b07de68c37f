package dev.hyperterse.auth;

/** An auth block whose policy cannot work (a start-up error). */
public final class AuthPolicyException extends Exception {
    private static final long serialVersionUID = 1L;

    public AuthPolicyException(String message) {
        super(message);
    }
}

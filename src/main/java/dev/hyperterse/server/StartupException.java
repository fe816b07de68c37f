package dev.hyperterse.server;

import java.util.List;

/** The server could not start; every reason is listed (file:line where there is one). */
public final class StartupException extends RuntimeException {
    private static final long serialVersionUID = 1L;
    private final transient List<String> reasons;

    public StartupException(List<String> reasons) {
        super(String.join("\n", reasons), null, false, false);
        this.reasons = List.copyOf(reasons);
    }

    public List<String> reasons() {
        return reasons;
    }
}

package dev.hyperterse.server;

import java.util.List;

/** The server could not start; every reason is listed (file:line where there is one). */
public final class StartupException extends RuntimeException {
    private static final long serialVersionUID = 1L;
    private final transient List<String> reasons;
    private final boolean portInUse;

    public StartupException(List<String> reasons) {
        this(reasons, false);
    }

    /** @param portInUse the listen port was taken, so the caller can suggest another */
    public StartupException(List<String> reasons, boolean portInUse) {
        super(String.join("\n", reasons), null, false, false);
        this.reasons = List.copyOf(reasons);
        this.portInUse = portInUse;
    }

    /** Whether start failed because another process listens on the port. */
    public boolean portInUse() {
        return portInUse;
    }

    public List<String> reasons() {
        return reasons;
    }
}

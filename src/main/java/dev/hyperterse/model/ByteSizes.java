package dev.hyperterse.model;

/** Byte counts as the project files write sizes, for messages that name a configured cap. */
public final class ByteSizes {
    private ByteSizes() {
    }

    /** {@code 4mb}, {@code 512kb}, or {@code 1000 bytes}. */
    public static String show(long bytes) {
        if (bytes > 0 && bytes % (1L << 20) == 0) {
            return (bytes >> 20) + "mb";
        }
        if (bytes > 0 && bytes % (1L << 10) == 0) {
            return (bytes >> 10) + "kb";
        }
        return bytes + " bytes";
    }
}

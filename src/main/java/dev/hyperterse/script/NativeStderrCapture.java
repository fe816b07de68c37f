package dev.hyperterse.script;

import com.sun.jna.Library;
import com.sun.jna.Native;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.Locale;
import java.util.regex.Pattern;

/**
 * Runs a call into swc4j's native library with the process's standard error (file descriptor 2)
 * captured, then writes back everything captured except Rust panic reports.
 *
 * <p>Why: swc4j 2.1+ reports every TypeScript syntax error by panicking inside its native code
 * (it treats the {@code Err(JavaException)} that jni-rs 0.22's {@code Env::throw} returns after a
 * successful throw as a failure). The panic is caught at the JNI boundary and the Java exception
 * with the real error still arrives, but Rust's panic hook has already written
 * {@code thread '<unnamed>' panicked at src/error.rs:…} (and a backtrace with
 * {@code RUST_BACKTRACE}) straight to descriptor 2, where no Java logging setting reaches, and
 * where it breaks {@code --log-format json}. The hook cannot be replaced from Java.
 *
 * <p>Descriptor 2 is one per process, so calls are serialized and whatever other threads write to
 * standard error meanwhile (log lines) is captured too and written back right after, in order. The
 * capture file is unlinked as soon as it is created, so nothing is left behind. Where the C
 * library cannot be reached (Windows, where Rust writes to the console handle instead), calls run
 * uncaptured.
 */
final class NativeStderrCapture {
    /** A call that may throw a checked exception of one type. */
    @FunctionalInterface
    interface NativeCall<T, E extends Exception> {
        T call() throws E;
    }

    /** The C functions used, all with fixed arguments (no varargs: safe on every ABI JNA maps). */
    interface CLibrary extends Library {
        int dup(int fd);

        int dup2(int fd, int target);

        int close(int fd);

        int mkstemp(byte[] template);

        int unlink(byte[] path);

        long lseek(int fd, long offset, int whence);

        long read(int fd, byte[] buffer, long count);
    }

    private static final int STDERR = 2;
    private static final int SEEK_SET = 0;
    /** Descriptor 2 is process-wide: one capture at a time across every engine in the process. */
    private static final Object PROCESS_STDERR = new Object();

    // "thread '<unnamed>' panicked at src/error.rs:145:26:" (Rust 1.80+ adds " (thread id)")
    private static final Pattern PANIC_HEADER = Pattern.compile("^thread '[^']*'( \\(\\d+\\))? panicked at .*");
    private static final Pattern BACKTRACE_LINE = Pattern.compile("^(stack backtrace:|\\s+\\d+:.*|\\s+at .*)$");

    private final CLibrary libc;

    private NativeStderrCapture(CLibrary libc) {
        this.libc = libc;
    }

    /** Captures on Linux and macOS; elsewhere (or if the C library does not load) passes calls through. */
    static NativeStderrCapture forThisProcess() {
        String os = System.getProperty("os.name", "").toLowerCase(Locale.ROOT);
        if (os.startsWith("windows")) {
            return new NativeStderrCapture(null);
        }
        try {
            return new NativeStderrCapture(Native.load("c", CLibrary.class));
        } catch (LinkageError e) {
            return new NativeStderrCapture(null);
        }
    }

    /** True when calls run with standard error captured. */
    boolean capturing() {
        return libc != null;
    }

    <T, E extends Exception> T run(NativeCall<T, E> call) throws E {
        if (libc == null) {
            return call.call();
        }
        synchronized (PROCESS_STDERR) {
            PrintStream err = System.err;
            err.flush();
            int capture = openCaptureFile();
            int saved = capture < 0 ? -1 : libc.dup(STDERR);
            if (saved < 0 || libc.dup2(capture, STDERR) < 0) {
                closeQuietly(capture);
                closeQuietly(saved);
                return call.call();
            }
            try {
                return call.call();
            } finally {
                err.flush();
                libc.dup2(saved, STDERR);
                libc.close(saved);
                String captured = readAndClose(capture);
                String kept = withoutRustPanics(captured);
                if (!kept.isEmpty()) {
                    err.print(kept);
                    err.flush();
                }
            }
        }
    }

    /** An anonymous temporary file's descriptor, or -1. */
    private int openCaptureFile() {
        String dir = System.getProperty("java.io.tmpdir", "/tmp");
        byte[] template = (dir + (dir.endsWith("/") ? "" : "/") + "hyperterse-stderr-XXXXXX\0")
                .getBytes(StandardCharsets.UTF_8);
        int fd = libc.mkstemp(template);
        if (fd >= 0) {
            libc.unlink(template);
        }
        return fd;
    }

    private String readAndClose(int fd) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        if (libc.lseek(fd, 0, SEEK_SET) == 0) {
            byte[] buffer = new byte[8192];
            long n;
            while ((n = libc.read(fd, buffer, buffer.length)) > 0) {
                out.write(buffer, 0, (int) n);
            }
        }
        libc.close(fd);
        return out.toString(StandardCharsets.UTF_8);
    }

    private void closeQuietly(int fd) {
        if (fd >= 0) {
            libc.close(fd);
        }
    }

    /**
     * The text without Rust panic reports: the {@code thread '…' panicked at} line, the message
     * line after it, a {@code stack backtrace:} section and the closing {@code note:} line (and the
     * blank line Rust writes before the report). Everything else is kept as it was.
     */
    static String withoutRustPanics(String text) {
        if (!text.contains("panicked at ")) {
            return text;
        }
        StringBuilder kept = new StringBuilder(text.length());
        String[] lines = text.split("(?<=\n)");
        int i = 0;
        while (i < lines.length) {
            String line = lines[i].stripTrailing();
            boolean blankBeforeHeader = line.isEmpty() && i + 1 < lines.length
                    && PANIC_HEADER.matcher(lines[i + 1].stripTrailing()).matches();
            if (blankBeforeHeader) {
                i++;
                continue;
            }
            if (!PANIC_HEADER.matcher(line).matches()) {
                kept.append(lines[i]);
                i++;
                continue;
            }
            i += 2; // the header and the panic message
            while (i < lines.length && BACKTRACE_LINE.matcher(lines[i].stripTrailing()).matches()) {
                i++;
            }
            if (i < lines.length && lines[i].stripTrailing().startsWith("note: ")) {
                i++;
            }
        }
        return kept.toString();
    }
}

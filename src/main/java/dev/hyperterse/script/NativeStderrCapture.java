package dev.hyperterse.script;

import com.sun.jna.Library;
import com.sun.jna.Native;
import com.sun.jna.Pointer;
import com.sun.jna.WString;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Locale;
import java.util.regex.Pattern;

/**
 * Runs a call into swc4j's native library with the process's standard error captured, then writes
 * back everything captured except Rust panic reports.
 *
 * <p>Why: swc4j 2.1+ reports every TypeScript syntax error by panicking inside its native code.
 * Its {@code error.rs} throws the Java exception with jni-rs 0.22's {@code Env::throw}, which
 * returns {@code Err(JavaException)} after a <em>successful</em> throw, and calls
 * {@code .expect("Couldn't call throw transpile error")} on that result. So the panic follows
 * every throw, whatever the caller does (class loader, thread, packaging: a plain class-path
 * program panics the same way); only swc4j can fix it. The panic is caught at the JNI boundary and
 * the Java exception with the real error still arrives, but Rust's panic hook has already written
 * {@code thread '<unnamed>' panicked at src/error.rs:145:26:} (and a backtrace with
 * {@code RUST_BACKTRACE}) straight to the process's standard error, where no Java logging setting
 * reaches, and where it breaks {@code --log-format json}. The hook cannot be replaced from Java.
 *
 * <p>How depends on how Rust finds standard error ({@link #methodFor}):
 * <ul>
 *   <li>Linux and macOS: file descriptor 2, redirected with {@code dup2} to an unlinked temporary
 *   file. Whatever other threads write to standard error meanwhile (log lines) is captured too and
 *   written back right after, in order.</li>
 *   <li>Windows: Rust asks {@code GetStdHandle(STD_ERROR_HANDLE)} for every write, so the C
 *   runtime's descriptor 2 is not what it uses; the standard error handle is switched with
 *   {@code SetStdHandle} to a temporary file for the call. Java's {@code System.err} keeps the
 *   handle it took at start-up, so log lines go out as usual meanwhile.</li>
 * </ul>
 * The standard streams are one per process, so calls are serialized. Where the system library
 * cannot be reached, calls run uncaptured.
 */
final class NativeStderrCapture {
    /** A call that may throw a checked exception of one type. */
    @FunctionalInterface
    interface NativeCall<T, E extends Exception> {
        T call() throws E;
    }

    /** How standard error is redirected around a call. */
    enum Method {
        /** {@code dup2} over file descriptor 2 (the C library). */
        DESCRIPTOR,
        /** {@code SetStdHandle(STD_ERROR_HANDLE, ...)} (kernel32). */
        HANDLE,
        /** Not at all: calls run uncaptured. */
        NONE
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

    /** The kernel32 functions used (64-bit Windows has one calling convention). */
    interface Kernel32 extends Library {
        Pointer GetStdHandle(int which);

        boolean SetStdHandle(int which, Pointer handle);

        Pointer CreateFileW(WString name, int access, int share, Pointer security, int disposition, int flags,
                            Pointer template);

        boolean CloseHandle(Pointer handle);
    }

    private static final int STDERR = 2;
    private static final int SEEK_SET = 0;
    private static final int STD_ERROR_HANDLE = -12;
    private static final int GENERIC_WRITE = 0x40000000;
    private static final int FILE_SHARE_ALL = 0x1 | 0x2 | 0x4;
    private static final int OPEN_EXISTING = 3;
    private static final int FILE_ATTRIBUTE_TEMPORARY = 0x100;
    /** Standard error is process-wide: one capture at a time across every engine in the process. */
    private static final Object PROCESS_STDERR = new Object();

    // "thread '<unnamed>' panicked at src/error.rs:145:26:" (Rust 1.80+ adds " (thread id)")
    private static final Pattern PANIC_HEADER = Pattern.compile("^thread '[^']*'( \\(\\d+\\))? panicked at .*");
    // indented with spaces: a Java stack trace's lines, which another thread may write meanwhile, start with a tab
    private static final Pattern BACKTRACE_LINE = Pattern.compile("^(stack backtrace:| +\\d+:.*| +at .*)$");
    /** The note Rust ends a report with ("note: run with `RUST_BACKTRACE=1` …", "note: Some details are omitted, …"). */
    private static final Pattern CLOSING_NOTE = Pattern.compile("^note: .*RUST_BACKTRACE.*$");
    /**
     * A line another thread wrote, not Rust: a JSON log line, a text log line (it starts with the time),
     * a Java stack trace's line (a tab).
     */
    private static final Pattern OTHER_THREAD_LINE = Pattern.compile("^(\\{|\\t|\\d{2}:\\d{2}:\\d{2})");
    /** How many lines of other threads a report may be interrupted by and still be recognized after them. */
    private static final int INTERRUPTION = 20;

    private final CLibrary libc;
    private final Kernel32 kernel32;

    private NativeStderrCapture(CLibrary libc, Kernel32 kernel32) {
        this.libc = libc;
        this.kernel32 = kernel32;
    }

    /** How a process on the system named {@code osName} (the {@code os.name} property) captures. */
    static Method methodFor(String osName) {
        return osName.toLowerCase(Locale.ROOT).startsWith("windows") ? Method.HANDLE : Method.DESCRIPTOR;
    }

    /** Captures as {@link #methodFor} says for this system; passes calls through if its library does not load. */
    static NativeStderrCapture forThisProcess() {
        try {
            return methodFor(System.getProperty("os.name", "")) == Method.HANDLE
                    ? new NativeStderrCapture(null, Native.load("kernel32", Kernel32.class))
                    : new NativeStderrCapture(Native.load("c", CLibrary.class), null);
        } catch (LinkageError e) {
            return new NativeStderrCapture(null, null);
        }
    }

    /** How this instance captures. */
    Method method() {
        return libc != null ? Method.DESCRIPTOR : kernel32 != null ? Method.HANDLE : Method.NONE;
    }

    /** True when calls run with standard error captured. */
    boolean capturing() {
        return method() != Method.NONE;
    }

    <T, E extends Exception> T run(NativeCall<T, E> call) throws E {
        return switch (method()) {
            case DESCRIPTOR -> runWithDescriptor(call);
            case HANDLE -> runWithHandle(call);
            case NONE -> call.call();
        };
    }

    private <T, E extends Exception> T runWithDescriptor(NativeCall<T, E> call) throws E {
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
                writeBack(readAndClose(capture));
            }
        }
    }

    private <T, E extends Exception> T runWithHandle(NativeCall<T, E> call) throws E {
        synchronized (PROCESS_STDERR) {
            Path file;
            try {
                file = Files.createTempFile("hyperterse-stderr-", ".txt");
            } catch (IOException e) {
                return call.call();
            }
            Pointer capture = kernel32.CreateFileW(new WString(file.toString()), GENERIC_WRITE, FILE_SHARE_ALL, null,
                    OPEN_EXISTING, FILE_ATTRIBUTE_TEMPORARY, null);
            Pointer saved = kernel32.GetStdHandle(STD_ERROR_HANDLE);
            if (invalid(capture) || !kernel32.SetStdHandle(STD_ERROR_HANDLE, capture)) {
                if (!invalid(capture)) {
                    kernel32.CloseHandle(capture);
                }
                deleteQuietly(file);
                return call.call();
            }
            try {
                return call.call();
            } finally {
                kernel32.SetStdHandle(STD_ERROR_HANDLE, saved);
                kernel32.CloseHandle(capture);
                try {
                    writeBack(Files.readString(file, StandardCharsets.UTF_8));
                } catch (IOException e) {
                    // nothing captured can be shown: the call's own result still stands
                }
                deleteQuietly(file);
            }
        }
    }

    private static boolean invalid(Pointer handle) {
        return handle == null || Pointer.nativeValue(handle) == -1L;
    }

    private static void deleteQuietly(Path file) {
        try {
            Files.deleteIfExists(file);
        } catch (IOException ignored) {
            // a temporary file: the system cleans its temporary folder
        }
    }

    /** Writes what was captured, less Rust panic reports, to Java's standard error. */
    private static void writeBack(String captured) {
        String kept = withoutRustPanics(captured);
        if (!kept.isEmpty()) {
            System.err.print(kept);
            System.err.flush();
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
     * Where a report goes on (its backtrace or closing note) after at most {@link #INTERRUPTION} other
     * lines from {@code from}, before another report begins; -1 when it does not.
     */
    private static int reportGoesOnAt(String[] lines, int from) {
        for (int at = from; at < lines.length && at - from <= INTERRUPTION; at++) {
            if (reportGoesOn(lines[at])) {
                return at;
            }
            if (PANIC_HEADER.matcher(lines[at].stripTrailing()).matches()) {
                return -1;
            }
        }
        return -1;
    }

    private static boolean reportGoesOn(String line) {
        String l = line.stripTrailing();
        return BACKTRACE_LINE.matcher(l).matches() || CLOSING_NOTE.matcher(l).matches();
    }

    /**
     * The text without Rust panic reports: the {@code thread '…' panicked at} line, the message
     * line after it, a {@code stack backtrace:} section and the closing {@code note:} line (and the
     * blank line Rust writes before the report). Everything else is kept as it was, lines other
     * threads wrote into the middle of a report included.
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
            i++; // the header
            // the panic message, to the report's backtrace or closing note when one follows soon: a message
            // may run over several lines (a Rust type name, `…JNIEnv\n::with_env::<…>`); lines other threads
            // wrote meanwhile (a log line, a Java stack trace's) are kept
            int end = reportGoesOnAt(lines, i);
            if (end > i) {
                for (; i < end; i++) {
                    if (OTHER_THREAD_LINE.matcher(lines[i]).find()) {
                        kept.append(lines[i]);
                    }
                }
            } else {
                i++;
            }
            while (i < lines.length) {
                if (BACKTRACE_LINE.matcher(lines[i].stripTrailing()).matches()) {
                    i++;
                    continue;
                }
                if (CLOSING_NOTE.matcher(lines[i].stripTrailing()).matches()) {
                    i++;
                    break;
                }
                // lines another thread wrote while Rust was still writing its report (a backtrace takes
                // a while to resolve): kept, and the rest of the report, close after them, dropped
                int after = reportGoesOnAt(lines, i);
                if (after < 0) {
                    break;
                }
                for (; i < after; i++) {
                    kept.append(lines[i]);
                }
            }
        }
        return kept.toString();
    }
}

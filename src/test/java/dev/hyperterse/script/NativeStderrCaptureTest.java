package dev.hyperterse.script;

import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** What is written back after a swc4j call: everything but Rust's panic reports. */
class NativeStderrCaptureTest {

    @Test
    void dropsAPanicReportWithAShortBacktraceAndKeepsTheLinesAround() {
        String captured = "10:00:00.000 INFO  a log line\n"
                + "\n"
                + "thread '<unnamed>' (15113) panicked at src/error.rs:145:26:\n"
                + "Couldn't call throw transpile error: JavaException\n"
                + "stack backtrace:\n"
                + "   0: __rustc::rust_begin_unwind\n"
                + "   1: core::panicking::panic_fmt\n"
                + "   7: <unknown>\n"
                + "note: Some details are omitted, run with `RUST_BACKTRACE=full` for a verbose backtrace.\n"
                + "{\"level\":\"INFO\",\"message\":\"another\"}\n";
        assertEquals("10:00:00.000 INFO  a log line\n{\"level\":\"INFO\",\"message\":\"another\"}\n",
                NativeStderrCapture.withoutRustPanics(captured));
    }

    @Test
    void dropsAPanicReportWithoutABacktrace() {
        String captured = "thread '<unnamed>' panicked at src/error.rs:145:26:\n"
                + "Couldn't call throw parse error: JavaException\n"
                + "note: run with `RUST_BACKTRACE=1` environment variable to display a backtrace\n";
        assertEquals("", NativeStderrCapture.withoutRustPanics(captured));
    }

    @Test
    void dropsAFullBacktraceThatHasNoClosingNote() {
        String captured = "thread '<unnamed>' panicked at src/error.rs:145:26:\n"
                + "Couldn't call throw transpile error: JavaException\n"
                + "stack backtrace:\n"
                + "   0:     0x7f1c2a4b5c6d - std::backtrace_rs::backtrace::libunwind::trace\n"
                + "                               at /rustc/abc/library/std/src/backtrace.rs:117:9\n"
                + "kept\n";
        assertEquals("kept\n", NativeStderrCapture.withoutRustPanics(captured));
    }

    @Test
    void keepsTextWithoutAPanicAsItWas() {
        String captured = "WARNING: something\n\n  indented: 1\nthe thread panicked at nothing\n";
        assertEquals(captured, NativeStderrCapture.withoutRustPanics(captured));
    }

    @Test
    void capturesOnLinuxAndMacOs() {
        String os = System.getProperty("os.name");
        if (os.startsWith("Linux") || os.startsWith("Mac")) {
            assertTrue(NativeStderrCapture.forThisProcess().capturing(), "the C library did not load on " + os);
        }
    }
}

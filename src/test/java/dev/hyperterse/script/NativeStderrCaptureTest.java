package dev.hyperterse.script;

import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
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
    void keepsWhatOtherThreadsWroteIntoTheMiddleOfAReportAndDropsTheRestOfIt() {
        // a backtrace takes a while to resolve: a log line of another thread lands between its lines
        String captured = "thread '<unnamed>' panicked at src/error.rs:145:26:\n"
                + "Couldn't call throw transpile error: JavaException\n"
                + "stack backtrace:\n"
                + "{\"level\":\"ERROR\",\"message\":\"handler.ts:1:49: Expected ';'\"}\n"
                + "{\"level\":\"INFO\",\"message\":\"reloading\"}\n"
                + "   0: __rustc::rust_begin_unwind\n"
                + "   1: core::panicking::panic_fmt\n"
                + "             at /rustc/abc/library/core/src/panicking.rs:75:14\n"
                + "note: Some details are omitted, run with `RUST_BACKTRACE=full` for a verbose backtrace.\n"
                + "{\"level\":\"INFO\",\"message\":\"after\"}\n";
        assertEquals("{\"level\":\"ERROR\",\"message\":\"handler.ts:1:49: Expected ';'\"}\n"
                        + "{\"level\":\"INFO\",\"message\":\"reloading\"}\n"
                        + "{\"level\":\"INFO\",\"message\":\"after\"}\n",
                NativeStderrCapture.withoutRustPanics(captured));
        // a Java stack trace after a report is no part of it
        String javaTrace = "thread '<unnamed>' panicked at src/error.rs:145:26:\n"
                + "Couldn't call throw transpile error: JavaException\n"
                + "note: run with `RUST_BACKTRACE=1` environment variable to display a backtrace\n"
                + "java.lang.IllegalStateException: boom\n"
                + "\tat dev.hyperterse.Example.run(Example.java:1)\n";
        assertEquals("java.lang.IllegalStateException: boom\n\tat dev.hyperterse.Example.run(Example.java:1)\n",
                NativeStderrCapture.withoutRustPanics(javaTrace));
        // a Java stack trace's line (a tab, then "at") between a report's frames is kept
        String split = "thread '<unnamed>' panicked at src/error.rs:145:26:\n"
                + "Couldn't call throw transpile error: JavaException\n"
                + "stack backtrace:\n"
                + "   0: __rustc::rust_begin_unwind\n"
                + "\tat dev.hyperterse.Example.run(Example.java:1)\n"
                + "   1: core::panicking::panic_fmt\n"
                + "note: Some details are omitted, run with `RUST_BACKTRACE=full` for a verbose backtrace.\n";
        assertEquals("\tat dev.hyperterse.Example.run(Example.java:1)\n", NativeStderrCapture.withoutRustPanics(split));
        // a full backtrace has no closing note: a note of the program's own far after it stays, as what follows
        StringBuilder later = new StringBuilder("thread '<unnamed>' panicked at src/error.rs:145:26:\n"
                + "Couldn't call throw transpile error: JavaException\n"
                + "stack backtrace:\n"
                + "   0:     0x7f1c2a4b5c6d - std::backtrace_rs::backtrace::libunwind::trace\n");
        StringBuilder rest = new StringBuilder();
        for (int i = 0; i < 25; i++) {
            rest.append("{\"level\":\"INFO\",\"message\":\"line ").append(i).append("\"}\n");
        }
        rest.append("note: disk low, see RUST_BACKTRACE in the manual\n\tat a.B(B.java:1)\n");
        assertEquals(rest.toString(), NativeStderrCapture.withoutRustPanics(later.append(rest).toString()));
    }

    @Test
    void dropsAPanicReportWithoutABacktrace() {
        String captured = "thread '<unnamed>' panicked at src/error.rs:145:26:\n"
                + "Couldn't call throw parse error: JavaException\n"
                + "note: run with `RUST_BACKTRACE=1` environment variable to display a backtrace\n";
        assertEquals("", NativeStderrCapture.withoutRustPanics(captured));
    }

    @Test
    void dropsAPanicMessageThatRunsOverSeveralLines() {
        // a message naming a Rust type runs over lines of its own; a log line written meanwhile stays
        String captured = "thread '<unnamed>' panicked at /cargo/jni-0.21.1/src/wrapper/executor.rs:91:9:\n"
                + "called `Result::unwrap()` on an `Err` value: jni::wrapper::jnienv::JNIEnv\n"
                + "::with_env::<swc4j::Java_com_caoccao_javet_swc4j_Swc4jNative_coreTranspile::{closure#0},"
                + " *mut jni_sys::_jobject, jni::errors::Error>\n"
                + "{\"level\":\"INFO\",\"message\":\"reloading\"}\n"
                + "16:18:46.405 WARN  Reload - a text log line\n"
                + "note: run with `RUST_BACKTRACE=1` environment variable to display a backtrace\n"
                + "after\n";
        assertEquals("{\"level\":\"INFO\",\"message\":\"reloading\"}\n16:18:46.405 WARN  Reload - a text log line\nafter\n",
                NativeStderrCapture.withoutRustPanics(captured));
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
    void windowsSwitchesTheStandardErrorHandleAndOtherSystemsTheDescriptor() {
        // Rust's standard library on Windows writes to GetStdHandle(STD_ERROR_HANDLE), not to the C
        // runtime's descriptor 2; elsewhere to descriptor 2
        assertEquals(NativeStderrCapture.Method.HANDLE, NativeStderrCapture.methodFor("Windows 11"));
        assertEquals(NativeStderrCapture.Method.HANDLE, NativeStderrCapture.methodFor("Windows Server 2022"));
        assertEquals(NativeStderrCapture.Method.DESCRIPTOR, NativeStderrCapture.methodFor("Linux"));
        assertEquals(NativeStderrCapture.Method.DESCRIPTOR, NativeStderrCapture.methodFor("Mac OS X"));
        assertEquals(NativeStderrCapture.Method.DESCRIPTOR, NativeStderrCapture.methodFor("FreeBSD"));
    }

    @Test
    void capturesThisWayOnThisSystem() {
        String os = System.getProperty("os.name");
        NativeStderrCapture capture = NativeStderrCapture.forThisProcess();
        assertTrue(capture.capturing(), "the system library did not load on " + os);
        assertEquals(NativeStderrCapture.methodFor(os), capture.method());
    }

    @Test
    void aCallRunsWithItsResultAndExceptionWhileCaptured() throws Exception {
        NativeStderrCapture capture = NativeStderrCapture.forThisProcess();
        assertEquals("result", capture.run(() -> "result"));
        java.io.IOException thrown = new java.io.IOException("from the call");
        assertSame(thrown, assertThrows(java.io.IOException.class, () -> capture.run(() -> {
            throw thrown;
        })));
    }
}

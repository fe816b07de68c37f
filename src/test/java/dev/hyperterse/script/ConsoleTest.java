package dev.hyperterse.script;

import ch.qos.logback.classic.Level;
import dev.hyperterse.testing.LogCapture;
import io.vertx.core.Future;
import io.vertx.core.json.JsonObject;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** console output is bounded per line and per call, and cannot forge log lines or drive a terminal. */
class ConsoleTest extends ScriptTestBase {
    LogCapture console;

    @BeforeEach
    void captureConsole() {
        console = LogCapture.of("dev.hyperterse.script.console").atLevel(Level.DEBUG);
    }

    @AfterEach
    void releaseConsole() {
        console.close();
    }

    static JsonObject payload(String q) {
        return new JsonObject().put("tool", "t").put("inputs", new JsonObject().put("q", q));
    }

    private List<String> lines() {
        return console.messages();
    }

    /** The review's reproduction: console.log of a 200,000-character input, four calls at once. */
    @Test
    void longLinesAreCutAndEveryCallFinishes() throws Exception {
        p.write("h.js", "export default ({ inputs }) => { console.log(inputs.q); console.log('n', inputs.q, { q: inputs.q });",
                "  return inputs.q.length; };");
        ScriptRuntime runtime = p.start(4, p.ref("h.js"));
        try {
            String q = "a".repeat(200_000);
            List<Future<Object>> calls = new ArrayList<>();
            for (int i = 0; i < 4; i++) {
                calls.add(runtime.call(p.ref("h.js"), payload(q), Duration.ofSeconds(20)));
            }
            for (Future<Object> call : calls) {
                assertEquals(200_000, ScriptFixture.await(call));
            }
        } finally {
            ScriptFixture.await(runtime.close());
        }
        List<String> lines = lines();
        assertEquals(8, lines.size(), "two lines per call");
        for (String line : lines) {
            assertTrue(line.length() < ScriptConsole.LINE_CHARS + 100, "a line of " + line.length() + " characters");
            assertTrue(line.endsWith("(truncated, 200000 characters)") || line.contains("(truncated, "), line.substring(line.length() - 60));
        }
    }

    @Test
    void aCallWritesABoundedNumberOfLinesThenSaysTheRestWasDropped() throws Exception {
        p.write("h.js", "export default ({ inputs }) => {",
                "  for (let i = 0; i < 5000; i++) { console.log('line', i, inputs.q); }", "  return 1; };");
        ScriptRuntime runtime = p.start(1, p.ref("h.js"));
        try {
            ScriptFixture.await(runtime.call(p.ref("h.js"), payload("x"), Duration.ofSeconds(20)));
            List<String> first = lines();
            assertEquals(ScriptConsole.CALL_LINES + 1, first.size());
            assertTrue(first.get(first.size() - 1).contains("(further console output dropped"), first.get(first.size() - 1));
            // the budget is per call: the next call logs again
            ScriptFixture.await(runtime.call(p.ref("h.js"), payload("y"), Duration.ofSeconds(20)));
            assertEquals(2 * (ScriptConsole.CALL_LINES + 1), lines().size());
            assertTrue(lines().get(ScriptConsole.CALL_LINES + 1).contains("line 0 y"));
        } finally {
            ScriptFixture.await(runtime.close());
        }
    }

    @Test
    void lineBreaksAndControlCharactersAreWrittenAsVisibleEscapes() throws Exception {
        p.write("h.js", "export default ({ inputs }) => { console.log(inputs.q); console.error('x', { k: inputs.q }); return 1; };");
        String forged = "ok\n2026-01-01 00:00:00 INFO  [main] admin logged in\r\u001b[31mred\u001b[0m\u0007\u0085\u2028end\ttab";
        p.callOnce(p.ref("h.js"), payload(forged));
        List<String> lines = lines();
        assertEquals(2, lines.size());
        String line = lines.get(0);
        assertTrue(line.endsWith("ok\\n2026-01-01 00:00:00 INFO  [main] admin logged in\\r\\u001b[31mred\\u001b[0m\\u0007"
                + "\\u0085\\u2028end\\ttab"), line);
        for (String l : lines) {
            for (char c : l.toCharArray()) {
                assertFalse(c < 0x20 || (c >= 0x7f && c <= 0x9f) || c == '\u2028', "a raw control character in " + l);
            }
        }
    }
}

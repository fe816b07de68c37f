package dev.hyperterse.mcp;

import io.vertx.core.buffer.Buffer;
import org.junit.jupiter.api.Test;

import java.nio.charset.StandardCharsets;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The body check reads in chunks: sequences that straddle a chunk's end must be judged like any other. */
class StrictUtf8Test {

    @Test
    void wellFormedTextIsValidWhereverItsSequencesFall() {
        assertTrue(StrictUtf8.valid(Buffer.buffer()));
        for (int pad = 8180; pad < 8200; pad++) {
            String text = "a".repeat(pad) + "é€😀" + "b".repeat(pad);
            assertTrue(StrictUtf8.valid(Buffer.buffer(text.getBytes(StandardCharsets.UTF_8))), "offset " + pad);
        }
    }

    @Test
    void malformedSequencesAreFoundWhereverTheyFall() {
        byte[][] bad = {
            {(byte) 0xc0, (byte) 0xa7}, {(byte) 0xe0, (byte) 0x80, (byte) 0xa7}, {(byte) 0xed, (byte) 0xa0, (byte) 0x80},
            {(byte) 0xf4, (byte) 0x90, (byte) 0x80, (byte) 0x80}, {(byte) 0xff}, {(byte) 0x80},
        };
        for (byte[] sequence : bad) {
            for (int pad = 8186; pad < 8194; pad++) {
                Buffer body = Buffer.buffer("a".repeat(pad)).appendBytes(sequence).appendString("z");
                assertFalse(StrictUtf8.valid(body), "offset " + pad);
            }
        }
        // cut short at the very end
        assertFalse(StrictUtf8.valid(Buffer.buffer("x").appendBytes(new byte[] {(byte) 0xf0, (byte) 0x9f, (byte) 0x98})));
        assertFalse(StrictUtf8.valid(Buffer.buffer("a".repeat(8191)).appendBytes(new byte[] {(byte) 0xe2, (byte) 0x82})));
    }
}

package dev.hyperterse.mcp.session;

import io.vertx.core.buffer.Buffer;
import org.junit.jupiter.api.Test;

import java.nio.charset.StandardCharsets;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The body check: every well-formed sequence passes, wherever it falls; every ill-formed one fails. */
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

    /** Every code point, and every two-byte prefix against the JDK's strict decoder. */
    @Test
    void agreesWithAStrictDecoderOnEveryCodePointAndShortSequence() throws Exception {
        for (int cp = 0; cp <= Character.MAX_CODE_POINT; cp++) {
            if (cp >= Character.MIN_SURROGATE && cp <= Character.MAX_SURROGATE) {
                continue;
            }
            byte[] bytes = new String(Character.toChars(cp)).getBytes(StandardCharsets.UTF_8);
            if (!StrictUtf8.valid(Buffer.buffer(bytes))) {
                throw new AssertionError("U+" + Integer.toHexString(cp) + " is well-formed");
            }
        }
        java.nio.charset.CharsetDecoder strict = StandardCharsets.UTF_8.newDecoder()
                .onMalformedInput(java.nio.charset.CodingErrorAction.REPORT)
                .onUnmappableCharacter(java.nio.charset.CodingErrorAction.REPORT);
        for (int a = 0; a < 256; a++) {
            for (int b = 0; b < 256; b++) {
                for (int[] tail : new int[][] {{}, {0x80}, {0x80, 0x80}, {0xbf, 0xbf}}) {
                    byte[] bytes = new byte[2 + tail.length];
                    bytes[0] = (byte) a;
                    bytes[1] = (byte) b;
                    for (int k = 0; k < tail.length; k++) {
                        bytes[2 + k] = (byte) tail[k];
                    }
                    boolean expected;
                    try {
                        strict.reset().decode(java.nio.ByteBuffer.wrap(bytes));
                        expected = true;
                    } catch (java.nio.charset.CharacterCodingException e) {
                        expected = false;
                    }
                    if (StrictUtf8.valid(Buffer.buffer(bytes)) != expected) {
                        throw new AssertionError(java.util.HexFormat.of().formatHex(bytes) + " should be "
                                + (expected ? "valid" : "invalid"));
                    }
                }
            }
        }
    }
}

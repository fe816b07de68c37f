package dev.hyperterse.mcp.session;

import io.vertx.core.buffer.Buffer;

/**
 * Whether a body is well-formed UTF-8 (RFC 3629): no overlong forms (such as {@code C0 A7} for
 * {@code '}), no encoded surrogates ({@code ED A0 80}), nothing past U+10FFFF, no truncated
 * sequence. The JSON reader is lenient about some of these, and a lenient decoder is how a quote
 * or a slash slips past a filter that looked at the bytes. One pass over the bytes, following
 * the well-formed byte sequences of the Unicode Standard (table 3-7): time linear in the body, no
 * memory at all (every request body passes through here).
 */
final class StrictUtf8 {

    private StrictUtf8() {
    }

    static boolean valid(Buffer body) {
        int length = body.length();
        int i = 0;
        while (i < length) {
            int b = body.getByte(i) & 0xff;
            if (b < 0x80) {
                i++;
                continue;
            }
            int extra;
            int secondLow = 0x80;
            int secondHigh = 0xbf;
            if (b >= 0xc2 && b <= 0xdf) {
                extra = 1;
            } else if (b >= 0xe0 && b <= 0xef) {
                extra = 2;
                if (b == 0xe0) {
                    secondLow = 0xa0; // below: overlong
                } else if (b == 0xed) {
                    secondHigh = 0x9f; // above: surrogates
                }
            } else if (b >= 0xf0 && b <= 0xf4) {
                extra = 3;
                if (b == 0xf0) {
                    secondLow = 0x90; // below: overlong
                } else if (b == 0xf4) {
                    secondHigh = 0x8f; // above: past U+10FFFF
                }
            } else {
                return false; // a continuation byte first, C0/C1 (overlong) or F5..FF
            }
            if (i + extra >= length) {
                return false; // cut short
            }
            int second = body.getByte(i + 1) & 0xff;
            if (second < secondLow || second > secondHigh) {
                return false;
            }
            for (int k = 2; k <= extra; k++) {
                int next = body.getByte(i + k) & 0xff;
                if (next < 0x80 || next > 0xbf) {
                    return false;
                }
            }
            i += extra + 1;
        }
        return true;
    }
}

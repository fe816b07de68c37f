package dev.hyperterse.mcp;

import io.vertx.core.buffer.Buffer;

import java.nio.ByteBuffer;
import java.nio.CharBuffer;
import java.nio.charset.CharsetDecoder;
import java.nio.charset.CoderResult;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;

/**
 * Whether a body is well-formed UTF-8 (RFC 3629): no overlong forms (such as {@code C0 A7} for
 * {@code '}), no encoded surrogates ({@code ED A0 80}), nothing past U+10FFFF, no truncated
 * sequence. The JSON reader is lenient about some of these, and a lenient decoder is how a quote
 * or a slash slips past a filter that looked at the bytes. One pass over the bytes into a small
 * fixed buffer, so checking costs time linear in the body and no memory proportional to it.
 */
final class StrictUtf8 {
    /** Bytes are copied and checked this many at a time; the decoded characters are only checked, never kept. */
    private static final int CHUNK = 8192;

    private StrictUtf8() {
    }

    static boolean valid(Buffer body) {
        CharsetDecoder decoder = StandardCharsets.UTF_8.newDecoder()
                .onMalformedInput(CodingErrorAction.REPORT)
                .onUnmappableCharacter(CodingErrorAction.REPORT);
        byte[] chunk = new byte[CHUNK];
        ByteBuffer in = ByteBuffer.wrap(chunk);
        CharBuffer out = CharBuffer.allocate(CHUNK);
        int length = body.length();
        int read = 0;
        in.limit(0);
        while (true) {
            // what an earlier chunk ended with (part of a sequence) moves to the front, then more follows
            in.compact();
            int take = Math.min(in.remaining(), length - read);
            body.getBytes(read, read + take, chunk, in.position());
            read += take;
            in.position(in.position() + take).flip();
            boolean last = read == length;
            CoderResult result;
            do {
                out.clear();
                result = decoder.decode(in, out, last);
                if (result.isError()) {
                    return false;
                }
            } while (result.isOverflow());
            if (last) {
                break;
            }
        }
        out.clear();
        return !decoder.flush(out).isError();
    }
}

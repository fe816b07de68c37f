package dev.hyperterse.connector.postgres;

import io.netty.buffer.ByteBuf;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;
import io.netty.channel.ChannelPipeline;
import io.netty.util.ReferenceCountUtil;
import io.vertx.sqlclient.SqlConnection;
import io.vertx.sqlclient.impl.SocketConnectionBase;
import io.vertx.sqlclient.internal.Connection;
import io.vertx.sqlclient.internal.SqlConnectionInternal;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Refuses a row too large for the result it would go into before any of it is buffered. The
 * PostgreSQL client reads each DataRow message whole before handing it on: one 60 MB value was
 * gathered into a 60 MB direct buffer (failing with "Cannot reserve … bytes of direct buffer
 * memory" under a small heap), held the event loop long enough to stretch a 30 s statement
 * timeout to a minute, and a connection that stopped reading left its backend blocked writing.
 *
 * <p>This handler sits in front of the client's decoder on each connection and reads only the
 * messages' five-byte headers (type and length) as bytes pass. While a statement runs it is
 * {@linkplain #arm armed} with its result's byte limit; a DataRow whose length says it cannot fit
 * ends the connection at once: its bytes are never kept, the statement fails (then
 * {@link #tripped()} says why), the pool discards the connection, and the backend, its socket
 * closed, stops. Rows that may fit pass untouched and the result's budget cuts them as usual.
 */
final class RowSizeGuard extends ChannelInboundHandlerAdapter {
    private static final Logger LOG = LoggerFactory.getLogger(RowSizeGuard.class);
    private static final String NAME = "hyperterse-row-size-guard";
    /** The client's decoder in the connection's pipeline, which the guard goes in front of. */
    private static final String DECODER = "codec";
    private static final byte DATA_ROW = 'D';
    /**
     * How many bytes a row may take on the wire per byte of its JSON, at most: PostgreSQL's binary
     * forms are at worst about six times their JSON (a bigint[] of one-digit numbers: 12 bytes an
     * element against {@code 1,}), so a row longer than this many times the limit cannot fit.
     */
    static final long WIRE_BYTES_PER_JSON_BYTE = 8;
    /** Room for a row's column count and lengths beyond its values. */
    private static final long HEADROOM = 64 * 1024;

    /** Bytes of the current message not yet passed, once its header is read. */
    private long messageLeft;
    private final byte[] header = new byte[5];
    private int headerRead;
    /** The longest DataRow the running statement may take; no limit while none runs. */
    private volatile long maxRowBytes = Long.MAX_VALUE;
    private static final java.util.concurrent.atomic.AtomicLongFieldUpdater<RowSizeGuard> MAX_ROW_BYTES =
            java.util.concurrent.atomic.AtomicLongFieldUpdater.newUpdater(RowSizeGuard.class, "maxRowBytes");
    /** The length of the row that ended the connection, or 0. */
    private volatile long refusedRow;

    /**
     * Puts a guard in front of the decoder of a connection that has just opened (no response is
     * under way, so its byte stream is at a message boundary). A client whose internals are not
     * as expected is left without one, and its rows are read whole as before.
     */
    static void install(SqlConnection conn) {
        ChannelPipeline pipeline = pipelineOf(conn);
        if (pipeline == null || pipeline.get(DECODER) == null) {
            LOG.warn("the PostgreSQL client's connection is not as expected: rows larger than result_max_bytes"
                    + " are read whole before they are cut");
            return;
        }
        pipeline.addBefore(DECODER, NAME, new RowSizeGuard());
    }

    /** The guard of a connection, or null when it has none. */
    static RowSizeGuard of(SqlConnection conn) {
        ChannelPipeline pipeline = pipelineOf(conn);
        return pipeline == null ? null : (RowSizeGuard) pipeline.get(NAME);
    }

    private static ChannelPipeline pipelineOf(SqlConnection conn) {
        if (!(conn instanceof SqlConnectionInternal)) {
            return null;
        }
        // a pooled connection wraps the socket connection
        Connection inner = ((SqlConnectionInternal) conn).unwrap();
        for (int depth = 0; depth < 4 && !(inner instanceof SocketConnectionBase); depth++) {
            Connection next = inner.unwrap();
            if (next == inner) {
                break;
            }
            inner = next;
        }
        return inner instanceof SocketConnectionBase
                ? ((SocketConnectionBase) inner).socket().channelHandlerContext().pipeline() : null;
    }

    /** A statement whose result may hold {@code byteLimit} bytes of JSON starts. */
    void arm(long byteLimit) {
        maxRowBytes = wireLimit(byteLimit);
    }

    /** The longest DataRow that may fit a result of {@code byteLimit} bytes of JSON. */
    private static long wireLimit(long byteLimit) {
        return byteLimit > (Long.MAX_VALUE - HEADROOM) / WIRE_BYTES_PER_JSON_BYTE ? Long.MAX_VALUE
                : byteLimit * WIRE_BYTES_PER_JSON_BYTE + HEADROOM;
    }

    /**
     * Several statements share the connection, each sent behind the others: the guard lets through
     * the largest row any of them may take (each result's budget still cuts its own rows).
     */
    void armAtLeast(long byteLimit) {
        // the largest limit asked, where none (MAX_VALUE) counts as the smallest
        MAX_ROW_BYTES.accumulateAndGet(this, wireLimit(byteLimit),
                (now, asked) -> now == Long.MAX_VALUE ? asked : Math.max(now, asked));
    }

    /**
     * Ends the connection at once (its running and queued statements fail); the pool discards it.
     *
     * @return completes once it has ended (at once when the client's internals are not as
     *         expected and the connection stays)
     */
    static io.vertx.core.Future<Void> end(SqlConnection conn) {
        ChannelPipeline pipeline = pipelineOf(conn);
        if (pipeline == null) {
            return io.vertx.core.Future.succeededFuture();
        }
        io.vertx.core.Promise<Void> ended = io.vertx.core.Promise.promise();
        pipeline.close().addListener(closed -> ended.tryComplete());
        return ended.future();
    }

    /** Whether the connection's socket is closed (ended by a guard, given up, or lost). */
    static boolean closed(SqlConnection conn) {
        ChannelPipeline pipeline = pipelineOf(conn);
        return pipeline != null && !pipeline.channel().isActive();
    }

    /** The statement ended: what the connection reads next is not limited. */
    void disarm() {
        maxRowBytes = Long.MAX_VALUE;
    }

    /** The length of the row that made the guard end the connection, or 0 when it did not. */
    long tripped() {
        return refusedRow;
    }

    @Override
    public void channelRead(ChannelHandlerContext ctx, Object msg) {
        if (refusedRow > 0) {
            ReferenceCountUtil.release(msg);
            return;
        }
        if (msg instanceof ByteBuf && refuses((ByteBuf) msg)) {
            ReferenceCountUtil.release(msg);
            // the decoder fails the running command when the channel goes inactive
            ctx.close();
            return;
        }
        ctx.fireChannelRead(msg);
    }

    /** Follows the message framing through {@code bytes}; true at a DataRow longer than allowed. */
    private boolean refuses(ByteBuf bytes) {
        int at = bytes.readerIndex();
        int end = bytes.writerIndex();
        while (at < end) {
            if (messageLeft > 0) {
                long step = Math.min(messageLeft, end - at);
                messageLeft -= step;
                at += (int) step;
                continue;
            }
            header[headerRead++] = bytes.getByte(at++);
            if (headerRead < header.length) {
                continue;
            }
            headerRead = 0;
            // the length counts itself (4 bytes) but not the type byte
            long length = ((header[1] & 0xffL) << 24) | ((header[2] & 0xffL) << 16) | ((header[3] & 0xffL) << 8)
                    | (header[4] & 0xffL);
            messageLeft = Math.max(0, length - 4);
            if (header[0] == DATA_ROW && length > maxRowBytes) {
                refusedRow = length + 1;
                return true;
            }
        }
        return false;
    }
}

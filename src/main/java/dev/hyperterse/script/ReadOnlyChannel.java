package dev.hyperterse.script;

import java.nio.ByteBuffer;
import java.nio.channels.ClosedChannelException;
import java.nio.channels.NonWritableChannelException;
import java.nio.channels.SeekableByteChannel;

/** Module text handed to GraalJS from memory (stripped TypeScript, facades, file bytes). */
final class ReadOnlyChannel implements SeekableByteChannel {
    private final byte[] bytes;
    private int position;
    private boolean open = true;

    ReadOnlyChannel(byte[] bytes) {
        this.bytes = bytes;
    }

    @Override
    public int read(ByteBuffer dst) throws ClosedChannelException {
        ensureOpen();
        if (position >= bytes.length) {
            return -1;
        }
        int n = Math.min(dst.remaining(), bytes.length - position);
        dst.put(bytes, position, n);
        position += n;
        return n;
    }

    @Override
    public int write(ByteBuffer src) {
        throw new NonWritableChannelException();
    }

    @Override
    public long position() throws ClosedChannelException {
        ensureOpen();
        return position;
    }

    @Override
    public SeekableByteChannel position(long newPosition) throws ClosedChannelException {
        ensureOpen();
        position = (int) Math.min(Math.max(0, newPosition), bytes.length);
        return this;
    }

    @Override
    public long size() throws ClosedChannelException {
        ensureOpen();
        return bytes.length;
    }

    @Override
    public SeekableByteChannel truncate(long size) {
        throw new NonWritableChannelException();
    }

    @Override
    public boolean isOpen() {
        return open;
    }

    @Override
    public void close() {
        open = false;
    }

    private void ensureOpen() throws ClosedChannelException {
        if (!open) {
            throw new ClosedChannelException();
        }
    }
}

package dev.hyperterse.connector;

import dev.hyperterse.model.ResultCut;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;

import java.math.BigDecimal;
import java.math.BigInteger;
import java.util.List;
import java.util.Map;

/**
 * What one result may still take, checked as each row arrives, so a result never holds more than
 * its caps: at most {@code rowLimit} rows (items) and {@code byteLimit} bytes of JSON. The first
 * item that does not fit ends the result; the items before it are kept and {@link #cut()} says
 * which cap applied. An item bigger than the whole byte limit therefore ends the result where it
 * stands: the first row alone too big gives no rows and a byte-limit cut.
 *
 * <p>Sizes are estimated from the values as they will be written, without encoding them: a
 * string by its length plus quotes and escapes, an integer by its digits, other numbers by their longest
 * form, objects and arrays by their parts and punctuation. One per call; not thread-safe (a call
 * reads its rows on one thread at a time).
 */
public final class ResultBudget {
    /** Rows asked of a cursor before any row size is known. */
    static final int FIRST_FETCH = 64;
    /** A fetch is at most this many times the previous one, should later rows be larger. */
    private static final int FETCH_GROWTH = 4;
    private static final int LONGEST_DOUBLE = 24;

    private final int rowLimit;
    private final long byteLimit;
    private int taken;
    /** The JSON array's brackets and, per item after the first, a comma. */
    private long bytes = 2;
    private long largest;
    private int lastFetch;
    private ResultCut cut = ResultCut.NONE;

    public ResultBudget(int rowLimit, long byteLimit) {
        if (rowLimit < 1) {
            throw new IllegalArgumentException("row limit must be at least 1, was " + rowLimit);
        }
        if (byteLimit < 1) {
            throw new IllegalArgumentException("result size limit must be at least 1 byte, was " + byteLimit);
        }
        this.rowLimit = rowLimit;
        this.byteLimit = byteLimit;
    }

    /** The most bytes of JSON the result may hold ({@code result_max_bytes}). */
    public long byteLimit() {
        return byteLimit;
    }

    /** The same caps with nothing counted yet, for reading a result again from its start. */
    public ResultBudget fresh() {
        return new ResultBudget(rowLimit, byteLimit);
    }

    /**
     * Whether the first fetch ({@link #nextFetch()} before any row) settles the result: it asks
     * for one row past the row limit, so no second fetch can be needed.
     */
    public boolean settledByFirstFetch() {
        return rowLimit < FIRST_FETCH;
    }

    /**
     * Counts one more item if it fits.
     *
     * @param value a JSON value (a row's object, or an element of a reply)
     * @return false when it does not fit; then nothing more does, and {@link #cut()} says why
     */
    public boolean admit(Object value) {
        if (cut == ResultCut.NONE && taken == rowLimit) {
            cut = ResultCut.ROW_LIMIT;
        }
        return cut == ResultCut.NONE && admitSized(size(value));
    }

    /**
     * Counts one more item whose JSON size the caller measured (when measuring the source is
     * cheaper than converting it first).
     *
     * @return false when it does not fit; then nothing more does, and {@link #cut()} says why
     */
    public boolean admitSized(long itemBytes) {
        if (cut != ResultCut.NONE) {
            return false;
        }
        if (taken == rowLimit) {
            cut = ResultCut.ROW_LIMIT;
            return false;
        }
        long size = itemBytes + (taken == 0 ? 0 : 1);
        largest = Math.max(largest, size);
        if (size > byteLimit - bytes) {
            cut = ResultCut.BYTE_LIMIT;
            return false;
        }
        bytes += size;
        taken++;
        return true;
    }

    /** The source says more items exist than were offered: a cut by the row limit, unless already cut. */
    public void moreExist() {
        if (cut == ResultCut.NONE) {
            cut = ResultCut.ROW_LIMIT;
        }
    }

    /** True once an item was refused: reading more is pointless. */
    public boolean full() {
        return cut != ResultCut.NONE;
    }

    public ResultCut cut() {
        return cut;
    }

    /**
     * How many rows to ask a cursor for next: one more than the row limit leaves (that row only
     * proves a cut), and no more than the byte limit leaves room for at the largest row seen, plus
     * one to find the cut. So a cursor never brings far more rows into memory than the result can
     * keep, and a result of small rows still comes in one or two fetches.
     */
    public int nextFetch() {
        long wanted = (long) rowLimit - taken + 1;
        if (largest > 0) {
            wanted = Math.min(wanted, Math.max(0, byteLimit - bytes) / largest + 1);
            wanted = Math.min(wanted, (long) lastFetch * FETCH_GROWTH);
        } else {
            wanted = Math.min(wanted, FIRST_FETCH);
        }
        lastFetch = (int) Math.max(1, wanted);
        return lastFetch;
    }

    /** The estimated size of a JSON value as it will be written. */
    public static long size(Object value) {
        return size(value, Long.MAX_VALUE);
    }

    /**
     * Like {@link #size(Object)}, counted only until it reaches {@code stop}: then the count
     * returned is at least {@code stop}, and no more of the value was looked at (deciding whether a
     * value is large costs no more than walking that much of it).
     */
    public static long size(Object value, long stop) {
        if (value == null) {
            return 4;
        }
        if (value instanceof String) {
            return jsonLength((String) value, stop);
        }
        if (value instanceof Boolean) {
            return 5;
        }
        if (value instanceof Long || value instanceof Integer || value instanceof Short || value instanceof Byte) {
            return digits(((Number) value).longValue());
        }
        if (value instanceof BigDecimal) {
            BigDecimal d = (BigDecimal) value;
            // digits, sign, point, and an exponent when written in scientific form
            return d.precision() + 8L;
        }
        if (value instanceof BigInteger) {
            return ((BigInteger) value).bitLength() * 31L / 100 + 3;
        }
        if (value instanceof Number) {
            return LONGEST_DOUBLE;
        }
        if (value instanceof JsonObject) {
            return objectSize(((JsonObject) value).getMap(), stop);
        }
        if (value instanceof Map) {
            return objectSize((Map<?, ?>) value, stop);
        }
        if (value instanceof JsonArray) {
            return arraySize(((JsonArray) value).getList(), stop);
        }
        if (value instanceof List) {
            return arraySize((List<?>) value, stop);
        }
        if (value instanceof byte[]) {
            return base64(((byte[]) value).length);
        }
        if (value instanceof Buffer) {
            return base64(((Buffer) value).length());
        }
        return jsonLength(String.valueOf(value));
    }

    private static long objectSize(Map<?, ?> map, long stop) {
        long total = 2;
        boolean first = true;
        for (Map.Entry<?, ?> e : map.entrySet()) {
            // "key": value, with the comma before every field but the first
            total += jsonLength(String.valueOf(e.getKey())) + 1L + size(e.getValue(), stop - total) + (first ? 0 : 1);
            first = false;
            if (total >= stop) {
                return total;
            }
        }
        return total;
    }

    private static long arraySize(List<?> list, long stop) {
        long total = 2;
        for (Object element : list) {
            total += size(element, stop - total) + 1;
            if (total >= stop) {
                return total;
            }
        }
        return list.isEmpty() ? total : total - 1;
    }

    /**
     * A string's length as JSON text: its characters and quotes, each character the encoder escapes
     * counted by its escape ({@code \"} and {@code \n} two, other control characters six as
     * {@code \u0001}), so text of quotes or control characters cannot pass the cap several times over.
     */
    public static long jsonLength(String s) {
        return jsonLength(s, Long.MAX_VALUE);
    }

    /** {@link #jsonLength(String)}, counted only until it reaches {@code stop} (as {@link #size(Object, long)}). */
    static long jsonLength(String s, long stop) {
        long length = s.length() + 2L;
        for (int i = 0; i < s.length() && length < stop; i++) {
            length += escapeExtra(s.charAt(i));
        }
        return length;
    }

    /** The same for text still in UTF-8 bytes (a Redis reply): every byte counts, escapes as above. */
    public static long jsonLength(Buffer utf8) {
        int n = utf8.length();
        long length = n + 2L;
        for (int i = 0; i < n; i++) {
            byte b = utf8.getByte(i);
            length += b < 0 ? 0 : escapeExtra((char) b);
        }
        return length;
    }

    /** What a character's escape adds to its one character. */
    private static int escapeExtra(char c) {
        if (c == '"' || c == '\\') {
            return 1;
        }
        if (c < 0x20) {
            return c == '\n' || c == '\r' || c == '\t' || c == '\b' || c == '\f' ? 1 : 5;
        }
        return 0;
    }

    private static long base64(long bytes) {
        return (bytes + 2) / 3 * 4 + 2;
    }

    private static long digits(long n) {
        if (n == Long.MIN_VALUE) {
            return 20;
        }
        long size = n < 0 ? 2 : 1;
        long v = Math.abs(n);
        while (v >= 10) {
            v /= 10;
            size++;
        }
        return size;
    }
}

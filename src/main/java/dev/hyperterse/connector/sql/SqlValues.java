package dev.hyperterse.connector.sql;

import io.vertx.core.buffer.Buffer;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import io.vertx.sqlclient.Tuple;
import io.vertx.sqlclient.data.Numeric;

import java.math.BigDecimal;
import java.math.BigInteger;
import java.time.Duration;
import java.time.Instant;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.time.LocalTime;
import java.time.OffsetDateTime;
import java.time.OffsetTime;
import java.time.format.DateTimeFormatter;
import java.util.Base64;
import java.util.UUID;
import java.util.function.Function;

/**
 * A column value as the Vert.x SQL clients decode it, turned into a JSON value. The rules are
 * the type-mapping tables of docs/connectors.md; the decisions that are not obvious:
 * <ul>
 *   <li>decimal/numeric: a JSON number when a reader that parses JSON numbers as doubles (most
 *       of them) gets exactly the same decimal back, else a string with every digit, so no
 *       money amount is ever silently rounded. Integer types are always numbers.</li>
 *   <li>times keep seconds ({@code 10:00:00}, not {@code 10:00}); PostgreSQL's infinite dates are
 *       {@code "infinity"} / {@code "-infinity"}; non-finite floats are strings.</li>
 *   <li>binary is standard base64; arrays are JSON arrays of mapped elements.</li>
 * </ul>
 */
public final class SqlValues {
    /** The most digits before or after its point of a decimal sent as text that is read as a number. */
    public static final int LONGEST_READ_DECIMAL = 1000;

    private SqlValues() {
    }

    /**
     * @param special maps driver-specific classes (PostgreSQL's intervals, addresses, ...); returns
     *                null for a class it does not know, which then becomes its {@code toString()}
     */
    public static Object json(Object value, Function<Object, Object> special) {
        if (value == null || value == Tuple.JSON_NULL) {
            return null;
        }
        if (value instanceof String || value instanceof Boolean || value instanceof JsonObject
                || value instanceof JsonArray) {
            return value;
        }
        if (value instanceof Numeric) {
            Numeric n = (Numeric) value;
            return n.isNaN() ? "NaN" : decimal(n.bigDecimalValue());
        }
        if (value instanceof Double || value instanceof Float) {
            double d = ((Number) value).doubleValue();
            return Double.isFinite(d) ? value : nonFinite(d);
        }
        if (value instanceof BigDecimal) {
            return decimal((BigDecimal) value);
        }
        if (value instanceof Long || value instanceof Integer || value instanceof Short || value instanceof Byte
                || value instanceof BigInteger) {
            return value;
        }
        if (value instanceof OffsetDateTime) {
            OffsetDateTime t = (OffsetDateTime) value;
            if (t.getYear() >= LocalDate.MAX.getYear() || t.getYear() <= LocalDate.MIN.getYear()) {
                return t.getYear() > 0 ? "infinity" : "-infinity";
            }
            return IsoTimes.offsetDateTime(t);
        }
        if (value instanceof LocalDateTime) {
            LocalDateTime t = (LocalDateTime) value;
            if (t.equals(LocalDateTime.MAX) || t.equals(LocalDateTime.MIN)) {
                return t.equals(LocalDateTime.MAX) ? "infinity" : "-infinity";
            }
            return IsoTimes.localDateTime(t);
        }
        if (value instanceof LocalDate) {
            LocalDate d = (LocalDate) value;
            if (d.equals(LocalDate.MAX) || d.equals(LocalDate.MIN)) {
                return d.equals(LocalDate.MAX) ? "infinity" : "-infinity";
            }
            return d.toString();
        }
        if (value instanceof LocalTime) {
            return DateTimeFormatter.ISO_LOCAL_TIME.format((LocalTime) value);
        }
        if (value instanceof OffsetTime) {
            return DateTimeFormatter.ISO_OFFSET_TIME.format((OffsetTime) value);
        }
        if (value instanceof Instant) {
            return value.toString();
        }
        if (value instanceof Duration) {
            return clockTime((Duration) value);
        }
        if (value instanceof UUID) {
            return value.toString();
        }
        if (value instanceof Buffer) {
            return Base64.getEncoder().encodeToString(((Buffer) value).getBytes());
        }
        if (value instanceof byte[]) {
            return Base64.getEncoder().encodeToString((byte[]) value);
        }
        if (value instanceof Object[]) {
            JsonArray array = new JsonArray();
            for (Object element : (Object[]) value) {
                array.add(json(element, special));
            }
            return array;
        }
        Object mapped = special.apply(value);
        return mapped != null ? mapped : value.toString();
    }

    /**
     * A decimal the database sent as its text (PostgreSQL's {@code numeric}, which its client would
     * read on the event loop), or an array of them: as {@link #decimal} has it, except that text with
     * more than {@value #LONGEST_READ_DECIMAL} digits before or after its point is returned as it
     * is, never read as a number. Reading digits takes time growing with the square of their count
     * (a quarter of a second for the 131,072 a numeric may hold before its point), and such a
     * number is past any double, or more exact than one, so it was that text already (unless its
     * last thousand digits are zeros). {@code NaN} and PostgreSQL's {@code Infinity} and
     * {@code -Infinity} are those strings.
     */
    public static Object decimalText(Object value) {
        if (value instanceof Object[]) {
            JsonArray array = new JsonArray();
            for (Object element : (Object[]) value) {
                array.add(decimalText(element));
            }
            return array;
        }
        if (!(value instanceof String)) {
            return json(value, v -> null);
        }
        String text = (String) value;
        int point = text.indexOf('.');
        int whole = (point < 0 ? text.length() : point) - (text.startsWith("-") ? 1 : 0);
        int fraction = point < 0 ? 0 : text.length() - point - 1;
        if (whole > LONGEST_READ_DECIMAL || fraction > LONGEST_READ_DECIMAL) {
            return text;
        }
        try {
            return decimal(new BigDecimal(text));
        } catch (NumberFormatException e) {
            // NaN, Infinity, -Infinity
            return text;
        }
    }

    /** A JSON number when a double reproduces it exactly, else the exact digits as a string. */
    public static Object decimal(BigDecimal d) {
        double x = d.doubleValue();
        if (Double.isFinite(x) && new BigDecimal(Double.toString(x)).compareTo(d) == 0) {
            // a negative scale would print as 1E+3
            return d.scale() < 0 ? d.setScale(0) : d;
        }
        return d.toPlainString();
    }

    private static String nonFinite(double d) {
        return Double.isNaN(d) ? "NaN" : d > 0 ? "Infinity" : "-Infinity";
    }

    /** A MySQL TIME (which may be negative or past 24 hours) as {@code [-]HH:MM:SS[.ffffff]}. */
    static String clockTime(Duration d) {
        boolean negative = d.isNegative();
        Duration a = d.abs();
        long seconds = a.getSeconds();
        StringBuilder out = new StringBuilder(negative ? "-" : "");
        out.append(String.format("%02d:%02d:%02d", seconds / 3600, (seconds / 60) % 60, seconds % 60));
        if (a.getNano() != 0) {
            String fraction = String.format("%09d", a.getNano());
            out.append('.').append(fraction.replaceAll("0+$", ""));
        }
        return out.toString();
    }
}

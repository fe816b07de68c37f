package dev.hyperterse.connector;

import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;

import java.math.BigDecimal;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.time.OffsetDateTime;
import java.time.format.DateTimeFormatter;
import java.time.format.DateTimeFormatterBuilder;
import java.time.format.DateTimeParseException;
import java.time.temporal.ChronoField;
import java.time.temporal.Temporal;

/**
 * How a bound value reads as text, and how text reads as a date-time: the conversions both SQL
 * connectors need when a value's Java type is not the one the database asks for.
 */
public final class BindText {
    /** {@code 2024-06-01T10:00:00}, {@code 2024-06-01 10:00:00.5}, with an optional {@code Z} or offset. */
    private static final DateTimeFormatter DATE_TIME = new DateTimeFormatterBuilder()
            .append(DateTimeFormatter.ISO_LOCAL_DATE)
            .optionalStart().appendLiteral('T').optionalEnd()
            .optionalStart().appendLiteral(' ').optionalEnd()
            .appendValue(ChronoField.HOUR_OF_DAY, 2).appendLiteral(':').appendValue(ChronoField.MINUTE_OF_HOUR, 2)
            .optionalStart().appendLiteral(':').appendValue(ChronoField.SECOND_OF_MINUTE, 2)
            .optionalStart().appendFraction(ChronoField.NANO_OF_SECOND, 0, 9, true).optionalEnd()
            .optionalEnd()
            .optionalStart().appendOffset("+HH:MM", "Z").optionalEnd()
            .optionalStart().appendOffset("+HHMM", "Z").optionalEnd()
            .optionalStart().appendOffset("+HH", "Z").optionalEnd()
            .toFormatter();

    private BindText() {
    }

    /** A scalar as the text a reader would write: {@code 5}, {@code 2.5}, {@code true}, JSON for objects. */
    public static String of(Object value) {
        if (value instanceof String) {
            return (String) value;
        }
        if (value instanceof Double || value instanceof Float) {
            double d = ((Number) value).doubleValue();
            if (!Double.isFinite(d)) {
                return value.toString();
            }
            BigDecimal exact = BigDecimal.valueOf(d).stripTrailingZeros();
            return exact.scale() <= 0 ? exact.toBigInteger().toString() : exact.toPlainString();
        }
        if (value instanceof BigDecimal) {
            return ((BigDecimal) value).toPlainString();
        }
        if (value instanceof JsonObject) {
            return ((JsonObject) value).encode();
        }
        if (value instanceof JsonArray) {
            return ((JsonArray) value).encode();
        }
        return String.valueOf(value);
    }

    /**
     * Reads {@code 2024-06-01}, {@code 2024-06-01T10:00[:00[.123]]} (or with a space), with or
     * without {@code Z}/an offset.
     *
     * @return an {@link OffsetDateTime}, {@link LocalDateTime} or {@link LocalDate}; null when the
     *         text is none of these
     */
    public static Temporal dateTime(String text) {
        String s = text.trim();
        if (s.length() == 10) {
            try {
                return LocalDate.parse(s);
            } catch (DateTimeParseException e) {
                return null;
            }
        }
        try {
            java.time.temporal.TemporalAccessor parsed = DATE_TIME.parse(s);
            LocalDateTime local = LocalDateTime.of(LocalDate.from(parsed), java.time.LocalTime.from(parsed));
            if (parsed.isSupported(ChronoField.OFFSET_SECONDS)) {
                return local.atOffset(java.time.ZoneOffset.ofTotalSeconds(parsed.get(ChronoField.OFFSET_SECONDS)));
            }
            return local;
        } catch (java.time.DateTimeException e) {
            return null;
        }
    }
}

package dev.hyperterse.connector.sql;

import io.vertx.core.buffer.Buffer;
import io.vertx.sqlclient.data.Numeric;
import org.junit.jupiter.api.Test;

import java.math.BigDecimal;
import java.time.Duration;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.time.LocalTime;
import java.time.OffsetDateTime;

import static org.junit.jupiter.api.Assertions.assertEquals;

class SqlValuesTest {
    private static Object json(Object value) {
        return SqlValues.json(value, v -> null);
    }

    @Test
    void decimalsAreNumbersOnlyWhenADoubleReadsThemBackExactly() {
        assertEquals(new BigDecimal("19.90"), json(Numeric.create(new BigDecimal("19.90"))));
        assertEquals(new BigDecimal("0.1"), json(new BigDecimal("0.1")));
        assertEquals(new BigDecimal("1000"), json(new BigDecimal("1E+3")), "no exponent in the JSON text");
        assertEquals("9007199254740993", json(new BigDecimal("9007199254740993")));
        assertEquals("12345678901234567890.123456789", json(new BigDecimal("12345678901234567890.123456789")));
        assertEquals("0.1000000000000000055511151231257827", json(new BigDecimal("0.1000000000000000055511151231257827")));
        assertEquals("NaN", json(Numeric.NaN));
        assertEquals(9007199254740993L, json(9007199254740993L), "integer types stay numbers");
    }

    @Test
    void decimalTextIsReadOnlyWhenShort() {
        assertEquals(new BigDecimal("19.90"), SqlValues.decimalText("19.90"));
        assertEquals("12345678901234567890.123456789", SqlValues.decimalText("12345678901234567890.123456789"));
        assertEquals(new BigDecimal("-1" + "0".repeat(300)), SqlValues.decimalText("-1" + "0".repeat(300)));
        // past a thousand digits on either side of the point: the text as it came, not read
        String whole = "1" + "0".repeat(1000);
        assertEquals(whole, SqlValues.decimalText(whole));
        assertEquals("-0." + "0".repeat(1000) + "1", SqlValues.decimalText("-0." + "0".repeat(1000) + "1"));
        assertEquals("NaN", SqlValues.decimalText("NaN"));
        assertEquals("-Infinity", SqlValues.decimalText("-Infinity"));
        assertEquals(new io.vertx.core.json.JsonArray().add(new BigDecimal("1.5")).addNull().add(whole),
                SqlValues.decimalText(new Object[] {"1.5", null, whole}));
        assertEquals(null, SqlValues.decimalText(null));
    }

    @Test
    void nonFiniteFloatsAndTimes() {
        assertEquals("Infinity", json(Double.POSITIVE_INFINITY));
        assertEquals("-Infinity", json(Float.NEGATIVE_INFINITY));
        assertEquals("NaN", json(Double.NaN));
        assertEquals("2024-02-29T13:45:00", json(LocalDateTime.of(2024, 2, 29, 13, 45)), "seconds are kept");
        assertEquals("10:00:00", json(LocalTime.of(10, 0)));
        assertEquals("2024-02-29T13:45:00Z", json(OffsetDateTime.parse("2024-02-29T13:45Z")));
        assertEquals("infinity", json(LocalDate.MAX));
        assertEquals("-infinity", json(LocalDateTime.MIN));
        assertEquals("-01:02:03.25", json(Duration.ofSeconds(-3723, -250_000_000)));
        assertEquals("30:00:00", json(Duration.ofHours(30)));
        assertEquals("AAH/", json(Buffer.buffer(new byte[] {0, 1, (byte) 0xff})));
    }
}

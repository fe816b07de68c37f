package dev.hyperterse.connector.sql;

import org.junit.jupiter.api.Test;

import java.time.LocalDateTime;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.SplittableRandom;

import static org.junit.jupiter.api.Assertions.assertEquals;

class IsoTimesTest {
    private static void same(LocalDateTime t) {
        assertEquals(DateTimeFormatter.ISO_LOCAL_DATE_TIME.format(t), IsoTimes.localDateTime(t), t::toString);
    }

    private static void same(OffsetDateTime t) {
        assertEquals(DateTimeFormatter.ISO_OFFSET_DATE_TIME.format(t), IsoTimes.offsetDateTime(t), t::toString);
    }

    @Test
    void writesWhatTheIsoFormattersWrite() {
        same(LocalDateTime.of(2024, 3, 1, 9, 5));
        same(LocalDateTime.of(2024, 3, 1, 9, 5, 0, 250_000_000));
        same(LocalDateTime.of(1, 1, 1, 0, 0, 0, 1));
        same(LocalDateTime.of(0, 12, 31, 23, 59, 59, 999_999_999));
        same(LocalDateTime.of(9999, 12, 31, 23, 59, 59, 100));
        same(LocalDateTime.of(10_000, 1, 1, 0, 0));
        same(LocalDateTime.of(-1, 1, 1, 0, 0));
        same(LocalDateTime.of(-44, 3, 15, 12, 0, 0, 500_000));
        same(OffsetDateTime.of(2024, 3, 1, 9, 5, 0, 0, ZoneOffset.UTC));
        same(OffsetDateTime.of(2024, 3, 1, 9, 5, 0, 120_000_000, ZoneOffset.ofHoursMinutes(5, 30)));
        same(OffsetDateTime.of(2024, 3, 1, 9, 5, 0, 0, ZoneOffset.ofHoursMinutes(-9, -30)));
        same(OffsetDateTime.of(1900, 1, 1, 0, 0, 0, 0, ZoneOffset.ofHoursMinutesSeconds(0, 19, 32)));
        same(OffsetDateTime.of(1900, 1, 1, 0, 0, 0, 0, ZoneOffset.ofHoursMinutesSeconds(-4, -56, -2)));
        same(OffsetDateTime.of(12_345, 6, 7, 8, 9, 10, 11, ZoneOffset.MAX));
        same(OffsetDateTime.of(2000, 2, 29, 0, 0, 0, 0, ZoneOffset.MIN));
    }

    @Test
    void randomDateTimesAgree() {
        SplittableRandom random = new SplittableRandom(20261129);
        for (int i = 0; i < 200_000; i++) {
            int year = random.nextInt(10) == 0 ? random.nextInt(-20_000, 20_000) : random.nextInt(0, 10_000);
            int nano = switch (random.nextInt(4)) {
                case 0 -> 0;
                case 1 -> random.nextInt(1000) * 1_000_000;
                case 2 -> random.nextInt(1_000_000) * 1000;
                default -> random.nextInt(1_000_000_000);
            };
            LocalDateTime t = LocalDateTime.of(year, 1 + random.nextInt(12), 1 + random.nextInt(28),
                    random.nextInt(24), random.nextInt(60), random.nextInt(60), nano);
            same(t);
            int offset = random.nextInt(3) == 0 ? 0 : random.nextInt(-18 * 3600, 18 * 3600 + 1);
            if (random.nextBoolean()) {
                offset -= offset % 60;
            }
            same(t.atOffset(ZoneOffset.ofTotalSeconds(offset)));
        }
    }
}

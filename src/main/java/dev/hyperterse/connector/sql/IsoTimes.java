package dev.hyperterse.connector.sql;

import java.time.LocalDateTime;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;

/**
 * Date-times written exactly as {@link DateTimeFormatter#ISO_LOCAL_DATE_TIME} and
 * {@link DateTimeFormatter#ISO_OFFSET_DATE_TIME} write them ({@code 2024-03-01T09:05:00},
 * {@code 2024-03-01T09:05:00.25+01:00}, {@code …Z}), straight into a char array: the formatter
 * walks its printer-parser tree and fields on every value, a visible share of a row's CPU when a
 * result has a timestamp column. Years outside 0–9999 and offsets with seconds, which the
 * formatter writes with a sign or a third offset part, go to the formatter itself.
 */
final class IsoTimes {
    private IsoTimes() {
    }

    static String localDateTime(LocalDateTime t) {
        int year = t.getYear();
        if (year < 0 || year > 9999) {
            return DateTimeFormatter.ISO_LOCAL_DATE_TIME.format(t);
        }
        char[] out = new char[29];
        int n = write(out, t);
        return new String(out, 0, n);
    }

    static String offsetDateTime(OffsetDateTime t) {
        ZoneOffset offset = t.getOffset();
        int seconds = offset.getTotalSeconds();
        int year = t.getYear();
        if (year < 0 || year > 9999 || seconds % 60 != 0) {
            return DateTimeFormatter.ISO_OFFSET_DATE_TIME.format(t);
        }
        char[] out = new char[35];
        int n = write(out, t.toLocalDateTime());
        if (seconds == 0) {
            out[n++] = 'Z';
        } else {
            out[n++] = seconds < 0 ? '-' : '+';
            int minutes = Math.abs(seconds) / 60;
            n = two(out, n, minutes / 60);
            out[n++] = ':';
            n = two(out, n, minutes % 60);
        }
        return new String(out, 0, n);
    }

    /** yyyy-MM-ddTHH:mm:ss and the fraction without its trailing zeros; the year is 0–9999. */
    private static int write(char[] out, LocalDateTime t) {
        int year = t.getYear();
        out[0] = (char) ('0' + year / 1000);
        out[1] = (char) ('0' + year / 100 % 10);
        out[2] = (char) ('0' + year / 10 % 10);
        out[3] = (char) ('0' + year % 10);
        out[4] = '-';
        int n = two(out, 5, t.getMonthValue());
        out[n++] = '-';
        n = two(out, n, t.getDayOfMonth());
        out[n++] = 'T';
        n = two(out, n, t.getHour());
        out[n++] = ':';
        n = two(out, n, t.getMinute());
        out[n++] = ':';
        n = two(out, n, t.getSecond());
        int nano = t.getNano();
        if (nano > 0) {
            out[n++] = '.';
            int digits = 9;
            while (nano % 10 == 0) {
                nano /= 10;
                digits--;
            }
            for (int i = digits - 1; i >= 0; i--) {
                out[n + i] = (char) ('0' + nano % 10);
                nano /= 10;
            }
            n += digits;
        }
        return n;
    }

    private static int two(char[] out, int at, int value) {
        out[at] = (char) ('0' + value / 10);
        out[at + 1] = (char) ('0' + value % 10);
        return at + 2;
    }
}

package dev.hyperterse.model;

import java.time.Duration;
import java.util.Locale;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/** Reads durations written in config files: a number of seconds, or a number with ms, s, m or h. */
public final class Durations {
    private static final Pattern FORM = Pattern.compile("(\\d+(?:\\.\\d+)?)\\s*(ms|s|m|h)?");
    /**
     * The longest duration read: a year. Timeouts and intervals become deadlines in nanoseconds
     * and timers in milliseconds; far longer ones overflowed there ({@code long overflow} at
     * start-up or on a call).
     */
    public static final Duration LONGEST = Duration.ofHours(8760);

    private Durations() {
    }

    /**
     * @return the duration, or null when the text is not a duration or is longer than {@link #LONGEST}
     */
    public static Duration parse(Object value) {
        Duration d = read(value);
        return d == null || d.compareTo(LONGEST) > 0 ? null : d;
    }

    private static Duration read(Object value) {
        if (value instanceof Number) {
            double seconds = ((Number) value).doubleValue();
            return seconds < 0 ? null : Duration.ofMillis(Math.round(seconds * 1000));
        }
        if (!(value instanceof String)) {
            return null;
        }
        Matcher m = FORM.matcher(((String) value).trim().toLowerCase(Locale.ROOT));
        if (!m.matches()) {
            return null;
        }
        double amount = Double.parseDouble(m.group(1));
        String unit = m.group(2) == null ? "s" : m.group(2);
        double millis;
        switch (unit) {
            case "ms":
                millis = amount;
                break;
            case "m":
                millis = amount * 60_000;
                break;
            case "h":
                millis = amount * 3_600_000;
                break;
            default:
                millis = amount * 1000;
        }
        return Duration.ofMillis(Math.round(millis));
    }
}

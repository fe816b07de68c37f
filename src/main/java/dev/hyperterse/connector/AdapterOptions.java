package dev.hyperterse.connector;

import dev.hyperterse.model.Durations;

import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;

/**
 * An adapter's {@code options}, read the same way by every connector: each key must be one the
 * connector knows (or one the server reads for every connector), and each value must have its
 * key's type. Messages name the adapter and list the known keys, so a typo is fixed in one try.
 */
public final class AdapterOptions {
    /** Options the project compiler reads for every connector (row cap, time limit); not a connector's to reject. */
    public static final Set<String> GENERIC = Set.of("row_limit", "statement_timeout");

    private final String adapter;
    private final Map<String, String> values;

    private AdapterOptions(String adapter, Map<String, String> values) {
        this.adapter = adapter;
        this.values = values;
    }

    /**
     * @param known the connector's own keys
     * @throws ConnectorException naming the first unknown key and every known one
     */
    public static AdapterOptions of(String adapter, String connector, Map<String, String> options, Set<String> known) {
        Map<String, String> values = new LinkedHashMap<>();
        for (Map.Entry<String, String> e : options.entrySet()) {
            String key = e.getKey().toLowerCase(Locale.ROOT);
            if (!known.contains(key) && !GENERIC.contains(key)) {
                throw new ConnectorException("adapter '" + adapter + "': unknown option '" + e.getKey()
                        + "' for connector " + connector + "; known options: " + String.join(", ", new TreeSet<>(known)));
            }
            values.put(key, e.getValue());
        }
        return new AdapterOptions(adapter, values);
    }

    /** The value as written (trimmed), or {@code fallback} when the key is absent. */
    public String string(String key, String fallback) {
        String v = values.get(key);
        return v == null ? fallback : v.trim();
    }

    public boolean has(String key) {
        return values.containsKey(key);
    }

    public int positiveInt(String key, int fallback) {
        String v = values.get(key);
        if (v == null) {
            return fallback;
        }
        try {
            int n = Integer.parseInt(v.trim());
            if (n >= 1) {
                return n;
            }
        } catch (NumberFormatException e) {
            // reported below
        }
        throw invalid(key, v, "a whole number of at least 1");
    }

    /**
     * A duration such as {@code 5s}, {@code 250ms} or a number of seconds.
     *
     * @param zeroAllowed whether {@code 0} (usually: no limit) is accepted
     */
    public Duration duration(String key, Duration fallback, boolean zeroAllowed) {
        String v = values.get(key);
        if (v == null) {
            return fallback;
        }
        Duration d = Durations.parse(v);
        if (d == null || (!zeroAllowed && d.isZero()) || d.toMillis() > Integer.MAX_VALUE) {
            throw invalid(key, v, "a duration such as 5s, 250ms or a number of seconds"
                    + (zeroAllowed ? " (0 for none)" : ", greater than zero"));
        }
        return d;
    }

    /** {@code true} or {@code false} (any case). */
    public boolean bool(String key, boolean fallback) {
        return choice(key, Map.of("true", Boolean.TRUE, "false", Boolean.FALSE), fallback);
    }

    /** One of {@code choices} (matched without regard to case), or {@code fallback}. */
    public <T> T choice(String key, Map<String, T> choices, T fallback) {
        String v = values.get(key);
        if (v == null) {
            return fallback;
        }
        T chosen = choices.get(v.trim().toLowerCase(Locale.ROOT));
        if (chosen == null) {
            throw invalid(key, v, "one of " + String.join(", ", new TreeSet<>(choices.keySet())));
        }
        return chosen;
    }

    public ConnectorException invalid(String key, String value, String expected) {
        return new ConnectorException("adapter '" + adapter + "': option " + key + " is '" + value
                + "'; expected " + expected);
    }
}

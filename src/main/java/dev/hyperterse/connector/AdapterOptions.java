package dev.hyperterse.connector;

import dev.hyperterse.model.Durations;

import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;

/**
 * An adapter's {@code options}, read the same way by every connector: each value must have its
 * key's type. A key the connector does not know is set aside, as Hyperterse ignores such options:
 * the connector may pass it on to its driver, or report it with {@link #ignored} (a warning naming
 * it as written and listing the known keys, so a typo is fixed in one try).
 */
public final class AdapterOptions {
    /** Options the project compiler reads for every connector (row cap, time limit); not a connector's to reject. */
    public static final Set<String> GENERIC = Set.of("row_limit", "statement_timeout");

    private final String adapter;
    private final String connector;
    private final Set<String> known;
    private final Map<String, String> values;
    private final Map<String, String> unknown;

    private AdapterOptions(String adapter, String connector, Set<String> known, Map<String, String> values,
                           Map<String, String> unknown) {
        this.adapter = adapter;
        this.connector = connector;
        this.known = known;
        this.values = values;
        this.unknown = unknown;
    }

    /** @param known the connector's own keys */
    public static AdapterOptions of(String adapter, String connector, Map<String, String> options, Set<String> known) {
        Map<String, String> values = new LinkedHashMap<>();
        Map<String, String> unknown = new LinkedHashMap<>();
        for (Map.Entry<String, String> e : options.entrySet()) {
            String key = e.getKey().toLowerCase(Locale.ROOT);
            if (!known.contains(key) && !GENERIC.contains(key)) {
                unknown.put(e.getKey(), e.getValue());
            } else {
                values.put(key, e.getValue());
            }
        }
        return new AdapterOptions(adapter, connector, known, values, unknown);
    }

    /** Options the connector does not know, keyed as written, in the order written. */
    public Map<String, String> unknown() {
        return java.util.Collections.unmodifiableMap(unknown);
    }

    /** The warnings for every option the connector does not use (see {@link #ignored}). */
    public java.util.List<String> ignoredWarnings() {
        return unknown.keySet().stream().map(this::ignored).toList();
    }

    /** The warning for an option the connector does not use: named as written, with the known ones. */
    public String ignored(String writtenKey) {
        return "adapter '" + adapter + "': option '" + writtenKey + "' is not used by the " + connector
                + " connector and is ignored; known options: " + String.join(", ", new TreeSet<>(known));
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

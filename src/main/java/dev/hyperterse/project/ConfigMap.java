package dev.hyperterse.project;

import dev.hyperterse.model.Durations;
import dev.hyperterse.model.SourceLocation;

import java.math.BigInteger;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Typed, line-aware access to one YAML mapping of a project file. Every getter reports a wrong
 * type as a problem naming the full key ({@code 'inputs.id.optional'}) and the expected type at
 * the value's line, then returns null so reading can go on and find further problems.
 * A key written with no value ({@code description:}) counts as not set.
 */
final class ConfigMap {
    /** yaml.v3, which reads Hyperterse files, still accepts these YAML 1.1 words for a boolean key. */
    private static final Set<String> YES = Set.of("y", "Y", "yes", "Yes", "YES", "on", "On", "ON");
    private static final Set<String> NO = Set.of("n", "N", "no", "No", "NO", "off", "Off", "OFF");
    private static final Pattern BYTE_SIZE = Pattern.compile("(\\d+)\\s*(b|k|kb|kib|m|mb|mib|g|gb|gib)?");

    private final YamlNode.Mapping mapping;
    private final String path;
    private final int ownerLine;
    private final Problems problems;

    private ConfigMap(YamlNode.Mapping mapping, String path, int ownerLine, Problems problems) {
        this.mapping = mapping;
        this.path = path;
        this.ownerLine = ownerLine;
        this.problems = problems;
    }

    /** The top of a file; anything but a mapping there is a problem and reads as empty. */
    static ConfigMap top(YamlNode node, Path file, Problems problems) {
        if (node instanceof YamlNode.Mapping) {
            return new ConfigMap((YamlNode.Mapping) node, "", 1, problems);
        }
        if (node != null && !(node instanceof YamlNode.Scalar && ((YamlNode.Scalar) node).isNull())) {
            problems.error(node.file(), node.line(), "expected a mapping of keys at the top of the file, got "
                    + YamlNode.describe(node));
        }
        return new ConfigMap(YamlNode.Mapping.empty(file, 1), "", 1, problems);
    }

    Path file() {
        return mapping.file();
    }

    /** The full dotted name of a key of this mapping, as messages show it. */
    String name(String key) {
        return path.isEmpty() ? key : path + "." + key;
    }

    /** Where this mapping's own key is (line 1 at the top of a file): missing keys are reported there. */
    int ownerLine() {
        return ownerLine;
    }

    SourceLocation ownerLocation() {
        return new SourceLocation(mapping.file(), ownerLine);
    }

    Collection<YamlNode.Entry> entries() {
        return mapping.entries().values();
    }

    /** The entry, or null when the key is absent or has no value. */
    YamlNode.Entry entry(String key) {
        YamlNode.Entry e = mapping.entries().get(key);
        if (e == null || e.value() instanceof YamlNode.Scalar && ((YamlNode.Scalar) e.value()).isNull()) {
            return null;
        }
        return e;
    }

    boolean has(String key) {
        return entry(key) != null;
    }

    YamlNode node(String key) {
        YamlNode.Entry e = entry(key);
        return e == null ? null : e.value();
    }

    /** The line of the key's value, or of this mapping's own key when it is not set. */
    int line(String key) {
        YamlNode.Entry e = entry(key);
        return e == null ? ownerLine : e.value().line();
    }

    /** Where a problem about the key's value belongs: the value's own file and line. */
    SourceLocation location(String key) {
        YamlNode.Entry e = entry(key);
        return e == null ? ownerLocation() : new SourceLocation(e.value().file(), e.value().line());
    }

    /**
     * Where a part of the key's text value was written: the line of the value's text holding
     * {@code value.substring(start, end)} (counting the same text before it), so a problem about
     * one placeholder of a statement of many lines is at that placeholder's line.
     */
    SourceLocation location(String key, String value, int start, int end) {
        YamlNode.Entry e = entry(key);
        if (e == null || !(e.value() instanceof YamlNode.Scalar)) {
            return location(key);
        }
        String part = value.substring(start, end);
        int occurrence = 0;
        for (int at = value.indexOf(part); at >= 0 && at < start; at = value.indexOf(part, at + 1)) {
            occurrence++;
        }
        YamlNode.Scalar scalar = (YamlNode.Scalar) e.value();
        return new SourceLocation(scalar.file(), scalar.lineOf(part, occurrence));
    }

    /** A problem about a part of the key's text value, at that part's line (see {@link #location(String, String, int, int)}). */
    void error(String key, String value, int start, int end, String message) {
        SourceLocation at = location(key, value, start, end);
        problems.error(at.file(), at.line(), message);
    }

    void error(String key, String message) {
        SourceLocation at = location(key);
        problems.error(at.file(), at.line(), message);
    }

    void errorAt(YamlNode node, String message) {
        problems.error(node.file(), node.line(), message);
    }

    /** An environment variable the item lists is not set (see {@link Problems#missingVariable}). */
    void missingVariable(YamlNode item, String variable, String message) {
        problems.missingVariable(item.file(), item.line(), variable, message);
    }

    /** Like {@link #missingVariable(String, String, String)}, at the line of the placeholder that uses it. */
    void missingVariable(String key, String value, int start, int end, String variable, String message) {
        SourceLocation at = location(key, value, start, end);
        problems.missingVariable(at.file(), at.line(), variable, message);
    }

    /** An environment variable the value at {@code key} uses is not set (see {@link Problems#missingVariable}). */
    void missingVariable(String key, String variable, String message) {
        SourceLocation at = location(key);
        problems.missingVariable(at.file(), at.line(), variable, message);
    }

    void missing(String key, String why) {
        problems.error(mapping.file(), ownerLine, "missing required key '" + name(key) + "'" + why);
    }

    /** Unknown keys are errors (adapter and tool files are strict). */
    void rejectUnknownKeys(List<String> known) {
        for (YamlNode.Entry e : mapping.entries().values()) {
            if (!known.contains(e.key())) {
                problems.error(mapping.file(), e.keyLine(), "unknown key '" + name(e.key()) + "'"
                        + Suggestions.didYouMean(e.key(), known) + "; allowed keys: " + String.join(", ", known));
            }
        }
    }

    /** A note at the key's line (see {@link Problems#note}). */
    void note(String key, String message) {
        YamlNode.Entry e = mapping.entries().get(key);
        if (e == null) {
            problems.note(mapping.file(), ownerLine, message);
        } else {
            problems.note(e.value().file(), e.keyLine(), message);
        }
    }

    /** Unknown keys are ignored with a warning (the root {@code .hyperterse} is lenient). */
    void warnUnknownKeys(List<String> known) {
        for (YamlNode.Entry e : mapping.entries().values()) {
            if (!known.contains(e.key())) {
                problems.warn(mapping.file(), e.keyLine(), "unknown key '" + name(e.key()) + "' is ignored"
                        + Suggestions.didYouMean(e.key(), known));
            }
        }
    }

    /** True when {@code key} is set to a scalar (not a mapping or a list). */
    boolean isScalar(String key) {
        YamlNode.Entry e = entry(key);
        return e != null && e.value() instanceof YamlNode.Scalar;
    }

    /** A nested mapping, or null when unset or not a mapping (reported). */
    ConfigMap map(String key) {
        YamlNode.Entry e = entry(key);
        if (e == null) {
            return null;
        }
        if (!(e.value() instanceof YamlNode.Mapping)) {
            error(key, "'" + name(key) + "' must be a mapping of keys, got " + YamlNode.describe(e.value()));
            return null;
        }
        return new ConfigMap((YamlNode.Mapping) e.value(), name(key), e.keyLine(), problems);
    }

    /** A mapping found inside this one under a key that is data, not a known key (an input name). */
    ConfigMap child(YamlNode.Entry e) {
        return new ConfigMap((YamlNode.Mapping) e.value(), name(e.key()), e.keyLine(), problems);
    }

    /**
     * Any scalar as the text it was written as (so {@code version: 1.10} is "1.10"), or null
     * when unset or not a scalar (reported).
     */
    String string(String key) {
        YamlNode.Entry e = entry(key);
        if (e == null) {
            return null;
        }
        if (!(e.value() instanceof YamlNode.Scalar)) {
            error(key, "'" + name(key) + "' must be a string, got " + YamlNode.describe(e.value()));
            return null;
        }
        return ((YamlNode.Scalar) e.value()).text();
    }

    String requiredString(String key, String why) {
        String value = string(key);
        if (value == null && !has(key)) {
            missing(key, why);
        }
        return value;
    }

    Boolean bool(String key) {
        YamlNode.Entry e = entry(key);
        if (e == null) {
            return null;
        }
        if (e.value() instanceof YamlNode.Scalar) {
            YamlNode.Scalar s = (YamlNode.Scalar) e.value();
            if (s.value() instanceof Boolean) {
                return (Boolean) s.value();
            }
            if (s.plain() && YES.contains(s.text())) {
                return Boolean.TRUE;
            }
            if (s.plain() && NO.contains(s.text())) {
                return Boolean.FALSE;
            }
        }
        error(key, "'" + name(key) + "' must be true or false, got " + YamlNode.describe(e.value()));
        return null;
    }

    /** An integer within {@code [min, max]}; {@code expected} words the range for the message. */
    Long integer(String key, long min, long max, String expected) {
        YamlNode.Entry e = entry(key);
        if (e == null) {
            return null;
        }
        Long value = null;
        if (e.value() instanceof YamlNode.Scalar) {
            Object v = ((YamlNode.Scalar) e.value()).value();
            if (v instanceof Integer || v instanceof Long) {
                value = ((Number) v).longValue();
            } else if (v instanceof BigInteger && ((BigInteger) v).bitLength() < 64) {
                value = ((BigInteger) v).longValue();
            }
        }
        if (value == null || value < min || value > max) {
            error(key, "'" + name(key) + "' must be " + expected + ", got " + YamlNode.describe(e.value()));
            return null;
        }
        return value;
    }

    Integer positiveInt(String key) {
        Long value = integer(key, 1, Integer.MAX_VALUE, "a positive integer");
        return value == null ? null : value.intValue();
    }

    /** A positive duration: a number of seconds, or a number with ms, s, m or h. */
    Duration duration(String key) {
        YamlNode.Entry e = entry(key);
        if (e == null) {
            return null;
        }
        Duration d = parseDuration(e.value());
        if (d == null || d.isZero()) {
            error(key, "'" + name(key) + "' must be a duration greater than zero such as 500ms, 30s, 2m, 1h "
                    + "or a number of seconds, at most 8760h (a year), got " + YamlNode.describe(e.value()));
            return null;
        }
        return d;
    }

    /** A duration that may be zero (to switch something off), such as {@code 0}, {@code 5s}; null when absent or wrong. */
    Duration durationOrZero(String key) {
        YamlNode.Entry e = entry(key);
        if (e == null) {
            return null;
        }
        Duration d = parseDuration(e.value());
        if (d == null) {
            error(key, "'" + name(key) + "' must be a duration such as 5s, 500ms, 1m, or 0 for none, "
                    + "at most 8760h (a year), got " + YamlNode.describe(e.value()));
        }
        return d;
    }

    static Duration parseDuration(YamlNode node) {
        if (!(node instanceof YamlNode.Scalar)) {
            return null;
        }
        Object v = ((YamlNode.Scalar) node).value();
        return v instanceof Number || v instanceof String ? Durations.parse(v) : null;
    }

    /** A positive size in bytes: an integer, or a number with b, kb, mb or gb (1 kb = 1024 bytes). */
    Long byteSize(String key) {
        YamlNode.Entry e = entry(key);
        if (e == null) {
            return null;
        }
        Long bytes = null;
        if (e.value() instanceof YamlNode.Scalar) {
            Object v = ((YamlNode.Scalar) e.value()).value();
            if (v instanceof Integer || v instanceof Long) {
                bytes = ((Number) v).longValue();
            } else if (v instanceof String) {
                bytes = parseByteSize((String) v);
            }
        }
        if (bytes == null || bytes <= 0) {
            error(key, "'" + name(key) + "' must be a size greater than zero in bytes, or with a unit such as "
                    + "512kb or 4mb, got " + YamlNode.describe(e.value()));
            return null;
        }
        return bytes;
    }

    private static Long parseByteSize(String text) {
        Matcher m = BYTE_SIZE.matcher(text.trim().toLowerCase(Locale.ROOT));
        if (!m.matches()) {
            return null;
        }
        String unit = m.group(2) == null ? "b" : m.group(2);
        int shift = unit.startsWith("k") ? 10 : unit.startsWith("m") ? 20 : unit.startsWith("g") ? 30 : 0;
        try {
            long amount = Long.parseLong(m.group(1));
            return amount > (Long.MAX_VALUE >> shift) ? null : amount << shift;
        } catch (NumberFormatException tooLong) {
            return null;
        }
    }

    /** A list node, or null when unset or not a list (reported). */
    YamlNode.Sequence list(String key, String of) {
        YamlNode.Entry e = entry(key);
        if (e == null) {
            return null;
        }
        if (!(e.value() instanceof YamlNode.Sequence)) {
            error(key, "'" + name(key) + "' must be a list of " + of + ", got " + YamlNode.describe(e.value()));
            return null;
        }
        return (YamlNode.Sequence) e.value();
    }

    /** A list of strings, or null when unset or malformed (reported). */
    List<String> stringList(String key) {
        YamlNode.Sequence seq = list(key, "strings");
        if (seq == null) {
            return null;
        }
        List<String> out = new ArrayList<>();
        boolean ok = true;
        for (YamlNode item : seq.items()) {
            if (item instanceof YamlNode.Scalar && !((YamlNode.Scalar) item).isNull()) {
                out.add(((YamlNode.Scalar) item).text());
            } else {
                errorAt(item, "'" + name(key) + "' must be a list of strings, but an item is "
                        + YamlNode.describe(item));
                ok = false;
            }
        }
        return ok ? out : null;
    }
}

package dev.hyperterse.model;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The {@code {{ name }}} placeholders of prompt messages and resource text/file templates: text,
 * never bound into a statement, so rendering is plain substitution of the argument's value.
 */
public final class ArgumentText {
    /** Group 1: the argument's name. */
    public static final Pattern PLACEHOLDER = Pattern.compile("\\{\\{\\s*([A-Za-z_][A-Za-z0-9_-]*)\\s*\\}\\}");

    private ArgumentText() {
    }

    /** The argument names a text refers to, in order of first use. */
    public static List<String> names(String text) {
        List<String> out = new ArrayList<>();
        Matcher m = PLACEHOLDER.matcher(text);
        while (m.find()) {
            if (!out.contains(m.group(1))) {
                out.add(m.group(1));
            }
        }
        return out;
    }

    /** The start of a placeholder, to find one that is never closed; {@code {{1,2}}} is no such start. */
    private static final Pattern OPENED = Pattern.compile("\\{\\{\\s*[A-Za-z_]");

    /**
     * Every {@code {{ ... }}} that is not a well-formed argument placeholder, as written, and
     * every placeholder never closed (two opening braces and a name, then no closing pair), as
     * written to the end of its line.
     */
    public static List<String> malformed(String text) {
        return Placeholders.malformed(text, PLACEHOLDER, OPENED);
    }

    /** Replaces each placeholder by its value; an argument without one renders as empty text. */
    public static String render(String text, Map<String, String> values) {
        Matcher m = PLACEHOLDER.matcher(text);
        StringBuilder out = new StringBuilder(text.length());
        while (m.find()) {
            String value = values.get(m.group(1));
            m.appendReplacement(out, Matcher.quoteReplacement(value == null ? "" : value));
        }
        m.appendTail(out);
        return out.toString();
    }
}

package dev.hyperterse.model;

import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The {@code {{ source.name }}} placeholder grammar shared by the project compiler (which checks
 * names) and the statement templates (which turn input placeholders into bind parameters).
 * Sources: {@code inputs}, {@code env}, and {@code auth.claims} (a claim of the caller's token).
 */
public final class Placeholders {
    /** Group 1: the source ({@code inputs}, {@code env}, {@code auth.claims}); group 2: the name. */
    public static final Pattern PATTERN =
            Pattern.compile("\\{\\{\\s*(inputs|env|auth\\.claims)\\.([A-Za-z_][\\w-]*)\\s*\\}\\}");
    /**
     * Anything that looks like a placeholder, to report malformed ones. No brace inside: a
     * PostgreSQL array literal such as {@code '{{1,2},{3,4}}'} is not one.
     */
    public static final Pattern ANY = Pattern.compile("\\{\\{([^{}]*)\\}\\}");
    /** The start of a placeholder of a known source, to find one that is never closed. */
    private static final Pattern OPENED = Pattern.compile("\\{\\{\\s*(?:inputs|env|auth)\\b");

    /** One placeholder occurrence in a text. */
    public record Placeholder(String source, String name, int start, int end) {
        public boolean isInput() {
            return source.equals("inputs");
        }

        public boolean isEnv() {
            return source.equals("env");
        }

        public boolean isClaim() {
            return source.equals("auth.claims");
        }
    }

    private Placeholders() {
    }

    public static List<Placeholder> scan(String text) {
        List<Placeholder> out = new ArrayList<>();
        if (text == null) {
            return out;
        }
        Matcher m = PATTERN.matcher(text);
        while (m.find()) {
            out.add(new Placeholder(m.group(1), m.group(2), m.start(), m.end()));
        }
        return out;
    }

    /** Every {@code {{ ... }}} whose content is not a well-formed placeholder, as written. */
    public static List<String> malformed(String text) {
        // {{ inputs.x or {{ inputs.x } would otherwise reach the database as text
        return malformed(text, PATTERN, OPENED);
    }

    /**
     * Every {@code {{ ... }}} of {@code text} that {@code wellFormed} does not match, as written,
     * and every start of one ({@code opened}) never closed, as written to the end of its line.
     */
    static List<String> malformed(String text, Pattern wellFormed, Pattern opened) {
        List<String> out = new ArrayList<>();
        if (text == null) {
            return out;
        }
        Matcher m = ANY.matcher(text);
        List<int[]> spans = new ArrayList<>();
        while (m.find()) {
            spans.add(new int[] {m.start(), m.end()});
            if (!wellFormed.matcher(m.group()).matches()) {
                out.add(m.group());
            }
        }
        Matcher starts = opened.matcher(text);
        while (starts.find()) {
            int at = starts.start();
            if (spans.stream().noneMatch(span -> span[0] <= at && at < span[1])) {
                int lineEnd = text.indexOf('\n', at);
                String rest = text.substring(at, lineEnd < 0 ? text.length() : lineEnd).strip();
                out.add(rest.length() > 40 ? rest.substring(0, 40) + "…" : rest);
            }
        }
        return out;
    }
}

package dev.hyperterse.connector;

import dev.hyperterse.model.Placeholders;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;

/**
 * A statement template with its {@code {{ env.X }}} placeholders replaced by the variables'
 * values (text, operator-controlled), and the map from positions in that text back to the
 * template, so an error found in the expanded text points at what the user wrote. Every
 * connector's template compiler starts here; input and claim placeholders are left for it.
 */
public final class EnvExpansion {
    private final String template;
    private final String text;
    /** Per replacement: start and end in {@code text}, start and end in {@code template}. */
    private final List<int[]> replacements;

    private EnvExpansion(String template, String text, List<int[]> replacements) {
        this.template = template;
        this.text = text;
        this.replacements = replacements;
    }

    /**
     * @param refuseBraces whether a value holding {@code {{} is an error (for dialects whose
     *                     compilers would otherwise take part of a value for a placeholder)
     * @throws StatementException at the placeholder of a variable that is not set (or refused)
     */
    public static EnvExpansion of(String template, Map<String, String> env, boolean refuseBraces)
            throws StatementException {
        StringBuilder text = new StringBuilder(template.length());
        List<int[]> replacements = new ArrayList<>();
        Matcher m = Placeholders.PATTERN.matcher(template);
        int copied = 0;
        while (m.find()) {
            if (!m.group(1).equals("env")) {
                continue;
            }
            String value = env.get(m.group(2));
            if (value == null) {
                throw at(template, m.start(), "environment variable '" + m.group(2) + "' is not set");
            }
            if (refuseBraces && value.contains("{{")) {
                throw at(template, m.start(), "the value of environment variable '" + m.group(2)
                        + "' holds '{{'; env values are not expanded again");
            }
            text.append(template, copied, m.start());
            int start = text.length();
            text.append(value);
            replacements.add(new int[] {start, text.length(), m.start(), m.end()});
            copied = m.end();
        }
        text.append(template, copied, template.length());
        return new EnvExpansion(template, text.toString(), replacements);
    }

    /** A text that was expanded before (a compiled statement read back): positions are its own. */
    public static EnvExpansion expanded(String text) {
        return new EnvExpansion(text, text, List.of());
    }

    /** The template with the env values in place. */
    public String text() {
        return text;
    }

    /** Where {@code offset} of the expanded text was written in the template (a value: its placeholder). */
    public int templateOffset(int offset) {
        int delta = 0;
        for (int[] r : replacements) {
            if (offset < r[0]) {
                break;
            }
            if (offset < r[1]) {
                return r[2];
            }
            delta += (r[1] - r[0]) - (r[3] - r[2]);
        }
        return offset - delta;
    }

    /** {@code problem} at {@code offset} of the expanded text, reported at its line and column in the template. */
    public StatementException error(String problem, int offset) {
        return at(template, templateOffset(offset), problem);
    }

    /** {@code problem} at {@code offset} of {@code template}, with its 1-based line and column. */
    public static StatementException at(String template, int offset, String problem) {
        int line = 1;
        int lineStart = 0;
        for (int i = 0; i < offset && i < template.length(); i++) {
            if (template.charAt(i) == '\n') {
                line++;
                lineStart = i + 1;
            }
        }
        return new StatementException(problem, line, offset - lineStart + 1);
    }
}

package dev.hyperterse.project;

import java.nio.file.Path;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * A YAML value together with the file and line it was written at. Project files are read into
 * this small tree (instead of plain maps) so that every error can point at {@code file:line},
 * and so that the packaged defaults and a project's {@code .hyperterse} can be merged while each
 * value remembers which of the two files it came from.
 */
sealed interface YamlNode permits YamlNode.Scalar, YamlNode.Mapping, YamlNode.Sequence {

    /** The file as shown in messages. */
    Path file();

    /** 1-based line of the value's first character. */
    int line();

    /**
     * A scalar. {@code value} is the typed value (String, Integer, Long, BigInteger, Double,
     * Boolean, or null for {@code ~}/empty); {@code text} is the scalar exactly as written, which
     * is what string-typed keys use, so {@code version: 1.10} stays {@code "1.10"}.
     *
     * @param plain  true when written without quotes (only plain scalars are resolved to non-strings)
     * @param source the file's lines the value spans, from {@code line} on, as written (indentation,
     *               quotes and all), to say which line a part of a value of several lines is on;
     *               null for a value on one line
     */
    record Scalar(Object value, String text, boolean plain, Path file, int line, String source) implements YamlNode {
        Scalar(Object value, String text, boolean plain, Path file, int line) {
            this(value, text, plain, file, line, null);
        }

        public boolean isNull() {
            return value == null;
        }

        /**
         * The line {@code part} of this value was written on: its {@code occurrence}-th appearance
         * (0 for the first) in the file's text of the value. A value of one line, or a part not
         * written as it reads (folded across lines, escaped), is on {@link #line()}.
         */
        int lineOf(String part, int occurrence) {
            if (source == null || part.isEmpty()) {
                return line;
            }
            int at = -1;
            for (int i = 0; i <= occurrence; i++) {
                at = source.indexOf(part, at + 1);
                if (at < 0) {
                    return line;
                }
            }
            int newlines = 0;
            for (int i = 0; i < at; i++) {
                if (source.charAt(i) == '\n') {
                    newlines++;
                }
            }
            return line + newlines;
        }
    }

    /** A mapping with string keys in file order. */
    record Mapping(Map<String, Entry> entries, Path file, int line) implements YamlNode {
        public Mapping {
            entries = Collections.unmodifiableMap(new LinkedHashMap<>(entries));
        }

        public static Mapping empty(Path file, int line) {
            return new Mapping(Map.of(), file, line);
        }
    }

    record Sequence(List<YamlNode> items, Path file, int line) implements YamlNode {
        public Sequence {
            items = List.copyOf(items);
        }
    }

    /** One key of a mapping; {@code keyLine} is where problems about the key itself point. */
    record Entry(String key, int keyLine, YamlNode value) {
    }

    /** A short rendering for messages: a quoted string, a number as written, or "a list"/"a mapping". */
    static String describe(YamlNode node) {
        if (node instanceof Scalar) {
            Scalar s = (Scalar) node;
            if (s.isNull()) {
                return "nothing";
            }
            if (s.value() instanceof String) {
                String text = s.text();
                return "\"" + (text.length() > 40 ? text.substring(0, 40) + "…" : text) + "\"";
            }
            return s.text();
        }
        return node instanceof Mapping ? "a mapping" : "a list";
    }
}

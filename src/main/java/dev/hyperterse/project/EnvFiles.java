package dev.hyperterse.project;

import dev.hyperterse.model.SourceLocation;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.IntFunction;
import java.util.regex.Pattern;

/**
 * The project's env file: the first of {@code .env.local}, {@code .env.development} and
 * {@code .env} found in the project folder. Lines are {@code KEY=VALUE} or {@code KEY: VALUE},
 * optionally prefixed by {@code export}; values may be single-quoted (literal), double-quoted ({@code \n}, {@code \t},
 * {@code \"} and {@code \\} escapes) or bare (a {@code #} after whitespace starts a comment);
 * quoted values may span lines. In bare and double-quoted values {@code ${VAR}} and {@code $VAR}
 * are replaced with a variable set above in the same file, as Hyperterse does.
 */
final class EnvFiles {
    static final List<String> NAMES = List.of(".env.local", ".env.development", ".env");
    private static final Pattern KEY = Pattern.compile("[A-Za-z_][A-Za-z0-9_.]*");
    private static final Pattern EXPORT = Pattern.compile("^export\\s+");

    /** The file that was loaded (null when there is none) and its variables in file order. */
    record Loaded(Path file, Map<String, String> values) {
    }

    private EnvFiles() {
    }

    static Loaded load(Path projectDir, DisplayPaths paths, Problems problems) {
        for (String name : NAMES) {
            Path file = projectDir.resolve(name);
            if (Files.isRegularFile(file)) {
                Path shown = paths.show(file);
                String text = TextFiles.read(file, shown, problems);
                return new Loaded(file, text == null ? Map.of() : parse(text, shown, problems));
            }
        }
        return new Loaded(null, Map.of());
    }

    static Map<String, String> parse(String text, Path shown, Problems problems) {
        Map<String, String> values = new LinkedHashMap<>();
        String[] lines = text.split("\r?\n", -1);
        for (int i = 0; i < lines.length; i++) {
            int lineNumber = i + 1;
            String line = lines[i].strip();
            if (i == 0 && line.startsWith("\uFEFF")) {
                line = line.substring(1).strip();
            }
            if (line.isEmpty() || line.startsWith("#")) {
                continue;
            }
            line = EXPORT.matcher(line).replaceFirst("");
            // the line's text is never repeated in a message: it may be part of a secret
            int eq = keyEnd(line);
            if (eq < 0) {
                problems.error(shown, lineNumber, "expected KEY=VALUE (or KEY: VALUE), but the line has no '='");
                continue;
            }
            String key = line.substring(0, eq).strip();
            if (!KEY.matcher(key).matches()) {
                problems.error(shown, lineNumber, "invalid variable name before '" + line.charAt(eq) + "': "
                        + (key.isEmpty() ? "it is empty" : "it " + keyFault(key))
                        + " (letters, digits, '_' and '.', not starting with a digit)");
                continue;
            }
            String rest = line.substring(eq + 1).stripLeading();
            if (rest.startsWith("\"") || rest.startsWith("'")) {
                char quote = rest.charAt(0);
                StringBuilder raw = new StringBuilder(rest.substring(1));
                int close = closingQuote(raw, quote);
                // a quoted value may continue on the following lines until its closing quote
                while (close < 0 && i + 1 < lines.length) {
                    raw.append('\n').append(lines[++i]);
                    close = closingQuote(raw, quote);
                }
                if (close < 0) {
                    problems.error(shown, lineNumber, "the value of '" + key + "' has no closing " + quote);
                    continue;
                }
                String body = raw.substring(0, close);
                if (quote == '\'') {
                    values.put(key, body);
                } else {
                    // the body starts after the quote; its later lines at their first column
                    int bodyColumn = column(lines[lineNumber - 1], rest) + 1;
                    int[] origin = new int[body.length()];
                    String unescaped = unescape(body, origin);
                    values.put(key, expand(unescaped, values, k -> place(shown, lineNumber, bodyColumn, body, origin[k]),
                            problems));
                }
            } else {
                String value = stripComment(rest);
                int valueColumn = column(lines[i], rest);
                values.put(key, expand(value, values, k -> new SourceLocation(shown, lineNumber, valueColumn + k),
                        problems));
            }
        }
        return values;
    }

    /** Where the key ends: at the first '=' or ':' (Hyperterse also reads YAML-style {@code KEY: value}). */
    private static int keyEnd(String line) {
        for (int i = 0; i < line.length(); i++) {
            char c = line.charAt(i);
            if (c == '=' || c == ':') {
                return i;
            }
        }
        return -1;
    }

    /** What is wrong with a key, naming one character and its place rather than the key. */
    private static String keyFault(String key) {
        if (Character.isDigit(key.charAt(0))) {
            return "starts with a digit";
        }
        for (int i = 0; i < key.length(); i++) {
            char c = key.charAt(i);
            if (!(Character.isLetterOrDigit(c) && c < 128 || c == '_' || c == '.')) {
                return "has " + (Character.isWhitespace(c) ? "a space" : "'" + c + "'") + " at character " + (i + 1);
            }
        }
        return "is not a valid name";
    }

    /** The 1-based column where {@code rest}, the end of the line after its key, starts in the file's line. */
    private static int column(String fileLine, String rest) {
        return fileLine.stripTrailing().length() - rest.length() + 1;
    }

    /**
     * Where character {@code at} of a double-quoted value's body is in the file: the body starts
     * at {@code line}:{@code column} and runs on over the following lines, whole.
     */
    private static SourceLocation place(Path shown, int line, int column, String body, int at) {
        int lastBreak = body.lastIndexOf('\n', at - 1);
        if (lastBreak < 0) {
            return new SourceLocation(shown, line, column + at);
        }
        int breaks = 0;
        for (int i = 0; i <= lastBreak; i++) {
            if (body.charAt(i) == '\n') {
                breaks++;
            }
        }
        return new SourceLocation(shown, line + breaks, at - lastBreak);
    }

    /**
     * Replaces {@code ${NAME}} and {@code $NAME} (upper-case letters, digits and '_') with the
     * value of NAME set above in the same file, as Hyperterse's env reader does; a name not set
     * above reads as empty, with a warning. {@code \$} is a literal {@code $}. The warning points
     * at the first such '$' by file, line and column only: a '$' in a value is as often part of a
     * password or a bcrypt hash ({@code Tr0ub4dor$AB12}, {@code $2b$12$...}), whose following
     * characters a warning would print to the log.
     *
     * @param at where character k of {@code value} is in the file
     */
    private static String expand(String value, Map<String, String> above, IntFunction<SourceLocation> at,
                                 Problems problems) {
        if (value.indexOf('$') < 0) {
            return value;
        }
        StringBuilder out = new StringBuilder(value.length());
        int firstUnset = -1;
        int unset = 0;
        for (int i = 0; i < value.length(); i++) {
            char c = value.charAt(i);
            if (c == '\\' && i + 1 < value.length() && value.charAt(i + 1) == '$') {
                out.append('$');
                i++;
                continue;
            }
            if (c != '$') {
                out.append(c);
                continue;
            }
            boolean braced = i + 1 < value.length() && value.charAt(i + 1) == '{';
            int start = braced ? i + 2 : i + 1;
            int end = start;
            while (end < value.length() && isNameChar(value.charAt(end))) {
                end++;
            }
            if (end == start || braced && (end == value.length() || value.charAt(end) != '}')) {
                out.append(c);
                continue;
            }
            String set = above.get(value.substring(start, end));
            if (set == null && unset++ == 0) {
                firstUnset = i;
            }
            out.append(set == null ? "" : set);
            i = braced ? end : end - 1;
        }
        if (unset > 0) {
            problems.warn(at.apply(firstUnset), "the '$' here starts the name of a variable that is not set above it"
                    + " in this file" + (unset > 1 ? " (and " + (unset - 1) + " more later in the value)" : "")
                    + ", so it reads as empty; for a literal '$' write \\$ or single-quote the value");
        }
        return out.toString();
    }

    private static boolean isNameChar(char c) {
        return c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c == '_';
    }

    private static int closingQuote(CharSequence s, char quote) {
        for (int i = 0; i < s.length(); i++) {
            char c = s.charAt(i);
            if (c == '\\' && quote == '"') {
                i++;
            } else if (c == quote) {
                return i;
            }
        }
        return -1;
    }

    /**
     * A double-quoted value's escapes replaced; {@code origin[k]} is set to where character k of
     * the result came from in {@code s}.
     */
    private static String unescape(String s, int[] origin) {
        StringBuilder out = new StringBuilder(s.length());
        for (int i = 0; i < s.length(); i++) {
            char c = s.charAt(i);
            origin[out.length()] = i;
            if (c != '\\' || i + 1 == s.length()) {
                out.append(c);
                continue;
            }
            char next = s.charAt(++i);
            switch (next) {
                case 'n':
                    out.append('\n');
                    break;
                case 'r':
                    out.append('\r');
                    break;
                case 't':
                    out.append('\t');
                    break;
                case '"':
                case '\\':
                    out.append(next);
                    break;
                default:
                    origin[out.length() + 1] = i;
                    out.append('\\').append(next);
            }
        }
        return out.toString();
    }

    private static String stripComment(String value) {
        for (int i = 0; i < value.length(); i++) {
            if (value.charAt(i) == '#' && (i == 0 || Character.isWhitespace(value.charAt(i - 1)))) {
                return value.substring(0, i).strip();
            }
        }
        return value.strip();
    }
}

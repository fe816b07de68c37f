package dev.hyperterse.connector;

import dev.hyperterse.connector.CompiledStatement.Parameter;
import dev.hyperterse.connector.CompiledStatement.Source;
import dev.hyperterse.model.Placeholders;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Turns a SQL statement template into a prepared statement: input and claim placeholders become
 * bind parameters, env placeholders are pasted as text. The output text depends only on the
 * template and the environment, never on a value bound later, so no input can change the SQL.
 *
 * <p>Placeholders are found by a small lexer that knows each dialect's literals, identifiers and
 * comments (a regex over the raw text cannot tell {@code '{{ inputs.q }}'} from
 * {@code -- '{{ inputs.q }}'}):
 * <ul>
 *   <li>outside literals: a bare marker ({@code $n} for PostgreSQL, numbered in order of
 *       appearance; {@code ?} otherwise);</li>
 *   <li>the whole content of a string literal ({@code '{{ inputs.email }}'}): a bare marker that
 *       replaces the literal, quotes included;</li>
 *   <li>part of a string literal ({@code '%{{ inputs.q }}%'}): a concatenation of the literal's
 *       pieces (kept exactly as written, in the same quoting, so their escapes stay valid) and
 *       markers: {@code ('%' || $1 || '%')}, or {@code CONCAT('%', ?, '%')} for MySQL;</li>
 *   <li>a typed literal ({@code INTERVAL '{{ inputs.n }} days'}, {@code DATE '...'}), which takes
 *       only a constant: a cast of that replacement ({@code CAST(($1 || ' days') AS INTERVAL)}),
 *       for PostgreSQL from text also when the placeholder is the whole literal
 *       ({@code CAST($1::text AS INTERVAL)}), so the server reads the value as it reads the literal.
 *       PostgreSQL's interval literal followed by its fields ({@code INTERVAL '{{ inputs.n }}' DAY})
 *       is an error: its text is read by those fields, which no cast does;</li>
 *   <li>inside a comment: left as text and not bound (the database ignores it);</li>
 *   <li>inside a quoted identifier or a PostgreSQL dollar-quoted body, or inside a prefixed literal
 *       ({@code X'..'}, {@code N'..'}, {@code _utf8mb4'..'}; PostgreSQL's {@code E'..'} is fine):
 *       an error, because no bind parameter can stand there.</li>
 * </ul>
 * Each occurrence is its own parameter, even when the same input appears twice.
 *
 * <p>A template holds one statement: a top-level {@code ;} may end it (it is dropped), but more
 * SQL after it is an error. Drivers differ here (SQLite's silently runs only the first statement,
 * MySQL's refuses, PostgreSQL's extended protocol refuses), and a second statement in a tool is
 * almost always a mistake.
 *
 * <p>{@code {{ env.X }}} is replaced textually before lexing, anywhere in the template: its value
 * is operator-controlled and may be SQL (a schema name, a whole clause). Env values are not
 * expanded again. Bind markers written by hand ({@code ?}, {@code $1}, SQLite's {@code :name})
 * are rejected because their values could never be supplied.
 *
 * <p>Assumed server settings: PostgreSQL {@code standard_conforming_strings=on} (the default since
 * 9.1); MySQL without {@code ANSI_QUOTES} and {@code NO_BACKSLASH_ESCAPES} (the defaults), so
 * {@code "..."} is a string and backslash escapes.
 */
public final class StatementTemplate {
    /** {@code {{ ... }}} with no quotes, braces or line breaks inside: meant as a placeholder but not one. */
    private static final Pattern MALFORMED = Pattern.compile("\\{\\{[^{}'\"`\\r\\n]*\\}\\}");
    private static final Pattern DOLLAR_TAG =
            Pattern.compile("\\$(?:[A-Za-z_\\u0080-\\uFFFF][A-Za-z0-9_\\u0080-\\uFFFF]*)?\\$");

    private StatementTemplate() {
    }

    /**
     * @param env the environment for {@code {{ env.X }}} (real variables and env files, merged)
     * @throws StatementException when the template cannot become a safe prepared statement
     * @throws IllegalArgumentException for {@link StatementDialect#REDIS} and {@link StatementDialect#MONGODB},
     *                                  which are not SQL
     */
    public static CompiledStatement compile(String template, StatementDialect dialect, Map<String, String> env)
            throws StatementException {
        Objects.requireNonNull(template, "template");
        Objects.requireNonNull(dialect, "dialect");
        if (dialect == StatementDialect.REDIS || dialect == StatementDialect.MONGODB) {
            throw new IllegalArgumentException(dialect + " commands are not SQL templates");
        }
        EnvExpansion expansion = EnvExpansion.of(template, env == null ? Map.of() : env, false);
        return new Lexer(expansion, dialect).run();
    }

    /** One pass over the expanded text, copying it to {@code out} with placeholders replaced. */
    private static final class Lexer {
        private final EnvExpansion expansion;
        private final String src;
        private final int n;
        private final StatementDialect dialect;
        private final StringBuilder out;
        private final List<Parameter> parameters = new ArrayList<>();
        private final List<Integer> markerOffsets = new ArrayList<>();
        private int pos;
        /** Where the top-level {@code ;} that ended the statement is; -1 while it goes on. */
        private int statementEnd = -1;
        /** Where the placeholder found by the last {@link #parameterAt} ends. */
        private int placeholderEnd;
        /** Where the output after the last comment, literal or quoted name starts: only code follows. */
        private int codeFrom;
        /** Start of an open MySQL {@code /*! ... *}{@code /} comment, whose content MySQL runs; -1 if none. */
        private int executableCommentStart = -1;

        Lexer(EnvExpansion expansion, StatementDialect dialect) {
            this.expansion = expansion;
            this.src = expansion.text();
            this.n = src.length();
            this.dialect = dialect;
            this.out = new StringBuilder(n + 16);
        }

        CompiledStatement run() throws StatementException {
            while (pos < n) {
                char c = src.charAt(pos);
                if (statementEnd >= 0 && c != ';' && !Character.isWhitespace(c) && !startsComment(c)
                        && !(c == '*' && executableCommentStart >= 0 && peek(1) == '/')) {
                    throw expansion.error("a statement template holds one SQL statement, but more SQL follows"
                            + " this ';'; make a tool per statement", statementEnd);
                }
                switch (c) {
                    case '\'':
                        literal();
                        break;
                    case '"':
                        if (dialect == StatementDialect.MYSQL) {
                            literal();
                        } else {
                            quotedIdentifier('"');
                        }
                        break;
                    case '`':
                        // SQLite accepts MySQL's backtick identifiers too.
                        if (dialect == StatementDialect.POSTGRES) {
                            copy();
                        } else {
                            quotedIdentifier('`');
                        }
                        break;
                    case '[':
                        if (dialect == StatementDialect.SQLITE) {
                            quotedIdentifier('[');
                        } else {
                            copy();
                        }
                        break;
                    case '-':
                        if (startsDashComment()) {
                            lineComment();
                        } else {
                            copy();
                        }
                        break;
                    case '#':
                        if (dialect == StatementDialect.MYSQL) {
                            lineComment();
                        } else {
                            copy();
                        }
                        break;
                    case '/':
                        if (peek(1) == '*') {
                            blockComment();
                        } else {
                            copy();
                        }
                        break;
                    case '*':
                        if (executableCommentStart >= 0 && peek(1) == '/') {
                            out.append("*/");
                            pos += 2;
                            executableCommentStart = -1;
                        } else {
                            copy();
                        }
                        break;
                    case '$':
                        dollar();
                        break;
                    case '?':
                        if (dialect != StatementDialect.POSTGRES) {
                            // In PostgreSQL '?' is an operator (jsonb); elsewhere it is a bind marker.
                            throw expansion.error("'?' is a bind marker whose value could never be supplied;"
                                    + " write {{ inputs.name }} instead", pos);
                        }
                        copy();
                        break;
                    case ':':
                    case '@':
                        if (dialect == StatementDialect.SQLITE && isIdentChar(peek(1)) && !isIdentChar(prev())) {
                            throw handWrittenMarker();
                        }
                        copy();
                        break;
                    case '{':
                        if (peek(1) == '{') {
                            placeholderInCode();
                        } else {
                            copy();
                        }
                        break;
                    case ';':
                        endOfStatement();
                        break;
                    default:
                        copy();
                }
            }
            if (executableCommentStart >= 0) {
                throw expansion.error("unterminated /*! comment", executableCommentStart);
            }
            return new CompiledStatement(dialect, out.toString(), parameters, markerOffsets);
        }

        /**
         * A top-level {@code ;} ends the statement and is dropped; from then on only whitespace,
         * comments and more {@code ;} may follow, judged by the same rules as the lexer's own.
         */
        private void endOfStatement() {
            if (statementEnd < 0) {
                statementEnd = pos;
            }
            pos++;
        }

        private boolean startsComment(char c) {
            return (c == '-' && startsDashComment()) || (c == '#' && dialect == StatementDialect.MYSQL)
                    || (c == '/' && peek(1) == '*' && !(dialect == StatementDialect.MYSQL && peek(2) == '!'));
        }

        private void copy() {
            out.append(src.charAt(pos));
            pos++;
        }

        private char peek(int ahead) {
            int at = pos + ahead;
            return at < n ? src.charAt(at) : '\0';
        }

        private char prev() {
            return pos > 0 ? src.charAt(pos - 1) : '\0';
        }

        private static boolean isIdentChar(char c) {
            return c == '_' || c == '$' || Character.isLetterOrDigit(c);
        }

        private StatementException handWrittenMarker() {
            int end = pos + 1;
            while (end < n && isIdentChar(src.charAt(end))) {
                end++;
            }
            return expansion.error("'" + src.substring(pos, end) + "' is a bind marker whose value could never be"
                    + " supplied; write {{ inputs.name }} instead", pos);
        }

        /**
         * The parameter whose placeholder starts at {@code at}, or null when the text there is not a
         * placeholder. Sets {@link #placeholderEnd}.
         */
        private Parameter parameterAt(int at) throws StatementException {
            Matcher m = Placeholders.PATTERN.matcher(src).region(at, n);
            if (m.lookingAt()) {
                if (m.group(1).equals("env")) {
                    throw expansion.error("'" + m.group() + "' appears inside the value of an env variable;"
                            + " env values are not expanded again", at);
                }
                placeholderEnd = m.end();
                return new Parameter(m.group(1).equals("inputs") ? Source.INPUT : Source.CLAIM, m.group(2));
            }
            Matcher bad = MALFORMED.matcher(src).region(at, n);
            if (bad.lookingAt()) {
                throw expansion.error("malformed placeholder '" + bad.group()
                        + "' (expected {{ inputs.name }}, {{ auth.claims.name }} or {{ env.NAME }})", at);
            }
            return null;
        }

        private String marker(Parameter parameter) {
            parameters.add(parameter);
            return dialect == StatementDialect.POSTGRES ? "$" + parameters.size() : "?";
        }

        /**
         * Writes a replacement, spaced from identifier characters on either side so it stays its
         * own token ({@code {{ inputs.n }}0} must not become {@code $10} or SQLite's {@code ?0}).
         *
         * @param markersAt where the markers made for this replacement start within it
         */
        private void emit(String replacement, List<Integer> markersAt) {
            if (out.length() > 0 && isIdentChar(out.charAt(out.length() - 1))) {
                out.append(' ');
            }
            for (int at : markersAt) {
                markerOffsets.add(out.length() + at);
            }
            out.append(replacement);
            if (pos < n && isIdentChar(src.charAt(pos))) {
                out.append(' ');
            }
        }

        private void placeholderInCode() throws StatementException {
            Parameter parameter = parameterAt(pos);
            if (parameter == null) {
                copy();
                return;
            }
            pos = placeholderEnd;
            emit(marker(parameter), List.of(0));
        }

        private boolean startsDashComment() {
            if (peek(1) != '-') {
                return false;
            }
            if (dialect != StatementDialect.MYSQL) {
                return true;
            }
            // MySQL needs whitespace or a control character after "--" ("1--1" is arithmetic).
            char after = peek(2);
            return after == '\0' || after <= ' ';
        }

        private void lineComment() {
            int end = src.indexOf('\n', pos);
            end = end < 0 ? n : end;
            out.append(src, pos, end);
            codeFrom = out.length();
            pos = end;
        }

        private void blockComment() throws StatementException {
            int start = pos;
            if (dialect == StatementDialect.MYSQL && executableCommentStart < 0
                    && (peek(2) == '!' || (peek(2) == 'M' && peek(3) == '!'))) {
                // MySQL runs the content of /*! ... */ as SQL, so it is lexed as code.
                int opener = peek(2) == '!' ? 3 : 4;
                out.append(src, pos, pos + opener);
                pos += opener;
                executableCommentStart = start;
                return;
            }
            int depth = 1;
            pos += 2;
            while (pos < n) {
                if (src.startsWith("*/", pos)) {
                    pos += 2;
                    if (--depth == 0) {
                        out.append(src, start, pos);
                        codeFrom = out.length();
                        return;
                    }
                } else if (dialect == StatementDialect.POSTGRES && src.startsWith("/*", pos)) {
                    depth++;
                    pos += 2;
                } else {
                    pos++;
                }
            }
            throw expansion.error("unterminated /* comment", start);
        }

        private void dollar() throws StatementException {
            boolean partOfWord = isIdentChar(prev());
            if (dialect == StatementDialect.POSTGRES && !partOfWord) {
                if (Character.isDigit(peek(1))) {
                    throw expansion.error("'$" + peek(1) + "...' is a bind marker whose value could never be supplied;"
                            + " write {{ inputs.name }} instead", pos);
                }
                Matcher tag = DOLLAR_TAG.matcher(src).region(pos, n);
                if (tag.lookingAt()) {
                    dollarQuoted(tag.group());
                    return;
                }
            }
            if (dialect == StatementDialect.SQLITE && !partOfWord && isIdentChar(peek(1))) {
                throw handWrittenMarker();
            }
            copy();
        }

        private void dollarQuoted(String tag) throws StatementException {
            int start = pos;
            int bodyStart = pos + tag.length();
            int close = src.indexOf(tag, bodyStart);
            if (close < 0) {
                throw expansion.error("unterminated dollar-quoted string " + tag, start);
            }
            Matcher m = Placeholders.PATTERN.matcher(src).region(bodyStart, close);
            if (m.find()) {
                throw expansion.error("placeholder '" + m.group() + "' is inside the dollar-quoted string " + tag
                        + ", where it cannot be bound; move it outside (e.g. pass it as a function argument)",
                        m.start());
            }
            pos = close + tag.length();
            out.append(src, start, pos);
            codeFrom = out.length();
        }

        private void quotedIdentifier(char open) throws StatementException {
            char close = open == '[' ? ']' : open;
            int start = pos;
            pos++;
            while (pos < n) {
                char c = src.charAt(pos);
                if (c == close) {
                    if (open != '[' && peek(1) == close) {
                        pos += 2;
                        continue;
                    }
                    pos++;
                    out.append(src, start, pos);
                    codeFrom = out.length();
                    return;
                }
                if (c == '{' && peek(1) == '{' && parameterAt(pos) != null) {
                    throw expansion.error("placeholder '" + src.substring(pos, placeholderEnd)
                            + "' is inside the quoted identifier starting " + open + ", where it cannot be bound", pos);
                }
                pos++;
            }
            throw expansion.error("unterminated quoted identifier " + open + "...", start);
        }

        /**
         * The prefix of a literal starting at {@code quoteAt} ({@code E}, {@code X}, {@code N},
         * {@code _utf8mb4}, ...), or "" when the word before the quote is not one (a keyword
         * written without a space, as in {@code LIKE'%x%'}).
         */
        private String literalPrefix(int quoteAt) {
            if (dialect == StatementDialect.POSTGRES && quoteAt >= 2 && src.charAt(quoteAt - 1) == '&'
                    && Character.toUpperCase(src.charAt(quoteAt - 2)) == 'U'
                    && (quoteAt < 3 || !isIdentChar(src.charAt(quoteAt - 3)))) {
                return src.substring(quoteAt - 2, quoteAt);
            }
            int start = quoteAt;
            while (start > 0 && isIdentChar(src.charAt(start - 1))) {
                start--;
            }
            String word = src.substring(start, quoteAt);
            if (word.isEmpty()) {
                return "";
            }
            String upper = word.toUpperCase(Locale.ROOT);
            switch (dialect) {
                case POSTGRES:
                    return upper.equals("E") || upper.equals("B") || upper.equals("X") || upper.equals("N") ? word : "";
                case MYSQL:
                    return upper.equals("N") || upper.equals("X") || upper.equals("B") || word.startsWith("_") ? word : "";
                default:
                    return upper.equals("X") ? word : "";
            }
        }

        private void literal() throws StatementException {
            int quoteAt = pos;
            char quote = src.charAt(pos);
            String prefix = quote == '\'' ? literalPrefix(quoteAt) : "";
            boolean escapeString = dialect == StatementDialect.POSTGRES && prefix.equalsIgnoreCase("E");
            boolean backslashEscapes = dialect == StatementDialect.MYSQL || escapeString;
            List<Object> parts = new ArrayList<>();
            StringBuilder raw = new StringBuilder();
            pos++;
            while (true) {
                if (pos >= n) {
                    throw expansion.error("unterminated string literal", quoteAt - prefix.length());
                }
                char c = src.charAt(pos);
                if (c == quote) {
                    if (peek(1) == quote) {
                        raw.append(c).append(c);
                        pos += 2;
                        continue;
                    }
                    pos++;
                    break;
                }
                if (backslashEscapes && c == '\\') {
                    if (pos + 1 >= n) {
                        throw expansion.error("unterminated string literal", quoteAt - prefix.length());
                    }
                    raw.append(c).append(src.charAt(pos + 1));
                    pos += 2;
                    continue;
                }
                if (c == '{' && peek(1) == '{') {
                    Parameter parameter = parameterAt(pos);
                    if (parameter != null) {
                        if (raw.length() > 0) {
                            parts.add(raw.toString());
                            raw.setLength(0);
                        }
                        parts.add(parameter);
                        pos = placeholderEnd;
                        continue;
                    }
                }
                raw.append(c);
                pos++;
            }
            if (raw.length() > 0) {
                parts.add(raw.toString());
            }
            if (parts.stream().noneMatch(Parameter.class::isInstance)) {
                out.append(src, quoteAt, pos);
                codeFrom = out.length();
                return;
            }
            if (!prefix.isEmpty() && !escapeString) {
                throw expansion.error("a placeholder inside a " + prefix + "'...' literal cannot be bound;"
                        + " bind the whole value instead", quoteAt - prefix.length());
            }
            // The prefix was already copied as code; the replacement takes the whole literal's place.
            out.setLength(out.length() - prefix.length());
            String castTo = prefix.isEmpty() ? takeTypedLiteralKeyword() : null;
            if ("INTERVAL".equals(castTo) && INTERVAL_FIELDS.matcher(src).region(pos, n).lookingAt()) {
                // PostgreSQL reads such a literal's text by its fields: INTERVAL '3' DAY is 3 days and
                // INTERVAL '1:30' MINUTE TO SECOND 90 seconds, where text cast to the same type is 3
                // seconds (cut to 0 days) and 90 minutes; no cast of a bound value reads it that way
                throw expansion.error("a placeholder inside an interval literal followed by its fields"
                        + " (INTERVAL '...' DAY, ... HOUR TO MINUTE) cannot be bound: PostgreSQL reads that literal's text"
                        + " by its fields, which a cast of a bound value does not; write the unit inside the literal"
                        + " (INTERVAL '{{ inputs.n }} days') or multiply one ({{ inputs.n }} * INTERVAL '1 day')",
                        quoteAt);
            }
            String open = castTo == null ? "" : "CAST(";
            String close = castTo == null ? "" : " AS " + castTo + ")";
            if (parts.size() == 1) {
                // PostgreSQL would type a lone marker as the cast's type and the client would bind the
                // caller's text as one ('7 days' is no ISO duration): cast from text, as the literal
                // was, so the server reads it as it reads the literal
                String text = castTo != null && dialect == StatementDialect.POSTGRES ? "::text" : "";
                emit(open + marker((Parameter) parts.get(0)) + text + close, List.of(open.length()));
                return;
            }
            boolean mysql = dialect == StatementDialect.MYSQL;
            StringBuilder concat = new StringBuilder(open).append(mysql ? "CONCAT(" : "(");
            List<Integer> markersAt = new ArrayList<>();
            for (int i = 0; i < parts.size(); i++) {
                if (i > 0) {
                    concat.append(mysql ? ", " : " || ");
                }
                Object part = parts.get(i);
                if (part instanceof Parameter) {
                    markersAt.add(concat.length());
                    concat.append(marker((Parameter) part));
                } else {
                    concat.append(prefix).append(quote).append(part).append(quote);
                }
            }
            emit(concat.append(')').append(close).toString(), markersAt);
        }

        /**
         * A typed literal ({@code INTERVAL '{{ inputs.n }} days'}, {@code DATE '...'}) takes only a
         * string constant, so with a placeholder inside it becomes a cast of the replacement. When
         * the code just before the literal is such a keyword, removes it from the output and
         * returns the type to cast to; else null.
         */
        private String takeTypedLiteralKeyword() {
            int end = out.length();
            while (end > codeFrom && Character.isWhitespace(out.charAt(end - 1))) {
                end--;
            }
            int start = end;
            while (start > codeFrom && isIdentChar(out.charAt(start - 1))) {
                start--;
            }
            // a word cut at codeFrom, or a qualified name (t.date), is not the keyword
            if (start == end || start > 0 && (isIdentChar(out.charAt(start - 1)) || out.charAt(start - 1) == '.')) {
                return null;
            }
            String castTo = typedLiteralCast(out.substring(start, end).toUpperCase(Locale.ROOT));
            if (castTo != null) {
                out.setLength(start);
            }
            return castTo;
        }

        private static final String SECOND_FIELD = "SECOND(?:\\s*\\(\\s*\\d+\\s*\\))?";
        /**
         * The fields PostgreSQL takes after an interval literal ({@code INTERVAL '3' DAY}; its
         * grammar's opt_interval), after the literal's closing quote, longest first, ending a word.
         */
        private static final Pattern INTERVAL_FIELDS = Pattern.compile("\\s+(YEAR\\s+TO\\s+MONTH"
                + "|DAY\\s+TO\\s+(?:HOUR|MINUTE|" + SECOND_FIELD + ")|HOUR\\s+TO\\s+(?:MINUTE|" + SECOND_FIELD + ")"
                + "|MINUTE\\s+TO\\s+" + SECOND_FIELD + "|YEAR|MONTH|DAY|HOUR|MINUTE|" + SECOND_FIELD + ")(?![A-Za-z0-9_$])",
                Pattern.CASE_INSENSITIVE);

        /** The words PostgreSQL takes before a string constant as its type, whose names a cast takes too. */
        private static final Set<String> POSTGRES_TYPED_LITERALS =
                Set.of("DATE", "TIME", "TIMETZ", "TIMESTAMP", "TIMESTAMPTZ", "INTERVAL");

        /** The type a {@code KEYWORD 'text'} literal of this dialect is, as a cast names it; null for other words. */
        private String typedLiteralCast(String keyword) {
            switch (dialect) {
                case POSTGRES:
                    return POSTGRES_TYPED_LITERALS.contains(keyword) ? keyword : null;
                case MYSQL:
                    // MySQL's casts keep fractional seconds only when asked, as its literals do
                    return keyword.equals("DATE") ? "DATE" : keyword.equals("TIME") ? "TIME(6)"
                            : keyword.equals("TIMESTAMP") ? "DATETIME(6)" : null;
                default:
                    return null;
            }
        }
    }
}

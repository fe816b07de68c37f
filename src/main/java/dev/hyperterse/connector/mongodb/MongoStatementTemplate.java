package dev.hyperterse.connector.mongodb;

import dev.hyperterse.connector.BindText;
import dev.hyperterse.connector.CompiledStatement;
import dev.hyperterse.connector.EnvExpansion;
import dev.hyperterse.connector.CompiledStatement.Parameter;
import dev.hyperterse.connector.CompiledStatement.Source;
import dev.hyperterse.connector.StatementDialect;
import dev.hyperterse.connector.StatementException;
import dev.hyperterse.model.Placeholders;
import org.bson.BsonBoolean;
import org.bson.BsonDateTime;
import org.bson.BsonDouble;
import org.bson.BsonInt32;
import org.bson.BsonInt64;
import org.bson.BsonNull;
import org.bson.BsonObjectId;
import org.bson.BsonString;
import org.bson.BsonValue;
import org.bson.types.ObjectId;

import java.time.LocalDate;
import java.time.LocalDateTime;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.time.temporal.Temporal;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.regex.Matcher;

/**
 * Turns a MongoDB statement ({@code {"database": "shop", "command": {"find": "orders", "filter":
 * {"status": "{{ inputs.status }}"}}}}) into a command whose shape is fixed before any value is
 * known. The JSON is parsed once, with each {@code {{ inputs.x }}} or {@code {{ auth.claims.x }}}
 * as a hole: written bare ({@code "limit": {{ inputs.n }}}) or as a whole string
 * ({@code "{{ inputs.name }}"}, as Hyperterse projects write it), the hole takes the value as one
 * BSON value of its own type; inside a longer string ({@code "^{{ inputs.prefix }}"}) the value's
 * text is pasted into that string. So a value can never add a key, an operator or a stage.
 *
 * <p>{@code {"$oid": "…"}} is an ObjectId and {@code {"$date": "…"}} a date, written out or as a
 * hole. A placeholder cannot be a key, the database, the command's collection, or sit inside
 * JavaScript ({@code $where}, {@code $function} bodies, {@code $accumulator} functions,
 * {@code mapReduce}). In an aggregation expression (a pipeline, {@code $expr}, a projection, {@code let}) a bound string
 * starting with {@code $} (a field path or variable there), or a bound object or array, is
 * wrapped in {@code $literal}. {@code {{ env.X }}} is pasted as text before parsing (its value is
 * the operator's, and may be JSON).
 *
 * <p>The compiled text is the statement with env placeholders replaced; {@link #parse} reads it
 * back into the same tree, the parameters in order of appearance, one per occurrence.
 */
public final class MongoStatementTemplate {
    private static final Set<String> ACCUMULATOR_CODE = Set.of("init", "accumulate", "merge", "finalize");
    private static final Set<String> MAP_REDUCE_CODE = Set.of("map", "reduce", "finalize");

    private MongoStatementTemplate() {
    }

    /**
     * @param env the environment for {@code {{ env.X }}}
     * @throws StatementException at the line and column of the problem in {@code template}
     */
    public static CompiledStatement compile(String template, Map<String, String> env) throws StatementException {
        EnvExpansion expansion = EnvExpansion.of(template, env == null ? Map.of() : env, true);
        Parser parser = new Parser(expansion);
        parser.statement();
        return new CompiledStatement(StatementDialect.MONGODB, expansion.text(), parser.parameters, parser.offsets);
    }

    /** Reads a compiled statement back into its command tree. */
    static MongoStatement parse(CompiledStatement statement) {
        try {
            Parser parser = new Parser(EnvExpansion.expanded(statement.text()));
            MongoStatement parsed = parser.statement();
            if (!parser.parameters.equals(statement.parameters())) {
                throw new IllegalArgumentException("the statement's parameters do not match its text");
            }
            return parsed;
        } catch (StatementException e) {
            throw new IllegalArgumentException("not a compiled MongoDB statement: " + e.getMessage(), e);
        }
    }

    /** What a value's position allows and means. */
    private enum Role { TOP, COMMAND, UPDATES, UPDATE_STATEMENT, PIPELINE_IF_ARRAY, FUNCTION, ACCUMULATOR, PLAIN }

    /**
     * @param expression inside an aggregation expression
     * @param code       inside JavaScript source: no placeholder may stand here
     * @param fixed      why no placeholder may stand here (the database, the collection), or null
     * @param key        the key whose value this is (an array's items share the array's key), or null
     */
    private record Scope(Role role, boolean expression, String code, String fixed, String key) {
        Scope(Role role, boolean expression, String code, String fixed) {
            this(role, expression, code, fixed, null);
        }

        Scope with(Role r) {
            return new Scope(r, expression, code, fixed, key);
        }

        Scope keyed(String k) {
            return new Scope(role, expression, code, fixed, k);
        }

        static final Scope TOP = new Scope(Role.TOP, false, null, null);
    }

    /** A recursive-descent JSON reader whose values may be placeholders. */
    private static final class Parser {
        private final EnvExpansion expansion;
        private final String src;
        private final int n;
        final List<Parameter> parameters = new ArrayList<>();
        final List<Integer> offsets = new ArrayList<>();
        private int pos;
        private String commandName;

        Parser(EnvExpansion expansion) {
            this.expansion = expansion;
            this.src = expansion.text();
            this.n = src.length();
        }

        MongoStatement statement() throws StatementException {
            skipSpace();
            if (pos >= n || src.charAt(pos) != '{') {
                throw invalid("the statement is not a JSON object");
            }
            int start = pos;
            CommandNode top = value(Scope.TOP);
            if (!(top instanceof CommandNode.Document)) {
                throw expansion.error("the statement is not a JSON object", start);
            }
            skipSpace();
            if (pos < n) {
                throw invalid("more text follows the statement's closing '}'");
            }
            Map<String, CommandNode> fields = ((CommandNode.Document) top).fields();
            CommandNode database = fields.get("database");
            if (!(database instanceof CommandNode.Fixed) || !((CommandNode.Fixed) database).value().isString()
                    || ((CommandNode.Fixed) database).value().asString().getValue().isEmpty()) {
                throw expansion.error(database == null ? "statement must include database"
                        : "statement's database must be a non-empty string", start);
            }
            CommandNode command = fields.get("command");
            if (command == null) {
                throw expansion.error("statement must include command", start);
            }
            if (!(command instanceof CommandNode.Document) || ((CommandNode.Document) command).fields().isEmpty()) {
                throw expansion.error("statement's command must be a JSON object whose first key names the"
                        + " command, such as {\"find\": \"orders\"}", start);
            }
            return new MongoStatement(((CommandNode.Fixed) database).value().asString().getValue(), commandName,
                    (CommandNode.Document) command);
        }

        private CommandNode value(Scope scope) throws StatementException {
            skipSpace();
            if (pos >= n) {
                throw invalid("the statement ends where a value was expected");
            }
            char c = src.charAt(pos);
            switch (c) {
                case '{':
                    if (peek(1) == '{') {
                        return hole(scope, pos);
                    }
                    return object(scope);
                case '[':
                    return array(scope.role() == Role.PIPELINE_IF_ARRAY
                            ? new Scope(Role.PLAIN, true, scope.code(), scope.fixed(), scope.key()) : scope);
                case '"':
                    return string(scope);
                case 't':
                    return word("true", new CommandNode.Fixed(BsonBoolean.TRUE));
                case 'f':
                    return word("false", new CommandNode.Fixed(BsonBoolean.FALSE));
                case 'n':
                    return word("null", new CommandNode.Fixed(BsonNull.VALUE));
                default:
                    if (c == '-' || (c >= '0' && c <= '9')) {
                        return number();
                    }
                    throw invalid("unexpected '" + c + "' where a value was expected");
            }
        }

        private CommandNode object(Scope scope) throws StatementException {
            int start = pos;
            pos++;
            Map<String, CommandNode> fields = new LinkedHashMap<>();
            skipSpace();
            if (peek(0) == '}') {
                pos++;
                return new CommandNode.Document(fields);
            }
            while (true) {
                skipSpace();
                if (peek(0) != '"') {
                    throw invalid(peek(0) == '{' && peek(1) == '{' ? "a placeholder cannot be a key"
                            : "expected a key in double quotes");
                }
                int keyAt = pos;
                String key = key();
                if (fields.containsKey(key)) {
                    throw expansion.error("the key '" + key + "' appears twice in one object", keyAt);
                }
                skipSpace();
                if (peek(0) != ':') {
                    throw invalid("expected ':' after the key '" + key + "'");
                }
                pos++;
                fields.put(key, value(childScope(scope, key, fields.isEmpty()).keyed(key)));
                skipSpace();
                char c = peek(0);
                pos++;
                if (c == '}') {
                    break;
                }
                if (c != ',') {
                    pos--;
                    throw invalid("expected ',' or '}' after the value of '" + key + "'");
                }
            }
            return special(fields, start);
        }

        /** {@code {"$oid": …}} and {@code {"$date": …}} as one value; any other object as it is. */
        private CommandNode special(Map<String, CommandNode> fields, int start) throws StatementException {
            if (fields.size() != 1) {
                return new CommandNode.Document(fields);
            }
            String key = fields.keySet().iterator().next();
            CommandNode inner = fields.get(key);
            if (key.equals("$oid")) {
                if (inner instanceof CommandNode.Hole) {
                    return new CommandNode.ObjectIdHole(((CommandNode.Hole) inner).parameter());
                }
                if (inner instanceof CommandNode.Fixed && ((CommandNode.Fixed) inner).value().isString()
                        && ObjectId.isValid(((CommandNode.Fixed) inner).value().asString().getValue())) {
                    return new CommandNode.Fixed(new BsonObjectId(
                            new ObjectId(((CommandNode.Fixed) inner).value().asString().getValue())));
                }
                throw expansion.error("{\"$oid\": …} takes an ObjectId's 24 hex digits or one whole placeholder", start);
            }
            if (key.equals("$date")) {
                if (inner instanceof CommandNode.Hole) {
                    return new CommandNode.DateHole(((CommandNode.Hole) inner).parameter());
                }
                BsonValue v = inner instanceof CommandNode.Fixed ? ((CommandNode.Fixed) inner).value() : null;
                if (v != null && (v.isInt32() || v.isInt64())) {
                    return new CommandNode.Fixed(new BsonDateTime(v.asNumber().longValue()));
                }
                Long millis = v != null && v.isString() ? millis(v.asString().getValue()) : null;
                if (millis == null) {
                    throw expansion.error("{\"$date\": …} takes a date-time such as \"2024-06-01T10:00:00Z\","
                            + " milliseconds since 1970, or one whole placeholder", start);
                }
                return new CommandNode.Fixed(new BsonDateTime(millis));
            }
            return new CommandNode.Document(fields);
        }

        private static Long millis(String text) {
            Temporal t = BindText.dateTime(text);
            if (t instanceof OffsetDateTime) {
                return ((OffsetDateTime) t).toInstant().toEpochMilli();
            }
            if (t instanceof LocalDateTime) {
                return ((LocalDateTime) t).toInstant(ZoneOffset.UTC).toEpochMilli();
            }
            if (t instanceof LocalDate) {
                return ((LocalDate) t).atStartOfDay().toInstant(ZoneOffset.UTC).toEpochMilli();
            }
            return null;
        }

        /** What the value under {@code key} of an object in {@code parent} allows and means. */
        private Scope childScope(Scope parent, String key, boolean first) {
            if (parent.code() != null) {
                return new Scope(Role.PLAIN, parent.expression(), parent.code(), parent.fixed());
            }
            Scope child = new Scope(Role.PLAIN, parent.expression(), null, null);
            switch (parent.role()) {
                case TOP:
                    if (key.equals("command")) {
                        return child.with(Role.COMMAND);
                    }
                    if (key.equals("database")) {
                        return new Scope(Role.PLAIN, false, null, "the database");
                    }
                    return child;
                case COMMAND: {
                    if (first) {
                        commandName = key;
                        return new Scope(Role.PLAIN, false, null, "the command's collection ('" + key + "')");
                    }
                    String command = commandName.toLowerCase(Locale.ROOT);
                    if (command.equals("aggregate") && key.equals("pipeline")) {
                        return new Scope(Role.PLAIN, true, null, null);
                    }
                    if (command.equals("update") && key.equals("updates")) {
                        return child.with(Role.UPDATES);
                    }
                    if (command.equals("findandmodify") && key.equals("update")) {
                        return child.with(Role.PIPELINE_IF_ARRAY);
                    }
                    // aggregation expressions outside a pipeline: a find's projection (MongoDB 4.4
                    // reads "$a" there as field a's value), findAndModify's fields, any command's let
                    if (key.equals("let") || command.equals("find") && key.equals("projection")
                            || command.equals("findandmodify") && key.equals("fields")) {
                        return new Scope(Role.PLAIN, true, null, null);
                    }
                    if (command.equals("mapreduce") && MAP_REDUCE_CODE.contains(key)) {
                        return new Scope(Role.PLAIN, false, "mapReduce's " + key, null);
                    }
                    break;
                }
                case UPDATE_STATEMENT:
                    if (key.equals("u")) {
                        return child.with(Role.PIPELINE_IF_ARRAY);
                    }
                    break;
                case FUNCTION:
                    if (key.equals("body")) {
                        return new Scope(Role.PLAIN, false, "$function's body", null);
                    }
                    break;
                case ACCUMULATOR:
                    if (ACCUMULATOR_CODE.contains(key)) {
                        return new Scope(Role.PLAIN, false, "$accumulator's " + key, null);
                    }
                    break;
                default:
                    break;
            }
            switch (key) {
                case "$expr":
                    return new Scope(Role.PLAIN, true, null, null);
                case "$match":
                    return new Scope(Role.PLAIN, false, null, null);
                case "$where":
                    return new Scope(Role.PLAIN, false, "$where", null);
                case "$function":
                    return child.with(Role.FUNCTION);
                case "$accumulator":
                    return child.with(Role.ACCUMULATOR);
                default:
                    return child;
            }
        }

        private CommandNode array(Scope scope) throws StatementException {
            pos++;
            Scope itemScope = scope.role() == Role.UPDATES ? scope.with(Role.UPDATE_STATEMENT) : scope.with(Role.PLAIN);
            List<CommandNode> items = new ArrayList<>();
            skipSpace();
            if (peek(0) == ']') {
                pos++;
                return new CommandNode.Array(items);
            }
            while (true) {
                items.add(value(itemScope));
                skipSpace();
                char c = peek(0);
                pos++;
                if (c == ']') {
                    return new CommandNode.Array(items);
                }
                if (c != ',') {
                    pos--;
                    throw invalid("expected ',' or ']' after an array item");
                }
            }
        }

        /** A placeholder written as a value, outside quotes. */
        private CommandNode hole(Scope scope, int at) throws StatementException {
            Parameter p = placeholderAt(at);
            int end = placeholderEnd;
            allowHole(scope, at, p);
            pos = end;
            return new CommandNode.Hole(add(p, at), scope.expression(), scope.key());
        }

        private void allowHole(Scope scope, int at, Parameter p) throws StatementException {
            String written = "{{ " + (p.source() == Source.INPUT ? "inputs." : "auth.claims.") + p.name() + " }}";
            if (scope.code() != null) {
                throw expansion.error("'" + written + "' stands inside JavaScript code (" + scope.code()
                        + "), where a value could become code; pass values as data instead", at);
            }
            if (scope.fixed() != null) {
                throw expansion.error("'" + written + "' cannot be " + scope.fixed()
                        + ", which the statement must name itself", at);
            }
        }

        private int add(Parameter p, int at) {
            parameters.add(p);
            offsets.add(at);
            return parameters.size() - 1;
        }

        private int placeholderEnd;

        private Parameter placeholderAt(int at) throws StatementException {
            Matcher m = Placeholders.PATTERN.matcher(src).region(at, n);
            if (m.lookingAt()) {
                if (m.group(1).equals("env")) {
                    throw expansion.error("'" + m.group() + "' appears inside the value of an env variable;"
                            + " env values are not expanded again", at);
                }
                placeholderEnd = m.end();
                return new Parameter(m.group(1).equals("inputs") ? Source.INPUT : Source.CLAIM, m.group(2));
            }
            int close = src.indexOf("}}", at);
            String shown = close < 0 || close - at > 60 ? src.substring(at, Math.min(n, at + 20)) + "…"
                    : src.substring(at, close + 2);
            throw expansion.error("malformed placeholder '" + shown
                    + "' (expected {{ inputs.name }}, {{ auth.claims.name }} or {{ env.NAME }})", at);
        }

        /** A placeholder found inside a string, not yet numbered. */
        private record Found(Parameter parameter, int at) {
        }

        /** A quoted string as a value: fixed text, one whole placeholder, or text with placeholders in it. */
        private CommandNode string(Scope scope) throws StatementException {
            int quote = pos;
            int end = closingQuote(quote);
            List<Object> parts = new ArrayList<>();
            int i = quote + 1;
            int rawStart = i;
            while (i < end) {
                if (src.startsWith("{{", i)) {
                    Parameter p = placeholderAt(i);
                    allowHole(scope, i, p);
                    if (i > rawStart) {
                        parts.add(unescape(src.substring(rawStart, i), rawStart));
                    }
                    parts.add(new Found(p, i));
                    i = placeholderEnd;
                    rawStart = i;
                } else {
                    i += src.charAt(i) == '\\' ? 2 : 1;
                }
            }
            if (end > rawStart) {
                parts.add(unescape(src.substring(rawStart, end), rawStart));
            }
            pos = end + 1;
            if (parts.size() == 1 && parts.get(0) instanceof Found) {
                Found only = (Found) parts.get(0);
                return new CommandNode.Hole(add(only.parameter(), only.at()), scope.expression(), scope.key());
            }
            if (parts.stream().noneMatch(Found.class::isInstance)) {
                return new CommandNode.Fixed(new BsonString(parts.isEmpty() ? "" : (String) parts.get(0)));
            }
            List<Object> textParts = new ArrayList<>();
            for (Object part : parts) {
                textParts.add(part instanceof Found ? add(((Found) part).parameter(), ((Found) part).at()) : part);
            }
            return new CommandNode.Text(textParts, scope.expression());
        }

        /** A key: a quoted string without placeholders. */
        private String key() throws StatementException {
            int quote = pos;
            int end = closingQuote(quote);
            int ph = src.indexOf("{{", quote);
            if (ph >= 0 && ph < end) {
                throw expansion.error("a placeholder cannot be a key (a value must never add a key or an operator)", ph);
            }
            pos = end + 1;
            return unescape(src.substring(quote + 1, end), quote + 1);
        }

        /** Where the string opened at {@code quote} closes; placeholders inside are skipped whole. */
        private int closingQuote(int quote) throws StatementException {
            int i = quote + 1;
            while (i < n) {
                char c = src.charAt(i);
                if (c == '\\') {
                    i += 2;
                } else if (c == '"') {
                    return i;
                } else if (c == '\n' || c == '\r') {
                    throw expansion.error("a string is not closed on its line", quote);
                } else if (c < 0x20) {
                    throw expansion.error("a control character must be escaped inside a string", i);
                } else if (src.startsWith("{{", i)) {
                    int close = src.indexOf("}}", i);
                    i = close < 0 ? n : close + 2;
                } else {
                    i++;
                }
            }
            throw expansion.error("a string is not closed", quote);
        }

        private String unescape(String raw, int at) throws StatementException {
            if (raw.indexOf('\\') < 0) {
                return raw;
            }
            StringBuilder out = new StringBuilder(raw.length());
            for (int i = 0; i < raw.length(); i++) {
                char c = raw.charAt(i);
                if (c != '\\') {
                    out.append(c);
                    continue;
                }
                char e = i + 1 < raw.length() ? raw.charAt(++i) : '\0';
                switch (e) {
                    case '"': out.append('"'); break;
                    case '\\': out.append('\\'); break;
                    case '/': out.append('/'); break;
                    case 'b': out.append('\b'); break;
                    case 'f': out.append('\f'); break;
                    case 'n': out.append('\n'); break;
                    case 'r': out.append('\r'); break;
                    case 't': out.append('\t'); break;
                    case 'u':
                        if (i + 4 < raw.length() && raw.substring(i + 1, i + 5).matches("[0-9a-fA-F]{4}")) {
                            out.append((char) Integer.parseInt(raw.substring(i + 1, i + 5), 16));
                            i += 4;
                            break;
                        }
                        throw expansion.error("statement must be valid JSON: \\u takes four hex digits", at + i - 1);
                    default:
                        throw expansion.error("statement must be valid JSON: '\\" + e
                                + "' is not a JSON escape", at + i - 1);
                }
            }
            return out.toString();
        }

        private CommandNode number() throws StatementException {
            int start = pos;
            if (peek(0) == '-') {
                pos++;
            }
            int digits = pos;
            while (pos < n && Character.isDigit(src.charAt(pos))) {
                pos++;
            }
            if (pos == digits || (src.charAt(digits) == '0' && pos - digits > 1)) {
                throw invalid(pos == digits ? "a number needs digits" : "a number cannot start with 0");
            }
            boolean integer = true;
            if (peek(0) == '.') {
                integer = false;
                pos++;
                int frac = pos;
                while (pos < n && Character.isDigit(src.charAt(pos))) {
                    pos++;
                }
                if (pos == frac) {
                    throw invalid("a number needs digits after '.'");
                }
            }
            if (peek(0) == 'e' || peek(0) == 'E') {
                integer = false;
                pos++;
                if (peek(0) == '+' || peek(0) == '-') {
                    pos++;
                }
                int exp = pos;
                while (pos < n && Character.isDigit(src.charAt(pos))) {
                    pos++;
                }
                if (pos == exp) {
                    throw invalid("a number needs digits after its exponent");
                }
            }
            String text = src.substring(start, pos);
            if (integer) {
                try {
                    long v = Long.parseLong(text);
                    return new CommandNode.Fixed(v == (int) v ? new BsonInt32((int) v) : new BsonInt64(v));
                } catch (NumberFormatException e) {
                    // beyond a long: a double, as JSON readers do
                }
            }
            return new CommandNode.Fixed(new BsonDouble(Double.parseDouble(text)));
        }

        private CommandNode word(String word, CommandNode node) throws StatementException {
            if (!src.startsWith(word, pos)) {
                throw invalid("unexpected '" + src.charAt(pos) + "' where a value was expected");
            }
            pos += word.length();
            return node;
        }

        private void skipSpace() {
            while (pos < n && (src.charAt(pos) == ' ' || src.charAt(pos) == '\t' || src.charAt(pos) == '\n'
                    || src.charAt(pos) == '\r')) {
                pos++;
            }
        }

        private char peek(int ahead) {
            int at = pos + ahead;
            return at < n ? src.charAt(at) : '\0';
        }

        private StatementException invalid(String why) {
            return expansion.error("statement must be valid JSON: " + why, Math.min(pos, Math.max(0, n - 1)));
        }
    }
}

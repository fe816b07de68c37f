package dev.hyperterse.connector.postgres;

import dev.hyperterse.connector.CompiledStatement;
import dev.hyperterse.connector.ConnectorException;
import dev.hyperterse.connector.BindText;
import dev.hyperterse.model.InputType;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.json.DecodeException;
import io.vertx.core.json.Json;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import io.vertx.pgclient.data.Interval;
import io.vertx.pgclient.data.Money;
import io.vertx.sqlclient.Tuple;
import io.vertx.sqlclient.data.Numeric;

import java.lang.reflect.Array;
import java.math.BigDecimal;
import java.math.BigInteger;
import java.time.Duration;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.time.LocalTime;
import java.time.OffsetDateTime;
import java.time.OffsetTime;
import java.time.Period;
import java.time.ZoneId;
import java.time.format.DateTimeParseException;
import java.time.temporal.Temporal;
import java.util.HexFormat;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.UUID;
import java.util.regex.Pattern;

/**
 * Bound values in the Java types the PostgreSQL client encodes for each parameter type. The
 * client sends parameters in binary and is strict: a {@code Long} for an {@code integer}
 * parameter is silently cut to 32 bits, and a {@code String} for a {@code timestamptz}, a
 * {@code uuid} or an {@code integer} is refused. Tool inputs arrive as String, Long, Double and
 * Boolean (datetimes as ISO-8601 text), so each value is converted here to what the server said
 * the parameter is, the way PostgreSQL would read the value as text: range-checked integers,
 * parsed date-times, UUIDs and JSON. Types the client sends as text (enums, domains, extension
 * types) get the value's text and the server parses it.
 */
final class PgParameters {
    static final int BOOL = 16;
    static final int BYTEA = 17;
    static final int CHAR = 18;
    static final int NAME = 19;
    static final int INT8 = 20;
    static final int INT2 = 21;
    static final int INT4 = 23;
    static final int TEXT = 25;
    static final int JSON = 114;
    static final int FLOAT4 = 700;
    static final int FLOAT8 = 701;
    static final int MONEY = 790;
    static final int BPCHAR = 1042;
    static final int VARCHAR = 1043;
    static final int DATE = 1082;
    static final int TIME = 1083;
    static final int TIMESTAMP = 1114;
    static final int TIMESTAMPTZ = 1184;
    static final int INTERVAL = 1186;
    static final int TIMETZ = 1266;
    static final int NUMERIC = 1700;
    static final int UUID_OID = 2950;
    static final int JSONB = 3802;

    /** Array type → element type, for the arrays a JSON array input can fill. */
    private static final Map<Integer, Integer> ARRAYS = Map.ofEntries(
            Map.entry(1000, BOOL), Map.entry(1005, INT2), Map.entry(1007, INT4), Map.entry(1016, INT8),
            Map.entry(1021, FLOAT4), Map.entry(1022, FLOAT8), Map.entry(1231, NUMERIC), Map.entry(1009, TEXT),
            Map.entry(1015, VARCHAR), Map.entry(1014, BPCHAR), Map.entry(2951, UUID_OID), Map.entry(1182, DATE),
            Map.entry(1115, TIMESTAMP), Map.entry(1185, TIMESTAMPTZ));
    private static final Map<Integer, Class<?>> ELEMENT_CLASSES = Map.ofEntries(
            Map.entry(BOOL, Boolean.class), Map.entry(INT2, Short.class), Map.entry(INT4, Integer.class),
            Map.entry(INT8, Long.class), Map.entry(FLOAT4, Float.class), Map.entry(FLOAT8, Double.class),
            Map.entry(NUMERIC, Numeric.class), Map.entry(TEXT, String.class), Map.entry(VARCHAR, String.class),
            Map.entry(BPCHAR, String.class), Map.entry(UUID_OID, UUID.class), Map.entry(DATE, LocalDate.class),
            Map.entry(TIMESTAMP, LocalDateTime.class), Map.entry(TIMESTAMPTZ, OffsetDateTime.class));
    /**
     * Types the client encodes in binary from its own classes, which no tool input converts to
     * (geometry, network addresses, bit strings, other arrays, ...). Anything not listed here or
     * converted below is sent as text, which the server parses.
     */
    private static final Set<Integer> BINARY_ONLY = Set.of(1001, 1002, 1003, 1041, 1017, 1018, 1019, 1020, 1027,
            1028, 1183, 1187, 1270, 1560, 1561, 1562, 1563, 143, 199, 3807, 791, 600, 601, 602, 603, 604, 628, 629,
            718, 719, 650, 869, 774, 829, 142, 26, 2278);
    private static final Set<String> TRUE_WORDS = Set.of("t", "true", "y", "yes", "on", "1");
    private static final Set<String> FALSE_WORDS = Set.of("f", "false", "n", "no", "off", "0");
    /** Digits of the longest 64-bit integer: text with more is out of range without being parsed. */
    private static final int LONGEST_INTEGER = 19;
    /** The most digits before or after the point of a decimal converted here (1000 parse in microseconds). */
    private static final int LONGEST_DECIMAL = 1000;
    /** What a decimal's text may hold besides its digits: sign, point and exponent. */
    private static final int DECIMAL_PUNCTUATION = 16;
    private static final Pattern UUID_TEXT = Pattern.compile(
            "\\{?[0-9a-fA-F]{8}-?[0-9a-fA-F]{4}-?[0-9a-fA-F]{4}-?[0-9a-fA-F]{4}-?[0-9a-fA-F]{12}}?");

    private PgParameters() {
    }

    /**
     * @param zone the session's time zone, for a date-time without offset bound to {@code timestamptz}
     *             (as PostgreSQL reads such text)
     * @throws ConnectorException naming the input and the parameter type when a value does not fit
     */
    static Tuple bind(CompiledStatement statement, PgStatementShape shape, List<Object> values, ZoneId zone) {
        Tuple tuple = Tuple.tuple();
        for (int i = 0; i < values.size(); i++) {
            Object value = values.get(i);
            if (value == null) {
                tuple.addValue(null);
            } else if (!shape.typed()) {
                tuple.addValue(natural(value));
            } else {
                try {
                    tuple.addValue(convert(value, shape.typeOids().get(i), zone));
                } catch (BadValue e) {
                    CompiledStatement.Parameter p = statement.parameters().get(i);
                    String owner = p.source() == CompiledStatement.Source.INPUT ? "input" : "claim";
                    throw new ConnectorException(owner + " '" + p.name() + "' cannot be bound as "
                            + shape.typeNames().get(i) + ": " + e.getMessage());
                }
            }
        }
        return tuple;
    }

    /** A value for a statement the server could not describe: the nearest client type. */
    private static Object natural(Object value) {
        if (value instanceof Integer || value instanceof Short || value instanceof Byte) {
            return ((Number) value).longValue();
        }
        if (value instanceof Float) {
            return ((Float) value).doubleValue();
        }
        if (value instanceof BigDecimal || value instanceof BigInteger) {
            return Numeric.create((Number) value);
        }
        return value;
    }

    static Object convert(Object value, int oid, ZoneId zone) throws BadValue {
        switch (oid) {
            case BOOL:
                return bool(value);
            case INT2:
                return (short) integer(value, Short.MIN_VALUE, Short.MAX_VALUE, "smallint");
            case INT4:
                return (int) integer(value, Integer.MIN_VALUE, Integer.MAX_VALUE, "integer");
            case INT8:
                return integer(value, Long.MIN_VALUE, Long.MAX_VALUE, "bigint");
            case FLOAT4: {
                double d = real(value, "real");
                if (Double.isFinite(d) && Math.abs(d) > Float.MAX_VALUE) {
                    throw new BadValue(describe(value) + " is out of range for type real");
                }
                return (float) d;
            }
            case FLOAT8:
                return real(value, "double precision");
            case NUMERIC:
                return Numeric.create(decimal(value));
            case MONEY:
                return new Money(decimal(value));
            case TEXT:
            case VARCHAR:
            case BPCHAR:
            case NAME:
            case CHAR:
                return text(value);
            case DATE:
                return date(value);
            case TIME:
                return parse(value, LocalTime::parse, "a time such as 10:30:00");
            case TIMETZ:
                return parse(value, OffsetTime::parse, "a time with offset such as 10:30:00+02:00");
            case TIMESTAMP:
                return timestamp(value);
            case TIMESTAMPTZ:
                return timestamptz(value, zone);
            case INTERVAL:
                return interval(value);
            case UUID_OID:
                return uuid(value);
            case JSON:
            case JSONB:
                return json(value);
            case BYTEA:
                return bytes(value);
            default:
                Integer element = ARRAYS.get(oid);
                if (element != null) {
                    return array(value, element, zone);
                }
                if (BINARY_ONLY.contains(oid)) {
                    throw new BadValue("a tool input cannot be converted to this type; cast it in the statement,"
                            + " e.g. {{ inputs.x }}::text::<type>");
                }
                // enums, domains and extension types travel as text, which the server parses
                return text(value);
        }
    }

    private static Boolean bool(Object value) throws BadValue {
        if (value instanceof Boolean) {
            return (Boolean) value;
        }
        if (value instanceof String) {
            String word = ((String) value).trim().toLowerCase(Locale.ROOT);
            if (TRUE_WORDS.contains(word)) {
                return Boolean.TRUE;
            }
            if (FALSE_WORDS.contains(word)) {
                return Boolean.FALSE;
            }
        }
        if (value instanceof Long || value instanceof Integer) {
            long n = ((Number) value).longValue();
            if (n == 0 || n == 1) {
                return n == 1;
            }
        }
        throw new BadValue("expected true or false, got " + describe(value));
    }

    private static long integer(Object value, long min, long max, String type) throws BadValue {
        if (value instanceof Long || value instanceof Integer || value instanceof Short || value instanceof Byte) {
            // the usual case (a JSON integer), checked without a BigDecimal
            long n = ((Number) value).longValue();
            if (n < min || n > max) {
                throw new BadValue(describe(value) + " is out of range for type " + type);
            }
            return n;
        }
        BigDecimal exact;
        if (value instanceof BigInteger) {
            exact = new BigDecimal((BigInteger) value);
        } else if (value instanceof BigDecimal) {
            exact = (BigDecimal) value;
        } else if (value instanceof Double || value instanceof Float) {
            double d = ((Number) value).doubleValue();
            if (!Double.isFinite(d)) {
                throw new BadValue("expected an integer, got " + describe(value));
            }
            exact = BigDecimal.valueOf(d);
        } else if (value instanceof String) {
            String digits = significantDigits(((String) value).trim());
            if (digits == null) {
                throw new BadValue("expected an integer, got " + describe(value));
            }
            if (digits.length() - (digits.startsWith("-") ? 1 : 0) > LONGEST_INTEGER) {
                // past any 64-bit integer; not parsed, which takes time growing with the square of its length
                throw new BadValue(describe(value) + " is out of range for type " + type);
            }
            exact = new BigDecimal(new BigInteger(digits));
        } else {
            throw new BadValue("expected an integer, got " + describe(value));
        }
        if (exact.stripTrailingZeros().scale() > 0) {
            throw new BadValue("expected an integer, got " + describe(value));
        }
        if (exact.compareTo(BigDecimal.valueOf(min)) < 0 || exact.compareTo(BigDecimal.valueOf(max)) > 0) {
            throw new BadValue(describe(value) + " is out of range for type " + type);
        }
        return exact.longValueExact();
    }

    /** As PostgreSQL reads a float: {@code inf}, {@code -Infinity} and {@code NaN} by name, a larger number refused. */
    private static double real(Object value, String type) throws BadValue {
        double d;
        if (value instanceof Number) {
            d = ((Number) value).doubleValue();
        } else if (value instanceof String) {
            String s = ((String) value).trim();
            String word = s.toLowerCase(Locale.ROOT);
            String unsigned = word.startsWith("-") || word.startsWith("+") ? word.substring(1) : word;
            if (unsigned.equals("infinity") || unsigned.equals("inf")) {
                return word.startsWith("-") ? Double.NEGATIVE_INFINITY : Double.POSITIVE_INFINITY;
            }
            if (word.equals("nan")) {
                return Double.NaN;
            }
            try {
                d = Double.parseDouble(s);
            } catch (NumberFormatException e) {
                throw new BadValue("expected a number, got " + describe(value));
            }
        } else {
            throw new BadValue("expected a number, got " + describe(value));
        }
        if (Double.isInfinite(d) && !(value instanceof Double || value instanceof Float)) {
            // a number past a double's range, which Java reads as an infinity
            throw new BadValue(describe(value) + " is out of range for type " + type);
        }
        return d;
    }

    private static BigDecimal decimal(Object value) throws BadValue {
        if (value instanceof BigDecimal) {
            return (BigDecimal) value;
        }
        if (value instanceof BigInteger) {
            return new BigDecimal((BigInteger) value);
        }
        if (value instanceof Double || value instanceof Float) {
            double d = ((Number) value).doubleValue();
            if (Double.isFinite(d)) {
                // the shortest decimal that reads back as this double: 2.5, not 2.5000000000000000001
                return BigDecimal.valueOf(d);
            }
        } else if (value instanceof Number) {
            return BigDecimal.valueOf(((Number) value).longValue());
        } else if (value instanceof String) {
            String text = ((String) value).trim();
            // parsing takes time growing with the square of the length, and so does the client's
            // reading of the server's digits for a value with a large exponent (1e131071): both on
            // the event loop. Text longer than the most digits both sides may hold together is not
            // parsed; the rest is, and each side is judged on its own
            BigDecimal parsed = null;
            if (text.length() <= 2 * LONGEST_DECIMAL + DECIMAL_PUNCTUATION) {
                try {
                    parsed = new BigDecimal(text);
                } catch (NumberFormatException e) {
                    throw new BadValue("expected a decimal number, got " + describe(value));
                }
            }
            if (parsed == null || parsed.precision() - parsed.scale() > LONGEST_DECIMAL
                    || parsed.scale() > LONGEST_DECIMAL) {
                throw new BadValue(describe(value) + " has more than " + LONGEST_DECIMAL + " digits before or after"
                        + " its point; to bind a longer number, pass it as text and cast it in the statement:"
                        + " {{ inputs.x }}::text::numeric");
            }
            return parsed;
        }
        throw new BadValue("expected a decimal number, got " + describe(value));
    }

    /**
     * An integer's text with its sign and without leading zeros ({@code -0042} → {@code -42}), or
     * null when the text is not an optional sign and decimal digits.
     */
    private static String significantDigits(String text) {
        int start = text.startsWith("-") || text.startsWith("+") ? 1 : 0;
        if (start == text.length()) {
            return null;
        }
        int first = start;
        for (int i = start; i < text.length(); i++) {
            char c = text.charAt(i);
            if (c < '0' || c > '9') {
                return null;
            }
            if (c == '0' && first == i && i < text.length() - 1) {
                first++;
            }
        }
        return (text.charAt(0) == '-' ? "-" : "") + text.substring(first);
    }

    private static String text(Object value) throws BadValue {
        return BindText.of(value);
    }

    private static Temporal dateTime(Object value, String expected) throws BadValue {
        Temporal t = value instanceof String ? BindText.dateTime((String) value) : null;
        if (t == null) {
            throw new BadValue("expected " + expected + ", got " + describe(value));
        }
        return t;
    }

    private static LocalDate date(Object value) throws BadValue {
        Temporal t = dateTime(value, "a date such as 2024-06-01");
        if (t instanceof LocalDate) {
            return (LocalDate) t;
        }
        return t instanceof LocalDateTime ? ((LocalDateTime) t).toLocalDate() : ((OffsetDateTime) t).toLocalDate();
    }

    /** As PostgreSQL reads text into {@code timestamp}: the wall-clock time as written, offset ignored. */
    private static LocalDateTime timestamp(Object value) throws BadValue {
        Temporal t = dateTime(value, "a date-time such as 2024-06-01T10:30:00");
        if (t instanceof LocalDate) {
            return ((LocalDate) t).atStartOfDay();
        }
        return t instanceof LocalDateTime ? (LocalDateTime) t : ((OffsetDateTime) t).toLocalDateTime();
    }

    /** As PostgreSQL reads text into {@code timestamptz}: without an offset, in the session's time zone. */
    private static OffsetDateTime timestamptz(Object value, ZoneId zone) throws BadValue {
        Temporal t = dateTime(value, "a date-time such as 2024-06-01T10:30:00Z");
        if (t instanceof OffsetDateTime) {
            return (OffsetDateTime) t;
        }
        LocalDateTime local = t instanceof LocalDate ? ((LocalDate) t).atStartOfDay() : (LocalDateTime) t;
        return local.atZone(zone).toOffsetDateTime();
    }

    private interface Parser<T> {
        T parse(String text);
    }

    private static <T> T parse(Object value, Parser<T> parser, String expected) throws BadValue {
        if (value instanceof String) {
            try {
                return parser.parse(((String) value).trim());
            } catch (DateTimeParseException e) {
                // reported below
            }
        }
        throw new BadValue("expected " + expected + ", got " + describe(value));
    }

    /** ISO-8601 ({@code P1DT2H}, {@code PT30S}) or a number of seconds. */
    private static Interval interval(Object value) throws BadValue {
        Interval interval;
        try {
            interval = intervalOf(value);
        } catch (ArithmeticException e) {
            interval = null;
        }
        // the client encodes the years and months as one int of months, and fails the call with a
        // bare "integer overflow" past it (PostgreSQL's own limit, 178,000,000 years, is lower)
        if (interval == null || Math.abs((long) interval.getYears() * 12 + interval.getMonths()) > Integer.MAX_VALUE) {
            throw new BadValue(describe(value) + " is out of range for type interval");
        }
        return interval;
    }

    private static Interval intervalOf(Object value) throws BadValue {
        if (value instanceof Long || value instanceof Integer) {
            return Interval.of(Duration.ofSeconds(((Number) value).longValue()));
        }
        if (value instanceof Double) {
            return Interval.of(Duration.ofNanos(Math.round((Double) value * 1e9)));
        }
        if (value instanceof String) {
            String s = ((String) value).trim().toUpperCase(Locale.ROOT);
            int t = s.indexOf('T');
            try {
                Period period = t == 1 ? Period.ZERO : Period.parse(t < 0 ? s : s.substring(0, t));
                Duration time = t < 0 ? Duration.ZERO : Duration.parse("PT" + s.substring(t + 1));
                Interval base = Interval.of(time);
                return base.years(period.getYears()).months(period.getMonths())
                        .days(base.getDays() + period.getDays());
            } catch (DateTimeParseException | IndexOutOfBoundsException e) {
                // reported below
            }
        }
        throw new BadValue("expected an ISO-8601 duration such as P1DT2H or PT30S (or cast text in the statement:"
                + " {{ inputs.x }}::text::interval), got " + describe(value));
    }

    private static UUID uuid(Object value) throws BadValue {
        if (value instanceof String && UUID_TEXT.matcher(((String) value).trim()).matches()) {
            String hex = ((String) value).trim().replace("{", "").replace("}", "").replace("-", "");
            return new UUID(Long.parseUnsignedLong(hex.substring(0, 16), 16), Long.parseUnsignedLong(hex.substring(16), 16));
        }
        throw new BadValue("expected a UUID such as 123e4567-e89b-12d3-a456-426614174000, got " + describe(value));
    }

    /** A string is read as JSON text (as PostgreSQL reads text into json); other values are JSON already. */
    private static Object json(Object value) throws BadValue {
        if (value instanceof String) {
            try {
                Object decoded = Json.decodeValue((String) value);
                return decoded == null ? Tuple.JSON_NULL : decoded;
            } catch (DecodeException e) {
                throw new BadValue("expected JSON text, got " + describe(value));
            }
        }
        return value;
    }

    /** As PostgreSQL reads text into bytea: {@code \x} then hex digits, or the text's own bytes. */
    private static Buffer bytes(Object value) throws BadValue {
        String s = BindText.of(value);
        if (s.startsWith("\\x")) {
            try {
                return Buffer.buffer(HexFormat.of().parseHex(s.substring(2)));
            } catch (IllegalArgumentException e) {
                throw new BadValue("expected hex digits after \\x, got " + describe(value));
            }
        }
        return Buffer.buffer(s.getBytes(java.nio.charset.StandardCharsets.UTF_8));
    }

    /**
     * A JSON array, its text, or PostgreSQL's own text for an array ({@code {1,2,3}}, what a
     * Hyperterse project passes in a string input), for an array parameter, element by element.
     */
    private static Object array(Object value, int elementOid, ZoneId zone) throws BadValue {
        JsonArray elements;
        String expected = "expected an array such as [1, 2, 3] or {1,2,3}, got " + describe(value);
        if (value instanceof JsonArray) {
            elements = (JsonArray) value;
        } else if (value instanceof String && ((String) value).trim().startsWith("[")) {
            try {
                elements = new JsonArray((String) value);
            } catch (DecodeException e) {
                throw new BadValue(expected);
            }
        } else if (value instanceof String && ((String) value).trim().startsWith("{")) {
            elements = arrayLiteral(((String) value).trim(), expected);
        } else {
            throw new BadValue(expected);
        }
        Object array = Array.newInstance(ELEMENT_CLASSES.get(elementOid), elements.size());
        for (int i = 0; i < elements.size(); i++) {
            Object element = elements.getValue(i);
            if (element instanceof JsonObject || element instanceof JsonArray) {
                throw new BadValue("element " + i + " is not a single value");
            }
            Array.set(array, i, element == null ? null : convert(element, elementOid, zone));
        }
        return array;
    }

    /**
     * The elements of PostgreSQL's text for a one-dimensional array, as PostgreSQL reads it:
     * {@code {1,2,3}}, {@code {"a b",NULL,"say \"hi\""}}; an unquoted, unescaped {@code NULL} is null, and a
     * backslash takes the next character as it is. Elements are text, converted like any value.
     */
    private static JsonArray arrayLiteral(String text, String expected) throws BadValue {
        JsonArray elements = new JsonArray();
        int n = text.length();
        int i = skipBlanks(text, 1);
        if (i < n && text.charAt(i) == '}') {
            return skipBlanks(text, i + 1) == n ? elements : failArray(expected);
        }
        while (true) {
            i = skipBlanks(text, i);
            if (i >= n || text.charAt(i) == '{') {
                // unterminated, or an array of several dimensions
                return failArray(expected);
            }
            StringBuilder element = new StringBuilder();
            boolean quoted = text.charAt(i) == '"';
            boolean escaped = false;
            if (quoted) {
                i++;
                while (i < n && text.charAt(i) != '"') {
                    if (text.charAt(i) == '\\' && i + 1 < n) {
                        i++;
                    }
                    element.append(text.charAt(i++));
                }
                if (i >= n) {
                    return failArray(expected);
                }
                i++;
            } else {
                int lastKept = 0;
                while (i < n && text.charAt(i) != ',' && text.charAt(i) != '}') {
                    char c = text.charAt(i);
                    if (c == '"' || c == '{') {
                        return failArray(expected);
                    }
                    if (c == '\\' && i + 1 < n) {
                        c = text.charAt(++i);
                        element.append(c);
                        lastKept = element.length();
                        escaped = true;
                    } else {
                        element.append(c);
                        if (!Character.isWhitespace(c)) {
                            lastKept = element.length();
                        }
                    }
                    i++;
                }
                element.setLength(lastKept);
                if (element.length() == 0) {
                    return failArray(expected);
                }
            }
            String e = element.toString();
            elements.add(!quoted && !escaped && e.equalsIgnoreCase("NULL") ? null : e);
            i = skipBlanks(text, i);
            if (i < n && text.charAt(i) == ',') {
                i++;
            } else if (i < n && text.charAt(i) == '}') {
                return skipBlanks(text, i + 1) == n ? elements : failArray(expected);
            } else {
                return failArray(expected);
            }
        }
    }

    private static int skipBlanks(String text, int from) {
        int i = from;
        while (i < text.length() && Character.isWhitespace(text.charAt(i))) {
            i++;
        }
        return i;
    }

    private static JsonArray failArray(String expected) throws BadValue {
        throw new BadValue(expected);
    }

    private static String describe(Object value) {
        return InputType.describe(value);
    }

    /** A value that does not fit its parameter's type; the message says why. */
    static final class BadValue extends Exception {
        private static final long serialVersionUID = 1L;

        BadValue(String message) {
            super(message, null, false, false);
        }
    }
}

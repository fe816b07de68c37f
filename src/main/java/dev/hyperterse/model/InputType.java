package dev.hyperterse.model;

import java.math.BigDecimal;
import java.math.BigInteger;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.time.OffsetDateTime;
import java.time.format.DateTimeFormatter;
import java.time.format.DateTimeParseException;
import java.util.Locale;
import java.util.Map;
import java.util.Set;

/**
 * The input types of the project format and how a JSON value is coerced into each. Hyperterse's
 * five ({@code string int float boolean datetime}) and the richer ones of the seed documents'
 * Python peer ({@code date uuid array object}). Coerced scalars are plain Java values that every
 * connector can bind: String, Long, Double, Boolean, for datetime an ISO-8601 String (offset kept
 * when given), for date {@code YYYY-MM-DD} and for uuid the lower-case canonical text. An array
 * is a {@link List} and an object a {@link Map} here; their elements and properties are coerced
 * by {@link InputDef#coerce}, which knows their declarations.
 */
public enum InputType {
    STRING("string"),
    INT("int"),
    FLOAT("float"),
    BOOLEAN("boolean"),
    DATETIME("datetime"),
    DATE("date"),
    UUID("uuid"),
    ARRAY("array"),
    OBJECT("object");

    private static final java.util.regex.Pattern UUID_TEXT = java.util.regex.Pattern.compile(
            "[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}");

    private static final Set<String> TRUE_WORDS = Set.of("1", "t", "T", "TRUE", "true", "True");
    private static final Set<String> FALSE_WORDS = Set.of("0", "f", "F", "FALSE", "false", "False");
    private static final DateTimeFormatter SQL_DATETIME = DateTimeFormatter.ofPattern("yyyy-MM-dd HH:mm:ss");

    private final String keyword;

    InputType(String keyword) {
        this.keyword = keyword;
    }

    /** The name used in tool files ({@code type: int}). */
    public String keyword() {
        return keyword;
    }

    /** True for the types that hold one value (not array or object). */
    public boolean isScalar() {
        return this != ARRAY && this != OBJECT;
    }

    /** True for int and float. */
    public boolean isNumeric() {
        return this == INT || this == FLOAT;
    }

    /** Looks a type up by its keyword; returns null when there is none. */
    public static InputType fromKeyword(String keyword) {
        if (keyword == null) {
            return null;
        }
        String k = keyword.trim().toLowerCase(Locale.ROOT);
        for (InputType t : values()) {
            if (t.keyword.equals(k)) {
                return t;
            }
        }
        return null;
    }

    /**
     * Coerces a decoded JSON value (String, Number, Boolean, Map, List) to this type.
     *
     * @throws InputValueException with a reason such as {@code expected int, got "abc"}
     */
    public Object coerce(Object value) throws InputValueException {
        if (value == null) {
            throw new InputValueException("expected " + keyword + ", got null");
        }
        if (beyondDouble(value)) {
            // JSON has no infinities: the reader turns a literal past a double's range (1e400)
            // into one, which no type can hold and BigDecimal cannot even look at
            throw new InputValueException("expected " + keyword + ", got a number beyond the range of a double");
        }
        switch (this) {
            case STRING:
                if (value instanceof String) {
                    return value;
                }
                if (value instanceof Boolean) {
                    return value.toString();
                }
                if (value instanceof Number) {
                    return numberText((Number) value);
                }
                throw mismatch(value);
            case INT:
                return toLong(value);
            case FLOAT:
                return toDouble(value);
            case BOOLEAN:
                return toBoolean(value);
            case DATETIME:
                return toDateTime(value);
            case DATE:
                return toDate(value);
            case UUID:
                return toUuid(value);
            case ARRAY:
                if (value instanceof java.util.List) {
                    return value;
                }
                throw mismatch(value);
            case OBJECT:
                if (value instanceof Map) {
                    return value;
                }
                throw mismatch(value);
            default:
                throw new IllegalStateException(name());
        }
    }

    /** True for what the JSON reader makes of a number past a double's range: an infinity (or NaN). */
    static boolean beyondDouble(Object value) {
        return value instanceof Double && !Double.isFinite((Double) value)
                || value instanceof Float && !Float.isFinite((Float) value);
    }

    private InputValueException mismatch(Object value) {
        return new InputValueException("expected " + keyword + ", got " + describe(value));
    }

    private Long toLong(Object value) throws InputValueException {
        if (value instanceof Integer || value instanceof Long || value instanceof Short || value instanceof Byte) {
            return ((Number) value).longValue();
        }
        if (value instanceof BigInteger) {
            BigInteger b = (BigInteger) value;
            if (b.bitLength() > 63) {
                throw new InputValueException("integer " + b + " is out of range");
            }
            return b.longValue();
        }
        if (value instanceof Number) {
            BigDecimal d = decimal((Number) value);
            try {
                return d.longValueExact();
            } catch (ArithmeticException e) {
                throw new InputValueException(d.stripTrailingZeros().scale() > 0
                        ? "expected int, got " + numberText((Number) value) + " (a number with a fraction)"
                        : "integer " + numberText((Number) value) + " is out of range");
            }
        }
        if (value instanceof String) {
            String s = ((String) value).trim();
            try {
                return Long.parseLong(s);
            } catch (NumberFormatException e) {
                throw new InputValueException("expected int, got " + describe(value));
            }
        }
        throw mismatch(value);
    }

    private Double toDouble(Object value) throws InputValueException {
        if (value instanceof Number) {
            double d = ((Number) value).doubleValue();
            if (!Double.isFinite(d)) {
                // an integer literal past a double's range (10^400) reads as a BigInteger, not an infinity
                throw new InputValueException("expected float, got a number beyond the range of a double");
            }
            return d;
        }
        if (value instanceof String) {
            String s = ((String) value).trim();
            try {
                double d = Double.parseDouble(s);
                if (Double.isNaN(d) || Double.isInfinite(d)) {
                    throw new NumberFormatException();
                }
                return d;
            } catch (NumberFormatException e) {
                throw new InputValueException("expected float, got " + describe(value));
            }
        }
        throw mismatch(value);
    }

    private Boolean toBoolean(Object value) throws InputValueException {
        if (value instanceof Boolean) {
            return (Boolean) value;
        }
        if (value instanceof Number) {
            return decimal((Number) value).signum() != 0;
        }
        if (value instanceof String) {
            String s = (String) value;
            if (TRUE_WORDS.contains(s)) {
                return Boolean.TRUE;
            }
            if (FALSE_WORDS.contains(s)) {
                return Boolean.FALSE;
            }
            throw new InputValueException("expected boolean, got " + describe(value));
        }
        throw mismatch(value);
    }

    private String toDateTime(Object value) throws InputValueException {
        if (!(value instanceof String)) {
            throw mismatch(value);
        }
        String s = ((String) value).trim();
        try {
            return DateTimeFormatter.ISO_OFFSET_DATE_TIME.format(OffsetDateTime.parse(s));
        } catch (DateTimeParseException ignored) {
            // not RFC 3339 with an offset; try the other accepted layouts
        }
        try {
            return DateTimeFormatter.ISO_LOCAL_DATE_TIME.format(LocalDateTime.parse(s, SQL_DATETIME));
        } catch (DateTimeParseException ignored) {
            // not "2006-01-02 15:04:05"
        }
        try {
            return LocalDate.parse(s).toString();
        } catch (DateTimeParseException ignored) {
            // fall through to the error
        }
        throw new InputValueException("expected datetime (RFC 3339, 'YYYY-MM-DD HH:MM:SS' or 'YYYY-MM-DD'), got "
                + describe(value));
    }

    private String toDate(Object value) throws InputValueException {
        if (value instanceof String) {
            String s = ((String) value).trim();
            if (s.length() == 10) {
                try {
                    return LocalDate.parse(s).toString();
                } catch (DateTimeParseException ignored) {
                    // reported below
                }
            }
        }
        throw new InputValueException("expected date (YYYY-MM-DD), got " + describe(value));
    }

    private String toUuid(Object value) throws InputValueException {
        if (value instanceof String) {
            String s = ((String) value).trim();
            if (UUID_TEXT.matcher(s).matches()) {
                return s.toLowerCase(Locale.ROOT);
            }
        }
        throw new InputValueException("expected uuid (such as 123e4567-e89b-12d3-a456-426614174000), got "
                + describe(value));
    }

    /** A JSON number as an exact decimal (a double by its shortest decimal form). */
    public static BigDecimal decimal(Number n) {
        if (n instanceof BigDecimal) {
            return (BigDecimal) n;
        }
        if (n instanceof BigInteger) {
            return new BigDecimal((BigInteger) n);
        }
        if (n instanceof Double || n instanceof Float) {
            return BigDecimal.valueOf(n.doubleValue());
        }
        return BigDecimal.valueOf(n.longValue());
    }

    /** A number as a reader would write it: {@code 1000}, {@code 0.5}, never {@code 1E+3}. */
    static String numberText(Number n) {
        if (n instanceof Double || n instanceof Float || n instanceof BigDecimal) {
            BigDecimal d = decimal(n).stripTrailingZeros();
            return d.scale() <= 0 ? d.toBigInteger().toString() : d.toPlainString();
        }
        return n.toString();
    }

    /** A short, safe rendering of a JSON value for error messages (long strings are cut). */
    public static String describe(Object value) {
        if (value == null) {
            return "null";
        }
        if (value instanceof String) {
            String s = (String) value;
            if (s.length() > 40) {
                s = s.substring(0, 40) + "…";
            }
            return "\"" + s + "\"";
        }
        if (value instanceof Map) {
            return "an object";
        }
        if (value instanceof Iterable || value.getClass().isArray()) {
            return "an array";
        }
        if (value instanceof Boolean) {
            return value.toString();
        }
        if (value instanceof Number) {
            return numberText((Number) value);
        }
        return "a " + value.getClass().getSimpleName();
    }
}

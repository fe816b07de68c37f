package dev.hyperterse.model;

import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * One declared tool input, or one element or property of an array or object input.
 * {@code defaultValue} is already coerced to {@code type} (and keeps its constraints); it is
 * meaningful only when {@code hasDefault} is true (a YAML {@code default: ""} means no default).
 * {@code items} is the element declaration of an array (null otherwise); {@code properties} are the
 * declared properties of an object (empty for an object that takes any properties, and for every
 * other type).
 */
public record InputDef(String name, InputType type, String description, boolean optional,
                       boolean hasDefault, Object defaultValue, SourceLocation location,
                       InputDef items, List<InputDef> properties, InputConstraints constraints) {

    public InputDef {
        properties = properties == null ? List.of() : List.copyOf(properties);
        constraints = constraints == null ? InputConstraints.NONE : constraints;
    }

    /** A scalar input with no constraints (Hyperterse's model). */
    public InputDef(String name, InputType type, String description, boolean optional,
                    boolean hasDefault, Object defaultValue, SourceLocation location) {
        this(name, type, description, optional, hasDefault, defaultValue, location, null, List.of(),
                InputConstraints.NONE);
    }

    /**
     * Coerces a decoded JSON value (String, Number, Boolean, Map, List; never null) to this
     * declaration: its type, its elements' or properties' declarations, and its constraints.
     * Arrays come back as lists and objects as maps of coerced values.
     *
     * @throws InputValueException whose position says where inside the value the problem is
     */
    public Object coerce(Object value) throws InputValueException {
        return coerce(value, PatternBudget.forCall());
    }

    /**
     * {@link #coerce(Object)} for one of a call's values: every {@code pattern} match inside it
     * draws on the call's {@code budget}.
     */
    public Object coerce(Object value, PatternBudget budget) throws InputValueException {
        Object coerced = type.coerce(value);
        if (coerced instanceof List) {
            // min_items/max_items first: an array far past them is refused before any work per item
            constraints.checkItemCount(((List<?>) coerced).size());
        }
        if (type == InputType.ARRAY && items != null) {
            List<?> raw = (List<?>) coerced;
            List<Object> out = new ArrayList<>(raw.size());
            for (int i = 0; i < raw.size(); i++) {
                Object element = raw.get(i);
                try {
                    if (element == null) {
                        throw new InputValueException("expected " + items.type().keyword() + ", got null");
                    }
                    out.add(items.coerce(element, budget));
                } catch (InputValueException e) {
                    throw e.within("[" + i + "]");
                }
            }
            coerced = Collections.unmodifiableList(out);
        } else if (type == InputType.OBJECT && !properties.isEmpty()) {
            coerced = coerceProperties((Map<?, ?>) coerced, budget);
        } else if (type == InputType.ARRAY || type == InputType.OBJECT) {
            finite(coerced);
        }
        constraints.check(coerced, budget);
        return coerced;
    }

    /**
     * Refuses a number past a double's range anywhere inside an array or object taken as it is: the
     * JSON reader makes {@code 1e400} an infinity, which no database or script receives as a number
     * (JSON text would carry it as the string "Infinity").
     */
    private static void finite(Object value) throws InputValueException {
        if (InputType.beyondDouble(value)) {
            throw new InputValueException("is a number beyond the range of a double");
        }
        if (value instanceof List) {
            List<?> list = (List<?>) value;
            for (int i = 0; i < list.size(); i++) {
                try {
                    finite(list.get(i));
                } catch (InputValueException e) {
                    throw e.within("[" + i + "]");
                }
            }
        } else if (value instanceof Map) {
            for (Map.Entry<?, ?> e : ((Map<?, ?>) value).entrySet()) {
                try {
                    finite(e.getValue());
                } catch (InputValueException x) {
                    throw x.within("." + CallerText.cut(String.valueOf(e.getKey())));
                }
            }
        }
    }

    private Map<String, Object> coerceProperties(Map<?, ?> raw, PatternBudget budget) throws InputValueException {
        for (Object key : raw.keySet()) {
            if (property(String.valueOf(key)) == null) {
                throw new InputValueException("unknown field (allowed: " + propertyNames() + ")",
                        "." + CallerText.cut(String.valueOf(key)));
            }
        }
        Map<String, Object> out = new LinkedHashMap<>();
        for (InputDef p : properties) {
            Object v = raw.get(p.name());
            if (v == null) {
                if (p.hasDefault()) {
                    out.put(p.name(), p.defaultValue());
                } else if (!p.optional()) {
                    throw new InputValueException("required field is missing", "." + p.name());
                }
                continue;
            }
            try {
                out.put(p.name(), p.coerce(v, budget));
            } catch (InputValueException e) {
                throw e.within("." + p.name());
            }
        }
        return Collections.unmodifiableMap(out);
    }

    private InputDef property(String propertyName) {
        for (InputDef p : properties) {
            if (p.name().equals(propertyName)) {
                return p;
            }
        }
        return null;
    }

    private String propertyNames() {
        List<String> names = new ArrayList<>();
        for (InputDef p : properties) {
            names.add(p.name());
        }
        return String.join(", ", names);
    }
}

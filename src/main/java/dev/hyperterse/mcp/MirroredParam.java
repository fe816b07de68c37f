package dev.hyperterse.mcp;

import io.vertx.core.json.JsonObject;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * A tool argument that 2026-07-28 clients mirror into an HTTP header (SEP-2243): the property's
 * schema in the tool's {@code inputSchema} carries {@code "x-mcp-header": NAME}, and a client that
 * sends the argument sends {@code Mcp-Param-NAME} with its value too, so load balancers and
 * gateways can route on it without reading the body. The server checks that the two agree.
 *
 * @param path   the argument's place in {@code arguments}: the chain of {@code properties} keys
 * @param header the header's full name, {@code Mcp-Param-} and the declared name
 */
public record MirroredParam(List<String> path, String header) {
    /** The extension keyword a property's schema declares its header name with. */
    public static final String KEYWORD = "x-mcp-header";
    public static final String HEADER_PREFIX = "Mcp-Param-";

    public MirroredParam {
        path = List.copyOf(path);
    }

    /** The argument as messages name it: {@code tool}, {@code filter.region}. */
    public String argument() {
        return String.join(".", path);
    }

    /** The value at {@link #path} in a call's arguments, or null when there is none. */
    public Object valueIn(JsonObject arguments) {
        Object at = arguments;
        for (String key : path) {
            if (!(at instanceof JsonObject)) {
                return null;
            }
            at = ((JsonObject) at).getValue(key);
        }
        return at;
    }

    /**
     * The arguments a tool's {@code inputSchema} mirrors into headers: properties that carry
     * {@link #KEYWORD}, reached from the root through {@code properties} keys only (the only
     * placement the specification allows).
     */
    public static List<MirroredParam> declaredIn(JsonObject inputSchema) {
        List<MirroredParam> found = new ArrayList<>();
        if (inputSchema != null) {
            collect(inputSchema, new ArrayList<>(), found);
        }
        return List.copyOf(found);
    }

    private static void collect(JsonObject schema, List<String> path, List<MirroredParam> found) {
        Object properties = schema.getValue("properties");
        if (!(properties instanceof JsonObject)) {
            return;
        }
        for (Map.Entry<String, Object> e : (JsonObject) properties) {
            if (!(e.getValue() instanceof JsonObject)) {
                continue;
            }
            JsonObject property = (JsonObject) e.getValue();
            path.add(e.getKey());
            if (property.getValue(KEYWORD) instanceof String) {
                found.add(new MirroredParam(path, HEADER_PREFIX + property.getString(KEYWORD)));
            }
            collect(property, path, found);
            path.remove(path.size() - 1);
        }
    }
}

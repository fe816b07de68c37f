package dev.hyperterse.mcp;

import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonToken;
import com.fasterxml.jackson.core.JsonTokenId;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.json.DecodeException;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import io.vertx.core.json.jackson.JacksonCodec;

import java.io.IOException;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * A request body read into the values Vert.x's own reader makes (a {@link JsonObject} or
 * {@link JsonArray} over maps and lists, numbers as Jackson reads them, its parser and limits),
 * refusing an object that names a member twice, at any depth. Readers differ on which of two
 * values counts (Vert.x's keeps the last, many keep the first), so a gateway, an audit log or a
 * policy check in front of the server could read one call and the server run another.
 *
 * <p>The check is the map's own size: a name already there leaves it unchanged. That costs no
 * lookup beyond the insertion every member needs anyway, where Jackson's duplicate detection
 * keeps a set of names beside every object of three or more members (half again the time of a
 * large body).
 */
public final class StrictJson {

    private StrictJson() {
    }

    /** An object of the body names a member twice. */
    public static final class RepeatedName extends Exception {
        private static final long serialVersionUID = 1L;

        private final String name;

        RepeatedName(String name) {
            super(null, null, false, false);
            this.name = name;
        }

        /** The member name, whole: cut it before showing it. */
        public String name() {
            return name;
        }
    }

    /**
     * The body's JSON value: a JsonObject, JsonArray, String, Number, Boolean or null.
     *
     * @throws DecodeException when it is not one JSON text (its cause is Jackson's, as from {@code Json.decodeValue})
     * @throws RepeatedName    when an object names a member twice
     */
    public static Object read(Buffer body) throws RepeatedName {
        JsonParser parser = JacksonCodec.createParser(body);
        try (parser) {
            parser.nextToken();
            Object value = any(parser);
            if (parser.nextToken() != null) {
                throw new DecodeException("Unexpected trailing token");
            }
            return value instanceof Map ? new JsonObject(cast(value))
                    : value instanceof List ? new JsonArray((List<?>) value) : value;
        } catch (IOException e) {
            throw new DecodeException(e.getMessage(), e);
        }
    }

    private static Object any(JsonParser parser) throws IOException, RepeatedName {
        switch (parser.currentTokenId()) {
            case JsonTokenId.ID_START_OBJECT:
                return object(parser);
            case JsonTokenId.ID_START_ARRAY:
                return array(parser);
            case JsonTokenId.ID_STRING:
                return parser.getText();
            case JsonTokenId.ID_NUMBER_INT:
            case JsonTokenId.ID_NUMBER_FLOAT:
                return parser.getNumberValue();
            case JsonTokenId.ID_TRUE:
                return Boolean.TRUE;
            case JsonTokenId.ID_FALSE:
                return Boolean.FALSE;
            case JsonTokenId.ID_NULL:
                return null;
            default:
                throw new DecodeException("Unexpected token");
        }
    }

    private static Map<String, Object> object(JsonParser parser) throws IOException, RepeatedName {
        Map<String, Object> members = new LinkedHashMap<>();
        for (String name = parser.nextFieldName(); name != null; name = parser.nextFieldName()) {
            parser.nextToken();
            Object value = any(parser);
            int before = members.size();
            members.put(name, value);
            if (members.size() == before) {
                throw new RepeatedName(name);
            }
        }
        return members;
    }

    private static List<Object> array(JsonParser parser) throws IOException, RepeatedName {
        List<Object> items = new ArrayList<>();
        while (parser.nextToken() != JsonToken.END_ARRAY) {
            items.add(any(parser));
        }
        return items;
    }

    @SuppressWarnings("unchecked")
    private static Map<String, Object> cast(Object map) {
        return (Map<String, Object>) map;
    }
}

package dev.hyperterse.mcp;

import io.vertx.core.buffer.Buffer;
import io.vertx.core.json.DecodeException;
import io.vertx.core.json.Json;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import org.junit.jupiter.api.Test;

import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

/** The request body reader: Vert.x's values exactly, and a member name repeated in one object refused. */
class StrictJsonTest {

    @Test
    void readsWhatVertxReads() throws Exception {
        for (String body : List.of("{}", "[]", "null", "true", "\"x\"", "1", "-0", "1.5", "1e400", "2147483648",
                "123456789012345678901234567890", "{\"a\":{\"b\":[1,{\"c\":null},\"é😀\"]},\"d\":false}",
                "[[],[{}],{\"a\":[]}]", "{\"a\":1,\"b\":2,\"c\":3,\"d\":4}")) {
            Object expected = Json.decodeValue(Buffer.buffer(body));
            Object read = StrictJson.read(Buffer.buffer(body));
            assertEquals(expected, read, body);
            assertEquals(expected == null ? null : expected.getClass(), read == null ? null : read.getClass(), body);
            if (read instanceof JsonObject || read instanceof JsonArray) {
                assertEquals(Json.encode(expected), Json.encode(read), body);
            }
        }
    }

    @Test
    void refusesWhatVertxRefuses() {
        for (String body : List.of("", " ", "{", "[1,", "{} {}", "{\"a\" 1}", "nul", "[1]]")) {
            assertThrows(DecodeException.class, () -> StrictJson.read(Buffer.buffer(body)), body);
            assertThrows(DecodeException.class, () -> Json.decodeValue(Buffer.buffer(body)), body);
        }
    }

    @Test
    void aRepeatedNameIsNamedAtAnyDepth() {
        for (String[] c : new String[][] {
                {"{\"a\":1,\"a\":2}", "a"},
                {"{\"a\":null,\"a\":null}", "a"},
                {"{\"a\":1,\"b\":2,\"c\":3,\"b\":4}", "b"},
                {"[1,[2,{\"x\":{\"y\":[],\"y\":{}}}]]", "y"},
                {"{\"\":1,\"\":2}", ""}}) {
            StrictJson.RepeatedName e = assertThrows(StrictJson.RepeatedName.class,
                    () -> StrictJson.read(Buffer.buffer(c[0])), c[0]);
            assertEquals(c[1], e.name(), c[0]);
        }
    }
}

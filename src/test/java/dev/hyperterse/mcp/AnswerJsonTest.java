package dev.hyperterse.mcp;

import io.vertx.core.buffer.Buffer;
import io.vertx.core.json.Json;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import org.junit.jupiter.api.Test;

import java.math.BigDecimal;
import java.math.BigInteger;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;

/** An answer's bytes are the codec's, byte for byte, whether or not its rows were encoded before. */
class AnswerJsonTest {
    private static JsonArray rows(String text) {
        return new JsonArray()
                .add(new JsonObject().put("id", 42).put("name", text).put("big", 9007199254740993L)
                        .put("price", new BigDecimal("19.90")).put("ratio", 0.1).put("tiny", 1.0E-7)
                        .put("none", null).put("yes", true).put("nested", new JsonObject().put("k", new JsonArray()
                                .add(1).add("two").add(new JsonObject()))))
                .add(new JsonObject().put("id", 43).put("name", "plain").put("when", Instant.ofEpochSecond(1_700_000_000))
                        .put("bytes", new byte[] {1, 2, 3}).put("huge", new BigInteger("123456789012345678901234567890")));
    }

    /** A tools/call answer as MetaTools builds it, with structuredContent, the rows pre-encoded or not. */
    private static JsonObject answer(JsonArray rows, boolean preEncoded, boolean truncated) {
        String text = rows.encode();
        JsonObject content = new JsonObject().put("rows", preEncoded ? EncodedJsonArray.of(rows, text) : rows);
        if (truncated) {
            content.put("truncated", true);
        }
        JsonObject result = MetaTools.textResult(text).put("structuredContent", content);
        return new JsonObject().put("jsonrpc", "2.0").put("id", 7).put("result", result);
    }

    private static void sameBytes(Object expectedOf, Object actualOf) {
        Buffer expected = Json.CODEC.toBuffer(expectedOf, false);
        Buffer actual = AnswerJson.encode(actualOf);
        assertArrayEquals(expected.getBytes(), actual.getBytes(),
                () -> "expected " + expected + "\n but got " + actual);
    }

    @Test
    void answersAreTheCodecsBytes() {
        List<String> texts = List.of("Customer 42", "quote \" backslash \\ slash / tab \t newline \n nul \u0000 bell \u0007 del \u007f",
                "é ü 中文 \u2028 \u2029 \ufeff", "emoji \uD83D\uDE00 and a lone \uD800 surrogate", "x".repeat(20_000));
        for (String text : texts) {
            for (boolean truncated : new boolean[] {false, true}) {
                sameBytes(answer(rows(text), false, truncated), answer(rows(text), true, truncated));
                sameBytes(answer(rows(text), false, truncated), answer(rows(text), false, truncated));
            }
        }
    }

    @Test
    void anyJsonValueIsTheCodecsBytes() {
        Map<String, Object> map = new LinkedHashMap<>();
        map.put("list", new ArrayList<>(List.of(1, "a", List.of())));
        map.put("json", new JsonObject().put("a", new JsonArray().add(JsonObject.of()).addNull()));
        List<Object> values = List.of(new JsonObject(), new JsonArray(), new JsonObject(map), new JsonArray().add(map),
                JsonRpc.error(1, JsonRpc.INVALID_PARAMS, "bad \"params\" \uD83D\uDE00", new JsonObject().put("x", 1)),
                new JsonArray().add(answer(rows("batch"), true, false)).add(answer(rows("two"), false, true)));
        for (Object value : values) {
            sameBytes(value instanceof JsonArray && ((JsonArray) value).size() == 2
                    ? new JsonArray().add(answer(rows("batch"), false, false)).add(answer(rows("two"), false, true))
                    : value, value);
        }
    }

    @Test
    void rowsWithCharactersOutsideTheBasicPlaneAreEncodedAgain() {
        JsonArray rows = rows("emoji \uD83D\uDE00");
        assertFalse(EncodedJsonArray.of(rows, rows.encode()) instanceof EncodedJsonArray);
        JsonArray plain = rows("plain");
        JsonArray encoded = EncodedJsonArray.of(plain, plain.encode());
        assertInstanceOf(EncodedJsonArray.class, encoded);
        // the same rows to everything that reads them
        assertEquals(plain.getList(), encoded.getList());
        assertEquals(plain.encode(), encoded.encode());
    }
}

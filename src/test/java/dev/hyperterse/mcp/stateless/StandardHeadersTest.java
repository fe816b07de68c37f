package dev.hyperterse.mcp.stateless;

import dev.hyperterse.mcp.MirroredParam;
import io.vertx.core.MultiMap;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import org.junit.jupiter.api.Test;

import java.nio.charset.StandardCharsets;
import java.util.Base64;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The value rules of the {@code Mcp-Param-*} headers (SEP-2243) that the endpoint tests cannot
 * reach through {@code execute}'s one string argument: integers, booleans, nested arguments,
 * null, Base64 edge cases and what {@code x-mcp-header} declarations are read from a schema.
 */
class StandardHeadersTest {
    static final JsonObject SCHEMA = new JsonObject().put("type", "object").put("properties", new JsonObject()
            .put("region", new JsonObject().put("type", "string").put("x-mcp-header", "Region"))
            .put("priority", new JsonObject().put("type", "integer").put("x-mcp-header", "Priority"))
            .put("verbose", new JsonObject().put("type", "boolean").put("x-mcp-header", "Verbose"))
            .put("query", new JsonObject().put("type", "string"))
            .put("target", new JsonObject().put("type", "object").put("properties", new JsonObject()
                    .put("zone", new JsonObject().put("type", "string").put("x-mcp-header", "Zone"))))
            .put("list", new JsonObject().put("type", "array")
                    .put("items", new JsonObject().put("type", "string").put("x-mcp-header", "Item"))));
    static final List<MirroredParam> DECLARED = MirroredParam.declaredIn(SCHEMA);

    static MultiMap headers(String... pairs) {
        MultiMap h = MultiMap.caseInsensitiveMultiMap();
        for (int i = 0; i < pairs.length; i += 2) {
            h.add(pairs[i], pairs[i + 1]);
        }
        return h;
    }

    static void accepted(JsonObject arguments, String... pairs) {
        StandardHeaders.checkParams(headers(pairs), arguments, DECLARED);
    }

    static String refused(JsonObject arguments, String... pairs) {
        StatelessError e = assertThrows(StatelessError.class,
                () -> StandardHeaders.checkParams(headers(pairs), arguments, DECLARED));
        assertEquals(400, e.httpStatus());
        assertEquals(-32020, e.code());
        return e.getMessage();
    }

    static String base64(String value) {
        return "=?base64?" + Base64.getEncoder().encodeToString(value.getBytes(StandardCharsets.UTF_8)) + "?=";
    }

    @Test
    void declarationsAreReadThroughPropertiesOnly() {
        assertEquals(List.of(new MirroredParam(List.of("region"), "Mcp-Param-Region"),
                new MirroredParam(List.of("priority"), "Mcp-Param-Priority"),
                new MirroredParam(List.of("verbose"), "Mcp-Param-Verbose"),
                new MirroredParam(List.of("target", "zone"), "Mcp-Param-Zone")), DECLARED,
                "an annotation under items is not statically reachable");
        assertEquals(List.of(), MirroredParam.declaredIn(new JsonObject().put("type", "object")));
    }

    @Test
    void stringsMatchExactlyOnceDecoded() {
        JsonObject args = new JsonObject().put("region", "us-west1").put("query", "anything");
        accepted(args, "Mcp-Param-Region", "us-west1");
        accepted(args, "mcp-param-region", " us-west1\t");
        accepted(args, "Mcp-Param-Region", base64("us-west1"));
        accepted(new JsonObject().put("region", "Hello, 世界"), "Mcp-Param-Region", "=?base64?SGVsbG8sIOS4lueVjA==?=");
        accepted(new JsonObject().put("region", " padded "), "Mcp-Param-Region", "=?base64?IHBhZGRlZCA=?=");
        accepted(new JsonObject().put("region", "=?base64?literal?="), "Mcp-Param-Region",
                "=?base64?PT9iYXNlNjQ/bGl0ZXJhbD89?=");
        accepted(new JsonObject().put("region", ""), "Mcp-Param-Region", "");
        // without both markers a value is literal
        accepted(new JsonObject().put("region", "=?base64?SGVsbG8="), "Mcp-Param-Region", "=?base64?SGVsbG8=");
        accepted(new JsonObject().put("region", "SGVsbG8=?="), "Mcp-Param-Region", "SGVsbG8=?=");

        String mismatch = refused(args, "Mcp-Param-Region", "eu-west1");
        assertTrue(mismatch.contains("Mcp-Param-Region") && mismatch.contains("'region'")
                && mismatch.contains("eu-west1") && mismatch.contains("us-west1"), mismatch);
        refused(args, "Mcp-Param-Region", "US-WEST1");
        String missing = refused(args);
        assertTrue(missing.contains("Mcp-Param-Region") && missing.contains("'region'"), missing);
        refused(args, "Mcp-Param-Region", "us-west1", "Mcp-Param-Region", "eu-west1");
        refused(args, "Mcp-Param-Region", "us-west1", "MCP-PARAM-REGION", "us-west1");
    }

    @Test
    void brokenEncodingsAndCharactersAreRefused() {
        JsonObject hello = new JsonObject().put("region", "Hello");
        accepted(hello, "Mcp-Param-Region", "=?base64?SGVsbG8=?=");
        for (String broken : List.of("=?base64?SGVsbG8?=", "=?base64?SGVs!!!bG8=?=", "=?base64?SGVsbG9=?=",
                "=?base64?SGVs bG8=?=", "=?base64?SGVsbG8_?=", "=?base64?SGVsbG8===?=")) {
            String why = refused(hello, "Mcp-Param-Region", broken);
            assertTrue(why.contains("Mcp-Param-Region"), why);
        }
        // bytes that are not UTF-8 (a lone continuation byte; an overlong '/')
        refused(new JsonObject().put("region", "\uFFFD"), "Mcp-Param-Region", "=?base64?gA==?=");
        refused(new JsonObject().put("region", "/"), "Mcp-Param-Region", "=?base64?wK8=?=");
        // a value a header cannot carry as is
        refused(new JsonObject().put("region", "Grüße"), "Mcp-Param-Region", "Grüße");
        refused(new JsonObject().put("region", "a\u0001b"), "Mcp-Param-Region", "a\u0001b");
        String tooLong = "x".repeat(StandardHeaders.MAX_PARAM_LENGTH + 1);
        refused(new JsonObject().put("region", tooLong), "Mcp-Param-Region", tooLong);
        String longest = "x".repeat(StandardHeaders.MAX_PARAM_LENGTH);
        accepted(new JsonObject().put("region", longest), "Mcp-Param-Region", longest);
    }

    @Test
    void integersCompareAsNumbersAndBooleansAsWords() {
        accepted(new JsonObject().put("priority", 42), "Mcp-Param-Priority", "42");
        accepted(new JsonObject().put("priority", 42), "Mcp-Param-Priority", "42.0");
        accepted(new JsonObject().put("priority", -7), "Mcp-Param-Priority", "-7");
        accepted(new JsonObject().put("priority", 9007199254740991L), "Mcp-Param-Priority", "9007199254740991");
        accepted(new JsonObject().put("priority", 42), "Mcp-Param-Priority", base64("42"));
        String wrong = refused(new JsonObject().put("priority", 42), "Mcp-Param-Priority", "43");
        assertTrue(wrong.contains("'priority'") && wrong.contains("43") && wrong.contains("42"), wrong);
        refused(new JsonObject().put("priority", 42), "Mcp-Param-Priority", "4.2e1");
        refused(new JsonObject().put("priority", 42), "Mcp-Param-Priority", "forty-two");
        refused(new JsonObject().put("priority", 42), "Mcp-Param-Priority", "1" + "0".repeat(500));
        // a number in the body longer than any header may hold matches nothing, unparsed
        java.math.BigInteger huge = java.math.BigInteger.TEN.pow(5_000);
        refused(new JsonObject().put("priority", huge), "Mcp-Param-Priority", "1");
        refused(new JsonObject().put("priority", 42));

        accepted(new JsonObject().put("verbose", true), "Mcp-Param-Verbose", "true");
        accepted(new JsonObject().put("verbose", false), "Mcp-Param-Verbose", "false");
        refused(new JsonObject().put("verbose", true), "Mcp-Param-Verbose", "True");
        refused(new JsonObject().put("verbose", true), "Mcp-Param-Verbose", "1");
        refused(new JsonObject().put("verbose", false));
    }

    @Test
    void absentNullAndUnmirrorableValuesExpectNoHeader() {
        accepted(new JsonObject());
        accepted(new JsonObject().putNull("region").putNull("priority"));
        // an object or a list cannot be mirrored: the tool's own checks judge it
        accepted(new JsonObject().put("region", new JsonObject()).put("verbose", new JsonArray()));
        String orphan = refused(new JsonObject(), "Mcp-Param-Region", "us-west1");
        assertTrue(orphan.contains("Mcp-Param-Region") && orphan.contains("'region'"), orphan);
        refused(new JsonObject().putNull("region"), "Mcp-Param-Region", "us-west1");
        refused(new JsonObject().put("region", new JsonObject()), "Mcp-Param-Region", "{}");
        // headers the tool does not declare are ignored
        accepted(new JsonObject().put("query", "x"), "Mcp-Param-Query", "y", "Mcp-Param-Other", "z");
    }

    @Test
    void nestedArgumentsAreReadAtTheirPath() {
        JsonObject args = new JsonObject().put("target", new JsonObject().put("zone", "b"));
        accepted(args, "Mcp-Param-Zone", "b");
        String wrong = refused(args, "Mcp-Param-Zone", "c");
        assertTrue(wrong.contains("'target.zone'"), wrong);
        refused(args);
        accepted(new JsonObject().put("target", "not an object"));
        assertNull(new MirroredParam(List.of("target", "zone"), "Mcp-Param-Zone").valueIn(new JsonObject().put("target", 1)));
    }

    @Test
    void mcpNameTakesTheSameStrictEncoding() {
        JsonObject params = new JsonObject().put("name", "Hello");
        StandardHeaders.check(headers("MCP-Protocol-Version", "2026-07-28", "Mcp-Method", "tools/call",
                "Mcp-Name", "=?base64?SGVsbG8=?="), "tools/call", params, "2026-07-28");
        StatelessError e = assertThrows(StatelessError.class, () -> StandardHeaders.check(headers(
                "MCP-Protocol-Version", "2026-07-28", "Mcp-Method", "tools/call", "Mcp-Name", "=?base64?SGVsbG8?="),
                "tools/call", params, "2026-07-28"));
        assertEquals(-32020, e.code());
    }

    /**
     * A standard header with a character a header value cannot carry is refused, even when the body
     * holds the same text: the HTTP server reads such bytes as ISO-8859-1, so a raw {@code caf\xE9}
     * would "match" a body's {@code café} while a gateway reading UTF-8 sees something else. A name
     * outside visible ASCII travels Base64-encoded.
     */
    @Test
    void aStandardHeaderOutsideVisibleAsciiIsRefused() {
        JsonObject params = new JsonObject().put("name", "caf\u00e9");
        for (String[] sent : List.of(
                new String[] {"MCP-Protocol-Version", "2026-07-28", "Mcp-Method", "tools/call", "Mcp-Name", "caf\u00e9"},
                new String[] {"MCP-Protocol-Version", "2026-07-28", "Mcp-Method", "tools/call", "Mcp-Name", "caf\u0001"})) {
            StatelessError e = assertThrows(StatelessError.class, () -> StandardHeaders.check(headers(sent),
                    "tools/call", params, "2026-07-28"), String.join(" ", sent));
            assertEquals(400, e.httpStatus());
            assertEquals(-32020, e.code());
            assertTrue(e.getMessage().contains("Mcp-Name header contains characters a header value cannot carry"),
                    e.getMessage());
        }
        StatelessError method = assertThrows(StatelessError.class, () -> StandardHeaders.check(headers(
                "MCP-Protocol-Version", "2026-07-28", "Mcp-Method", "tools/c\u00e0ll"), "tools/c\u00e0ll",
                new JsonObject(), "2026-07-28"));
        assertTrue(method.getMessage().contains("Mcp-Method header contains characters"), method.getMessage());
        StandardHeaders.check(headers("MCP-Protocol-Version", "2026-07-28", "Mcp-Method", "tools/call",
                "Mcp-Name", base64("caf\u00e9")), "tools/call", params, "2026-07-28");
        // a control character is refused where trimming would have removed it too
        refused(new JsonObject().put("region", "us-west1"), "Mcp-Param-Region", "us-west1\u0001");
    }

    /** A routing header sent twice is refused: an intermediary may route on one copy and this server check the other. */
    @Test
    void aStandardHeaderSentTwiceIsRefused() {
        JsonObject params = new JsonObject().put("name", "execute");
        for (String[] twice : List.of(
                new String[] {"MCP-Protocol-Version", "2026-07-28", "Mcp-Method", "tools/call", "Mcp-Method", "tools/list",
                        "Mcp-Name", "execute"},
                new String[] {"MCP-Protocol-Version", "2026-07-28", "Mcp-Method", "tools/call", "Mcp-Name", "execute",
                        "mcp-name", "search"},
                new String[] {"MCP-Protocol-Version", "2026-07-28", "MCP-Protocol-Version", "2026-07-28",
                        "Mcp-Method", "tools/call", "Mcp-Name", "execute"})) {
            StatelessError e = assertThrows(StatelessError.class, () -> StandardHeaders.check(headers(twice),
                    "tools/call", params, "2026-07-28"), String.join(" ", twice));
            assertEquals(-32020, e.code());
            assertTrue(e.getMessage().contains("sent more than once"), e.getMessage());
        }
        StandardHeaders.check(headers("MCP-Protocol-Version", "2026-07-28", "Mcp-Method", "tools/call",
                "Mcp-Name", "execute"), "tools/call", params, "2026-07-28");
    }
}

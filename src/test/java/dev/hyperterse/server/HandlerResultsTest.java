package dev.hyperterse.server;

import dev.hyperterse.testing.McpSdk;
import dev.hyperterse.testing.RawHttp;
import dev.hyperterse.testing.RunningServer;
import io.modelcontextprotocol.client.McpSyncClient;
import io.modelcontextprotocol.spec.McpSchema;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Base64;
import java.util.List;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Handlers that answer with content instead of rows, seen by the MCP Java SDK client: images,
 * audio, embedded blobs, resource links, text and mixtures of them arrive as their content types,
 * checked on the way out; {@code output: content} makes plain values text; rows stay rows for
 * every tool that returns none of these, byte for byte as before.
 */
class HandlerResultsTest {
    /** The bytes of a tiny PNG header and then some: what the chart handler draws. */
    static final byte[] PNG = {(byte) 0x89, 'P', 'N', 'G', 13, 10, 26, 10, 0, 1, 2, (byte) 255};

    @TempDir
    static Path scratch;
    static RunningServer server;
    static McpSyncClient client;

    static void write(Path dir, String file, String text) throws Exception {
        Path path = dir.resolve(file);
        Files.createDirectories(path.getParent());
        Files.writeString(path, text);
    }

    static void handler(Path dir, String tool, String config, String code) throws Exception {
        write(dir, "app/tools/" + tool + "/config.terse", "description: 'A handler answering with content: " + tool
                + "'\n" + config);
        write(dir, "app/tools/" + tool + "/handler.ts", code);
    }

    @BeforeAll
    static void start() throws Exception {
        Path dir = scratch.resolve("project");
        write(dir, ".hyperterse", "name: handler-results\ntools:\n  exposure: both\n");
        handler(dir, "chart", "", "export default () => Image(new Uint8Array(["
                + "0x89, 0x50, 0x4e, 0x47, 13, 10, 26, 10, 0, 1, 2, 255]), 'image/png');\n");
        handler(dir, "clip", "", "export default () => Audio('UklGRg==', 'audio/wav');\n");
        handler(dir, "report", "", "export default () => BlobResource(new TextEncoder().encode('hello, file'),"
                + " 'text/plain', 'report.txt');\n");
        handler(dir, "link", "", "export default () => ResourceLink('file:///exports/orders.csv',"
                + " { name: 'orders.csv', mimeType: 'text/csv', size: 12, description: 'All orders' });\n");
        handler(dir, "mixed", "", "export default async () => [Text('first'), 'second', { k: 1 },"
                + " Image(new Uint8Array([1, 2, 3]).buffer, 'image/gif')];\n");
        handler(dir, "greeting", "output: content\n", "export default () => 'hello';\n");
        handler(dir, "object-text", "output: content\n", "export default () => ({ a: 1 });\n");
        handler(dir, "nothing", "output: content\n", "export default () => null;\n");
        handler(dir, "plain-string", "", "export default () => 'hello';\n");
        handler(dir, "posing", "", "export default () => ({ type: 'image', data: 'AAAA', mimeType: 'image/png' });\n");
        handler(dir, "bad-mime", "", "export default () => Image('AAAA', 'text/plain');\n");
        handler(dir, "bad-base64", "", "export default () => Audio('no base64!', 'audio/wav');\n");
        handler(dir, "bad-uri", "", "export default () => ResourceLink('no scheme here');\n");
        handler(dir, "big", "result_max_bytes: 1kb\n", "export default () => [Text('small'),"
                + " Image(new Uint8Array(2000), 'image/png'), Text('after')];\n");
        handler(dir, "declared-rows", "output: {type: object, properties: {a: {type: int}}}\n",
                "export default () => Text('not rows');\n");
        handler(dir, "mapped", "", "export default () => Image('AAAA', 'image/png');\n");
        write(dir, "app/tools/mapped/output.ts", "export default ({ results }: any) =>"
                + " [Text('the mapper saw ' + results[0].type), Image(results[0].data, results[0].mimeType)];\n");
        server = RunningServer.start(dir);
        client = McpSdk.connect(server.baseUrl(), Duration.ofSeconds(30));
    }

    @AfterAll
    static void stop() throws Exception {
        McpSdk.close(client);
        if (server != null) {
            server.close();
        }
    }

    private static McpSchema.CallToolResult call(String tool) {
        return McpSdk.call(client, tool, Map.of());
    }

    private static String errorText(String tool) {
        McpSchema.CallToolResult result = client.callTool(new McpSchema.CallToolRequest(tool, Map.of()));
        assertEquals(Boolean.TRUE, result.isError(), result::toString);
        return ((McpSchema.TextContent) result.content().get(0)).text();
    }

    @Test
    void anImageArrivesAsImageContentWithTheHandlersBytes() {
        McpSchema.CallToolResult result = call("chart");
        assertEquals(1, result.content().size(), result::toString);
        McpSchema.ImageContent image = assertInstanceOf(McpSchema.ImageContent.class, result.content().get(0));
        assertEquals("image/png", image.mimeType());
        assertEquals(Base64.getEncoder().encodeToString(PNG), image.data());
        assertNull(result.structuredContent(), "content is no rows: no structuredContent");
    }

    @Test
    void audioBlobsAndLinksArriveAsTheirOwnTypes() {
        McpSchema.AudioContent audio = assertInstanceOf(McpSchema.AudioContent.class, call("clip").content().get(0));
        assertEquals("audio/wav", audio.mimeType());
        assertEquals("UklGRg==", audio.data());

        McpSchema.EmbeddedResource embedded = assertInstanceOf(McpSchema.EmbeddedResource.class,
                call("report").content().get(0));
        McpSchema.BlobResourceContents blob = assertInstanceOf(McpSchema.BlobResourceContents.class,
                embedded.resource());
        assertEquals("attachment:report.txt", blob.uri());
        assertEquals("text/plain", blob.mimeType());
        assertEquals("hello, file", new String(Base64.getDecoder().decode(blob.blob()), StandardCharsets.UTF_8));

        McpSchema.ResourceLink link = assertInstanceOf(McpSchema.ResourceLink.class, call("link").content().get(0));
        assertEquals("file:///exports/orders.csv", link.uri());
        assertEquals("orders.csv", link.name());
        assertEquals("text/csv", link.mimeType());
        assertEquals(12L, link.size());
        assertEquals("All orders", link.description());
    }

    @Test
    void aMixtureKeepsItsOrderWithPlainValuesAsText() {
        List<McpSchema.Content> content = call("mixed").content();
        assertEquals(4, content.size(), content::toString);
        assertEquals("first", ((McpSchema.TextContent) content.get(0)).text());
        assertEquals("second", ((McpSchema.TextContent) content.get(1)).text());
        assertEquals("{\"k\":1}", ((McpSchema.TextContent) content.get(2)).text());
        McpSchema.ImageContent image = assertInstanceOf(McpSchema.ImageContent.class, content.get(3));
        assertEquals("AQID", image.data());
        assertEquals("image/gif", image.mimeType());
    }

    @Test
    void outputContentMakesPlainValuesText() {
        assertEquals("hello", ((McpSchema.TextContent) call("greeting").content().get(0)).text());
        assertEquals("{\"a\":1}", ((McpSchema.TextContent) call("object-text").content().get(0)).text());
        assertEquals(List.of(), call("nothing").content());
    }

    @Test
    void withoutContentResultsStayRowsByteForByte() throws Exception {
        RawHttp http = new RawHttp(server.baseUrl());
        JsonObject plain = http.call("plain-string", new JsonObject()).getJsonObject("result");
        assertEquals(new JsonArray().add(new JsonObject().put("type", "text").put("text", "[{\"value\":\"hello\"}]")),
                plain.getJsonArray("content"));
        // an object shaped like content, not made by a helper (a fetched body, say), is a row
        JsonObject posing = http.call("posing", new JsonObject()).getJsonObject("result");
        assertEquals("[{\"type\":\"image\",\"data\":\"AAAA\",\"mimeType\":\"image/png\"}]",
                posing.getJsonArray("content").getJsonObject(0).getString("text"));
    }

    @Test
    void contentThatIsNotWhatItClaimsFailsTheCallSayingWhy() {
        assertTrue(errorText("bad-mime").contains("Image: mimeType must be an image/… type, not \\\"text/plain\\\""),
                errorText("bad-mime"));
        assertTrue(errorText("bad-base64").contains("content[0].data is not base64"), errorText("bad-base64"));
        assertTrue(errorText("bad-uri").contains("content[0].uri 'no scheme here' is not an absolute URI"),
                errorText("bad-uri"));
        assertTrue(errorText("declared-rows").contains("declare output: content instead"), errorText("declared-rows"));
    }

    @Test
    void contentIsHeldToTheResultSizeLimitWithANote() {
        List<McpSchema.Content> content = call("big").content();
        assertEquals(2, content.size(), content::toString);
        assertEquals("small", ((McpSchema.TextContent) content.get(0)).text());
        assertTrue(((McpSchema.TextContent) content.get(1)).text().startsWith("Note: only the first 1 content items"
                + " are shown: the result was cut at the size limit of 1kb"), content::toString);
    }

    @Test
    void anOutputMapperSeesTheBlocksAndMayAnswerWithContentAgain() {
        List<McpSchema.Content> content = call("mapped").content();
        assertEquals("the mapper saw image", ((McpSchema.TextContent) content.get(0)).text());
        assertEquals("AAAA", ((McpSchema.ImageContent) content.get(1)).data());
    }

    @Test
    void searchSaysWhichToolsAnswerWithContent() throws Exception {
        RawHttp http = new RawHttp(server.baseUrl());
        JsonObject result = new JsonObject(http.mcp(RawHttp.request(1, "tools/call", new JsonObject().put("name", "search")
                .put("arguments", new JsonObject().put("query", "greeting")))).body()).getJsonObject("result");
        JsonArray hits = new JsonArray(result.getJsonArray("content").getJsonObject(0).getString("text"));
        JsonObject greeting = null;
        for (Object hit : hits) {
            if ("greeting".equals(((JsonObject) hit).getString("name"))) {
                greeting = (JsonObject) hit;
            }
        }
        assertEquals("content", greeting.getString("returns"), hits.encode());
    }
}

package dev.hyperterse.server;

import dev.hyperterse.testing.RawHttp;
import dev.hyperterse.testing.RunningServer;
import dev.hyperterse.testing.TestServer;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import java.nio.file.Path;

import static org.junit.jupiter.api.Assertions.assertEquals;

/**
 * conformance/handlers: the conformance suite's content scenarios written as a user writes tools
 * (TypeScript handlers, no fixtures), answering with exactly the content the scenarios check.
 */
class ConformanceHandlersTest {
    private static final String PNG = "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAIAAACQd1PeAAAADElEQVR4nGP4z8AAAAMBAQDJ/pLvAAAAAElFTkSuQmCC";

    @RegisterExtension
    static final TestServer server = TestServer.of(scratch -> RunningServer.start(Path.of("conformance/handlers")));
    static final RawHttp http = server.http();

    private static JsonArray content(String tool) throws Exception {
        JsonObject answer = new JsonObject(http.mcp(RawHttp.request(1, "tools/call", new JsonObject().put("name", tool)
                .put("arguments", new JsonObject()))).body());
        return answer.getJsonObject("result").getJsonArray("content");
    }

    private static JsonObject image() {
        return new JsonObject().put("type", "image").put("data", PNG).put("mimeType", "image/png");
    }

    private static JsonObject resource(String uri, String mimeType, String text) {
        return new JsonObject().put("type", "resource").put("resource", new JsonObject().put("uri", uri)
                .put("mimeType", mimeType).put("text", text));
    }

    @Test
    void theContentScenariosToolsAnswerAsTheScenariosExpect() throws Exception {
        assertEquals(new JsonArray().add(new JsonObject().put("type", "text")
                .put("text", "This is a simple text response for testing.")), content("test_simple_text"));
        assertEquals(new JsonArray().add(image()), content("test_image_content"));
        assertEquals("audio/wav", content("test_audio_content").getJsonObject(0).getString("mimeType"));
        assertEquals(new JsonArray().add(resource("test://embedded-resource", "text/plain",
                "This is an embedded resource content.")), content("test_embedded_resource"));
        assertEquals(new JsonArray().add(new JsonObject().put("type", "text").put("text", "Multiple content types test:"))
                .add(image()).add(resource("test://mixed-content-resource", "application/json",
                        "{\"test\":\"data\",\"value\":123}")), content("test_multiple_content_types"));
    }

    @Test
    void aNamedQuestionIsTheInputRequestKeyOfA20260728Round() throws Exception {
        JsonObject first = McpStatelessTest.call(5, "test_input_required_result_elicitation", new JsonObject(),
                new JsonObject().put("elicitation", new JsonObject()));
        JsonObject asked = new JsonObject(http.mcp(first, McpStatelessTest.headers(first)).body()).getJsonObject("result");
        assertEquals("elicitation/create", asked.getJsonObject("inputRequests").getJsonObject("user_name")
                .getString("method"), asked.encode());
        JsonObject again = first.copy();
        again.getJsonObject("params").put("inputResponses", new JsonObject().put("user_name", new JsonObject()
                .put("action", "accept").put("content", new JsonObject().put("name", "Ada"))))
                .put("requestState", asked.getString("requestState"));
        JsonObject done = new JsonObject(http.mcp(again, McpStatelessTest.headers(again)).body()).getJsonObject("result");
        assertEquals("Hello, Ada!", done.getJsonArray("content").getJsonObject(0).getString("text"), done.encode());
    }
}

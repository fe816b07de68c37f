package dev.hyperterse.mcp;

import io.vertx.core.Future;
import io.vertx.core.Promise;
import io.vertx.core.Vertx;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;

import java.util.List;

/**
 * The tools the official MCP conformance suite ({@code @modelcontextprotocol/conformance}) calls
 * on a server, so the suite can exercise this transport: text, image, audio and embedded-resource
 * content, a tool error, progress,
 * logging, SSE polling (a stream closed mid-call) and JSON Schema 2020-12 keywords. Served only
 * with {@code start --conformance-fixtures}; they touch no project and no database.
 */
final class ConformanceFixtures {
    static final String SIMPLE_TEXT = "test_simple_text";
    static final String ERROR_HANDLING = "test_error_handling";
    static final String WITH_PROGRESS = "test_tool_with_progress";
    static final String WITH_LOGGING = "test_tool_with_logging";
    static final String RECONNECTION = "test_reconnection";
    static final String JSON_SCHEMA_2020_12 = "json_schema_2020_12_tool";
    static final String IMAGE = "test_image_content";
    static final String AUDIO = "test_audio_content";
    static final String EMBEDDED_RESOURCE = "test_embedded_resource";
    static final String MIXED_CONTENT = "test_multiple_content_types";
    static final List<String> NAMES = List.of(SIMPLE_TEXT, ERROR_HANDLING, WITH_PROGRESS, WITH_LOGGING, RECONNECTION,
            JSON_SCHEMA_2020_12, IMAGE, AUDIO, EMBEDDED_RESOURCE, MIXED_CONTENT);
    /** A 1x1 red PNG. */
    private static final String PNG = "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAIAAACQd1PeAAAADElEQVR4nGP4z8AAAAMBAQDJ/pLvAAAAAElFTkSuQmCC";
    /** Eight silent samples of 16-bit mono WAV. */
    private static final String WAV = "UklGRjQAAABXQVZFZm10IBAAAAABAAEAQB8AAIA+AAACABAAZGF0YRAAAAAAAAAAAAAAAAAAAAAAAAAA";

    /** The pause the suite's scenarios describe between two notifications. */
    private static final long STEP_MILLIS = 50;

    private final Vertx vertx;

    ConformanceFixtures(Vertx vertx) {
        this.vertx = vertx;
    }

    boolean has(String name) {
        return NAMES.contains(name);
    }

    JsonArray definitions() {
        return new JsonArray()
                .add(noArguments(SIMPLE_TEXT, "Returns a simple text response (conformance fixture)."))
                .add(noArguments(ERROR_HANDLING, "Always fails with a tool error (conformance fixture)."))
                .add(noArguments(WITH_PROGRESS,
                        "Reports progress 0, 50 and 100 of 100 when given a progressToken (conformance fixture)."))
                .add(noArguments(WITH_LOGGING, "Sends three info log messages while it runs (conformance fixture)."))
                .add(noArguments(RECONNECTION,
                        "Closes its SSE connection before answering; the client resumes with Last-Event-ID "
                                + "(conformance fixture)."))
                .add(new JsonObject()
                        .put("name", JSON_SCHEMA_2020_12)
                        .put("description", "Tool with JSON Schema 2020-12 features (conformance fixture).")
                        .put("inputSchema", new JsonObject()
                                .put("$schema", "https://json-schema.org/draft/2020-12/schema")
                                .put("type", "object")
                                .put("$defs", new JsonObject().put("address", new JsonObject()
                                        .put("$anchor", "addressDef")
                                        .put("type", "object")
                                        .put("properties", new JsonObject()
                                                .put("street", new JsonObject().put("type", "string"))
                                                .put("city", new JsonObject().put("type", "string")))))
                                .put("properties", new JsonObject()
                                        .put("name", new JsonObject().put("type", "string"))
                                        .put("address", new JsonObject().put("$ref", "#/$defs/address"))
                                        .put("contactMethod", new JsonObject().put("type", "string")
                                                .put("enum", new JsonArray().add("phone").add("email")))
                                        .put("phone", new JsonObject().put("type", "string"))
                                        .put("email", new JsonObject().put("type", "string")))
                                .put("allOf", new JsonArray().add(new JsonObject().put("anyOf", new JsonArray()
                                        .add(new JsonObject().put("required", new JsonArray().add("phone")))
                                        .add(new JsonObject().put("required", new JsonArray().add("email"))))))
                                .put("if", new JsonObject()
                                        .put("properties", new JsonObject().put("contactMethod",
                                                new JsonObject().put("const", "phone")))
                                        .put("required", new JsonArray().add("contactMethod")))
                                .put("then", new JsonObject().put("required", new JsonArray().add("phone")))
                                .put("else", new JsonObject().put("required", new JsonArray().add("email")))
                                .put("additionalProperties", false)))
                .add(noArguments(IMAGE, "Returns a 1x1 PNG image (conformance fixture)."))
                .add(noArguments(AUDIO, "Returns a short WAV clip (conformance fixture)."))
                .add(noArguments(EMBEDDED_RESOURCE, "Returns an embedded text resource (conformance fixture)."))
                .add(noArguments(MIXED_CONTENT, "Returns text, an image and a resource together (conformance fixture)."));
    }

    Future<JsonObject> call(String name, JsonObject arguments, CallScope scope) {
        switch (name) {
            case SIMPLE_TEXT:
                return Future.succeededFuture(MetaTools.textResult("This is a simple text response for testing."));
            case IMAGE:
                return Future.succeededFuture(content(image()));
            case AUDIO:
                return Future.succeededFuture(content(new JsonObject().put("type", "audio").put("data", WAV)
                        .put("mimeType", "audio/wav")));
            case EMBEDDED_RESOURCE:
                return Future.succeededFuture(content(resource("test://embedded-resource", "text/plain",
                        "This is an embedded resource content.")));
            case MIXED_CONTENT:
                return Future.succeededFuture(content(
                        new JsonObject().put("type", "text").put("text", "Multiple content types test:"), image(),
                        resource("test://mixed-content-resource", "application/json", "{\"test\":\"data\",\"value\":123}")));
            case ERROR_HANDLING:
                return Future.succeededFuture(MetaTools.textResult(
                        "This tool intentionally returns an error for testing").put("isError", true));
            case WITH_PROGRESS:
                scope.progress(0, 100.0, null);
                return pause(scope)
                        .compose(x -> {
                            scope.progress(50, 100.0, null);
                            return pause(scope);
                        })
                        .map(x -> {
                            scope.progress(100, 100.0, null);
                            return MetaTools.textResult("Progress test completed");
                        });
            case WITH_LOGGING:
                scope.log(LogLevel.INFO, "Tool execution started");
                return pause(scope)
                        .compose(x -> {
                            scope.log(LogLevel.INFO, "Tool processing data");
                            return pause(scope);
                        })
                        .map(x -> {
                            scope.log(LogLevel.INFO, "Tool execution completed");
                            return MetaTools.textResult("Logging test completed");
                        });
            case RECONNECTION:
                scope.closeStream();
                return pause(scope).map(x -> MetaTools.textResult("Reconnection test completed"));
            case JSON_SCHEMA_2020_12:
                return Future.succeededFuture(MetaTools.textResult("Received: " + arguments.encode()));
            default:
                throw new McpException(JsonRpc.INVALID_PARAMS, "Unknown tool: " + name);
        }
    }

    /** Waits one step, or fails at once when the call is cancelled. */
    private Future<Void> pause(CallScope scope) {
        Promise<Void> done = Promise.promise();
        long timer = vertx.setTimer(STEP_MILLIS, id -> done.tryComplete());
        scope.cancellation().onSuccess(x -> {
            vertx.cancelTimer(timer);
            done.tryFail(new McpException(JsonRpc.INTERNAL_ERROR, "cancelled"));
        });
        return done.future();
    }

    private static JsonObject image() {
        return new JsonObject().put("type", "image").put("data", PNG).put("mimeType", "image/png");
    }

    private static JsonObject resource(String uri, String mimeType, String text) {
        return new JsonObject().put("type", "resource").put("resource", new JsonObject()
                .put("uri", uri).put("mimeType", mimeType).put("text", text));
    }

    private static JsonObject content(JsonObject... blocks) {
        JsonArray all = new JsonArray();
        for (JsonObject block : blocks) {
            all.add(block);
        }
        return new JsonObject().put("content", all);
    }

    private static JsonObject noArguments(String name, String description) {
        return new JsonObject()
                .put("name", name)
                .put("description", description)
                .put("inputSchema", new JsonObject().put("type", "object").put("additionalProperties", false));
    }
}

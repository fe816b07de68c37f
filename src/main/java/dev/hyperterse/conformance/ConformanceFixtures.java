package dev.hyperterse.conformance;

import dev.hyperterse.mcp.CallScope;
import dev.hyperterse.mcp.JsonRpc;
import dev.hyperterse.mcp.LogLevel;
import dev.hyperterse.mcp.McpException;
import dev.hyperterse.mcp.McpExtensions;

import io.vertx.core.Future;
import io.vertx.core.Promise;
import io.vertx.core.Vertx;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;

import java.util.function.Function;

/**
 * The tools the official MCP conformance suite ({@code @modelcontextprotocol/conformance}) calls
 * on a server, so the suite can exercise this transport: text, image, audio and embedded-resource
 * content, a tool error, progress, logging, SSE polling (a stream closed mid-call), JSON Schema
 * 2020-12 keywords, and requests to the session's client (sampling, elicitation with defaults
 * (SEP-1034) and with each enum form (SEP-1330)); and the prompts ({@code test_simple_prompt}, …)
 * and resources ({@code test://static-text}, …) it reads, registered as an extension's tools,
 * prompts and resources (both generations serve them). Served only with
 * {@code start --conformance-fixtures}; they touch no project and no database.
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
    static final String SAMPLING = "test_sampling";
    static final String ELICITATION = "test_elicitation";
    static final String ELICITATION_DEFAULTS = "test_elicitation_sep1034_defaults";
    static final String ELICITATION_ENUMS = "test_elicitation_sep1330_enums";
    /** A 1x1 red PNG. */
    private static final String PNG = "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAIAAACQd1PeAAAADElEQVR4nGP4z8AAAAMBAQDJ/pLvAAAAAElFTkSuQmCC";
    /** Eight silent samples of 16-bit mono WAV. */
    private static final String WAV = "UklGRjQAAABXQVZFZm10IBAAAAABAAEAQB8AAIA+AAACABAAZGF0YRAAAAAAAAAAAAAAAAAAAAAAAAAA";

    static final String SIMPLE_PROMPT = "test_simple_prompt";
    static final String PROMPT_WITH_ARGUMENTS = "test_prompt_with_arguments";
    static final String PROMPT_WITH_RESOURCE = "test_prompt_with_embedded_resource";
    static final String PROMPT_WITH_IMAGE = "test_prompt_with_image";
    static final String STATIC_TEXT = "test://static-text";
    static final String STATIC_BINARY = "test://static-binary";
    static final String WATCHED = "test://watched-resource";
    static final String TEMPLATE = "test://template/{id}/data";
    private static final java.util.regex.Pattern TEMPLATE_MATCH = java.util.regex.Pattern.compile("test://template/([^/]+)/data");

    /** The pause the suite's scenarios describe between two notifications. */
    private static final long STEP_MILLIS = 50;

    private final Vertx vertx;

    ConformanceFixtures(Vertx vertx) {
        this.vertx = vertx;
    }

    /** Adds the tools, prompts, resources and the template (which completes to nothing). */
    void register(McpExtensions.Builder registry) {
        for (Object tool : definitions()) {
            String name = ((JsonObject) tool).getString("name");
            registry.tool((JsonObject) tool, (arguments, scope) -> call(name, arguments, scope));
        }
        for (Object prompt : promptDefinitions()) {
            String name = ((JsonObject) prompt).getString("name");
            registry.prompt((JsonObject) prompt, arguments -> Future.succeededFuture(getPrompt(name, arguments)));
        }
        for (Object resource : resourceDefinitions()) {
            registry.resource((JsonObject) resource, uri -> Future.succeededFuture(readResource(uri)));
        }
        registry.resourceTemplate(templateDefinition(), TEMPLATE_MATCH, uri -> Future.succeededFuture(readResource(uri)));
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
                .add(noArguments(MIXED_CONTENT, "Returns text, an image and a resource together (conformance fixture)."))
                .add(oneString(SAMPLING, "Asks the client's model (sampling/createMessage) to answer a prompt and"
                        + " returns the answer (conformance fixture).", "prompt", "What the client's model is asked"))
                .add(oneString(ELICITATION, "Asks the user (elicitation/create) for a username and an email and"
                        + " returns the answer (conformance fixture).", "message", "What the user is shown"))
                .add(noArguments(ELICITATION_DEFAULTS, "Asks the user to fill a form whose string, integer, number,"
                        + " enum and boolean fields have defaults (SEP-1034; conformance fixture)."))
                .add(noArguments(ELICITATION_ENUMS, "Asks the user to choose in each enum form: untitled and titled,"
                        + " single and multiple, and legacy enumNames (SEP-1330; conformance fixture)."));
    }

    Future<JsonObject> call(String name, JsonObject arguments, CallScope scope) {
        switch (name) {
            case SIMPLE_TEXT:
                return Future.succeededFuture(textResult("This is a simple text response for testing."));
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
                return Future.succeededFuture(textResult(
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
                            return textResult("Progress test completed");
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
                            return textResult("Logging test completed");
                        });
            case RECONNECTION:
                scope.closeStream();
                return pause(scope).map(x -> textResult("Reconnection test completed"));
            case JSON_SCHEMA_2020_12:
                return Future.succeededFuture(textResult("Received: " + arguments.encode()));
            case SAMPLING:
                return answered(scope.requestClient("sampling/createMessage", new JsonObject()
                        .put("messages", new JsonArray().add(user(textContent(string(name, arguments, "prompt")))))
                        .put("maxTokens", 100)), result -> "LLM response: " + sampledText(result));
            case ELICITATION:
                return answered(scope.requestClient("elicitation/create", new JsonObject()
                        .put("message", string(name, arguments, "message"))
                        .put("requestedSchema", form(new JsonObject()
                                .put("username", field("string", "User's response"))
                                .put("email", field("string", "User's email address")), "username", "email"))),
                        result -> "User response: " + elicited(result));
            case ELICITATION_DEFAULTS:
                return answered(scope.requestClient("elicitation/create", new JsonObject()
                        .put("message", "Please review your profile; every field has a default.")
                        .put("requestedSchema", form(new JsonObject()
                                .put("name", field("string", "Your name").put("default", "John Doe"))
                                .put("age", field("integer", "Your age").put("default", 30))
                                .put("score", field("number", "Your score").put("default", 95.5))
                                .put("status", field("string", "Your status").put("enum", strings("active", "inactive",
                                        "pending")).put("default", "active"))
                                .put("verified", field("boolean", "Whether you are verified").put("default", true))))),
                        result -> "Elicitation completed: " + elicited(result));
            case ELICITATION_ENUMS:
                return answered(scope.requestClient("elicitation/create", new JsonObject()
                        .put("message", "Please choose an option of each kind.")
                        .put("requestedSchema", form(new JsonObject()
                                .put("untitledSingle", field("string", "One of three options")
                                        .put("enum", strings("option1", "option2", "option3")))
                                .put("titledSingle", field("string", "One of three titled options")
                                        .put("oneOf", titled("value1", "First Option", "value2", "Second Option",
                                                "value3", "Third Option")))
                                .put("legacyEnum", field("string", "One of three options, titled the older way")
                                        .put("enum", strings("opt1", "opt2", "opt3"))
                                        .put("enumNames", strings("Option One", "Option Two", "Option Three")))
                                .put("untitledMulti", field("array", "Any of three options").put("items",
                                        new JsonObject().put("type", "string")
                                                .put("enum", strings("option1", "option2", "option3"))))
                                .put("titledMulti", field("array", "Any of three titled options").put("items",
                                        new JsonObject().put("anyOf", titled("value1", "First Choice", "value2",
                                                "Second Choice", "value3", "Third Choice"))))))),
                        result -> "Elicitation completed: " + elicited(result));
            default:
                throw new McpException(JsonRpc.INVALID_PARAMS, "Unknown tool: " + name);
        }
    }

    // ---- what the tools that ask the client send and report ----

    /**
     * The tool's text, made of the client's result; a request the client could not be sent, or
     * answered with an error or not at all, is a tool error saying why.
     */
    private static Future<JsonObject> answered(Future<JsonObject> asked, Function<JsonObject, String> text) {
        return asked.transform(ar -> {
            if (ar.succeeded()) {
                return Future.succeededFuture(textResult(text.apply(ar.result())));
            }
            if (ar.cause() instanceof McpException || ar.cause() instanceof CallScope.NoAnswer) {
                return Future.succeededFuture(textResult(ar.cause().getMessage()).put("isError", true));
            }
            return Future.failedFuture(ar.cause());
        });
    }

    private static String string(String tool, JsonObject arguments, String name) {
        Object value = arguments.getValue(name);
        if (!(value instanceof String)) {
            throw new McpException(JsonRpc.INVALID_PARAMS, tool + ": argument '" + name + "' must be a string");
        }
        return (String) value;
    }

    /** The text a CreateMessageResult carries: its one content block's, or its text blocks' together. */
    private static String sampledText(JsonObject result) {
        Object content = result.getValue("content");
        StringBuilder text = new StringBuilder();
        for (Object block : content instanceof JsonArray ? ((JsonArray) content) : new JsonArray().add(content)) {
            if (block instanceof JsonObject && ((JsonObject) block).getValue("text") instanceof String) {
                text.append(((JsonObject) block).getString("text"));
            }
        }
        return text.length() == 0 ? "(no text)" : text.toString();
    }

    /** An ElicitResult as {@code action=…, content={…}} (a decline or cancel carries no content). */
    private static String elicited(JsonObject result) {
        Object content = result.getValue("content");
        return "action=" + result.getValue("action")
                + (content instanceof JsonObject ? ", content=" + ((JsonObject) content).encode() : "");
    }

    private static JsonObject form(JsonObject properties, String... required) {
        JsonObject schema = new JsonObject().put("type", "object").put("properties", properties);
        return required.length == 0 ? schema : schema.put("required", strings(required));
    }

    private static JsonObject field(String type, String description) {
        return new JsonObject().put("type", type).put("description", description);
    }

    private static JsonArray strings(String... values) {
        JsonArray all = new JsonArray();
        for (String v : values) {
            all.add(v);
        }
        return all;
    }

    /** {@code const}/{@code title} pairs, as titled enums list their options. */
    private static JsonArray titled(String... constAndTitle) {
        JsonArray options = new JsonArray();
        for (int i = 0; i < constAndTitle.length; i += 2) {
            options.add(new JsonObject().put("const", constAndTitle[i]).put("title", constAndTitle[i + 1]));
        }
        return options;
    }

    private static JsonObject oneString(String name, String description, String argument, String argumentDescription) {
        return new JsonObject()
                .put("name", name)
                .put("description", description)
                .put("inputSchema", new JsonObject().put("type", "object")
                        .put("properties", new JsonObject().put(argument, field("string", argumentDescription)))
                        .put("required", strings(argument)));
    }

    // ---- prompts and resources the suite reads ----

    JsonArray promptDefinitions() {
        return new JsonArray()
                .add(prompt(SIMPLE_PROMPT, "A simple prompt without arguments (conformance fixture)."))
                .add(prompt(PROMPT_WITH_ARGUMENTS, "A prompt with two required arguments (conformance fixture).",
                        "arg1", "First test argument", "arg2", "Second test argument"))
                .add(prompt(PROMPT_WITH_RESOURCE, "A prompt embedding a resource (conformance fixture).",
                        "resourceUri", "URI of the resource to embed"))
                .add(prompt(PROMPT_WITH_IMAGE, "A prompt with an image (conformance fixture)."));
    }

    JsonObject getPrompt(String name, JsonObject arguments) {
        JsonArray messages = new JsonArray();
        switch (name) {
            case SIMPLE_PROMPT:
                messages.add(user(textContent("This is a simple prompt for testing.")));
                break;
            case PROMPT_WITH_ARGUMENTS:
                requireArguments(name, arguments, "arg1", "arg2");
                messages.add(user(textContent("Prompt with arguments: arg1='" + arguments.getValue("arg1")
                        + "', arg2='" + arguments.getValue("arg2") + "'")));
                break;
            case PROMPT_WITH_RESOURCE:
                requireArguments(name, arguments, "resourceUri");
                messages.add(user(new JsonObject().put("type", "resource").put("resource", new JsonObject()
                        .put("uri", String.valueOf(arguments.getValue("resourceUri"))).put("mimeType", "text/plain")
                        .put("text", "Embedded resource content for testing."))));
                messages.add(user(textContent("Please process the embedded resource above.")));
                break;
            default:
                messages.add(user(new JsonObject().put("type", "image").put("data", PNG).put("mimeType", "image/png")));
                messages.add(user(textContent("Please analyze the image above.")));
        }
        return new JsonObject().put("messages", messages);
    }

    JsonArray resourceDefinitions() {
        return new JsonArray()
                .add(resource(STATIC_TEXT, "static-text", "A static text resource (conformance fixture).", "text/plain"))
                .add(resource(STATIC_BINARY, "static-binary", "A static binary resource (conformance fixture).", "image/png"))
                .add(resource(WATCHED, "watched-resource", "A resource to subscribe to (conformance fixture).", "text/plain"));
    }

    JsonObject templateDefinition() {
        return new JsonObject().put("uriTemplate", TEMPLATE).put("name", "template-data")
                .put("description", "Data by id (conformance fixture).").put("mimeType", "application/json");
    }

    /** The one entry of {@code contents} a read of {@code uri} answers with. */
    JsonObject readResource(String uri) {
        JsonObject content = new JsonObject().put("uri", uri);
        java.util.regex.Matcher m = TEMPLATE_MATCH.matcher(uri);
        if (uri.equals(STATIC_BINARY)) {
            content.put("mimeType", "image/png").put("blob", PNG);
        } else if (m.matches()) {
            content.put("mimeType", "application/json")
                    .put("text", new JsonObject().put("id", m.group(1)).put("templateTest", true)
                            .put("data", "Data for ID: " + m.group(1)).encode());
        } else if (uri.equals(WATCHED)) {
            content.put("mimeType", "text/plain").put("text", "Watched resource content");
        } else {
            content.put("mimeType", "text/plain").put("text", "This is the content of the static text resource.");
        }
        return content;
    }

    private static void requireArguments(String prompt, JsonObject arguments, String... names) {
        for (String n : names) {
            if (!(arguments.getValue(n) instanceof String)) {
                throw new McpException(JsonRpc.INVALID_PARAMS, "prompts/get: missing required argument '" + n
                        + "' of prompt '" + prompt + "'");
            }
        }
    }

    private static JsonObject prompt(String name, String description, String... arguments) {
        JsonArray args = new JsonArray();
        for (int i = 0; i < arguments.length; i += 2) {
            args.add(new JsonObject().put("name", arguments[i]).put("description", arguments[i + 1]).put("required", true));
        }
        return new JsonObject().put("name", name).put("description", description).put("arguments", args);
    }

    private static JsonObject resource(String uri, String name, String description, String mimeType) {
        return new JsonObject().put("uri", uri).put("name", name).put("description", description).put("mimeType", mimeType);
    }

    private static JsonObject user(JsonObject content) {
        return new JsonObject().put("role", "user").put("content", content);
    }

    private static JsonObject textContent(String text) {
        return new JsonObject().put("type", "text").put("text", text);
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

    private static JsonObject textResult(String text) {
        return content(textContent(text));
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

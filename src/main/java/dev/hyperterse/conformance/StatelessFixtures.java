package dev.hyperterse.conformance;

import dev.hyperterse.mcp.CallScope;
import dev.hyperterse.mcp.InputRound;
import dev.hyperterse.mcp.LogLevel;
import dev.hyperterse.mcp.McpExtensions;
import io.vertx.core.Future;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;

import java.util.List;
import java.util.function.IntSupplier;

/**
 * The tools the official conformance suite calls to exercise protocol 2026-07-28: multi-round
 * input requests (elicitation, sampling, roots; sealed state across rounds; declared client
 * capabilities), a missing client capability, logs only on request, and a trigger for
 * tool-list-changed notifications. Registered as an extension's input-round tools and prompt, so
 * only 2026-07-28 requests reach them (the session generation cannot carry input rounds). Served
 * only with {@code start --conformance-fixtures}; they touch no project.
 */
final class StatelessFixtures {
    static final String MISSING_CAPABILITY = "test_missing_capability";
    static final String ELICITATION = "test_input_required_result_elicitation";
    static final String SAMPLING = "test_input_required_result_sampling";
    static final String LIST_ROOTS = "test_input_required_result_list_roots";
    static final String REQUEST_STATE = "test_input_required_result_request_state";
    static final String MULTIPLE_INPUTS = "test_input_required_result_multiple_inputs";
    static final String MULTI_ROUND = "test_input_required_result_multi_round";
    static final String TAMPERED_STATE = "test_input_required_result_tampered_state";
    static final String CAPABILITIES = "test_input_required_result_capabilities";
    /** A prompt whose prompts/get asks the client for input first: input rounds are not only for tools. */
    static final String INPUT_REQUIRED_PROMPT = "test_input_required_result_prompt";
    static final String STREAMING_ELICITATION = "test_streaming_elicitation";
    static final String LOGGING = "test_logging_tool";
    static final String TRIGGER_TOOL_CHANGE = "test_trigger_tool_change";
    static final List<String> NAMES = List.of(MISSING_CAPABILITY, ELICITATION, SAMPLING, LIST_ROOTS, REQUEST_STATE,
            MULTIPLE_INPUTS, MULTI_ROUND, TAMPERED_STATE, CAPABILITIES, STREAMING_ELICITATION, LOGGING,
            TRIGGER_TOOL_CHANGE);

    /** Tells the listen streams that the tool list changed; how many were told. */
    private final IntSupplier toolsListChanged;

    StatelessFixtures(IntSupplier toolsListChanged) {
        this.toolsListChanged = toolsListChanged;
    }

    /** Adds the tools, the prompt that asks first, and the tool-list changes the trigger announces. */
    void register(McpExtensions.Builder registry) {
        for (Object tool : definitions()) {
            String name = ((JsonObject) tool).getString("name");
            registry.roundTool((JsonObject) tool, (round, scope) -> call(name, round, scope));
        }
        registry.roundPrompt(INPUT_REQUIRED_PROMPT, this::inputRequiredPrompt);
        registry.announcesToolListChanges();
    }

    JsonArray definitions() {
        JsonArray all = new JsonArray();
        for (String name : NAMES) {
            all.add(new JsonObject().put("name", name)
                    .put("description", "Protocol 2026-07-28 conformance fixture (" + name.substring(5).replace('_', ' ') + ").")
                    .put("inputSchema", new JsonObject().put("type", "object").put("properties", new JsonObject())));
        }
        return all;
    }

    Future<JsonObject> call(String name, InputRound round, CallScope scope) {
        String purpose = "tools/call:" + name;
        switch (name) {
            case MISSING_CAPABILITY:
                round.require("sampling");
                return done("The client declared sampling.");
            case ELICITATION: {
                JsonObject form = InputRound.accepted(round.response("user_name"));
                if (form != null && form.getValue("name") instanceof String) {
                    return done("Hello, " + form.getString("name") + "!");
                }
                return Future.succeededFuture(round.inputRequired(new JsonObject().put("user_name",
                        InputRound.elicitation("What is your name?", stringField("name"))), purpose, null));
            }
            case SAMPLING: {
                JsonObject answer = round.response("capital_question");
                if (answer != null) {
                    return done("Sampling result: " + sampledText(answer));
                }
                return Future.succeededFuture(round.inputRequired(new JsonObject().put("capital_question",
                        InputRound.sampling("What is the capital of France?", 100)), purpose, null));
            }
            case LIST_ROOTS: {
                JsonObject answer = round.response("client_roots");
                if (answer != null && answer.getValue("roots") instanceof JsonArray) {
                    return done("Found " + answer.getJsonArray("roots").size() + " root(s)");
                }
                return Future.succeededFuture(round.inputRequired(
                        new JsonObject().put("client_roots", InputRound.listRoots()), purpose, null));
            }
            case REQUEST_STATE:
            case TAMPERED_STATE: {
                if (round.hasState()) {
                    JsonObject state = round.state(purpose);
                    JsonObject form = InputRound.accepted(round.response("confirm"));
                    if ("confirm".equals(state.getString("step")) && form != null) {
                        return done(name.equals(REQUEST_STATE) ? "state-ok: requestState verified"
                                : "integrity-ok: requestState verified");
                    }
                }
                return Future.succeededFuture(round.inputRequired(new JsonObject().put("confirm",
                                InputRound.elicitation("Please confirm", new JsonObject().put("ok",
                                        new JsonObject().put("type", "boolean")))), purpose,
                        new JsonObject().put("step", "confirm")));
            }
            case MULTIPLE_INPUTS: {
                if (round.hasState() && "all".equals(round.state(purpose).getString("step"))) {
                    JsonObject form = InputRound.accepted(round.response("user_name"));
                    JsonObject greeting = round.response("greeting");
                    JsonObject roots = round.response("client_roots");
                    if (form != null && greeting != null && roots != null) {
                        return done("Name: " + form.getValue("name") + "; Greeting: " + sampledText(greeting)
                                + "; Roots: " + roots.getJsonArray("roots", new JsonArray()).size());
                    }
                }
                return Future.succeededFuture(round.inputRequired(new JsonObject()
                                .put("user_name", InputRound.elicitation("What is your name?", stringField("name")))
                                .put("greeting", InputRound.sampling("Generate a greeting", 50))
                                .put("client_roots", InputRound.listRoots()),
                        purpose, new JsonObject().put("step", "all")));
            }
            case MULTI_ROUND:
                return multiRound(round, purpose);
            case CAPABILITIES: {
                if (round.hasResponses()) {
                    return done("capabilities-ok");
                }
                JsonObject requests = new JsonObject();
                if (round.declares("elicitation")) {
                    requests.put("elicit_input", InputRound.elicitation("Elicitation input", stringField("value")));
                }
                if (round.declares("sampling")) {
                    requests.put("sample_input", InputRound.sampling("Sample request", 50));
                }
                if (requests.isEmpty()) {
                    return done("The client declared no capability to answer with.");
                }
                return Future.succeededFuture(round.inputRequired(requests, purpose, new JsonObject().put("step", "caps")));
            }
            case STREAMING_ELICITATION: {
                if (!round.declares("elicitation") || round.response("answer") != null) {
                    return done("Streaming complete");
                }
                // the question travels inside the result, never as a request on the response stream
                return Future.succeededFuture(round.inputRequired(new JsonObject().put("answer",
                        InputRound.elicitation("Anything to add?", stringField("text"))), purpose, null));
            }
            case LOGGING:
                scope.log(LogLevel.INFO, "Tool execution started");
                scope.log(LogLevel.INFO, "Tool execution completed");
                return done("Logging test completed");
            case TRIGGER_TOOL_CHANGE:
                return done("Told " + toolsListChanged.getAsInt() + " listener(s) that the tool list changed");
            default:
                throw new IllegalArgumentException(name);
        }
    }

    private Future<JsonObject> multiRound(InputRound round, String purpose) {
        JsonObject state = round.hasState() ? round.state(purpose) : new JsonObject();
        int step = state.getInteger("round", 0);
        if (step == 1) {
            JsonObject form = InputRound.accepted(round.response("step1"));
            if (form != null) {
                return Future.succeededFuture(round.inputRequired(new JsonObject().put("step2",
                                InputRound.elicitation("Step 2: What is your favorite color?", stringField("color"))),
                        purpose, new JsonObject().put("round", 2).put("name", String.valueOf(form.getValue("name")))));
            }
        } else if (step == 2) {
            JsonObject form = InputRound.accepted(round.response("step2"));
            if (form != null) {
                return done("Multi-round complete for " + state.getString("name") + " who likes "
                        + form.getValue("color"));
            }
        }
        return Future.succeededFuture(round.inputRequired(new JsonObject().put("step1",
                InputRound.elicitation("Step 1: What is your name?", stringField("name"))), purpose,
                new JsonObject().put("round", 1)));
    }

    private static String sampledText(JsonObject createMessageResult) {
        Object content = createMessageResult.getValue("content");
        if (content instanceof JsonObject && ((JsonObject) content).getValue("text") instanceof String) {
            return ((JsonObject) content).getString("text");
        }
        return "(no text)";
    }

    /** {@code prompts/get} of {@link #INPUT_REQUIRED_PROMPT}: asks for a context, then renders it. */
    Future<JsonObject> inputRequiredPrompt(InputRound round) {
        JsonObject form = InputRound.accepted(round.response("user_context"));
        if (form != null && form.getValue("context") instanceof String) {
            return Future.succeededFuture(new JsonObject()
                    .put("description", "A prompt that asked the client for its context")
                    .put("messages", new JsonArray().add(new JsonObject().put("role", "user").put("content",
                            new JsonObject().put("type", "text").put("text", "Use this context: "
                                    + form.getString("context"))))));
        }
        return Future.succeededFuture(round.inputRequired(new JsonObject().put("user_context",
                InputRound.elicitation("What context should the prompt use?", stringField("context"))),
                "prompts/get:" + INPUT_REQUIRED_PROMPT, null));
    }

    private static JsonObject stringField(String name) {
        return new JsonObject().put(name, new JsonObject().put("type", "string"));
    }

    private static Future<JsonObject> done(String text) {
        return Future.succeededFuture(new JsonObject().put("content",
                new JsonArray().add(new JsonObject().put("type", "text").put("text", text))));
    }
}

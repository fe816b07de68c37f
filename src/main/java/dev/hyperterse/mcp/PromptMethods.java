package dev.hyperterse.mcp;

import dev.hyperterse.model.ArgumentDef;
import dev.hyperterse.model.ArgumentText;
import dev.hyperterse.model.CallerText;
import dev.hyperterse.model.PromptDef;
import dev.hyperterse.pipeline.CallContext;
import io.vertx.core.Future;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * {@code prompts/list} and {@code prompts/get}, over one backend and one caller, whatever
 * protocol generation asked. A prompt with an auth block is listed only to callers it admits.
 * MCP prompt messages know only the roles user and assistant: a {@code system} message of a
 * prompt file is sent as a {@code user} message whose text starts with {@value #SYSTEM_PREFIX}.
 */
final class PromptMethods {
    static final String SYSTEM_PREFIX = "System: ";

    private final McpExtensions extensions;

    /** @param extensions the prompts added next to the project's */
    PromptMethods(McpExtensions extensions) {
        this.extensions = extensions;
    }

    boolean offered(McpBackend backend) {
        return extensions.hasPrompts() || !backend.prompts().isEmpty();
    }

    Future<JsonObject> list(McpBackend backend, CallContext context) {
        return McpResults.visible(backend.pipeline(), new ArrayList<>(backend.prompts().values()), PromptDef::accessKey,
                context).map(prompts -> {
                    JsonArray out = new JsonArray();
                    prompts.forEach(p -> out.add(definition(p)));
                    extensions.promptDefinitions().forEach(out::add);
                    return new JsonObject().put("prompts", out);
                });
    }

    Future<JsonObject> get(McpBackend backend, JsonObject params, CallContext context) {
        String name = McpResults.requiredString(params, "prompts/get", "name");
        Object given = params.getValue("arguments");
        if (given != null && !(given instanceof JsonObject)) {
            throw new McpException(JsonRpc.INVALID_PARAMS, "prompts/get: 'arguments' must be an object");
        }
        JsonObject arguments = given == null ? new JsonObject() : (JsonObject) given;
        PromptDef prompt = backend.prompts().get(name);
        if (prompt == null) {
            McpExtensions.Prompt added = extensions.prompt(name);
            if (added != null) {
                return added.get().get(arguments);
            }
            throw unknown(name);
        }
        // auth first: the arguments' checks name the prompt's arguments, which a caller it does not admit may not learn
        return McpResults.admitted(backend.pipeline(), prompt.accessKey(), context, () -> unknown(name)).map(caller -> {
            Map<String, String> values = values(prompt, arguments);
            JsonArray messages = new JsonArray();
            for (PromptDef.Message m : prompt.messages()) {
                String text = ArgumentText.render(m.text(), values);
                boolean system = "system".equals(m.role());
                messages.add(new JsonObject()
                        .put("role", system ? "user" : m.role())
                        .put("content", new JsonObject().put("type", "text").put("text", system ? SYSTEM_PREFIX + text : text)));
            }
            JsonObject result = new JsonObject();
            if (prompt.description() != null) {
                result.put("description", prompt.description());
            }
            return result.put("messages", messages);
        });
    }

    private static McpException unknown(String name) {
        return new McpException(JsonRpc.INVALID_PARAMS, "prompts/get: unknown prompt '" + CallerText.cut(name) + "'");
    }

    /** The caller's argument values: every required one present, no unknown ones, all strings, defaults for those left out. */
    private static Map<String, String> values(PromptDef prompt, JsonObject arguments) {
        Map<String, String> values = new LinkedHashMap<>();
        for (String key : arguments.fieldNames()) {
            if (prompt.argument(key) == null) {
                throw new McpException(JsonRpc.INVALID_PARAMS, "prompts/get: prompt '" + prompt.name()
                        + "' has no argument '" + CallerText.cut(key) + "'");
            }
            Object value = arguments.getValue(key);
            if (value != null && !(value instanceof String)) {
                throw new McpException(JsonRpc.INVALID_PARAMS, "prompts/get: argument '" + key + "' must be a string");
            }
            if (value != null) {
                values.put(key, (String) value);
            }
        }
        for (ArgumentDef a : prompt.arguments()) {
            if (a.required() && !values.containsKey(a.name())) {
                throw new McpException(JsonRpc.INVALID_PARAMS, "prompts/get: missing required argument '" + a.name()
                        + "' of prompt '" + prompt.name() + "'");
            }
            // left out (or null): the default, else the placeholder renders as empty text
            if (a.defaultValue() != null && !values.containsKey(a.name())) {
                values.put(a.name(), a.defaultValue());
            }
        }
        return values;
    }

    private static JsonObject definition(PromptDef p) {
        JsonObject out = new JsonObject().put("name", p.name());
        if (p.title() != null) {
            out.put("title", p.title());
        }
        out.put("description", p.description() != null ? p.description() : p.title() != null ? p.title() : p.name());
        JsonArray args = new JsonArray();
        for (ArgumentDef a : p.arguments()) {
            args.add(argument(a));
        }
        return out.put("arguments", args);
    }

    static JsonObject argument(ArgumentDef a) {
        JsonObject arg = new JsonObject().put("name", a.name());
        if (a.title() != null) {
            arg.put("title", a.title());
        }
        if (a.description() != null) {
            arg.put("description", a.description());
        }
        return arg.put("required", a.required());
    }
}

package dev.hyperterse.mcp;

import dev.hyperterse.model.ArgumentDef;
import dev.hyperterse.model.CallerText;
import dev.hyperterse.model.PromptDef;
import dev.hyperterse.model.ResourceDef;
import dev.hyperterse.pipeline.CallContext;
import io.vertx.core.Future;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;

import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Set;

/**
 * {@code completion/complete} for a prompt's arguments ({@code ref/prompt}) and a resource
 * template's variables ({@code ref/resource}): the static values that start with what was typed
 * (ignoring case), or the first column of a statement's rows for {@code {{ args.prefix }}}, run
 * through the pipeline like a tool. At most {@value #MAX_VALUES} values, as MCP allows.
 */
final class CompletionMethods {
    static final int MAX_VALUES = 100;

    private final McpExtensions extensions;

    /** @param extensions the prompts and templates added next to the project's, and their completions */
    CompletionMethods(McpExtensions extensions) {
        this.extensions = extensions;
    }

    boolean offered(McpBackend backend) {
        return extensions.hasCompletions() || !backend.prompts().isEmpty()
                || backend.resources().stream().anyMatch(ResourceDef::isTemplate);
    }

    Future<JsonObject> complete(McpBackend backend, JsonObject params, CallContext context) {
        Object refValue = params.getValue("ref");
        Object argValue = params.getValue("argument");
        if (!(refValue instanceof JsonObject) || !(argValue instanceof JsonObject)) {
            throw new McpException(JsonRpc.INVALID_PARAMS, "completion/complete: 'ref' and 'argument' must be objects");
        }
        JsonObject ref = (JsonObject) refValue;
        String type = McpResults.requiredString(ref, "completion/complete", "type");
        String argName = McpResults.requiredString((JsonObject) argValue, "completion/complete", "name");
        Object typed = ((JsonObject) argValue).getValue("value");
        if (typed != null && !(typed instanceof String)) {
            // not read as "nothing typed yet", which would offer every value
            throw new McpException(JsonRpc.INVALID_PARAMS, "completion/complete: 'argument.value' must be a string");
        }
        String prefix = typed == null ? "" : (String) typed;
        ArgumentDef argument;
        String accessKey;
        java.util.function.Supplier<McpException> unknown;
        if ("ref/prompt".equals(type)) {
            String name = McpResults.requiredString(ref, "completion/complete", "name");
            PromptDef prompt = backend.prompts().get(name);
            if (prompt == null) {
                return added(type, name, argName, prefix, () -> unknownPrompt(name));
            }
            argument = prompt.argument(argName);
            accessKey = prompt.accessKey();
            unknown = () -> unknownPrompt(name);
        } else if ("ref/resource".equals(type)) {
            String uri = McpResults.requiredString(ref, "completion/complete", "uri");
            ResourceDef resource = backend.resources().stream().filter(r -> r.address().equals(uri)).findFirst()
                    .orElse(null);
            if (resource == null) {
                return added(type, uri, argName, prefix, () -> unknownTemplate(uri));
            }
            argument = resource.argument(argName);
            accessKey = resource.accessKey();
            unknown = () -> unknownTemplate(uri);
        } else {
            throw new McpException(JsonRpc.INVALID_PARAMS, "completion/complete: 'ref.type' must be ref/prompt or "
                    + "ref/resource");
        }
        ArgumentDef arg = argument;
        return McpResults.admitted(backend.pipeline(), accessKey, context, unknown).compose(caller -> {
            if (arg == null) {
                return Future.succeededFuture(result(List.of(), false));
            }
            if (arg.completionTool() != null) {
                return backend.pipeline().executeDerived(arg.completionTool(), new JsonObject().put("prefix", prefix),
                        context).map(rows -> {
                            Set<String> values = new LinkedHashSet<>();
                            for (Object row : rows.rows()) {
                                Object first = row instanceof JsonObject && !((JsonObject) row).isEmpty()
                                        ? ((JsonObject) row).iterator().next().getValue() : null;
                                if (first != null) {
                                    values.add(String.valueOf(first));
                                }
                            }
                            return capped(new ArrayList<>(values), rows.truncated());
                        });
            }
            String lower = prefix.toLowerCase(Locale.ROOT);
            List<String> values = new ArrayList<>();
            for (String v : arg.completion()) {
                if (v.toLowerCase(Locale.ROOT).startsWith(lower)) {
                    values.add(v);
                }
            }
            return Future.succeededFuture(capped(values, false));
        });
    }

    /** The completion of an added prompt's or template's argument; {@code unknown} when none was added by that name. */
    private Future<JsonObject> added(String type, String ref, String argName, String prefix,
                                     java.util.function.Supplier<McpException> unknown) {
        McpExtensions.Completer completer = extensions.completer(type, ref);
        if (completer == null) {
            throw unknown.get();
        }
        return Future.succeededFuture(capped(completer.complete(argName, prefix), false));
    }

    private static McpException unknownPrompt(String name) {
        return new McpException(JsonRpc.INVALID_PARAMS, "completion/complete: unknown prompt '" + CallerText.cut(name)
                + "'");
    }

    private static McpException unknownTemplate(String uri) {
        return new McpException(JsonRpc.INVALID_PARAMS, "completion/complete: unknown resource template '"
                + CallerText.cut(uri) + "'");
    }

    private static JsonObject capped(List<String> values, boolean more) {
        if (values.size() > MAX_VALUES) {
            return result(values.subList(0, MAX_VALUES), true);
        }
        return result(values, more);
    }

    private static JsonObject result(List<String> values, boolean hasMore) {
        return new JsonObject().put("completion", new JsonObject().put("values", new JsonArray(new ArrayList<>(values)))
                .put("total", values.size()).put("hasMore", hasMore));
    }
}

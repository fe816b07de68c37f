package dev.hyperterse.mcp;

import io.vertx.core.Future;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Predicate;
import java.util.regex.Pattern;
import java.util.stream.Stream;

/**
 * What the server's {@link McpExtension}s registered, immutable once built: tools, prompts,
 * resources and resource templates served next to the project's (listed after them, reached when
 * the project has no definition of that name or URI), the completions of those prompts and
 * templates, and the tools and prompts of protocol 2026-07-28 that answer through input rounds.
 * The MCP methods consult it the same way whether it is empty or not.
 */
public final class McpExtensions {
    /** Nothing registered. */
    public static final McpExtensions NONE = new Builder().build();

    /** Runs an added tool: its CallToolResult, or a failure as a project tool's would be mapped. */
    @FunctionalInterface
    public interface ToolCall {
        Future<JsonObject> call(JsonObject arguments, CallScope scope);
    }

    /** Renders an added prompt: its GetPromptResult; an {@link McpException} for wrong arguments. */
    @FunctionalInterface
    public interface PromptGet {
        Future<JsonObject> get(JsonObject arguments);
    }

    /** Reads an added resource: its one entry of {@code contents} ({@code uri}, {@code mimeType}, text or blob). */
    @FunctionalInterface
    public interface ResourceRead {
        Future<JsonObject> read(String uri);
    }

    /** The values offered for an argument of an added prompt or template, given what was typed. */
    @FunctionalInterface
    public interface Completer {
        /** Offers nothing (what an added prompt or template completes to unless given a completer). */
        Completer NONE = (argument, prefix) -> List.of();

        List<String> complete(String argument, String prefix);
    }

    record Tool(JsonObject definition, ToolCall call) {
    }

    record Prompt(JsonObject definition, PromptGet get) {
    }

    /** A resource ({@code uri} in its definition) or a template ({@code uriTemplate}). */
    record Resource(JsonObject definition, Predicate<String> serves, ResourceRead read) {
        boolean template() {
            return definition.containsKey("uriTemplate");
        }

        /** Its {@code uri}, or its {@code uriTemplate} as {@code completion/complete} names it. */
        String address() {
            return template() ? definition.getString("uriTemplate") : definition.getString("uri");
        }
    }

    /** A 2026-07-28 tool that answers through input rounds, and its {@code tools/list} entry. */
    public record Round(JsonObject definition, RoundTool call) {
    }

    private final Map<String, Tool> tools;
    private final Map<String, Prompt> prompts;
    private final List<Resource> resources;
    private final Map<String, Completer> completers;
    private final Map<String, Round> roundTools;
    private final Map<String, RoundPrompt> roundPrompts;
    private final boolean announcesToolListChanges;

    private McpExtensions(Builder b) {
        // copies that keep the registration order, which lists keep
        this.tools = new LinkedHashMap<>(b.tools);
        this.prompts = new LinkedHashMap<>(b.prompts);
        this.resources = List.copyOf(b.resources);
        this.completers = Map.copyOf(b.completers);
        this.roundTools = new LinkedHashMap<>(b.roundTools);
        this.roundPrompts = Map.copyOf(b.roundPrompts);
        this.announcesToolListChanges = b.announcesToolListChanges;
    }

    /** What {@code extension} registers, lent {@code host}. */
    static McpExtensions of(McpExtension extension, McpExtension.Host host) {
        Builder registry = new Builder();
        extension.register(registry, host);
        return registry.build();
    }

    /** The added tool of this name, or null. */
    Tool tool(String name) {
        return tools.get(name);
    }

    /** The added tools' {@code tools/list} entries, copies, in registration order. */
    JsonArray toolDefinitions() {
        return copies(tools.values().stream().map(Tool::definition));
    }

    boolean hasPrompts() {
        return !prompts.isEmpty();
    }

    /** The added prompt of this name, or null. */
    Prompt prompt(String name) {
        return prompts.get(name);
    }

    JsonArray promptDefinitions() {
        return copies(prompts.values().stream().map(Prompt::definition));
    }

    boolean hasResources() {
        return !resources.isEmpty();
    }

    /** Whether an added prompt or template has arguments to complete. */
    boolean hasCompletions() {
        return hasPrompts() || resources.stream().anyMatch(Resource::template);
    }

    /** The added resources' (or templates') list entries, copies, in registration order. */
    JsonArray resourceDefinitions(boolean templates) {
        return copies(resources.stream().filter(r -> r.template() == templates).map(Resource::definition));
    }

    /** The first added resource or template that serves {@code uri}, or null. */
    Resource resource(String uri) {
        for (Resource r : resources) {
            if (r.serves().test(uri)) {
                return r;
            }
        }
        return null;
    }

    /**
     * The completer of an added prompt ({@code ref/prompt}, by name) or template
     * ({@code ref/resource}, by its {@code uriTemplate}); null when none of that name was added.
     */
    Completer completer(String refType, String ref) {
        boolean added = "ref/prompt".equals(refType) ? prompts.containsKey(ref)
                : resources.stream().anyMatch(r -> r.template() && r.address().equals(ref));
        return added ? completers.getOrDefault(refType + " " + ref, Completer.NONE) : null;
    }

    /** The added 2026-07-28 input-round tool of this name, or null. */
    public Round roundTool(String name) {
        return roundTools.get(name);
    }

    /** Their {@code tools/list} entries, copies, in registration order. */
    public JsonArray roundToolDefinitions() {
        return copies(roundTools.values().stream().map(Round::definition));
    }

    /** Copies of list entries, which a caller may change. */
    private static JsonArray copies(Stream<JsonObject> definitions) {
        JsonArray out = new JsonArray();
        definitions.forEach(d -> out.add(d.copy()));
        return out;
    }

    /** The added 2026-07-28 input-round prompt of this name (answered by {@code prompts/get}, not listed), or null. */
    public RoundPrompt roundPrompt(String name) {
        return roundPrompts.get(name);
    }

    /** Whether an extension may tell listen streams that the tool list changed (the capability is then declared). */
    public boolean announcesToolListChanges() {
        return announcesToolListChanges;
    }

    /** Collects an extension's registrations; a name (or URI) registered twice is a programming error. */
    public static final class Builder {
        private final Map<String, Tool> tools = new LinkedHashMap<>();
        private final Map<String, Prompt> prompts = new LinkedHashMap<>();
        private final List<Resource> resources = new ArrayList<>();
        private final Map<String, Completer> completers = new LinkedHashMap<>();
        private final Map<String, Round> roundTools = new LinkedHashMap<>();
        private final Map<String, RoundPrompt> roundPrompts = new LinkedHashMap<>();
        private boolean announcesToolListChanges;

        Builder() {
        }

        /** A tool both generations list and call; {@code definition} is its {@code tools/list} entry. */
        public Builder tool(JsonObject definition, ToolCall call) {
            return put(tools, definition.getString("name"), new Tool(definition.copy(), call));
        }

        /** A prompt; {@code definition} is its {@code prompts/list} entry. */
        public Builder prompt(JsonObject definition, PromptGet get) {
            return put(prompts, definition.getString("name"), new Prompt(definition.copy(), get));
        }

        /** A resource at the {@code uri} of {@code definition} (its {@code resources/list} entry). */
        public Builder resource(JsonObject definition, ResourceRead read) {
            String uri = definition.getString("uri");
            resources.add(new Resource(definition.copy(), uri::equals, read));
            return this;
        }

        /**
         * A resource template; {@code definition} is its {@code resources/templates/list} entry and
         * {@code uris} matches (whole) the URIs it serves.
         */
        public Builder resourceTemplate(JsonObject definition, Pattern uris, ResourceRead read) {
            resources.add(new Resource(definition.copy(), uri -> uris.matcher(uri).matches(), read));
            return this;
        }

        /**
         * The completions of an added prompt's ({@code ref/prompt}, {@code ref} its name) or
         * template's ({@code ref/resource}, {@code ref} its {@code uriTemplate}) arguments; without
         * one they complete to nothing.
         */
        public Builder completion(String refType, String ref, Completer completer) {
            return put(completers, refType + " " + ref, completer);
        }

        /** A 2026-07-28 tool that answers through input rounds ({@link RoundTool}); listed after the other tools. */
        public Builder roundTool(JsonObject definition, RoundTool call) {
            return put(roundTools, definition.getString("name"), new Round(definition.copy(), call));
        }

        /** A 2026-07-28 prompt whose {@code prompts/get} may ask for input first; it is not listed. */
        public Builder roundPrompt(String name, RoundPrompt get) {
            return put(roundPrompts, name, get);
        }

        /** Declares that the extension calls {@link McpExtension.Host#toolsListChanged()}. */
        public Builder announcesToolListChanges() {
            announcesToolListChanges = true;
            return this;
        }

        McpExtensions build() {
            return new McpExtensions(this);
        }

        private <T> Builder put(Map<String, T> into, String key, T value) {
            if (key == null || into.putIfAbsent(key, value) != null) {
                throw new IllegalArgumentException("an MCP extension registered '" + key + "' twice, or without a name");
            }
            return this;
        }
    }
}

package dev.hyperterse.mcp;

import dev.hyperterse.model.ByteSizes;
import dev.hyperterse.model.Counted;
import dev.hyperterse.model.CallerText;
import dev.hyperterse.model.InputType;
import dev.hyperterse.model.ResultCut;
import dev.hyperterse.model.ToolErrorMode;
import dev.hyperterse.pipeline.CallContext;
import dev.hyperterse.pipeline.OutputShape;
import dev.hyperterse.pipeline.Stage;
import dev.hyperterse.pipeline.ToolException;
import dev.hyperterse.pipeline.ToolResult;
import dev.hyperterse.model.ToolDef;
import dev.hyperterse.search.SearchHit;
import io.vertx.core.Future;
import io.vertx.core.Vertx;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.function.Predicate;
import java.util.function.Supplier;

/**
 * The two tools every project is served through: {@code search} (find a tool by intent) and
 * {@code execute} (run a tool by name). Their definitions follow the seed documents, with
 * {@code additionalProperties: false}. {@code execute} logs to the caller (at the level the
 * session set) and, when the caller sent a progress token, reports progress while a call runs
 * longer than the progress interval.
 */
final class MetaTools {
    static final String SEARCH = "search";
    static final String EXECUTE = "execute";
    /** The name of the header execute's {@code tool} is mirrored into, after {@code Mcp-Param-}. */
    static final String TOOL_HEADER = "Tool";
    private static final JsonObject TOOL_PROPERTY = new JsonObject()
            .put("type", "string")
            .put("description", "Name of the target tool to execute.");
    /** Longer queries cannot describe an intent better and would cost the index more. */
    static final int MAX_QUERY_LENGTH = 1000;
    /** More tags than this cannot narrow a search usefully and would cost every tool's check. */
    static final int MAX_TAGS = 50;
    /**
     * Catalogs of at least this many tools are ranked on a worker thread. A search scores every
     * tool (about a millisecond for 10,000), which on the event loop delayed every other request
     * of every connection and kept searches to one core; below this size a search costs less than
     * handing it to another thread. A search that embeds its query (the {@code semantic}
     * ranking) always runs on a worker.
     */
    static final int RANK_ON_WORKER_FROM = 500;
    /**
     * The most tools a search asks per-tool auth rules (scripts) about, best-ranked first, so one
     * search can never run a script for every tool of a large catalog.
     */
    static final int PER_TOOL_AUTH_CANDIDATES = 50;
    /** After this long, a search asks per-tool auth rules about no further window of candidates. */
    static final long PER_TOOL_AUTH_BUDGET_NANOS = java.util.concurrent.TimeUnit.SECONDS.toNanos(2);

    /** What a tool's CallToolResult carries besides its text block. */
    enum Output {
        /** The text block only: the caller's protocol version has no structuredContent (2025-03-26). */
        TEXT,
        /** {@code structuredContent} too when the tool has an output shape and the rows fit it ({@code execute}). */
        STRUCTURED,
        /**
         * As {@link #STRUCTURED}, for a tool whose outputSchema the caller was shown in
         * {@code tools/list}: the result must keep it, so rows that do not are a failed call.
         */
        LISTED
    }

    private final Vertx vertx;
    private final ToolErrorMode errorMode;
    private final boolean searchOutputSchema;
    private final long progressMillis;
    /** What a handler's {@code ctx.readResource} reads through. */
    private final ResourceMethods resources;

    MetaTools(Vertx vertx, ToolErrorMode errorMode, boolean searchOutputSchema, Duration progressInterval,
              ResourceMethods resources) {
        this.vertx = vertx;
        this.resources = resources;
        this.errorMode = errorMode;
        this.searchOutputSchema = searchOutputSchema;
        this.progressMillis = Math.max(1, progressInterval.toMillis());
    }

    boolean has(String name) {
        return SEARCH.equals(name) || EXECUTE.equals(name);
    }

    /**
     * search and execute as {@code tools/list} shows them.
     *
     * @param structured whether the caller's protocol version has {@code outputSchema}: search's
     *                   is declared only then (and only with {@code server.search_output_schema})
     * @param mirrored   whether the caller's protocol version mirrors arguments into headers
     *                   (2026-07-28): then execute's {@code tool} is declared {@code x-mcp-header:
     *                   Tool}, so a load balancer can route or rate-limit by the project tool run
     *                   without reading the body. search declares none: its query is free text a
     *                   user may have typed (headers are visible to every intermediary), and its
     *                   tags are a list, which cannot be mirrored.
     */
    JsonArray definitions(boolean structured, boolean mirrored) {
        JsonObject search = new JsonObject()
                .put("name", SEARCH)
                .put("title", "Search tools")
                .put("description", "Search available tools by natural-language intent and tool metadata.")
                .put("inputSchema", new JsonObject()
                        .put("type", "object")
                        .put("properties", new JsonObject().put("query", new JsonObject()
                                .put("type", "string")
                                .put("description", "Natural-language query used to find relevant tools."))
                                .put("tags", new JsonObject()
                                        .put("type", "array")
                                        .put("items", new JsonObject().put("type", "string"))
                                        .put("description", "Only tools carrying at least one of these tags.")))
                        .put("required", new JsonArray().add("query"))
                        .put("additionalProperties", false));
        if (searchOutputSchema && structured) {
            search.put("outputSchema", searchOutputSchema());
        }
        search.put("annotations", new JsonObject()
                .put("title", "Search tools")
                .put("readOnlyHint", true)
                .put("idempotentHint", true)
                .put("openWorldHint", false));
        JsonObject execute = new JsonObject()
                .put("name", EXECUTE)
                .put("title", "Execute a tool")
                .put("description", "Execute a tool by name using a structured input object.")
                .put("inputSchema", new JsonObject()
                        .put("type", "object")
                        .put("properties", new JsonObject()
                                .put("tool", mirrored ? TOOL_PROPERTY.copy().put(MirroredParam.KEYWORD, TOOL_HEADER)
                                        : TOOL_PROPERTY.copy())
                                .put("inputs", new JsonObject()
                                        .put("type", "object")
                                        .put("description", "Structured inputs for the target tool.")))
                        .put("required", new JsonArray().add("tool").add("inputs"))
                        .put("additionalProperties", false))
                // a project's tools may write or reach other systems, so only the title is claimed
                .put("annotations", new JsonObject().put("title", "Execute a tool"));
        return new JsonArray().add(search).add(execute);
    }

    /**
     * The shape of {@code search}'s structuredContent: {@code {"tools": [hit, ...]}}, each hit as
     * {@link SearchHit#toJson()} writes it. Open to new fields, so adding one later breaks no client.
     */
    static JsonObject searchOutputSchema() {
        JsonArray types = new JsonArray();
        for (InputType t : InputType.values()) {
            types.add(t.keyword());
        }
        JsonObject input = new JsonObject()
                .put("type", "object")
                .put("properties", new JsonObject()
                        .put("name", new JsonObject().put("type", "string"))
                        .put("type", new JsonObject().put("type", "string").put("enum", types))
                        .put("optional", new JsonObject().put("type", "boolean"))
                        .put("description", new JsonObject().put("type", "string"))
                        .put("default_value", new JsonObject()))
                .put("required", new JsonArray().add("name").add("type").add("optional"));
        JsonObject hit = new JsonObject()
                .put("type", "object")
                .put("properties", new JsonObject()
                        .put("name", new JsonObject().put("type", "string")
                                .put("description", "Pass this as execute's 'tool'."))
                        .put("relevance_score", new JsonObject().put("type", "integer")
                                .put("minimum", 1).put("maximum", 100))
                        .put("description", new JsonObject().put("type", "string"))
                        .put("title", new JsonObject().put("type", "string"))
                        .put("statement", new JsonObject().put("type", "string")
                                .put("description", "The SQL template (database tools only, unless the server"
                                        + " keeps statements from agents)."))
                        .put("inputs", new JsonObject().put("type", "array").put("items", input))
                        .put("any_inputs", new JsonObject().put("type", "boolean")
                                .put("description", "True when the tool takes whatever inputs you send."))
                        .put("input_schema", new JsonObject().put("type", "object")
                                .put("description", "The inputs as a JSON Schema (2020-12)."))
                        .put("tags", new JsonObject().put("type", "array")
                                .put("items", new JsonObject().put("type", "string")))
                        .put("annotations", new JsonObject().put("type", "object")
                                .put("description", "MCP tool hints: readOnlyHint, destructiveHint, idempotentHint,"
                                        + " openWorldHint."))
                        .put("output_schema", new JsonObject().put("type", "object")
                                .put("description", "The shape of execute's structuredContent for this tool, as a JSON"
                                        + " Schema: {rows: [...], truncated?}. Absent when not known."))
                        .put("returns", new JsonObject().put("type", "string").put("enum", new JsonArray().add("content"))
                                .put("description", "content: the tool answers with text, images, audio or resources"
                                        + " rather than rows.")))
                .put("required", new JsonArray().add("name").add("relevance_score").add("description").add("inputs"));
        return new JsonObject()
                .put("type", "object")
                .put("properties", new JsonObject().put("tools", new JsonObject()
                        .put("type", "array")
                        .put("description", "Matching tools, best first.")
                        .put("items", hit)))
                .put("required", new JsonArray().add("tools"));
    }

    /**
     * Runs {@code tools/call}; completes with the CallToolResult or fails with an McpException or ToolException.
     *
     * @param structured whether the caller's protocol version has {@code structuredContent}
     */
    Future<JsonObject> call(McpBackend backend, String name, JsonObject arguments, CallContext context,
                            CallScope scope, boolean structured) {
        try {
            if (SEARCH.equals(name)) {
                return search(backend, arguments, context, structured);
            }
            return execute(backend, arguments, context, scope, structured ? Output.STRUCTURED : Output.TEXT);
        } catch (ToolException e) {
            // arguments search or execute cannot use: the model reads its mistake (MCP 2025-11-25),
            // and a caller who asked for log messages gets it as a warning, as for a tool's inputs
            scope.log(LogLevel.WARNING, e.getMessage());
            return failure(e);
        }
    }

    /**
     * Arguments of {@code search} or {@code execute} that the tool cannot use: an input validation
     * failure of that tool, coded -32602 (invalid params) as Hyperterse 2.x codes it, answered as
     * an {@code isError} result like every input validation failure (a JSON-RPC error with
     * {@code server.tool_errors: rpc}).
     */
    private static ToolException badArguments(String tool, String message) {
        return new ToolException(Stage.INPUT_VALIDATION, JsonRpc.INVALID_PARAMS, tool, message, null);
    }

    private Future<JsonObject> search(McpBackend backend, JsonObject arguments, CallContext context,
                                      boolean structured) {
        onlyKeys(arguments, SEARCH, List.of("query", "tags"));
        Predicate<ToolDef> tagged = tagFilter(arguments.getValue("tags"));
        Object query = arguments.getValue("query");
        if (!(query instanceof String)) {
            throw badArguments(SEARCH, "search: 'query' must be a string");
        }
        if (((String) query).length() > MAX_QUERY_LENGTH) {
            throw badArguments(SEARCH,
                    "search: 'query' is too long (at most " + MAX_QUERY_LENGTH + " characters)");
        }
        // tool metadata (names, statements, inputs) is shown only to callers who may run the tool
        Future<Predicate<ToolDef>> visible = (backend.searchFiltersByAuth()
                ? backend.pipeline().visibleTo(context) : Future.<Predicate<ToolDef>>succeededFuture(null))
                .map(auth -> auth == null ? tagged : tagged == null ? auth : auth.and(tagged));
        boolean perTool = backend.searchFiltersByAuth() && backend.pipeline().hasPerToolChecks();
        // the index is built once the server serves: a search before then waits for it
        return onThisContext(backend.searchIndex().get()).compose(index -> {
            // a rule that decides per tool is asked only about the best-ranked candidates
            int candidates = perTool ? Math.max(index.limit(), PER_TOOL_AUTH_CANDIDATES) : index.limit();
            return visible.compose(filter -> index.size() < RANK_ON_WORKER_FROM && !index.embedsQueriesWithAModel()
                            ? Future.succeededFuture(index.search((String) query, filter, candidates))
                            : vertx.executeBlocking(() -> index.search((String) query, filter, candidates), false))
                    .compose(ranked -> perTool
                            ? visibleHits(backend, ranked, index.limit(), context, 0, new ArrayList<>(),
                                    System.nanoTime())
                            : Future.succeededFuture(ranked));
        }).compose(ranked -> searchResult(backend, ranked, structured));
    }

    /**
     * {@code future}, continued on the calling event loop when it is still pending (it completes
     * on whichever context finished it), so the rest of the call stays on its own loop.
     */
    private static <T> Future<T> onThisContext(Future<T> future) {
        io.vertx.core.Context here = Vertx.currentContext();
        if (future.isComplete() || here == null) {
            return future;
        }
        io.vertx.core.Promise<T> promise = ((io.vertx.core.internal.ContextInternal) here).promise();
        future.onComplete(promise);
        return promise.future();
    }

    /** {@code tags}: a tool passes when it carries at least one of them; null when there is no filter. */
    private static Predicate<ToolDef> tagFilter(Object tags) {
        if (tags == null) {
            return null;
        }
        if (!(tags instanceof JsonArray) || ((JsonArray) tags).size() > MAX_TAGS) {
            throw badArguments(SEARCH, "search: 'tags' must be a list of at most " + MAX_TAGS
                    + " strings");
        }
        List<String> wanted = new ArrayList<>();
        for (Object tag : (JsonArray) tags) {
            if (!(tag instanceof String)) {
                throw badArguments(SEARCH, "search: 'tags' must be a list of strings");
            }
            wanted.add((String) tag);
        }
        if (wanted.isEmpty()) {
            return null;
        }
        return tool -> {
            for (String tag : tool.tags()) {
                if (wanted.contains(tag)) {
                    return true;
                }
            }
            return false;
        };
    }

    /**
     * Walks the ranked candidates from {@code from} in windows of the hits still wanted, asking
     * each window's per-tool auth rules at once, and keeps the visible ones in rank order. No new
     * window starts once {@link #PER_TOOL_AUTH_BUDGET_NANOS} have passed since {@code started}
     * (slow rules answer with fewer hits, not late).
     */
    private Future<List<SearchHit>> visibleHits(McpBackend backend, List<SearchHit> ranked, int limit,
                                                CallContext context, int from, List<SearchHit> kept, long started) {
        if (kept.size() >= limit || from >= ranked.size()
                || (from > 0 && System.nanoTime() - started > PER_TOOL_AUTH_BUDGET_NANOS)) {
            return Future.succeededFuture(kept);
        }
        List<SearchHit> window = ranked.subList(from, Math.min(ranked.size(), from + limit - kept.size()));
        List<Future<Boolean>> allowed = new ArrayList<>();
        for (SearchHit hit : window) {
            allowed.add(backend.pipeline().decidedPerTool(hit.tool())
                    ? backend.pipeline().mayExecute(hit.tool(), context) : Future.succeededFuture(true));
        }
        return Future.all(allowed).compose(x -> {
            for (int i = 0; i < window.size(); i++) {
                if (allowed.get(i).result()) {
                    kept.add(window.get(i));
                }
            }
            return visibleHits(backend, ranked, limit, context, from + window.size(), kept, started);
        });
    }

    /**
     * Renders ranked hits, each with its tool's output schema when it has one.
     *
     * @param structured whether the caller's protocol version has {@code structuredContent}
     */
    private Future<JsonObject> searchResult(McpBackend backend, List<SearchHit> ranked, boolean structured) {
        JsonArray hits = new JsonArray();
        for (SearchHit hit : ranked) {
            JsonObject json = hit.toJson(backend.search().statements());
            OutputShape output = backend.pipeline().outputShape(hit.name());
            if (output != null) {
                json.put("output_schema", output.schema());
            } else {
                ToolDef tool = backend.pipeline().tools().get(hit.name());
                if (tool != null && tool.outputContent()) {
                    json.put("returns", "content");
                }
            }
            hits.add(json);
        }
        if (!searchOutputSchema || !structured) {
            return LargeJson.sizedBy(hits, () -> textResult(hits.encode()));
        }
        // the text block carries the same JSON, for clients that ignore structuredContent
        JsonObject content = new JsonObject().put("tools", hits);
        return LargeJson.sizedBy(content, () -> textResult(content.encode()).put("structuredContent", content));
    }

    private Future<JsonObject> execute(McpBackend backend, JsonObject arguments, CallContext context, CallScope scope,
                                       Output output) {
        onlyKeys(arguments, EXECUTE, List.of("tool", "inputs"));
        Object tool = arguments.getValue("tool");
        if (!(tool instanceof String) || ((String) tool).isBlank()) {
            throw badArguments(EXECUTE, "execute: 'tool' must be a non-empty string");
        }
        Object inputs = arguments.getValue("inputs");
        if (!(inputs instanceof JsonObject)) {
            throw badArguments(EXECUTE, inputs == null
                    ? "execute: 'inputs' is required (use {} when the tool takes none)"
                    : "execute: 'inputs' must be an object");
        }
        // search hides a tool whose auth check refuses the caller (Pipeline.visibleTo and
        // mayExecute: any failure of the check); execute must not confirm that such a tool exists
        // either, so that refusal reads exactly like a missing tool
        String named = (String) tool;
        return run(backend, named, (JsonObject) inputs, context, scope, output,
                backend.searchFiltersByAuth() ? () -> ToolException.notFound(named) : null);
    }

    /**
     * Runs a project tool and renders its CallToolResult: what {@code execute} does once its
     * arguments are read, and what {@code tools/call} of a tool listed directly does.
     *
     * @param unknown what a caller whom the tool's auth check refuses is answered instead of the
     *                refusal: the answer this path gives for a tool that does not exist, so the
     *                refusal confirms nothing; null to answer with the refusal itself
     */
    Future<JsonObject> run(McpBackend backend, String toolName, JsonObject given, CallContext context,
                           CallScope scope, Output output, Supplier<? extends RuntimeException> unknown) {
        ToolDef tool = backend.pipeline().tools().get(toolName);
        JsonObject inputs = tool != null && backend.access().parseJsonStrings()
                ? JsonStringInputs.parsed(tool, given) : given;
        if (tool == null || !tool.confirm()) {
            return runConfirmed(backend, tool, toolName, inputs, context, scope, output, unknown);
        }
        // a caller who may not run the tool is not asked: the call fails as it would unasked, and
        // the question does not confirm that the tool exists
        return backend.pipeline().mayExecute(tool, context).compose(may -> !may
                ? runConfirmed(backend, tool, toolName, inputs, context, scope, output, unknown)
                : scope.confirmation().ask(toolName, inputs, ConfirmQuestion.of(tool, inputs)).transform(asked -> {
                    if (asked.failed()) {
                        return asked.cause() instanceof UserConfirmation.AnswerLater
                                ? Future.succeededFuture(((UserConfirmation.AnswerLater) asked.cause()).result())
                                : Future.failedFuture(asked.cause());
                    }
                    switch (asked.result()) {
                        case ACCEPTED:
                            return runConfirmed(backend, tool, toolName, inputs, context, scope, output, unknown);
                        case DECLINED:
                            return Future.succeededFuture(textResult("Not run: the user did not confirm '"
                                    + toolName + "'.").put("isError", true));
                        default:
                            if (backend.access().runUnconfirmed()) {
                                return runConfirmed(backend, tool, toolName, inputs, context, scope, output, unknown);
                            }
                            return Future.succeededFuture(textResult("Not run: '" + toolName + "' needs the user's"
                                    + " confirmation, and this client cannot ask for it (it did not declare the"
                                    + " elicitation capability). Use a client that supports elicitation.")
                                    .put("isError", true));
                    }
                }));
    }

    /** @param tool the project tool named {@code toolName}, or null when there is none (the pipeline says so) */
    private Future<JsonObject> runConfirmed(McpBackend backend, ToolDef tool, String toolName, JsonObject inputs,
                                            CallContext context, CallScope scope, Output output,
                                            Supplier<? extends RuntimeException> unknown) {
        // the call's log lines are built only for a caller who asked for them (logging/setLevel)
        String shown = scope.logs(LogLevel.DEBUG) || scope.wantsProgress() ? shown(toolName) : null;
        if (scope.logs(LogLevel.DEBUG)) {
            scope.log(LogLevel.DEBUG, "execute " + shown + ": started");
        }
        long started = System.nanoTime();
        boolean scripted = tool != null && (tool.handler() != null || tool.inputMapper() != null
                || tool.outputMapper() != null);
        ScriptClientReach reach = !scripted ? null : new ScriptClientReach(vertx.getOrCreateContext(), scope, backend,
                context, resources, tool.name());
        Future<ToolResult> running = backend.pipeline().execute(toolName, inputs,
                reach == null ? context : context.reaching(reach));
        if (reach != null) {
            // what the script logged or reported goes out before its answer
            Future<ToolResult> finished = running;
            running = finished.transform(ar -> reach.sent().transform(x -> finished));
        }
        if (unknown != null) {
            running = running.recover(e -> Future.failedFuture(e instanceof ToolException
                    && ((ToolException) e).refusedByAuthCheck() ? unknown.get() : e));
        }
        // a handler reports its own progress (ctx.progress); the server's ticks are for statements
        if (scope.wantsProgress() && !running.isComplete() && (tool == null || tool.handler() == null)) {
            reportProgress(running, scope, shown, started);
        }
        OutputShape shape = output == Output.TEXT ? null : backend.pipeline().outputShape(toolName);
        return running
                .compose(result -> {
                    if (shape != null && output == Output.LISTED && result.outputMismatch() != null) {
                        throw new ToolException(Stage.OUTPUT_VALIDATION, toolName, "output validation failed for tool "
                                + toolName + ": the rows no longer fit the tool's output schema (its database changed"
                                + " since the project was loaded; reload it): " + result.outputMismatch());
                    }
                    if (scope.logs(LogLevel.INFO)) {
                        scope.log(LogLevel.INFO, "execute " + shown(toolName) + ": " + rowCount(result) + " in "
                                + millisSince(started) + " ms" + (result.truncated() ? " (" + cutBy(result) + ")" : ""));
                    }
                    if (result.isContent()) {
                        // content is what the tool answers with: no rows, so no structuredContent
                        return LargeJson.sizedBy(result.content(), () -> contentResult(result));
                    }
                    // the text block is the rows encoded: large rows are encoded on a worker
                    return LargeJson.sizedBy(result.rows(), () -> {
                        String rows = result.rows().encode();
                        JsonObject rendered = rowsResult(result, rows);
                        if (shape == null || result.outputMismatch() != null) {
                            return rendered;
                        }
                        // the text block carries the same rows, for clients that ignore
                        // structuredContent: encoded once, for both
                        JsonObject content = OutputShape.content(result);
                        content.put("rows", EncodedJsonArray.of(result.rows(), rows));
                        return rendered.put("structuredContent", content);
                    });
                })
                .recover(e -> {
                    if (reach != null && reach.nextRound() != null) {
                        return Future.succeededFuture(reach.nextRound());
                    }
                    logFailure(scope, shown(toolName), e);
                    return failure(e);
                })
                // a script's question asked in an input round answers the call, whatever the script did after
                .map(answer -> reach != null && reach.nextRound() != null ? reach.nextRound() : answer);
    }

    /** While the call runs: one progress report per interval, counting up, with the time so far. */
    private void reportProgress(Future<ToolResult> running, CallScope scope, String shown, long started) {
        int[] ticks = {0};
        long timer = vertx.setPeriodic(progressMillis, id -> {
            ticks[0]++;
            scope.progress(ticks[0], null, "execute " + shown + ": running for "
                    + String.format(Locale.ROOT, "%.1f", millisSince(started) / 1000.0) + " s");
        });
        running.onComplete(done -> vertx.cancelTimer(timer));
    }

    private static void logFailure(CallScope scope, String shown, Throwable e) {
        if (e instanceof ToolException) {
            ToolException te = (ToolException) e;
            Stage stage = te.stage();
            // the caller's mistakes are warnings; failures of the tool itself are errors
            boolean callersMistake = stage == Stage.RESOLUTION || stage == Stage.AUTH || stage == Stage.INPUT_VALIDATION;
            scope.log(callersMistake ? LogLevel.WARNING : LogLevel.ERROR, "execute " + shown + ": " + te.getMessage());
        } else if (e instanceof McpException) {
            scope.log(LogLevel.WARNING, "execute " + shown + ": " + e.getMessage());
        } else {
            scope.log(LogLevel.ERROR, "execute " + shown + ": internal error");
        }
    }

    /**
     * A failed run as the caller gets it: a failed stage of the tool as an {@code isError} result
     * (or, with {@code server.tool_errors: rpc}, as the failure, which the wire generation maps to
     * a JSON-RPC error); anything else (a protocol error, a bug) fails the request.
     */
    private Future<JsonObject> failure(Throwable e) {
        if (!(e instanceof ToolException) || errorMode == ToolErrorMode.RPC) {
            return Future.failedFuture(e);
        }
        return Future.succeededFuture(errorResult((ToolException) e));
    }

    /**
     * A failed stage as an {@code isError} result. Its one text block is the failure as JSON:
     * {@code error} and {@code code}, the keys Hyperterse 2.x writes, holding the message and code
     * the JSON-RPC error of {@code server.tool_errors: rpc} carries, then that error's data
     * ({@code stage}, {@code tool}), so a result tells a model all that error would. It is text
     * rather than structuredContent: agent loops hand the model text, 2025-03-26 has no
     * structuredContent, and a directly listed tool's structuredContent must fit its outputSchema.
     */
    static JsonObject errorResult(ToolException e) {
        JsonObject error = new JsonObject().put("error", e.getMessage()).put("code", e.code())
                .mergeIn(ToolMethods.errorData(e));
        return textResult(error.encode()).put("isError", true);
    }

    /** @param rows the rows, encoded */
    private static JsonObject rowsResult(ToolResult result, String rows) {
        JsonObject out = textResult(rows);
        if (result.truncated()) {
            out.getJsonArray("content").add(new JsonObject().put("type", "text").put("text", cutNote(result)));
        }
        return out;
    }

    /** A result of MCP content blocks, with a note after them when the size limit left some out. */
    private static JsonObject contentResult(ToolResult result) {
        JsonArray blocks = result.content().copy();
        if (result.truncated()) {
            int shown = blocks.size();
            blocks.add(new JsonObject().put("type", "text").put("text", shown == 0
                    ? "Note: no content is shown: the first item alone is larger than the tool's result size limit of "
                            + ByteSizes.show(result.byteLimit()) + " (result_max_bytes)."
                    : "Note: only the first " + shown + " content items are shown: the result was " + cutBy(result)
                            + "."));
        }
        return new JsonObject().put("content", blocks);
    }

    /** Which cap cut a result, and its value: {@code cut at the size limit of 4mb}. */
    static String cutBy(ToolResult result) {
        return result.cut() == ResultCut.BYTE_LIMIT
                ? "cut at the size limit of " + ByteSizes.show(result.byteLimit()) + " (result_max_bytes)"
                : "cut at the row limit of " + result.rowLimit() + " (row_limit)";
    }

    /** The note a cut result carries, so a model knows it saw part of the answer and why. */
    static String cutNote(ToolResult result) {
        int shown = result.rows().size();
        if (result.cut() == ResultCut.BYTE_LIMIT) {
            return shown == 0
                    ? "Note: no rows are shown: the first row alone is larger than the tool's result size limit of "
                            + ByteSizes.show(result.byteLimit()) + " (result_max_bytes). Select fewer or shorter columns."
                    : "Note: only the first " + shown + " rows are shown: the result was " + cutBy(result)
                            + ". Narrow the query or select fewer columns to see the rest.";
        }
        return "Note: only the first " + shown + " rows are shown: the result was " + cutBy(result)
                + ". Narrow the query to see the rest.";
    }

    static JsonObject textResult(String text) {
        return new JsonObject().put("content",
                new JsonArray().add(new JsonObject().put("type", "text").put("text", text)));
    }

    private static void onlyKeys(JsonObject arguments, String tool, List<String> allowed) {
        for (String key : arguments.fieldNames()) {
            if (!allowed.contains(key)) {
                throw badArguments(tool, tool + ": unknown argument '" + CallerText.cut(key)
                        + "' (expected " + String.join(", ", allowed) + ")");
            }
        }
    }

    private static String rowCount(ToolResult result) {
        if (result.isContent()) {
            int n = result.content().size();
            return n == 1 ? "1 content item" : n + " content items";
        }
        int n = result.rows().size();
        return n == 1 ? "1 row" : n + " rows";
    }

    private static long millisSince(long nanos) {
        return (System.nanoTime() - nanos) / 1_000_000;
    }

    /** The tool name as logs show it: quoted, and cut so a caller cannot flood the log. */
    private static String shown(String name) {
        return "'" + CallerText.cut(name) + "'";
    }
}

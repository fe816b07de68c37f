package dev.hyperterse.pipeline;

import dev.hyperterse.auth.AuthCheck;
import dev.hyperterse.auth.AuthDeniedException;
import dev.hyperterse.auth.Caller;
import dev.hyperterse.cache.CacheKey;
import dev.hyperterse.cache.CachedRows;
import dev.hyperterse.cache.ResultCache;
import dev.hyperterse.connector.CompiledStatement;
import dev.hyperterse.connector.Connector;
import dev.hyperterse.connector.ConnectorException;
import dev.hyperterse.connector.QueryOptions;
import dev.hyperterse.connector.ResultBudget;
import dev.hyperterse.connector.ResultColumns;
import dev.hyperterse.model.BoundedText;
import dev.hyperterse.model.CallerText;
import dev.hyperterse.model.Limits;
import dev.hyperterse.model.ResultCut;
import dev.hyperterse.model.ScriptRef;
import dev.hyperterse.script.ClientReach;
import dev.hyperterse.script.ScriptContent;
import dev.hyperterse.script.ScriptFailure;
import dev.hyperterse.script.ScriptInvoker;
import dev.hyperterse.model.ToolDef;
import dev.hyperterse.telemetry.Metrics;
import dev.hyperterse.telemetry.Telemetry;
import dev.hyperterse.telemetry.TraceSpan;
import dev.hyperterse.telemetry.Tracing;
import io.vertx.core.Context;
import io.vertx.core.Future;
import io.vertx.core.Vertx;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.function.Function;

/**
 * Runs one tool call through its stages as a chain of futures: resolution, auth, input mapper,
 * validation and coercion, execution (statement through the cache and connector, or handler
 * script), output mapper, result coercion. Nothing here blocks; a failing stage becomes a
 * {@link ToolException} naming the stage.
 */
public final class Pipeline {
    private static final Logger LOG = LoggerFactory.getLogger(Pipeline.class);
    /** Span attributes (also in docs/operations.md). */
    static final String TOOL = "hyperterse.tool";
    static final String STAGE = "hyperterse.stage";

    private final Map<String, ToolDef> tools;
    /** Statements of resource templates and completions: run like tools, never reached by a tool name. */
    private final Map<String, ToolDef> derived;
    private final Map<String, CompiledStatement> statements;
    private final Map<String, Connector> connectors;
    private final Map<String, AuthCheck> authChecks;
    /** Whether some check decides per tool (asked on every search). */
    private final boolean perToolChecks;
    private final ResultCache cache;
    private final ScriptInvoker scripts;
    private final Tracing tracing;
    private final Metrics metrics;
    /**
     * Database tools (derived ones too) whose statement did not prepare when the project was
     * loaded, with what their callers are told: they fail at execution, the others serve.
     */
    private final Map<String, String> unavailable;
    /** Each tool's output shape, by tool name (absent: none). */
    private final Map<String, OutputShape> outputs;
    /** Tools whose rows stopped fitting their described columns, already reported in the log. */
    private final java.util.Set<String> driftReported = java.util.concurrent.ConcurrentHashMap.newKeySet();
    private final SharedLoads sharedLoads = new SharedLoads();

    /**
     * @param tools      compiled tools by name
     * @param statements each database tool's compiled statement, by tool name
     * @param connectors live connectors by adapter name
     * @param authChecks each tool's auth check by tool name (absent: no auth block)
     * @param scripts    runs handlers and mappers; may be null when no tool uses a script
     */
    public Pipeline(Map<String, ToolDef> tools, Map<String, CompiledStatement> statements,
                    Map<String, Connector> connectors, Map<String, AuthCheck> authChecks, ResultCache cache,
                    ScriptInvoker scripts) {
        this(tools, statements, connectors, authChecks, cache, scripts, Telemetry.NONE);
    }

    /** @param telemetry spans per call and stage, and call and cache counters */
    public Pipeline(Map<String, ToolDef> tools, Map<String, CompiledStatement> statements,
                    Map<String, Connector> connectors, Map<String, AuthCheck> authChecks, ResultCache cache,
                    ScriptInvoker scripts, Telemetry telemetry) {
        this(tools, Map.of(), statements, connectors, authChecks, cache, scripts, telemetry);
    }

    /**
     * @param derived    the project's derived tools (statements of resource templates and
     *                   completions), run by {@link #executeDerived}
     * @param authChecks auth checks by tool name, and by the access key of each prompt and
     *                   resource that has an auth block
     */
    public Pipeline(Map<String, ToolDef> tools, Map<String, ToolDef> derived, Map<String, CompiledStatement> statements,
                    Map<String, Connector> connectors, Map<String, AuthCheck> authChecks, ResultCache cache,
                    ScriptInvoker scripts, Telemetry telemetry) {
        this(tools, derived, statements, connectors, authChecks, cache, scripts, telemetry, Map.of(), Map.of());
    }

    /**
     * @param described   the result columns of database tools' statements, by tool name, as their
     *                    databases described them (a tool absent here has no output shape unless it
     *                    declares one)
     * @param unavailable by tool name, database tools whose statement did not prepare when the
     *                    project was loaded, with why (their callers get an execution error saying so)
     */
    public Pipeline(Map<String, ToolDef> tools, Map<String, ToolDef> derived, Map<String, CompiledStatement> statements,
                    Map<String, Connector> connectors, Map<String, AuthCheck> authChecks, ResultCache cache,
                    ScriptInvoker scripts, Telemetry telemetry, Map<String, ResultColumns> described,
                    Map<String, String> unavailable) {
        // in name order, once: tools/list pages through them in a stable order without sorting per request
        this.tools = java.util.Collections.unmodifiableMap(new java.util.LinkedHashMap<>(new java.util.TreeMap<>(tools)));
        this.outputs = outputShapes(this.tools, described);
        this.derived = Map.copyOf(derived);
        this.unavailable = Map.copyOf(unavailable);
        this.statements = Map.copyOf(statements);
        this.connectors = Map.copyOf(connectors);
        this.authChecks = Map.copyOf(authChecks);
        this.perToolChecks = authChecks.values().stream().anyMatch(AuthCheck::perTool);
        this.cache = cache;
        this.scripts = scripts;
        this.tracing = telemetry.tracing();
        this.metrics = telemetry.metrics();
    }

    public Future<ToolResult> execute(String toolName, JsonObject inputs, CallContext context) {
        return execute(tools.get(toolName), toolName, inputs, context);
    }

    /**
     * Runs a derived tool (a resource template's or a completion's statement) through the same
     * stages as a tool: auth, validation, cache, connector, row limit.
     */
    public Future<ToolResult> executeDerived(String name, JsonObject inputs, CallContext context) {
        return execute(derived.get(name), name, inputs, context);
    }

    /**
     * Whether the caller passes the auth check known by {@code key} (a prompt's or resource's
     * access key, or a tool name); true when there is none. Fails with the auth stage's
     * {@link ToolException} when it does not, so callers can tell why.
     */
    public Future<Caller> admit(String key, CallContext context) {
        AuthCheck check = authChecks.get(key);
        if (check == null) {
            return Future.succeededFuture(Caller.ANONYMOUS);
        }
        return context.decidedBy(check, key).recover(e -> Future.failedFuture(e instanceof AuthDeniedException
                ? new ToolException(Stage.AUTH, null, "auth failed: " + e.getMessage())
                : new ToolException(Stage.AUTH, ToolException.TOOL_FAILURE, null, "auth failed: internal error", e)));
    }

    private Future<ToolResult> execute(ToolDef tool, String toolName, JsonObject inputs, CallContext context) {
        long started = System.nanoTime();
        // a name no tool has comes from the caller: it never names a span or a metric
        TraceSpan call = !tracing.enabled() ? TraceSpan.NONE
                : tracing.start(tool == null ? "execute" : "execute " + tool.name());
        call.set(TOOL, tool == null ? shown(toolName) : tool.name());
        // only for the web console: what it shows of the call, gathered along it
        ConsoleCall console = metrics.recordsCalls() ? new ConsoleCall(inputs) : null;
        if (tool == null) {
            return finished(null, toolName, call, started, null, console, context,
                    Future.failedFuture(ToolException.notFound(toolName)));
        }
        if (tracing.includeInputs() && call.recording()) {
            call.set("hyperterse.inputs", TracedInputs.of(inputs));
        }
        Future<Caller> authenticated = authChecks.containsKey(tool.name())
                ? stage(call, tool, Stage.AUTH, span -> authenticate(tool, context))
                : authenticate(tool, context);
        Future<ToolResult> result = then(authenticated, caller ->
                then(then(then(tool.inputMapper() == null ? mapInputs(tool, inputs, caller, context)
                                        : stage(call, tool, Stage.INPUT_TRANSFORM,
                                                span -> mapInputs(tool, inputs, caller, context)),
                                mapped -> stage(call, tool, Stage.INPUT_VALIDATION,
                                        span -> validate(tool, mapped))),
                        values -> stage(call, tool, tool.isDatabaseTool() ? Stage.EXECUTION : Stage.HANDLER,
                                span -> tracing.within(span, () -> run(tool, values, caller, context, span,
                                        console)))),
                        rows -> tool.outputMapper() == null ? mapOutput(tool, rows, caller, context)
                                : stage(call, tool, Stage.OUTPUT_TRANSFORM,
                                        span -> mapOutput(tool, rows, caller, context))))
                .map(mapped -> checkOutput(tool, mapped));
        if (!tool.invalidates().isEmpty()) {
            result = result.onSuccess(ignored -> cache.invalidateTools(tool.invalidates()));
        }
        return finished(tool, toolName, call, started, authenticated, console, context, result);
    }

    /**
     * The inputs checked and coerced: here when that is quick, on a worker when the tool matches
     * patterns against a call carrying much text (see {@link InputValidator#heavy}).
     */
    private static Future<Map<String, Object>> validate(ToolDef tool, JsonObject inputs) {
        Context context = Vertx.currentContext();
        if (context == null || !Context.isOnEventLoopThread() || !InputValidator.heavy(tool, inputs.getMap())) {
            return Future.succeededFuture(InputValidator.validate(tool, inputs));
        }
        return context.executeBlocking(() -> InputValidator.validate(tool, inputs), false);
    }

    /**
     * {@code next} applied to the future's value: at once when the value is there already (the
     * stages without I/O: no auth, no mapper, validation), else when it comes. The same outcome
     * as {@link Future#compose}, without a listener and a promise per stage.
     */
    private static <T, U> Future<U> then(Future<T> future, Function<T, Future<U>> next) {
        if (!future.succeeded()) {
            return future.compose(next);
        }
        try {
            return next.apply(future.result());
        } catch (RuntimeException e) {
            return Future.failedFuture(e);
        }
    }

    /** Runs one stage in its own span ({@code hyperterse.<stage>}) under the call's span. */
    private <T> Future<T> stage(TraceSpan call, ToolDef tool, Stage stage, Function<TraceSpan, Future<T>> work) {
        if (!tracing.enabled()) {
            try {
                return work.apply(TraceSpan.NONE);
            } catch (RuntimeException e) {
                return Future.failedFuture(e);
            }
        }
        TraceSpan span = tracing.start("hyperterse." + stage.key(), call);
        span.set(STAGE, stage.key()).set(TOOL, tool.name());
        Future<T> running;
        try {
            running = work.apply(span);
        } catch (RuntimeException e) {
            running = Future.failedFuture(e);
        }
        return running.andThen(ar -> {
            if (ar.failed()) {
                span.fail(stage.key(), BoundedText.cut(ar.cause().getMessage(), BoundedText.MESSAGE_CHARS));
            }
            span.end();
        });
    }

    /**
     * Ends the call's span, counts the call, and logs it once when it failed.
     *
     * @param console what the web console shows of the call, or null when it is off
     */
    private Future<ToolResult> finished(ToolDef tool, String toolName, TraceSpan call, long started,
                                        Future<Caller> caller, ConsoleCall console, CallContext context,
                                        Future<ToolResult> result) {
        return result.andThen(ar -> {
            // a script that asked its client in an input round ended there: the question is the answer
            boolean asked = ar.failed() && context.reach().answersLater();
            String outcome = ar.succeeded() ? "ok" : asked ? ClientReach.INPUT_REQUIRED
                    : ar.cause() instanceof ToolException ? ((ToolException) ar.cause()).stage().key() : "internal";
            long nanos = System.nanoTime() - started;
            metrics.toolCall(tool == null ? "unknown" : tool.name(), outcome, nanos);
            if (console != null) {
                // its recent calls, inputs as traces show them when it reads them
                metrics.callFinished(tool == null ? "unknown" : tool.name(),
                        caller != null && caller.succeeded() ? caller.result().subject() : null,
                        tool == null ? null : console.ended(), outcome,
                        ar.succeeded() ? null : ar.cause() instanceof ToolException
                                ? BoundedText.cut(ar.cause().getMessage(), BoundedText.MESSAGE_CHARS) : "internal error",
                        console.cache(), nanos);
            }
            if (ar.succeeded()) {
                call.set("hyperterse.rows", ar.result().rows().size());
            } else if (asked) {
                call.set("hyperterse.outcome", ClientReach.INPUT_REQUIRED);
            } else {
                call.fail(outcome, BoundedText.cut(ar.cause().getMessage(), BoundedText.MESSAGE_CHARS));
                logFailure(tool == null ? shown(toolName) : tool.name(), ar.cause());
            }
            call.end();
        });
    }

    private Future<Caller> authenticate(ToolDef tool, CallContext context) {
        AuthCheck check = authChecks.get(tool.name());
        if (check == null) {
            return Future.succeededFuture(Caller.ANONYMOUS);
        }
        return context.decidedBy(check, tool.name()).recover(e -> Future.failedFuture(
                (e instanceof AuthDeniedException
                        ? new ToolException(Stage.AUTH, tool.name(), "auth failed: " + e.getMessage())
                        : unexpected(Stage.AUTH, tool, e)).asAuthCheckRefusal()));
    }

    private static List<Object> namedValues(Map<String, Object> values) {
        List<Object> named = new ArrayList<>(values.size() * 2);
        values.forEach((name, value) -> {
            named.add(name);
            named.add(value);
        });
        return named;
    }

    private Future<JsonObject> mapInputs(ToolDef tool, JsonObject inputs, Caller caller, CallContext context) {
        if (tool.inputMapper() == null) {
            return Future.succeededFuture(inputs);
        }
        JsonObject payload = withCaller(tool, caller, new JsonObject().put("inputs", inputs).put("tool", tool.path()));
        return callScript(tool, tool.inputMapper(), payload, context, Stage.INPUT_TRANSFORM,
                "input transform failed for tool " + tool.name() + ": ")
                .map(out -> {
                    if (out instanceof JsonObject) {
                        return (JsonObject) out;
                    }
                    throw new ToolException(Stage.INPUT_TRANSFORM, tool.name(), "input transform failed for tool "
                            + tool.name() + ": the mapper must return an object of inputs");
                });
    }

    /** @param console what the web console shows of the call (its cache lookup), or null when it is off */
    private Future<ToolResult> run(ToolDef tool, Map<String, Object> values, Caller caller, CallContext context,
                                   TraceSpan span, ConsoleCall console) {
        Future<Void> cancellation = context.cancellation();
        int rowLimit = tool.limits().rowLimit();
        long byteLimit = tool.limits().resultMaxBytes();
        if (!tool.isDatabaseTool()) {
            JsonObject payload = withCaller(tool, caller, new JsonObject()
                    .put("inputs", new JsonObject(new java.util.LinkedHashMap<>(values))).put("tool", tool.path()));
            // a handler may answer differently per caller, so its cache entries are per caller
            // names are part of the key: a handler with open inputs may get {a: 1} or {b: 1}
            boolean[] loaded = {false};
            java.util.function.Supplier<Future<CachedRows>> load = () -> {
                loaded[0] = true;
                return callScript(tool, tool.handler(), payload, context, Stage.HANDLER,
                        "handler script failed for tool " + tool.name() + ": ")
                        .map(out -> withinSizeLimit(tool, out));
            };
            Future<CachedRows> handled = !tool.cache().active() ? load.get()
                    : cache.getOrLoad(new CacheKey(tool.name(), "handler " + tool.handler(), namedValues(values),
                            tool.auth() == null ? null : identity(caller)), tool.cache(), load);
            cacheLookup(tool, span, loaded[0], console);
            return handled.map(rows -> new ToolResult(rows.rows(), rows.cut(), rowLimit, byteLimit, null,
                    rows.content()));
        }
        String whyUnavailable = unavailable.get(tool.name());
        if (whyUnavailable != null) {
            return Future.failedFuture(new ToolException(Stage.EXECUTION, tool.name(), "execution failed: "
                    + whyUnavailable));
        }
        CompiledStatement statement = statements.get(tool.name());
        Connector connector = connectors.get(tool.use());
        List<Object> bound = new ArrayList<>(statement.parameters().size());
        for (CompiledStatement.Parameter p : statement.parameters()) {
            if (p.source() == CompiledStatement.Source.INPUT) {
                bound.add(values.get(p.name()));
            } else {
                Object claim = caller.claims().get(p.name());
                if (claim == null) {
                    return Future.failedFuture(new ToolException(Stage.AUTH, tool.name(),
                            "auth failed: the caller's token has no '" + p.name() + "' claim"));
                }
                bound.add(claim);
            }
        }
        span.set("hyperterse.adapter", tool.use());
        if (!tool.cache().active()) {
            QueryOptions options = new QueryOptions(rowLimit, byteLimit, tool.limits().statementTimeout(), cancellation);
            return connector.execute(statement, bound, options).transform(ar -> ar.succeeded()
                    ? Future.succeededFuture(new ToolResult(ar.result().rows(), ar.result().cut(), rowLimit, byteLimit))
                    : Future.failedFuture(executionFailure(tool, ar.cause())));
        }
        // claims are among the bound values, so rows filtered by the caller are cached per caller
        CacheKey key = new CacheKey(tool.name(), tool.statement(), bound, null);
        boolean[] loaded = {false};
        Future<CachedRows> rows = sharedLoad(new CachedStatement(tool, key, connector, statement, bound, rowLimit,
                byteLimit), cancellation, loaded, 0);
        cacheLookup(tool, span, loaded[0], console);
        return rows.transform(ar -> ar.succeeded()
                ? Future.succeededFuture(new ToolResult(ar.result().rows(), ar.result().cut(), rowLimit, byteLimit))
                : Future.failedFuture(executionFailure(tool, ar.cause())));
    }

    /** How often a call tries the cache again after the load it waited on was given up by its other callers. */
    private static final int ABANDONED_LOAD_RETRIES = 2;

    /**
     * A cached statement's rows. Identical calls share one load: it is no one caller's to cancel.
     * This call ends alone when it is cancelled; the statement is cancelled once every call waiting
     * on it has been. A hit waits on nothing and takes no place (the loader runs within getOrLoad,
     * on this thread). A call that joined a load in the instant after its last caller gave it up
     * (the cache still held it) gets rows all the same: it asks the cache again once the cancelled
     * load has left it, and at last runs the statement for itself.
     *
     * @param loaded set when this call starts the load (a miss)
     */
    private Future<CachedRows> sharedLoad(CachedStatement s, Future<Void> cancellation, boolean[] loaded, int attempt) {
        if (attempt > ABANDONED_LOAD_RETRIES) {
            return s.execute(cancellation);
        }
        SharedLoads.Place[] place = {null};
        Future<CachedRows> rows = cache.getOrLoad(s.key(), s.tool().cache(), () -> {
            loaded[0] = true;
            SharedLoads.Place started = sharedLoads.join(s.key());
            place[0] = started;
            return s.execute(started.cancellation())
                    .recover(e -> Future.failedFuture(started.cancellation().succeeded() ? new AbandonedLoad() : e));
        });
        if (rows.isComplete()) {
            if (place[0] != null) {
                place[0].leave(false);
            }
            if (rows.succeeded()) {
                return rows;
            }
        } else {
            SharedLoads.Place waiting = place[0] != null ? place[0] : sharedLoads.join(s.key());
            rows = untilCancelled(rows, cancellation);
            // a cancelled call ends at once (untilCancelled), which is when it leaves, as cancelled
            rows.onComplete(ignored -> waiting.leave(cancellation.succeeded()));
        }
        return rows.recover(e -> {
            if (!(e instanceof AbandonedLoad)) {
                return Future.failedFuture(e);
            }
            if (cancellation.succeeded()) {
                return Future.failedFuture(new ConnectorException("statement cancelled"));
            }
            // the failed load leaves the cache as its failure completes; asked again after that
            io.vertx.core.Context context = io.vertx.core.Vertx.currentContext();
            boolean[] ignored = {false};
            if (context == null) {
                return sharedLoad(s, cancellation, ignored, attempt + 1);
            }
            io.vertx.core.Promise<CachedRows> again = io.vertx.core.Promise.promise();
            context.runOnContext(v -> sharedLoad(s, cancellation, ignored, attempt + 1).onComplete(again));
            return again.future();
        });
    }

    /** A cached statement's call: what runs it, with the values bound and the limits of the tool. */
    private record CachedStatement(ToolDef tool, CacheKey key, Connector connector, CompiledStatement statement,
                                   List<Object> bound, int rowLimit, long byteLimit) {
        /** Runs the statement, stopped by {@code cancellation}. */
        Future<CachedRows> execute(Future<Void> cancellation) {
            QueryOptions options = new QueryOptions(rowLimit, byteLimit, tool.limits().statementTimeout(), cancellation);
            return connector.execute(statement, bound, options).map(r -> new CachedRows(r.rows(), r.cut()));
        }
    }

    /** A shared load's failure once every call waiting on it had cancelled it. */
    private static final class AbandonedLoad extends RuntimeException {
        private static final long serialVersionUID = 1L;

        AbandonedLoad() {
            super("statement cancelled: every call waiting on it was cancelled", null, false, false);
        }
    }

    /** The work's outcome, or a cancelled statement's failure as soon as the caller cancels. */
    private static <T> Future<T> untilCancelled(Future<T> work, Future<Void> cancellation) {
        io.vertx.core.Promise<T> outcome = io.vertx.core.Promise.promise();
        work.onComplete(ar -> {
            if (ar.succeeded()) {
                outcome.tryComplete(ar.result());
            } else {
                outcome.tryFail(ar.cause());
            }
        });
        cancellation.onSuccess(ignored -> outcome.tryFail(new ConnectorException("statement cancelled")));
        return outcome.future();
    }

    private static ToolException executionFailure(ToolDef tool, Throwable e) {
        return e instanceof ConnectorException
                ? new ToolException(Stage.EXECUTION, tool.name(), "execution failed: " + e.getMessage())
                : unexpected(Stage.EXECUTION, tool, e);
    }

    private Future<ToolResult> mapOutput(ToolDef tool, ToolResult result, Caller caller, CallContext context) {
        if (tool.outputMapper() == null) {
            return Future.succeededFuture(result);
        }
        // a handler's content reaches the mapper as the content blocks MCP carries
        JsonObject payload = withCaller(tool, caller, new JsonObject()
                .put("results", result.content() != null ? result.content() : result.rows()).put("tool", tool.path()));
        return callScript(tool, tool.outputMapper(), payload, context, Stage.OUTPUT_TRANSFORM,
                "output transform failed for tool " + tool.name() + ": ")
                .map(out -> {
                    CachedRows mapped = withinSizeLimit(tool, out);
                    return new ToolResult(mapped.rows(), mapped.cut() != ResultCut.NONE ? mapped.cut() : result.cut(),
                            result.rowLimit(), result.byteLimit(), null, mapped.content());
                });
    }

    /**
     * The output shape of each tool that has one: the one it declares, else, for a database tool
     * whose rows reach the caller as the statement returns them (no output mapper), the one its
     * database described.
     */
    private static Map<String, OutputShape> outputShapes(Map<String, ToolDef> tools,
                                                         Map<String, ResultColumns> described) {
        Map<String, OutputShape> out = new java.util.HashMap<>();
        for (ToolDef tool : tools.values()) {
            if (tool.output() != null) {
                out.put(tool.name(), OutputShape.declared(tool.output()));
            } else if (tool.isDatabaseTool() && tool.outputMapper() == null && described.get(tool.name()) != null) {
                out.put(tool.name(), OutputShape.ofColumns(described.get(tool.name())));
            }
        }
        return Map.copyOf(out);
    }

    /**
     * Holds the rows to the tool's output shape. Rows that break a declared shape fail the call,
     * naming the first value that does not fit. Rows that no longer fit the columns described at
     * start-up (the database changed since) are served with the reason, so the text still reaches
     * the caller; the log says so once per tool.
     */
    private ToolResult checkOutput(ToolDef tool, ToolResult result) {
        OutputShape shape = outputs.get(tool.name());
        if (shape == null) {
            return result;
        }
        if (result.content() != null) {
            throw new ToolException(Stage.OUTPUT_VALIDATION, tool.name(), "output validation failed for tool "
                    + tool.name() + ": the result is content (an Image, Text, …), but the tool declares rows of an"
                    + " output shape; declare output: content instead");
        }
        String mismatch = shape.mismatch(result.rows());
        if (mismatch == null) {
            return result;
        }
        if (shape.declared()) {
            throw new ToolException(Stage.OUTPUT_VALIDATION, tool.name(), "output validation failed for tool "
                    + tool.name() + ": the result does not match the declared output: " + mismatch);
        }
        if (driftReported.add(tool.name())) {
            LOG.atWarn().addKeyValue("tool", tool.name()).addKeyValue("reason", BoundedText.cut(mismatch,
                            BoundedText.MESSAGE_CHARS))
                    .log("rows no longer fit the columns described when the statement was prepared (the database"
                            + " changed since?); structured results are left out until the project is reloaded");
        }
        return new ToolResult(result.rows(), result.cut(), result.rowLimit(), result.byteLimit(), mismatch);
    }

    /** The tool's output shape (declared, or described by its database), or null when it has none. */
    public OutputShape outputShape(String toolName) {
        return outputs.get(toolName);
    }

    /**
     * The rows of a handler's or an output mapper's result held to the tool's size limit, as a
     * connector holds a statement's (the row limit is for statements): the rows before the first
     * that does not fit. The script made them already, but the answer and the cache entry stay
     * bounded, and rows past the cut are never made (this runs on the event loop). A result of
     * content (or any result of a tool declaring {@code output: content}) is held the same way,
     * block by block.
     */
    private static CachedRows withinSizeLimit(ToolDef tool, Object result) {
        ResultBudget budget = new ResultBudget(Integer.MAX_VALUE, tool.limits().resultMaxBytes());
        JsonArray kept = new JsonArray();
        if (result instanceof ScriptContent || tool.outputContent()) {
            for (Object block : ScriptContent.fromValue(result).blocks()) {
                if (!budget.admit(block)) {
                    break;
                }
                kept.add(block);
            }
            return new CachedRows(new JsonArray(), budget.cut(), kept);
        }
        ResultCoercion.eachRow(result, row -> {
            if (!budget.admit(row)) {
                return false;
            }
            kept.add(row);
            return true;
        });
        return new CachedRows(kept, budget.cut());
    }

    /**
     * A tool with an auth block tells its scripts who called: {@code auth: { subject, claims }}
     * (subject null and claims empty when the plugin does not identify callers, as api_key).
     */
    private static JsonObject withCaller(ToolDef tool, Caller caller, JsonObject payload) {
        if (tool.auth() == null) {
            return payload;
        }
        return payload.put("auth", new JsonObject().put("subject", caller.subject())
                .put("claims", new JsonObject(new java.util.LinkedHashMap<>(caller.claims()))));
    }

    /** Claims that change with every token of the same caller, so they never split cache entries. */
    private static final java.util.Set<String> PER_TOKEN_CLAIMS = java.util.Set.of("exp", "iat", "nbf", "jti", "auth_time");

    /**
     * Who called, for per-caller cache entries: the subject and the claims that describe the
     * caller (not the token), in a stable order, as one JSON text: no subject (null) and the
     * subject {@code "null"}, or a subject holding what looks like claims, never read the same.
     */
    static String identity(Caller caller) {
        java.util.TreeMap<String, Object> claims = new java.util.TreeMap<>(caller.claims());
        claims.keySet().removeAll(PER_TOKEN_CLAIMS);
        return new JsonArray().add(caller.subject()).add(new JsonObject(new java.util.LinkedHashMap<>(claims))).encode();
    }

    private Future<Object> callScript(ToolDef tool, ScriptRef script, JsonObject payload, CallContext context, Stage stage,
                                      String prefix) {
        Function<Throwable, Future<Object>> wrap = e -> Future.failedFuture(e instanceof ToolException
                ? e : new ToolException(stage, ToolException.TOOL_FAILURE, tool.name(), prefix + shownReason(tool,
                        stage, e), e));
        return scripts.call(tool.name(), script, payload, tool.limits().scriptTimeout(), context.reach()).recover(wrap);
    }

    /**
     * What the caller reads about a failed script: a {@code ToolError}'s message and the runtime's
     * own reasons (time limit, resources) always; the message of any other exception only when the
     * project exposes script errors, else a mask whose error id finds the message in the log.
     */
    private static String shownReason(ToolDef tool, Stage stage, Throwable e) {
        if (tool.exposeScriptErrors() || !(e instanceof ScriptFailure)
                || ((ScriptFailure) e).kind() != ScriptFailure.Kind.THROWN) {
            return e.getMessage();
        }
        String errorId = java.util.UUID.randomUUID().toString();
        LOG.atWarn().addKeyValue("tool", tool.name()).addKeyValue("stage", stage.key())
                .addKeyValue("error_id", errorId).addKeyValue("reason", e.getMessage())
                .log("script error (masked for the caller)");
        return (stage == Stage.HANDLER ? "handler failed" : "script failed") + " (error id " + errorId + ")";
    }

    private static ToolException unexpected(Stage stage, ToolDef tool, Throwable e) {
        LOG.debug("unexpected failure in {} of tool {}", stage.label(), tool.name(), e);
        return new ToolException(stage, ToolException.TOOL_FAILURE, tool.name(),
                stage.label() + " failed: internal error (see the server log)", e);
    }

    /**
     * Whether the result cache answered (the loader did not run: a stored entry, or a load another
     * call had in flight). Only for tools whose cache is on; the loader runs synchronously on a miss.
     */
    private void cacheLookup(ToolDef tool, TraceSpan span, boolean loaded, ConsoleCall console) {
        if (tool.cache().active()) {
            span.set("hyperterse.cache", loaded ? "miss" : "hit");
            metrics.cacheLookup(tool.name(), !loaded);
            if (console != null) {
                console.cacheLookup(!loaded);
            }
        }
    }

    /**
     * One line per failed call, with the tool, the stage and the reason the caller was given, as
     * key-value pairs (fields in JSON logs). The caller's own mistakes are info, failures of the
     * tool itself warnings; causes go to the debug log only.
     */
    private static void logFailure(String tool, Throwable e) {
        if (e instanceof ToolException) {
            ToolException te = (ToolException) e;
            Stage stage = te.stage();
            boolean callersMistake = stage == Stage.RESOLUTION || stage == Stage.AUTH || stage == Stage.INPUT_VALIDATION;
            (callersMistake ? LOG.atInfo() : LOG.atWarn())
                    .addKeyValue("tool", tool).addKeyValue("stage", stage.key()).addKeyValue("reason", te.getMessage())
                    .log("call failed");
            if (te.getCause() != null) {
                LOG.debug("cause of the failed call to {}", tool, te.getCause());
            }
        } else {
            LOG.atWarn().addKeyValue("tool", tool).addKeyValue("stage", "internal")
                    .addKeyValue("reason", BoundedText.cut(String.valueOf(e.getMessage()), BoundedText.MESSAGE_CHARS))
                    .log("call failed");
            LOG.debug("cause of the failed call to {}", tool, e);
        }
    }

    /** A caller-supplied name as logs and spans show it: cut short, without control characters. */
    private static String shown(String name) {
        String cut = name == null ? "" : name.length() > 100 ? name.substring(0, 100) + "…" : name;
        return cut.replaceAll("\\p{Cntrl}", "?");
    }

    /**
     * Which tools this caller may execute, as far as checks that answer the same for every tool
     * can tell, so {@code search} shows only those: each distinct such check runs once, and tools
     * without an auth block are visible to everyone. Tools whose check answers per tool (a
     * script, see {@link #decidedPerTool}) pass here; ask {@link #mayExecute} about them.
     */
    public Future<java.util.function.Predicate<ToolDef>> visibleTo(CallContext context) {
        Map<AuthCheck, Future<Caller>> outcomes = new java.util.IdentityHashMap<>();
        authChecks.forEach((tool, check) -> {
            if (!check.perTool() && tools.containsKey(tool)) {
                outcomes.computeIfAbsent(check, c -> context.decidedBy(c, null));
            }
        });
        if (outcomes.isEmpty()) {
            return Future.succeededFuture(t -> true);
        }
        return Future.join(new ArrayList<>(outcomes.values())).transform(ignored -> {
            java.util.Set<String> hidden = new java.util.HashSet<>();
            authChecks.forEach((tool, check) -> {
                if (!check.perTool() && tools.containsKey(tool) && outcomes.get(check).failed()) {
                    hidden.add(tool);
                }
            });
            return Future.succeededFuture(t -> !hidden.contains(t.name()));
        });
    }

    /** True when the tool's auth check decides per tool (a script), so {@link #visibleTo} cannot. */
    public boolean decidedPerTool(ToolDef tool) {
        AuthCheck check = authChecks.get(tool.name());
        return check != null && check.perTool();
    }

    /** Whether this caller may execute the tool: its auth check, run now. */
    public Future<Boolean> mayExecute(ToolDef tool, CallContext context) {
        AuthCheck check = authChecks.get(tool.name());
        if (check == null) {
            return Future.succeededFuture(true);
        }
        return context.decidedBy(check, tool.name()).transform(ar -> Future.succeededFuture(ar.succeeded()));
    }

    /** True when some tool has an auth check (its own or the project's root one). */
    public boolean guardsAnyTool() {
        return !authChecks.isEmpty();
    }

    /** True when some tool's auth check decides per tool. */
    public boolean hasPerToolChecks() {
        return perToolChecks;
    }

    /** Exposed for the search tool and the server: the tools this pipeline serves, in name order. */
    public Map<String, ToolDef> tools() {
        return tools;
    }
}

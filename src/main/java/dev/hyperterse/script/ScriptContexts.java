package dev.hyperterse.script;

import dev.hyperterse.model.ScriptRef;
import io.vertx.core.json.JsonObject;
import org.graalvm.polyglot.Context;
import org.graalvm.polyglot.Engine;
import org.graalvm.polyglot.EnvironmentAccess;
import org.graalvm.polyglot.HostAccess;
import org.graalvm.polyglot.PolyglotAccess;
import org.graalvm.polyglot.PolyglotException;
import org.graalvm.polyglot.Source;
import org.graalvm.polyglot.SourceSection;
import org.graalvm.polyglot.Value;
import org.graalvm.polyglot.io.IOAccess;
import org.graalvm.polyglot.proxy.ProxyExecutable;

import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * Makes sandboxed contexts for one project's scripts and loads a script module into each.
 *
 * <p>The sandbox: no host access at all (no {@code Java.type}, no host classes or objects, no
 * {@code Polyglot}), no {@code load}/{@code print}, no threads, processes, native code or
 * environment variables; the only file system is {@link ModuleFileSystem}, read-only and
 * limited to the project folder. What a script gets: {@code console}, {@code fetch} and
 * {@code process.env} holding only the values a tool passes in.
 */
final class ScriptContexts {
    private static final String MODULE = "application/javascript+module";

    private final ScriptEngine engine;
    private final ModuleFileSystem files;
    private final ScriptFetch fetch;
    /**
     * @param fetch the HTTP client behind {@code fetch}; null where no call will run (checking a
     *              project), so {@code fetch} rejects
     */
    ScriptContexts(ScriptEngine engine, Path projectDir, Collection<Path> moduleFolders, ScriptFetch fetch)
            throws IOException {
        this.engine = engine;
        this.files = new ModuleFileSystem(projectDir, moduleFolders, engine.typescript());
        this.fetch = fetch;
    }

    /** The project folder's real path, as the module file system serves it. */
    Path root() {
        return files.root();
    }

    /** The module files scripts load through (to see which files a load read). */
    ModuleFileSystem files() {
        return files;
    }

    /**
     * A fresh context with the script's module graph loaded and its export checked. Loading runs
     * the top-level code of the script and of every module it imports; should it still run when
     * {@code limit} has passed, {@code watchdog} cancels it and this fails with a {@link ScriptLoadException} that
     * {@linkplain ScriptLoadException#timedOut() timed out}.
     *
     * @param env   the environment values the tool passes in, as {@code process.env}
     * @param limit how long the top-level code may run, counted from the script's own code (what
     *              is loaded before it, the sandbox's globals, is the server's and does not count)
     */
    LoadedScript load(ScriptRef script, Map<String, String> env, Duration limit,
                      ScheduledExecutorService watchdog) throws ScriptLoadException {
        Path file = script.file();
        String code = moduleCode(file);
        Context context = newContext();
        LoadedScript loaded = new LoadedScript(context, displayName(file), files.root().toString());
        // RUNNING until whichever comes first: the load ends (DONE) or the watchdog cancels it (CANCELLED)
        AtomicInteger state = new AtomicInteger(RUNNING);
        ScheduledFuture<?> timer = null;
        try {
            CommonJsLoader commonJs = new CommonJsLoader(files);
            Value helpers = context.eval(engine.bootstrap())
                    .execute(consoleFor(loaded), fetchFor(loaded), new JsonObject(Map.copyOf(env)).encode(),
                            commonJs.resolve(), commonJs.load(), ScriptConsole.LINE_CHARS, waitFor(loaded),
                            BASE64, clientFor(loaded));
            context.eval(engine.webGlobals()).execute(RANDOM_BYTES, DIGEST, setTimerFor(loaded), clearTimerFor(loaded),
                    LoadedScript.MAX_PENDING_TIMERS);
            timer = watchdog.schedule(() -> {
                if (state.compareAndSet(RUNNING, CANCELLED)) {
                    loaded.cancel();
                }
            }, limit.toNanos(), TimeUnit.NANOSECONDS);
            // the last statement of the script's top-level code reports that it ran: it runs once
            // the code above it, and every module the script imports, finished, awaits included
            AtomicBoolean evaluated = new AtomicBoolean();
            Value globals = context.getBindings("js");
            globals.putMember(EVALUATED, (ProxyExecutable) args -> {
                evaluated.set(true);
                return null;
            });
            Value namespace = context.eval(Source.newBuilder("js", file.toFile())
                    .content(code + "\n;globalThis." + EVALUATED + "();").mimeType(MODULE).build());
            globals.removeMember(EVALUATED);
            if (!evaluated.get()) {
                // a top-level await nothing settled while loading (what a call would settle: a
                // timer, a fetch); its exports may be unbound, or bound (a hoisted function) in a
                // module whose remaining code never ran
                throw new ScriptLoadException(file, 0, 0, "its top-level code (or that of a module it imports) awaits"
                        + " something that had not settled when loading ended: timers and fetch run within calls,"
                        + " not while a script loads");
            }
            Value export = namespace.getMember(script.exportName());
            if (export == null || export.isNull()) {
                throw new ScriptLoadException(file, 0, 0, "has no export '" + script.exportName() + "'"
                        + exportsOf(namespace));
            }
            if (!export.canExecute()) {
                throw new ScriptLoadException(file, 0, 0, "export '" + script.exportName()
                        + "' is not a function (a script exports the function to call)");
            }
            if (!state.compareAndSet(RUNNING, DONE)) {
                throw ScriptLoadException.timedOut(file, limit);
            }
            loaded.bind(export, helpers);
            return loaded;
        } catch (IOException | ScriptLoadException | RuntimeException e) {
            loaded.cancel();
            if (!ended(state)) {
                // the watchdog cancelled the load: what failed under it (a cancelled evaluation, a
                // context closed under the load) is its doing
                throw ScriptLoadException.timedOut(file, limit);
            }
            throw loadFailed(file, e);
        } finally {
            if (timer != null) {
                timer.cancel(false);
            }
        }
    }

    /** The global the script's last statement calls to report that its top-level code finished (removed then). */
    private static final String EVALUATED = "__hyperterseModuleEvaluated";

    private static final int RUNNING = 0;
    private static final int DONE = 1;
    private static final int CANCELLED = 2;

    /** Marks a failed load over; false when the watchdog had cancelled it (its time ran out) first. */
    private static boolean ended(AtomicInteger state) {
        return state.compareAndSet(RUNNING, DONE) || state.get() == DONE;
    }

    /** What a load that failed by itself (not cancelled) says: the engine's error, a file not read, or as it was. */
    private ScriptLoadException loadFailed(Path file, Exception e) {
        if (e instanceof PolyglotException) {
            return files.withPackageNamed(loadFailure(file, (PolyglotException) e));
        }
        if (e instanceof IOException) {
            return new ScriptLoadException(file, 0, 0, "cannot read: " + e.getMessage());
        }
        if (e instanceof ScriptLoadException) {
            return (ScriptLoadException) e;
        }
        throw (RuntimeException) e;
    }

    private String moduleCode(Path file) throws ScriptLoadException {
        String text;
        try {
            text = Files.readString(file, StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new ScriptLoadException(file, 0, 0, "cannot read the script: " + e.getMessage());
        }
        return TypeScriptStripper.isTypeScript(file) ? engine.typescript().strip(file, text) : text;
    }

    private Context newContext() {
        return sandbox(engine.engine())
                .allowIO(IOAccess.newBuilder().fileSystem(files).build())
                // evaluating a module returns its namespace: how the export is found
                .allowExperimentalOptions(true)
                .option("js.esm-eval-returns-exports", "true")
                .option("js.load", "false")
                .option("js.print", "false")
                .option("js.console", "false")
                .option("js.polyglot-builtin", "false")
                .option("js.graal-builtin", "false")
                .option("js.java-package-globals", "false")
                .build();
    }

    /**
     * A context on the shared engine with nothing of the host: no host access or class lookup, no
     * polyglot access, threads, processes, native code, environment or I/O (callers that load
     * modules add their file system), and no standard streams. Every context on the engine has
     * these same host settings (GraalJS requires equal host access across a shared engine).
     */
    static Context.Builder sandbox(Engine engine) {
        return Context.newBuilder("js")
                .engine(engine)
                .allowHostAccess(HostAccess.NONE)
                .allowHostClassLookup(className -> false)
                .allowHostClassLoading(false)
                .allowPolyglotAccess(PolyglotAccess.NONE)
                .allowCreateThread(false)
                .allowCreateProcess(false)
                .allowNativeAccess(false)
                .allowEnvironmentAccess(EnvironmentAccess.NONE)
                .allowIO(IOAccess.NONE)
                .in(new ByteArrayInputStream(new byte[0]))
                .out(OutputStream.nullOutputStream())
                .err(OutputStream.nullOutputStream());
    }

    private static ProxyExecutable consoleFor(LoadedScript loaded) {
        return args -> {
            loaded.console().write(args[0].asString(), args[1].asString());
            return null;
        };
    }

    /**
     * {@code hostFetch(url, method, headersJson, body, onResponse, onError)}: starts the request
     * and queues the callback for the thread running the call.
     */
    private ProxyExecutable fetchFor(LoadedScript loaded) {
        return args -> {
            Value onResponse = args[4];
            Value onError = args[5];
            if (fetch == null) {
                onError.execute("fetch is not available here");
                return null;
            }
            Duration left = loaded.remaining();
            if (left.isNegative() || left.isZero()) {
                onError.execute("fetch is only available while the script handles a call");
                return null;
            }
            String method = args[1].asString().toUpperCase(Locale.ROOT);
            if (!ScriptFetch.isMethod(method)) {
                onError.execute("'" + method + "' is not a valid HTTP method");
                return null;
            }
            long call = loaded.currentCall();
            String body = args[3].isNull() ? null : args[3].asString();
            JsonObject headers;
            try {
                headers = new JsonObject(args[2].asString());
            } catch (RuntimeException e) {
                onError.execute("the headers are not a plain object");
                return null;
            }
            loaded.track(call, fetch.send(args[0].asString(), method, headers, body, left,
                    response -> loaded.postFor(call, () -> onResponse.execute(response.status(),
                            response.statusText(), response.headersJson(), response.body(), response.url())),
                    message -> loaded.postFor(call, () -> onError.execute(message))));
            return null;
        };
    }

    /** The most bytes one {@code Image}, {@code Audio} or {@code BlobResource} call turns into base64. */
    static final int MAX_CONTENT_BYTES = 64 << 20;

    /**
     * {@code hostBase64(arrayBuffer, offset, length)}: the bytes as base64, read from the buffer in
     * one piece (no per-byte calls between the script and the host).
     */
    private static final ProxyExecutable BASE64 = args -> {
        Value buffer = args[0];
        long offset = args[1].asLong();
        long length = args[2].asLong();
        if (!buffer.hasBufferElements() || offset < 0 || length < 0 || offset + length > buffer.getBufferSize()) {
            throw new IllegalArgumentException("not a byte range of an ArrayBuffer");
        }
        if (length > MAX_CONTENT_BYTES) {
            throw new IllegalArgumentException("content of " + length + " bytes is larger than the "
                    + (MAX_CONTENT_BYTES >> 20) + " MB one value may hold");
        }
        byte[] bytes = new byte[(int) length];
        buffer.readBuffer(offset, bytes, 0, (int) length);
        return java.util.Base64.getEncoder().encodeToString(bytes);
    };

    /**
     * {@code hostClient(kind, paramsJson, onAnswer, onFailure)}: the handler's {@code ctx}. Logs and
     * progress go to the current call's client at once; a question ({@link ClientReach#ask}) answers
     * through the callbacks, queued for the thread running the call. Returns {@code "!message"}
     * when it cannot be done at all, which the sandbox throws.
     */
    private static ProxyExecutable clientFor(LoadedScript loaded) {
        return args -> {
            Duration left = loaded.remaining();
            String kind = args[0].asString();
            if (left.isNegative() || left.isZero()) {
                return "!ctx." + kind + " is only available while the script handles a call";
            }
            JsonObject params;
            try {
                params = new JsonObject(args[1].asString());
            } catch (RuntimeException e) {
                return "!ctx." + kind + ": the arguments are not JSON";
            }
            ClientReach reach = loaded.reach();
            switch (kind) {
                case "log":
                    reach.log(params.getString("level"), params.getString("message"), params.getValue("data"));
                    return null;
                case "progress":
                    reach.progress(params.getDouble("progress"), params.getDouble("total"), params.getString("message"));
                    return null;
                case ClientReach.READ_RESOURCE:
                case ClientReach.ELICIT:
                case ClientReach.SAMPLE:
                    Value onAnswer = args[2];
                    Value onFailure = args[3];
                    String key = args.length > 4 && args[4].isString() ? args[4].asString() : null;
                    if (key != null && !ClientReach.KEY.matcher(key).matches()) {
                        return "!ctx." + kind + ": key must be 1 to 64 letters, digits or _ . : -";
                    }
                    long call = loaded.currentCall();
                    reach.ask(kind, params, key).onComplete(ar -> loaded.postFor(call, () -> {
                        if (ar.succeeded()) {
                            onAnswer.execute(ar.result().encode());
                        } else {
                            onFailure.execute("ctx." + kind + ": " + ar.cause().getMessage());
                        }
                    }));
                    return null;
                default:
                    return "!ctx: unknown operation " + kind;
            }
        };
    }

    private static final java.security.SecureRandom RANDOM = new java.security.SecureRandom();
    /** {@code hostRandomBytes(n)}: n bytes (n ≤ 65536, checked by the caller) from the JDK's SecureRandom. */
    private static final ProxyExecutable RANDOM_BYTES = args -> {
        int n = args[0].asInt();
        if (n < 0 || n > 65536) {
            throw new IllegalArgumentException("random bytes: " + n);
        }
        byte[] bytes = new byte[n];
        RANDOM.nextBytes(bytes);
        return unsignedArray(bytes);
    };
    /** {@code hostDigest(algorithm, bytes)}: a SHA-1/256/384/512 digest by the JDK's MessageDigest. */
    private static final ProxyExecutable DIGEST = args -> {
        java.security.MessageDigest digest;
        try {
            digest = java.security.MessageDigest.getInstance(args[0].asString());
        } catch (java.security.NoSuchAlgorithmException e) {
            throw new IllegalArgumentException(e.getMessage(), e);
        }
        Value input = args[1];
        long size = input.getArraySize();
        byte[] chunk = new byte[(int) Math.min(size, 8192)];
        for (long i = 0; i < size; ) {
            int n = (int) Math.min(chunk.length, size - i);
            for (int k = 0; k < n; k++) {
                chunk[k] = (byte) input.getArrayElement(i + k).asInt();
            }
            digest.update(chunk, 0, n);
            i += n;
        }
        return unsignedArray(digest.digest());
    };

    private static org.graalvm.polyglot.proxy.ProxyArray unsignedArray(byte[] bytes) {
        Object[] out = new Object[bytes.length];
        for (int i = 0; i < bytes.length; i++) {
            out[i] = bytes[i] & 0xff;
        }
        return org.graalvm.polyglot.proxy.ProxyArray.fromArray(out);
    }

    /**
     * {@code hostSetTimer(ms, callback)}: the callback runs on the thread running the current call
     * after {@code ms}; the timer is dropped when the call ends. Returns its id, -1 outside a call,
     * or {@link LoadedScript#TOO_MANY_TIMERS}.
     */
    private static ProxyExecutable setTimerFor(LoadedScript loaded) {
        return args -> loaded.setTimer(args[0].asLong(), args[1]);
    }

    /** {@code hostClearTimer(id)}: cancels a timer this script's current call set; any other id is left alone. */
    private static ProxyExecutable clearTimerFor(LoadedScript loaded) {
        return args -> {
            if (args[0].fitsInLong()) {
                loaded.clearTimer(args[0].asLong());
            }
            return null;
        };
    }

    /**
     * {@code hostWait(done)}: runs this call's queued work (fetch responses) on the thread running
     * the call until {@code done()} is true; false when the call's time ran out first.
     */
    private static ProxyExecutable waitFor(LoadedScript loaded) {
        return args -> {
            Value done = args[0];
            return loaded.runTasksUntil(() -> done.execute().asBoolean());
        };
    }

    /** How messages name a script: relative to the project folder. */
    String displayName(Path file) {
        Path root = files.root();
        Path real;
        try {
            real = file.toRealPath();
        } catch (IOException e) {
            real = file;
        }
        return real.startsWith(root) ? root.relativize(real).toString() : file.toString();
    }

    private static String exportsOf(Value namespace) {
        List<String> names = new ArrayList<>(namespace.getMemberKeys());
        return names.isEmpty() ? " (it exports nothing)" : " (it exports: " + String.join(", ", names) + ")";
    }

    /**
     * A load failure at the position GraalJS reports (a syntax error, a failed import). A syntax
     * error keeps GraalJS's first line and drops the source excerpt after it.
     */
    static ScriptLoadException loadFailure(Path entry, PolyglotException e) {
        String message = String.valueOf(e.getMessage());
        if (e.isSyntaxError()) {
            message = ScriptErrors.withoutSource(message);
        }
        if (e.isHostException() || e.isInternalError()) {
            message = "internal error while loading: " + message;
        }
        SourceSection at = e.getSourceLocation();
        if (at != null && at.getSource() != null && at.getSource().getPath() != null && !at.getSource().isInternal()) {
            return new ScriptLoadException(Path.of(at.getSource().getPath()), at.getStartLine(), at.getStartColumn(),
                    message);
        }
        return new ScriptLoadException(entry, 0, 0, message);
    }
}

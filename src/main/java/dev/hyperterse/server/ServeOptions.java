package dev.hyperterse.server;

import dev.hyperterse.mcp.McpExtension;
import dev.hyperterse.project.ConfigProblem;
import dev.hyperterse.project.Project;
import dev.hyperterse.telemetry.TelemetrySetup;

import java.time.Clock;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.Callable;
import java.util.concurrent.CompletionStage;
import java.util.function.Supplier;

/**
 * How the server runs besides its project's settings.
 *
 * @param mcpExtension        what MCP serves besides the project's definitions (the conformance
 *                            suite's fixtures with {@code start --conformance-fixtures}); none by default
 * @param clock               the time sessions idle by (tests use their own)
 * @param telemetry           traces and metrics (the Vert.x instance should come from the same
 *                            setup, so its HTTP and SQL clients report into it); the caller closes it
 * @param recompile           compiles the project folder again, for {@link HyperterseServer#reload()}
 *                            (blocking; run on a worker); null: the server cannot reload
 * @param watchInterval       how often to scan the project folder for changes and reload
 * @param scriptEngine        the GraalJS engine scripts run on (shared across reloads); null to
 *                            let each version start its own
 *                            ({@code start --watch}); null: no watching
 * @param strictStatements    a statement its database does not prepare stops start-up and fails a
 *                            reload ({@code start --strict}); off by default, as in Hyperterse: that
 *                            tool answers an error saying so and the others serve
 * @param scriptsChecked      the project's scripts passed their checks before the start (as {@code start}
 *                            checks them): the server then serves without waiting for their warm-up, a
 *                            call to a script not ready yet waiting for it. Off by default: the server
 *                            serves once every script is loaded, and one that does not load stops the
 *                            start. Reloads always wait (the running version serves meanwhile)
 * @param scriptChecks        checks the project's scripts (blocking or not; called once, when the
 *                            server listens): until they pass the server serves its other tools,
 *                            {@code /ready} answers 503 {@code starting} and a call to a script
 *                            waits for it; their problems are {@link HyperterseServer#scriptChecks()}'s
 *                            to report. Null: none to wait for
 */
public record ServeOptions(McpExtension mcpExtension, Clock clock, TelemetrySetup telemetry,
                           Callable<Project> recompile, Duration watchInterval,
                           dev.hyperterse.script.ScriptEngine scriptEngine, boolean strictStatements,
                           boolean scriptsChecked,
                           Supplier<CompletionStage<List<ConfigProblem>>> scriptChecks) {
    public static final ServeOptions DEFAULTS =
            new ServeOptions(McpExtension.NONE, Clock.systemUTC(), TelemetrySetup.disabled(), null, null, null, false,
                    false, null);

    public ServeOptions withMcpExtension(McpExtension extension) {
        return new ServeOptions(extension, clock, telemetry, recompile, watchInterval, scriptEngine, strictStatements,
                scriptsChecked, scriptChecks);
    }

    public ServeOptions withClock(Clock newClock) {
        return new ServeOptions(mcpExtension, newClock, telemetry, recompile, watchInterval, scriptEngine,
                strictStatements, scriptsChecked, scriptChecks);
    }

    public ServeOptions withTelemetry(TelemetrySetup setup) {
        return new ServeOptions(mcpExtension, clock, setup, recompile, watchInterval, scriptEngine,
                strictStatements, scriptsChecked, scriptChecks);
    }

    /** Lets the server reload: on {@link HyperterseServer#reload()}, and every {@code interval} when not null. */
    public ServeOptions withReloads(Callable<Project> compile, Duration interval) {
        return new ServeOptions(mcpExtension, clock, telemetry, compile, interval, scriptEngine,
                strictStatements, scriptsChecked, scriptChecks);
    }

    /** The process's script engine (shared by every version the server serves); null: each starts its own. */
    public ServeOptions withScriptEngine(dev.hyperterse.script.ScriptEngine engine) {
        return new ServeOptions(mcpExtension, clock, telemetry, recompile, watchInterval, engine,
                strictStatements, scriptsChecked, scriptChecks);
    }

    /** Whether a statement that does not prepare stops start-up (and fails a reload). */
    public ServeOptions withStrictStatements(boolean strict) {
        return new ServeOptions(mcpExtension, clock, telemetry, recompile, watchInterval, scriptEngine, strict,
                scriptsChecked, scriptChecks);
    }

    /**
     * Whether the project's scripts were checked before the start, so the server may serve while
     * they are loaded (see {@code scriptsChecked}).
     */
    public ServeOptions withScriptsChecked(boolean checked) {
        return new ServeOptions(mcpExtension, clock, telemetry, recompile, watchInterval, scriptEngine,
                strictStatements, checked, scriptChecks);
    }

    /**
     * Serves at once and checks the project's scripts once listening (see {@code scriptChecks}),
     * loading them lazily afterwards as with {@link #withScriptsChecked}.
     */
    public ServeOptions withScriptChecks(Supplier<CompletionStage<List<ConfigProblem>>> checks) {
        return new ServeOptions(mcpExtension, clock, telemetry, recompile, watchInterval, scriptEngine,
                strictStatements, true, checks);
    }
}

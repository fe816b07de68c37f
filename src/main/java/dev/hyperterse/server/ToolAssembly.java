package dev.hyperterse.server;

import dev.hyperterse.auth.AuthCheck;
import dev.hyperterse.auth.AuthPlugins;
import dev.hyperterse.auth.AuthPolicyException;
import dev.hyperterse.connector.CompiledStatement;
import dev.hyperterse.connector.ConnectorFactory;
import dev.hyperterse.connector.Connectors;
import dev.hyperterse.connector.StatementException;
import dev.hyperterse.model.AdapterDef;
import dev.hyperterse.model.AuthDef;
import dev.hyperterse.model.ProjectConfig;
import dev.hyperterse.model.ScriptRef;
import dev.hyperterse.model.SourceLocation;
import dev.hyperterse.model.ToolDef;
import dev.hyperterse.project.ConfigProblem;
import dev.hyperterse.project.DisplayPaths;
import dev.hyperterse.project.Project;
import dev.hyperterse.project.ProjectException;
import dev.hyperterse.script.ScriptCheck;
import dev.hyperterse.script.ScriptEngine;
import dev.hyperterse.script.ScriptLoadException;

import java.io.IOException;
import java.nio.file.Path;
import java.util.HashSet;
import java.util.Set;

import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * What can be prepared from a compiled project without touching a database: each database
 * tool's statement compiled to its dialect's bind parameters, each tool's auth check (one check
 * per distinct auth block, so tools inheriting the root block share it), and each script loaded
 * once (syntax, imports, export). Both {@code start} and {@code validate} run this, so they
 * report the same problems.
 *
 * @param rootAuth the root auth block's check, or null; a token-based one also guards the HTTP endpoint
 */
public record ToolAssembly(Map<String, CompiledStatement> statements, Map<String, AuthCheck> authChecks,
                           AuthCheck rootAuth) {
    private static final org.slf4j.Logger LOG = org.slf4j.LoggerFactory.getLogger(ToolAssembly.class);

    /** Every distinct check, to start before serving and close afterwards. */
    public java.util.Collection<AuthCheck> distinctAuthChecks() {
        java.util.Set<AuthCheck> all = java.util.Collections.newSetFromMap(new java.util.IdentityHashMap<>());
        all.addAll(authChecks.values());
        if (rootAuth != null) {
            all.add(rootAuth);
        }
        return all;
    }

    public static ToolAssembly of(Project project, Connectors connectors, AuthPlugins authPlugins)
            throws ProjectException {
        return of(project, connectors, authPlugins, null);
    }

    /**
     * @param scripts the engine to load scripts with, or null to leave them unchecked (the
     *                script runtime's warm-up loads them anyway)
     */
    public static ToolAssembly of(Project project, Connectors connectors, AuthPlugins authPlugins,
                                  ScriptEngine scripts) throws ProjectException {
        List<ConfigProblem> problems = new ArrayList<>();
        if (scripts != null) {
            problems.addAll(checkScripts(project, scripts));
        }
        Map<String, CompiledStatement> statements = new LinkedHashMap<>();
        Map<String, AuthCheck> authChecks = new LinkedHashMap<>();
        Map<AuthDef, AuthCheck> checks = new java.util.HashMap<>();
        for (ToolDef tool : project.allTools().values()) {
            if (tool.isDatabaseTool()) {
                AdapterDef adapter = project.adapters().get(tool.use());
                ConnectorFactory factory = connectors.get(adapter.connector());
                try {
                    statements.put(tool.name(), factory.compile(tool.statement(), project.environment()));
                } catch (StatementException e) {
                    SourceLocation at = tool.statementLocation();
                    if (at.line() > 0 && e.line() > 0) {
                        at = at.atLine(at.line() + e.line() - 1);
                    }
                    problems.add(new ConfigProblem(at, owner(tool) + ": statement: " + e.getMessage()));
                }
            }
            if (tool.auth() != null) {
                AuthCheck check = checkFor(tool.auth(), owner(tool), checks, project, authPlugins, problems);
                if (check != null) {
                    authChecks.put(tool.name(), check);
                }
            }
        }
        // prompts and resources are checked by their access key (a statement-backed template's
        // derived tool has that name already)
        for (dev.hyperterse.model.PromptDef prompt : project.prompts().values()) {
            if (prompt.auth() != null) {
                AuthCheck check = checkFor(prompt.auth(), "prompt '" + prompt.name() + "'", checks, project,
                        authPlugins, problems);
                if (check != null) {
                    authChecks.put(prompt.accessKey(), check);
                }
            }
        }
        for (dev.hyperterse.model.ResourceDef resource : project.resources()) {
            if (resource.auth() != null && !authChecks.containsKey(resource.accessKey())) {
                AuthCheck check = checkFor(resource.auth(), "resource '" + resource.name() + "'", checks, project,
                        authPlugins, problems);
                if (check != null) {
                    authChecks.put(resource.accessKey(), check);
                }
            }
        }
        AuthDef rootDef = project.config().tools().defaultAuth();
        AuthCheck rootAuth = rootDef == null ? null
                : checkFor(rootDef, "root auth", checks, project, authPlugins, problems);
        if (rootAuth != null && rootAuth.protectedResource().map(r -> r.authorizationServers().isEmpty()).orElse(false)) {
            problems.add(new ConfigProblem(rootDef.location(), "root auth: a token-based root auth block guards the "
                    + "whole server and must name where clients get tokens: set policy 'authorization_servers' "
                    + "(or 'issuer')"));
        }
        if (!problems.isEmpty()) {
            Collections.sort(problems);
            throw new ProjectException(problems);
        }
        return new ToolAssembly(statements, authChecks, rootAuth);
    }

    /** How messages name a tool, or the resource or completion a derived tool belongs to. */
    static String owner(ToolDef tool) {
        return tool.name().contains(":") ? tool.description() : "tool '" + tool.name() + "'";
    }

    /** One check per distinct auth block; a policy that cannot work is a problem at its line. */
    private static AuthCheck checkFor(AuthDef def, String owner, Map<AuthDef, AuthCheck> checks, Project project,
                                      AuthPlugins authPlugins, List<ConfigProblem> problems) {
        if (checks.containsKey(def)) {
            return checks.get(def);
        }
        AuthCheck check = null;
        try {
            check = authPlugins.get(def.plugin()).create(def, project.environment());
        } catch (AuthPolicyException e) {
            problems.add(new ConfigProblem(def.location(), owner + ": auth: " + e.getMessage()));
        }
        checks.put(def, check);
        return check;
    }

    /** Every distinct script a project uses, with the first tool and role naming it ({@code tool 'x': handler}). */
    public static Map<ScriptRef, String> scripts(Project project) {
        Map<ScriptRef, String> out = new LinkedHashMap<>();
        for (ToolDef tool : project.tools().values()) {
            String owner = "tool '" + tool.name() + "': ";
            if (tool.inputMapper() != null) {
                out.putIfAbsent(tool.inputMapper(), owner + "input mapper");
            }
            if (tool.handler() != null) {
                out.putIfAbsent(tool.handler(), owner + "handler");
            }
            if (tool.outputMapper() != null) {
                out.putIfAbsent(tool.outputMapper(), owner + "output mapper");
            }
        }
        for (AuthDef block : scriptAuthBlocks(project)) {
            out.putIfAbsent(block.script(), owner(block, project) + ": auth script");
        }
        return out;
    }

    /** Every distinct {@code plugin: script} auth block: the root default and the tools' own. */
    public static List<AuthDef> scriptAuthBlocks(Project project) {
        List<AuthDef> out = new ArrayList<>();
        for (ToolDef tool : project.tools().values()) {
            if (tool.auth() != null && tool.auth().script() != null && !out.contains(tool.auth())) {
                out.add(tool.auth());
            }
        }
        List<AuthDef> others = new ArrayList<>();
        project.prompts().values().forEach(p -> others.add(p.auth()));
        project.resources().forEach(r -> others.add(r.auth()));
        others.add(project.config().tools().defaultAuth());
        for (AuthDef block : others) {
            if (block != null && block.script() != null && !out.contains(block)) {
                out.add(block);
            }
        }
        return out;
    }

    private static String owner(AuthDef block, Project project) {
        return block.equals(project.config().tools().defaultAuth()) ? "root auth"
                : project.tools().values().stream().filter(t -> block.equals(t.auth()))
                        .map(t -> "tool '" + t.name() + "'").findFirst().orElse("auth");
    }

    /** The environment a script is checked with: each variable it may read, unset ones as "". */
    private static Map<String, String> checkedEnv(List<String> names, Project project) {
        Map<String, String> env = new LinkedHashMap<>();
        names.forEach(name -> env.put(name, project.environment().getOrDefault(name, "")));
        return env;
    }

    /**
     * Loads every script the project names once (syntax, imports, export) and returns a problem
     * for each that fails. Also for the partial project of a failed compile, so one run reports
     * configuration and script errors together.
     */
    public static List<ConfigProblem> checkScripts(Project project, ScriptEngine engine) {
        List<ConfigProblem> problems = new ArrayList<>();
        if (scripts(project).isEmpty()) {
            return problems;
        }
        DisplayPaths paths = new DisplayPaths(Path.of(""));
        ScriptCheck check;
        try {
            ProjectConfig.Folders folders = project.config().folders();
            check = new ScriptCheck(engine, folders.projectDir(), List.of(folders.rootDir()), scripts(project).keySet());
        } catch (IOException e) {
            problems.add(new ConfigProblem(project.config().location(), "cannot open the project folder for scripts: "
                    + e.getMessage()));
            return problems;
        }
        // one check per distinct script, export and environment, in the order they are named
        List<ScriptJob> jobs = new ArrayList<>();
        Set<List<Object>> distinct = new HashSet<>();
        for (ToolDef tool : project.tools().values()) {
            // top-level code may read process.env, so each script loads with the tool's values
            Map<String, String> env = checkedEnv(tool.scriptEnv(), project);
            Map<ScriptRef, String> roles = new LinkedHashMap<>();
            roles.put(tool.inputMapper(), "input mapper");
            roles.put(tool.handler(), "handler");
            roles.put(tool.outputMapper(), "output mapper");
            roles.forEach((script, role) -> {
                if (script != null && distinct.add(List.of(script.file(), script.exportName(), env))) {
                    jobs.add(new ScriptJob(script, env, tool.limits().scriptTimeout(),
                            "tool '" + tool.name() + "': " + role));
                }
            });
        }
        for (AuthDef block : scriptAuthBlocks(project)) {
            Map<String, String> env = checkedEnv(block.scriptEnv(), project);
            ScriptRef script = block.script();
            if (distinct.add(List.of(script.file(), script.exportName(), env))) {
                // an auth script's calls run under the project's script time limit
                jobs.add(new ScriptJob(script, env, project.config().tools().limits().scriptTimeout(),
                        owner(block, project) + ": auth script"));
            }
        }
        long started = System.nanoTime();
        List<Object> outcomes = runChecks(check, jobs, engine);
        Set<String> seen = new HashSet<>();
        int ran = 0;
        for (int i = 0; i < jobs.size(); i++) {
            Object outcome = outcomes.get(i);
            if (outcome instanceof ScriptLoadException e) {
                ConfigProblem p = problem(jobs.get(i).script(), jobs.get(i).role(), e, paths, seen);
                if (p != null) {
                    problems.add(p);
                }
            } else if (Boolean.TRUE.equals(outcome)) {
                ran++;
            }
        }
        LOG.info("scripts: {} checked in {} ms ({} unchanged since a check that passed, {} loaded)", jobs.size(),
                (System.nanoTime() - started) / 1_000_000, jobs.size() - ran, ran);
        return problems;
    }

    /** One script to check: with the environment and time limit of the tool (or auth block) that names it. */
    private record ScriptJob(ScriptRef script, Map<String, String> env, java.time.Duration limit, String role) {
    }

    /**
     * Runs the checks one at a time until GraalJS has started (checks that passed before, and
     * failures found before it starts, need none), then the others on a thread per processor. A
     * cold engine spends its first load mostly on its own first use of each code path (some 1.5 s
     * of CPU), which every thread would otherwise pay at once, side by side; after it a load takes
     * tens of milliseconds. Each outcome is whether the check ran (a Boolean) or why it failed (a
     * ScriptLoadException), in the jobs' order.
     */
    private static List<Object> runChecks(ScriptCheck check, List<ScriptJob> jobs, ScriptEngine engine) {
        List<Object> outcomes = new ArrayList<>();
        int next = 0;
        while (next < jobs.size() && !engine.hasStarted()) {
            outcomes.add(runCheck(check, jobs.get(next++)));
        }
        outcomes.addAll(runInParallel(check, jobs.subList(next, jobs.size())));
        return outcomes;
    }

    private static Object runCheck(ScriptCheck check, ScriptJob job) {
        try {
            return check.check(job.script(), job.env(), job.limit());
        } catch (ScriptLoadException e) {
            return e;
        }
    }

    private static List<Object> runInParallel(ScriptCheck check, List<ScriptJob> jobs) {
        if (jobs.isEmpty()) {
            return List.of();
        }
        int threads = Math.max(1, Math.min(jobs.size(), Runtime.getRuntime().availableProcessors()));
        java.util.concurrent.atomic.AtomicInteger numbers = new java.util.concurrent.atomic.AtomicInteger();
        java.util.concurrent.ExecutorService pool = java.util.concurrent.Executors.newFixedThreadPool(threads, r -> {
            Thread t = new Thread(r, "hyperterse-script-check-" + numbers.incrementAndGet());
            t.setDaemon(true);
            return t;
        });
        try {
            List<java.util.concurrent.Future<Object>> running = new ArrayList<>();
            for (ScriptJob job : jobs) {
                running.add(pool.submit(() -> runCheck(check, job)));
            }
            List<Object> outcomes = new ArrayList<>();
            for (java.util.concurrent.Future<Object> f : running) {
                try {
                    outcomes.add(f.get());
                } catch (java.util.concurrent.ExecutionException e) {
                    Throwable cause = e.getCause();
                    throw cause instanceof RuntimeException r ? r : new IllegalStateException(cause);
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                    throw new IllegalStateException("interrupted while checking scripts", e);
                }
            }
            return outcomes;
        } finally {
            pool.shutdownNow();
        }
    }

    /**
     * At the script position when the failure has one (a syntax error), else at the line of
     * the tool file that names the script; one problem per distinct failure.
     */
    static ConfigProblem problem(ScriptRef script, String role, ScriptLoadException e, DisplayPaths paths,
                                 Set<String> seen) {
        Path shownScript = paths.show(script.file());
        SourceLocation at;
        String message;
        if (e.line() > 0) {
            at = new SourceLocation(paths.show(e.file()), e.line(), e.column());
            boolean imported = e.file() != null && !samePath(e.file(), script.file());
            message = role + (imported ? " (imported from " + shownScript + ")" : "") + ": " + e.getMessage();
        } else {
            at = script.declaredAt() != null ? script.declaredAt() : SourceLocation.of(shownScript);
            String where = e.file() == null || samePath(e.file(), script.file()) ? ""
                    : " (in " + paths.show(e.file()) + ")";
            message = role + " " + shownScript + (script.exportName().equals("default") ? "" : "#" + script.exportName())
                    + ": " + e.getMessage() + where;
        }
        return seen.add(at + message) ? new ConfigProblem(at, message) : null;
    }

    private static boolean samePath(Path a, Path b) {
        return a.toAbsolutePath().normalize().equals(b.toAbsolutePath().normalize());
    }
}

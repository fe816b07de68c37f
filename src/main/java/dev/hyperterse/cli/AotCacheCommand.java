package dev.hyperterse.cli;

import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.PrintWriter;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Makes the JVM's start-up cache for one project: starts the server on the project in a JVM that
 * records what it loads ({@code -XX:AOTCacheOutput} on JDK 25 and later, an AppCDS archive with
 * {@code -XX:ArchiveClassesAtExit} before), sends it the calls a client would, stops it, and
 * prints the command that starts with the cache.
 */
@Command(name = "aot-cache", mixinStandardHelpOptions = true,
        description = {"Make a start-up cache for this jar, this JVM and a project, and print the java command that "
                + "uses it.",
                "The server is started on the project (on a free port of 127.0.0.1), called twenty "
                + "times over (initialize, tools/list, search, and the tools given with --call, each with the "
                + "--header headers), then, once it loaded the project's scripts (if any), stopped; the JVM writes the classes it loaded, already parsed and "
                + "linked, into FILE.",
                "JDK 25 and later: an AOT cache (-XX:AOTCacheOutput, used with -XX:AOTCache). JDK 17 to 24: an "
                        + "AppCDS archive (-XX:ArchiveClassesAtExit, used with -XX:SharedArchiveFile).",
                "The cache is valid only for the exact jar file and JVM build that made it: make it again after "
                        + "upgrading either (a JVM given a stale cache says so and starts without it)."})
final class AotCacheCommand implements Callable<Integer> {
    private static final Pattern SERVING = Pattern.compile("serving '.*' \\(.*\\) at (http://\\S+/mcp) ");
    /** The server's log line once it checked the project's scripts. */
    private static final Pattern SCRIPTS_CHECKED = Pattern.compile("scripts: \\d+ checked in ");
    /** The server's log line once it loaded them all (or all it could). */
    private static final Pattern SCRIPTS_LOADED = Pattern.compile("scripts: \\d+ (of \\d+ )?ready in ");

    @Mixin
    ProjectLocation location;

    @Option(names = {"-o", "--output"}, paramLabel = "FILE",
            description = "Where to write the cache. Default: hyperterse.aot (JDK 25+) or hyperterse.jsa in the "
                    + "current folder.")
    Path output;

    @Option(names = "--config", paramLabel = "FILE", description = "Operator settings, as for start.")
    Path config;

    @Option(names = "-J", paramLabel = "FLAG",
            description = "A JVM flag to train and run with (repeatable), e.g. -J-XX:+UseSerialGC -J-Xmx128m. "
                    + "Give the flags the server runs with, so the training runs as the server will.")
    List<String> jvmFlags = new ArrayList<>();

    @Option(names = "--call", paramLabel = "TOOL=JSON",
            description = "Also call this tool with these inputs while training (repeatable), e.g. "
                    + "--call 'get-user={\"id\":1}'. Only tools without side effects: the call really runs.")
    List<String> calls = new ArrayList<>();

    @Option(names = "--header", paramLabel = "NAME=VALUE",
            description = "Send this HTTP header with every training request (repeatable), e.g. "
                    + "--header \"X-API-Key=$SHOP_API_KEY\" or --header 'Authorization=Bearer ...' for a project "
                    + "whose tools need a key: without it they are neither found nor run.")
    List<String> headers = new ArrayList<>();

    @Option(names = "--timeout", paramLabel = "SECONDS",
            description = "How long the server may take to start, and then to write the cache. Default: 300.")
    int timeoutSeconds = 300;

    @Spec
    picocli.CommandLine.Model.CommandSpec spec;

    /** The flag that writes the cache and the one that uses it, for a JVM of this feature release. */
    record Flags(String write, String use, String defaultFile) {
        static Flags forJdk(int feature) {
            return feature >= 25
                    ? new Flags("-XX:AOTCacheOutput=", "-XX:AOTCache=", "hyperterse.aot")
                    : new Flags("-XX:ArchiveClassesAtExit=", "-XX:SharedArchiveFile=", "hyperterse.jsa");
        }
    }

    @Override
    public Integer call() throws InterruptedException {
        PrintWriter out = spec.commandLine().getOut();
        PrintWriter err = spec.commandLine().getErr();
        Path jar = Main.jarFile();
        if (jar == null) {
            err.println("aot-cache works on the jar: run it as java -jar hyperterse.jar aot-cache");
            return 1;
        }
        List<Map.Entry<String, JsonObject>> training;
        List<Map.Entry<String, String>> sent;
        try {
            training = parseCalls(calls);
            sent = parseHeaders(headers);
        } catch (IllegalArgumentException e) {
            err.println(e.getMessage());
            return 2;
        }
        Flags flags = Flags.forJdk(Runtime.version().feature());
        Path file = (output != null ? output : Path.of(flags.defaultFile())).toAbsolutePath();
        String javaBin = ProcessHandle.current().info().command()
                .orElse(Path.of(System.getProperty("java.home"), "bin", "java").toString());
        Path project = location.resolve().toAbsolutePath();
        try {
            Files.deleteIfExists(file);
        } catch (IOException e) {
            err.println("cannot replace " + file + ": " + e.getMessage());
            return 1;
        }
        List<String> command = new ArrayList<>();
        command.add(javaBin);
        command.add(flags.write() + file);
        // search ranks as static in the training: the semantic ranking's models load in a class loader of
        // their own, which the cache does not hold, so loading them would be seconds of CPU for nothing
        command.add("-Dhyperterse.search.models=false");
        command.addAll(jvmFlags);
        command.addAll(List.of("-jar", jar.toString(), "start", project.toString(), "--port", "0",
                "--host", "127.0.0.1", "--log-level", "3"));
        if (config != null) {
            command.addAll(List.of("--config", config.toAbsolutePath().toString()));
        }
        ProcessBuilder builder = new ProcessBuilder(command).redirectErrorStream(true);
        // a training run serves alone: it joins no cluster
        builder.environment().keySet().removeIf(k -> k.startsWith("HYPERTERSE_CLUSTER"));
        err.println("training: starting " + project + " in " + javaBin + " (" + Runtime.version() + ")");
        err.flush();
        Process server;
        try {
            server = builder.start();
        } catch (IOException e) {
            err.println("cannot start " + javaBin + ": " + e.getMessage());
            return 1;
        }
        List<String> log = java.util.Collections.synchronizedList(new ArrayList<>());
        CompletableFuture<String> endpoint = new CompletableFuture<>();
        ScriptLines scripts = new ScriptLines();
        Thread reader = new Thread(() -> readLog(server, log, endpoint, scripts), "aot-cache-log");
        reader.setDaemon(true);
        reader.start();
        String url;
        try {
            url = endpoint.get(timeoutSeconds, TimeUnit.SECONDS);
        } catch (java.util.concurrent.ExecutionException | java.util.concurrent.TimeoutException e) {
            server.destroyForcibly();
            err.println("the server did not start" + (e instanceof java.util.concurrent.TimeoutException
                    ? " within " + timeoutSeconds + " s" : "") + "; its output:");
            printTail(log, err);
            return 1;
        }
        try {
            awaitScriptsChecked(url, timeoutSeconds);
            exercise(url, training, sent, err);
            awaitScriptsLoaded(scripts, timeoutSeconds, err);
        } catch (IOException | RuntimeException e) {
            server.destroyForcibly();
            err.println("training calls to " + url + " failed: " + e.getMessage() + "; the server's output:");
            printTail(log, err);
            return 1;
        }
        err.println("training: done; the JVM is writing the cache (this takes a while)");
        err.flush();
        // a normal stop (SIGTERM): the cache is written as the JVM exits. Through the handle, as
        // Process.destroy() also closes the pipe the JVM reports the writing on
        server.toHandle().destroy();
        if (!server.waitFor(timeoutSeconds, TimeUnit.SECONDS)) {
            server.destroyForcibly();
            err.println("the JVM did not finish writing the cache within " + timeoutSeconds + " s");
            return 1;
        }
        reader.join(5000);
        if (!Files.isRegularFile(file)) {
            err.println("the JVM wrote no cache to " + file + " (exit status " + server.exitValue() + "); its output:");
            printTail(log, err);
            return 1;
        }
        long mb = file.toFile().length() / (1024 * 1024);
        out.println("Start-up cache written: " + file + " (" + mb + " MB), for " + jar + " on " + javaBin + " ("
                + Runtime.version() + "). Start with:");
        out.println();
        out.println("  " + runCommand(javaBin, flags, file, jvmFlags, jar, location.resolve()));
        out.println();
        out.println("It is valid only for this jar file and this JVM build: after upgrading either, run aot-cache "
                + "again (a JVM given a stale cache prints an error and starts without it, as slowly as before).");
        out.flush();
        return 0;
    }

    /** The java command that starts the project with the cache (start's own options may follow). */
    static String runCommand(String java, Flags flags, Path file, List<String> jvmFlags, Path jar, Path project) {
        List<String> words = new ArrayList<>();
        words.add(java);
        words.add(flags.use() + file);
        words.addAll(jvmFlags);
        words.addAll(List.of("-jar", jar.toString(), "start", project.toString()));
        return String.join(" ", words.stream().map(Main::shellWord).toList());
    }

    /** {@code TOOL=JSON} pairs, the inputs a JSON object. */
    static List<Map.Entry<String, JsonObject>> parseCalls(List<String> calls) {
        List<Map.Entry<String, JsonObject>> parsed = new ArrayList<>();
        for (String call : calls) {
            int eq = call.indexOf('=');
            if (eq <= 0) {
                throw new IllegalArgumentException("--call takes TOOL=JSON, e.g. --call 'get-user={\"id\":1}': " + call);
            }
            JsonObject inputs;
            try {
                inputs = new JsonObject(call.substring(eq + 1));
            } catch (RuntimeException e) {
                throw new IllegalArgumentException("--call " + call.substring(0, eq)
                        + ": the inputs must be a JSON object: " + e.getMessage());
            }
            parsed.add(Map.entry(call.substring(0, eq), inputs));
        }
        return parsed;
    }

    /**
     * {@code NAME=VALUE} pairs, each a header the JDK's HTTP client may send (it sets
     * {@code Host}, {@code Content-Length} and a few others itself). A value is never repeated in
     * a message: it is likely a key.
     */
    static List<Map.Entry<String, String>> parseHeaders(List<String> headers) {
        List<Map.Entry<String, String>> parsed = new ArrayList<>();
        for (String header : headers) {
            int eq = header.indexOf('=');
            String name = eq < 0 ? header : header.substring(0, eq).strip();
            if (eq <= 0 || name.isEmpty()) {
                throw new IllegalArgumentException("--header takes NAME=VALUE, e.g. --header 'X-API-Key=...'; got "
                        + (eq < 0 ? "'" + name + "' without '='" : "no name"));
            }
            String value = header.substring(eq + 1);
            try {
                HttpRequest.newBuilder(URI.create("http://127.0.0.1/")).header(name, value);
            } catch (IllegalArgumentException e) {
                throw new IllegalArgumentException("--header " + name + ": not a header this client may send ("
                        + "a name of letters, digits and -, not one the HTTP client sets itself such as Host or "
                        + "Content-Length; a value without line breaks)");
            }
            parsed.add(Map.entry(name, value));
        }
        return parsed;
    }

    private static void readLog(Process server, List<String> log, CompletableFuture<String> endpoint,
                                ScriptLines scripts) {
        try (BufferedReader in = new BufferedReader(new InputStreamReader(server.getInputStream(),
                StandardCharsets.UTF_8))) {
            String line;
            while ((line = in.readLine()) != null) {
                log.add(line);
                scripts.read(line);
                Matcher m = SERVING.matcher(line);
                if (m.find()) {
                    endpoint.complete(m.group(1));
                }
            }
        } catch (IOException e) {
            endpoint.completeExceptionally(e);
        }
        endpoint.completeExceptionally(new IOException("the server exited"));
    }

    private static void printTail(List<String> log, PrintWriter err) {
        synchronized (log) {
            log.subList(Math.max(0, log.size() - 30), log.size()).forEach(l -> err.println("  " + l));
        }
        err.flush();
    }

    /**
     * Waits while {@code /ready} says the server is {@code starting}: it checks its scripts once
     * it listens, and the cache should hold what the checks and the scripts' loading load (a stop
     * during the checks would also cut them short). Any other answer (ready, or a database down)
     * ends the wait, as does the time limit.
     */
    static void awaitScriptsChecked(String url, long timeoutSeconds) throws IOException, InterruptedException {
        HttpClient client = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(10)).build();
        HttpRequest ready = HttpRequest.newBuilder(URI.create(url).resolve("/ready")).GET()
                .timeout(Duration.ofSeconds(10)).build();
        long until = System.nanoTime() + TimeUnit.SECONDS.toNanos(timeoutSeconds);
        while (System.nanoTime() < until) {
            String body = client.send(ready, HttpResponse.BodyHandlers.ofString()).body();
            if (!body.contains("\"starting\"")) {
                return;
            }
            Thread.sleep(100);
        }
    }

    /** What the training server's log said of the project's scripts, read line by line as it comes. */
    static final class ScriptLines {
        private volatile boolean checked;
        private volatile boolean loaded;

        void read(String line) {
            if (SCRIPTS_CHECKED.matcher(line).find()) {
                checked = true;
            } else if (SCRIPTS_LOADED.matcher(line).find()) {
                loaded = true;
            }
        }
    }

    /**
     * For a project with scripts (its server logged their checks), waits until the server logged
     * that it loaded them: it does so in the background once they passed their checks, and the
     * cache should hold what that loads. Ends at the time limit, saying so.
     */
    static void awaitScriptsLoaded(ScriptLines scripts, long timeoutSeconds, PrintWriter err) throws InterruptedException {
        long until = System.nanoTime() + TimeUnit.SECONDS.toNanos(timeoutSeconds);
        while (scripts.checked && !scripts.loaded) {
            if (System.nanoTime() >= until) {
                err.println("training: the scripts were not all loaded within " + timeoutSeconds
                        + " s; the cache holds what was loaded by then");
                return;
            }
            Thread.sleep(100);
        }
    }

    /**
     * What a client does, several times over so the JVM sees the hot paths: the heartbeat,
     * initialize, tools/list, a search, and each {@code --call} (by name when the tool is listed,
     * else through {@code execute}).
     */
    static void exercise(String url, List<Map.Entry<String, JsonObject>> training,
                         List<Map.Entry<String, String>> headers, PrintWriter err)
            throws IOException, InterruptedException {
        HttpClient client = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(10)).build();
        URI mcp = URI.create(url);
        URI heartbeat = mcp.resolve("/heartbeat");
        JsonObject listed = null;
        for (int round = 0; round < ROUNDS; round++) {
            send(client, HttpRequest.newBuilder(heartbeat).GET());
            rpc(client, mcp, headers, "initialize", new JsonObject().put("protocolVersion", "2025-06-18")
                    .put("capabilities", new JsonObject())
                    .put("clientInfo", new JsonObject().put("name", "aot-cache").put("version", "1")));
            listed = rpc(client, mcp, headers, "tools/list", new JsonObject());
            if (round == 0 && listed.containsKey("error")) {
                err.println("training: tools/list was refused (" + listed.getValue("error") + "): the cache "
                        + "covers the start only" + (headers.isEmpty() ? " (does the project need a key? "
                        + "give it with --header NAME=VALUE)" : ""));
            }
            JsonObject search = rpc(client, mcp, headers, "tools/call", new JsonObject().put("name", "search")
                    .put("arguments", new JsonObject().put("query", "find a record by id")));
            if (round == 0 && headers.isEmpty() && "[]".equals(firstText(search))) {
                err.println("training: search found no tools; tools behind an auth block are hidden from a "
                        + "caller without its key: give it with --header NAME=VALUE");
            }
            for (Map.Entry<String, JsonObject> call : training) {
                JsonObject answer = rpc(client, mcp, headers, "tools/call", listedNames(listed).contains(call.getKey())
                        ? new JsonObject().put("name", call.getKey()).put("arguments", call.getValue())
                        : new JsonObject().put("name", "execute").put("arguments",
                                new JsonObject().put("tool", call.getKey()).put("inputs", call.getValue())));
                if (round == 0 && (answer.containsKey("error")
                        || answer.getJsonObject("result", new JsonObject()).getBoolean("isError", false))) {
                    err.println("training: the call of " + call.getKey() + " failed (training goes on): "
                            + answer.encode());
                }
            }
        }
        err.println("training: " + ROUNDS + " rounds of calls answered");
    }

    /** How many times the training calls are made: enough for the JVM to see each path as a hot one. */
    static final int ROUNDS = 20;

    /** The text of a tool result's first content block, or null. */
    private static String firstText(JsonObject answer) {
        JsonArray content = answer.getJsonObject("result", new JsonObject()).getJsonArray("content");
        Object first = content == null || content.isEmpty() ? null : content.getValue(0);
        return first instanceof JsonObject ? ((JsonObject) first).getString("text") : null;
    }

    private static List<String> listedNames(JsonObject listed) {
        List<String> names = new ArrayList<>();
        JsonArray tools = listed == null ? null : listed.getJsonObject("result", new JsonObject()).getJsonArray("tools");
        if (tools != null) {
            for (Object t : tools) {
                if (t instanceof JsonObject) {
                    names.add(((JsonObject) t).getString("name"));
                }
            }
        }
        return names;
    }

    private static JsonObject rpc(HttpClient client, URI mcp, List<Map.Entry<String, String>> headers, String method,
                                  JsonObject params) throws IOException, InterruptedException {
        String body = new JsonObject().put("jsonrpc", "2.0").put("id", 1).put("method", method).put("params", params)
                .encode();
        HttpRequest.Builder request = HttpRequest.newBuilder(mcp)
                .header("Content-Type", "application/json")
                .header("Accept", "application/json, text/event-stream");
        headers.forEach(h -> request.header(h.getKey(), h.getValue()));
        String answer = send(client, request.POST(HttpRequest.BodyPublishers.ofString(body)));
        // a streamed answer is one SSE event whose data is the JSON-RPC response; a refusal (a
        // project whose endpoint requires a token) is an answer without a result
        String json = answer.strip();
        if (!json.startsWith("{")) {
            int data = json.indexOf("data:");
            json = data < 0 ? "{}" : json.substring(data + 5).strip().split("\n", 2)[0];
        }
        try {
            return new JsonObject(json);
        } catch (RuntimeException e) {
            return new JsonObject().put("error", json);
        }
    }

    private static String send(HttpClient client, HttpRequest.Builder request) throws IOException, InterruptedException {
        HttpResponse<String> response = client.send(request.timeout(Duration.ofSeconds(60)).build(),
                HttpResponse.BodyHandlers.ofString());
        return response.statusCode() >= 400 ? "{\"error\":" + response.statusCode() + "}" : response.body();
    }
}

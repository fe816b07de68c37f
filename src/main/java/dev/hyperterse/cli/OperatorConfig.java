package dev.hyperterse.cli;

import dev.hyperterse.project.OperatorLayer;
import io.vertx.config.ConfigRetriever;
import io.vertx.config.ConfigRetrieverOptions;
import io.vertx.config.ConfigStoreOptions;
import io.vertx.core.Future;
import io.vertx.core.Vertx;
import io.vertx.core.json.JsonObject;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

/**
 * Reads the operator's settings: the operator file as project files are read (the same YAML rules
 * and limits, on a worker thread), the {@code HYPERTERSE_*} variables with vertx-config's
 * environment store and {@code hyperterse.*} system properties with its system-properties store.
 * Each store has its own retriever, so a file's key is never mistaken for a variable. The command
 * line waits for them once, before anything is served.
 */
final class OperatorConfig {
    /** The operator file looked for beside the jar when {@code --config} is not given. */
    static final Path DEFAULT_FILE = Path.of("conf", "hyperterse.yaml");

    private OperatorConfig() {
    }

    /**
     * @param file the operator file, or null for none
     * @return the layered settings; fails naming the file (and line) when it cannot be read or
     *         holds other keys
     */
    static Future<OperatorLayer> read(Vertx vertx, Path file, String fileShown) {
        // raw-data keeps every value as written, to be typed by the same rules as the project's YAML
        Future<JsonObject> environment = retrieve(vertx, new ConfigStoreOptions().setType("env")
                .setConfig(new JsonObject().put("raw-data", true)));
        Future<JsonObject> properties = retrieve(vertx, new ConfigStoreOptions().setType("sys")
                .setConfig(new JsonObject().put("raw-data", true).put("cache", false)));
        // the file is read and parsed on a worker: a large file (or many aliases) never holds up an event loop
        return Future.all(environment, properties).compose(all -> vertx.executeBlocking(() ->
                OperatorLayer.read(file, fileShown, strings(environment.result()), strings(properties.result()))));
    }

    /**
     * The operator's settings {@code start} serves with (and {@code validate} checks):
     * {@code --config} (or conf/hyperterse.yaml beside the jar), system properties and variables,
     * read on a Vert.x instance of its own (the file on a worker, the variables and properties
     * through vertx-config), which is closed before the project is compiled; waiting for it is fine
     * here, nothing is served yet.
     *
     * @param given the {@code --config} file, or null
     * @param jar   the running jar, or null
     * @throws IllegalArgumentException naming the file, property or variable that is wrong
     */
    static OperatorLayer layer(Path given, Path jar) throws InterruptedException {
        Path file = choose(given, jar);
        if (file == null && !hasOperatorSettings()) {
            return OperatorLayer.NONE;
        }
        String shown = file == null ? null : (given != null ? given.toString() : file.toString());
        Vertx reader = Vertx.vertx();
        try {
            return read(reader, file, shown).toCompletionStage().toCompletableFuture().get(30, TimeUnit.SECONDS);
        } catch (ExecutionException e) {
            Throwable cause = e.getCause();
            throw cause instanceof IllegalArgumentException ? (IllegalArgumentException) cause
                    : new IllegalArgumentException("cannot read the operator settings: " + cause.getMessage(), cause);
        } catch (TimeoutException e) {
            throw new IllegalArgumentException("reading the operator settings" + (shown == null ? "" : " from " + shown)
                    + " took more than 30 seconds");
        } finally {
            try {
                reader.close().toCompletionStage().toCompletableFuture().get(10, TimeUnit.SECONDS);
            } catch (ExecutionException | TimeoutException e) {
                // a reader that does not close in time holds nothing the command needs
            }
        }
    }

    /**
     * {@link #layer(Path, Path)} for a command: null when the settings cannot be read, after
     * printing why to {@code err} ({@link #failedStatus} is then the command's exit status).
     */
    static OperatorLayer layer(Path given, Path jar, java.io.PrintWriter err) throws InterruptedException {
        try {
            return layer(given, jar);
        } catch (IllegalArgumentException e) {
            err.println("error: " + e.getMessage());
            return null;
        }
    }

    /** The exit status when the settings cannot be read: 2 for a {@code --config} file that does not exist, else 1. */
    static int failedStatus(Path given) {
        return given != null && !Files.isRegularFile(given) ? 2 : 1;
    }

    /** Whether any variable or property could hold an operator setting: no Vert.x is started to read none. */
    private static boolean hasOperatorSettings() {
        return System.getenv().keySet().stream().anyMatch(k -> k.startsWith("HYPERTERSE_"))
                || System.getProperties().stringPropertyNames().stream().anyMatch(k -> k.startsWith("hyperterse."));
    }

    /**
     * The file {@code start} reads: {@code --config} as given, else {@code conf/hyperterse.yaml}
     * beside the jar when it exists, else none.
     *
     * @throws IllegalArgumentException when {@code --config} names a file that does not exist
     */
    static Path choose(Path given, Path jar) {
        if (given != null) {
            if (!Files.isRegularFile(given)) {
                throw new IllegalArgumentException("--config " + given + ": no such file");
            }
            return given;
        }
        if (jar == null || jar.getParent() == null) {
            return null;
        }
        Path beside = jar.getParent().resolve(DEFAULT_FILE);
        return Files.isRegularFile(beside) ? beside : null;
    }

    private static Future<JsonObject> retrieve(Vertx vertx, ConfigStoreOptions store) {
        // no scan period: the settings are read once at start-up
        ConfigRetriever retriever = ConfigRetriever.create(vertx,
                new ConfigRetrieverOptions().setScanPeriod(-1).addStore(store));
        return retriever.getConfig().andThen(done -> retriever.close());
    }

    private static Map<String, String> strings(JsonObject values) {
        Map<String, String> out = new LinkedHashMap<>();
        values.forEach(e -> out.put(e.getKey(), e.getValue() == null ? null : String.valueOf(e.getValue())));
        return out;
    }
}

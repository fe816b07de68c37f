package dev.hyperterse.cli;

import dev.hyperterse.project.OperatorLayer;
import dev.hyperterse.project.YamlSyntaxError;
import io.vertx.config.ConfigRetriever;
import io.vertx.config.ConfigRetrieverOptions;
import io.vertx.config.ConfigStoreOptions;
import io.vertx.core.Future;
import io.vertx.core.Vertx;
import io.vertx.core.json.JsonObject;
import org.yaml.snakeyaml.error.MarkedYAMLException;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * Reads the operator's settings through vertx-config: the operator file with the YAML store, the
 * {@code HYPERTERSE_*} variables with the environment store and {@code hyperterse.*} system
 * properties with the system-properties store. Each store has its own retriever, so a file's key
 * is never mistaken for a variable. The retrievers read asynchronously; the command line waits for
 * them once, before anything is served.
 */
final class OperatorConfig {
    /** The operator file looked for beside the jar when {@code --config} is not given. */
    static final Path DEFAULT_FILE = Path.of("conf", "hyperterse.yaml");

    private OperatorConfig() {
    }

    /**
     * @param file the operator file, or null for none
     * @return the layered settings; fails naming the file when it cannot be read or holds other keys
     */
    static Future<OperatorLayer> read(Vertx vertx, Path file, String fileShown) {
        Future<JsonObject> fromFile = file == null ? Future.succeededFuture(new JsonObject())
                : retrieve(vertx, new ConfigStoreOptions().setType("file").setFormat("yaml").setOptional(false)
                        .setConfig(new JsonObject().put("path", file.toString())))
                .recover(e -> Future.failedFuture(new IllegalArgumentException(fileShown + ": cannot read it: "
                        + reason(rootCause(e)), e)));
        // raw-data keeps every value as written, to be typed by the same rules as the project's YAML
        Future<JsonObject> environment = retrieve(vertx, new ConfigStoreOptions().setType("env")
                .setConfig(new JsonObject().put("raw-data", true)));
        Future<JsonObject> properties = retrieve(vertx, new ConfigStoreOptions().setType("sys")
                .setConfig(new JsonObject().put("raw-data", true).put("cache", false)));
        return Future.all(fromFile, environment, properties).compose(all -> {
            try {
                return Future.succeededFuture(OperatorLayer.read(plain(fromFile.result()),
                        file == null ? null : fileShown, strings(environment.result()), strings(properties.result())));
            } catch (IllegalArgumentException e) {
                return Future.failedFuture(e);
            }
        });
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

    /** The file's tree as plain maps and lists (vertx-config nests JsonObjects and JsonArrays). */
    @SuppressWarnings("unchecked")
    private static Map<String, Object> plain(JsonObject tree) {
        return (Map<String, Object>) plainValue(tree);
    }

    private static Object plainValue(Object value) {
        if (value instanceof JsonObject) {
            Map<String, Object> out = new LinkedHashMap<>();
            ((JsonObject) value).forEach(e -> out.put(e.getKey(), plainValue(e.getValue())));
            return out;
        }
        if (value instanceof io.vertx.core.json.JsonArray) {
            java.util.List<Object> out = new java.util.ArrayList<>();
            ((io.vertx.core.json.JsonArray) value).forEach(item -> out.add(plainValue(item)));
            return out;
        }
        return value;
    }

    private static Map<String, String> strings(JsonObject values) {
        Map<String, String> out = new LinkedHashMap<>();
        values.forEach(e -> out.put(e.getKey(), e.getValue() == null ? null : String.valueOf(e.getValue())));
        return out;
    }

    /**
     * Why the YAML store could not read the file, in the project files' words: it casts the
     * file's top to a map, and a list or a text (invalid UTF-8 reads as one) failed with Java's
     * cast message.
     */
    private static String reason(Throwable cause) {
        if (cause instanceof ClassCastException) {
            return "expected a mapping of keys (server, observability, cluster) at the top of the file";
        }
        if (cause instanceof MarkedYAMLException && ((MarkedYAMLException) cause).getProblemMark() != null) {
            return YamlSyntaxError.message((MarkedYAMLException) cause);
        }
        return cause.getMessage();
    }

    private static Throwable rootCause(Throwable e) {
        Throwable t = e;
        while (t.getCause() != null && t.getCause() != t) {
            t = t.getCause();
        }
        return t;
    }
}

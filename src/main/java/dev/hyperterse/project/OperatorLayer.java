package dev.hyperterse.project;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;

/**
 * The operator's settings for this server, between the packaged defaults and the project's
 * {@code .hyperterse}: an operator file ({@code start --config}), then {@code hyperterse.*} system
 * properties, then {@code HYPERTERSE_*} environment variables, each over the one before.
 *
 * <p>An operator sets what belongs to the deployment rather than to a project: the {@code server}
 * block (listen address and port, CORS and allowed hosts, sessions, limits), {@code observability}
 * (metrics, tracing, log format) and {@code cluster}. The {@code server} and {@code observability}
 * values are merged under the project's {@code .hyperterse} and checked by the same rules as the
 * project's own, so a wrong value is reported naming the file, property or variable it came from.
 * Variable names follow the keys: {@code server.sessions.idle_timeout} is
 * {@code HYPERTERSE_SERVER_SESSIONS_IDLE_TIMEOUT} and {@code -Dhyperterse.server.sessions.idle_timeout};
 * {@code cluster.enabled} is {@code HYPERTERSE_CLUSTER}. A list is comma-separated in a variable or
 * property.
 */
public final class OperatorLayer {
    private static final Logger LOG = LoggerFactory.getLogger(OperatorLayer.class);
    /** Top-level keys an operator file may hold. */
    public static final List<String> SECTIONS = List.of("server", "observability", "cluster");
    /** The {@code cluster} keys: read by the command line, never by a project. */
    public static final List<String> CLUSTER_KEYS = List.of("enabled", "members", "host", "port", "name", "multicast");
    private static final String ENV_PREFIX = "HYPERTERSE_";
    private static final String PROPERTY_PREFIX = "hyperterse.";

    /** No operator settings: the packaged defaults and the project decide. */
    public static final OperatorLayer NONE = new OperatorLayer(null, Map.of(), List.of());

    /**
     * One operator value as written, for the keys the command line reads itself ({@code cluster}).
     *
     * @param text   the value as text (a list joined with commas)
     * @param source where it was written: {@code HYPERTERSE_CLUSTER_PORT}, {@code conf/hyperterse.yaml: cluster.port}
     */
    public record Sourced(String text, String source) {
    }

    private final YamlNode.Mapping settings;
    private final Map<String, Sourced> cluster;
    private final List<String> sources;

    private OperatorLayer(YamlNode.Mapping settings, Map<String, Sourced> cluster, List<String> sources) {
        this.settings = settings;
        this.cluster = Map.copyOf(cluster);
        this.sources = List.copyOf(sources);
    }

    /**
     * @param file        the operator file's content as a tree of maps, lists and scalars (empty when there is none)
     * @param fileShown   the file as messages name it; null when there is none
     * @param environment environment variables (only {@code HYPERTERSE_*} ones are read)
     * @param properties  system properties (only {@code hyperterse.*} ones are read)
     * @throws IllegalArgumentException naming the file and key when the file holds something other
     *                                  than operator settings
     */
    public static OperatorLayer read(Map<String, ?> file, String fileShown, Map<String, String> environment,
                                     Map<String, String> properties) {
        Known known = Known.fromDefaults();
        Map<String, YamlNode.Entry> top = new LinkedHashMap<>();
        Map<String, Sourced> cluster = new LinkedHashMap<>();
        List<String> sources = new ArrayList<>();
        if (fileShown != null) {
            sources.add(fileShown);
            Path shown = Path.of(fileShown);
            for (Map.Entry<String, ?> entry : file.entrySet()) {
                String key = entry.getKey();
                if (!SECTIONS.contains(key)) {
                    throw new IllegalArgumentException(fileShown + ": '" + key + "' is not an operator setting "
                            + (RootConfigReader.ROOT_KEYS.contains(key) ? "(it belongs in a project's .hyperterse); "
                            : "; ") + "an operator file holds " + String.join(", ", SECTIONS));
                }
                if (!(entry.getValue() instanceof Map) && entry.getValue() != null) {
                    throw new IllegalArgumentException(fileShown + ": '" + key + "' must be a mapping of keys, got "
                            + describe(entry.getValue()));
                }
                if (entry.getValue() == null) {
                    continue;
                }
                Map<?, ?> section = (Map<?, ?>) entry.getValue();
                if (key.equals("cluster")) {
                    for (Map.Entry<?, ?> c : section.entrySet()) {
                        String name = String.valueOf(c.getKey());
                        if (!CLUSTER_KEYS.contains(name)) {
                            throw new IllegalArgumentException(fileShown + ": unknown key 'cluster." + name
                                    + "' (cluster keys: " + String.join(", ", CLUSTER_KEYS) + ")");
                        }
                        if (c.getValue() != null) {
                            cluster.put(name, new Sourced(text(c.getValue()), fileShown + ": cluster." + name));
                        }
                    }
                } else {
                    top.put(key, new YamlNode.Entry(key, 0, fromTree(entry.getValue(), shown)));
                }
            }
        }
        // properties, then variables: each source over the one before
        apply(properties, PROPERTY_PREFIX, known, top, cluster, sources, true);
        apply(environment, ENV_PREFIX, known, top, cluster, sources, false);
        YamlNode.Mapping settings = top.isEmpty() ? null
                : new YamlNode.Mapping(top, fileShown != null ? Path.of(fileShown) : Path.of("[environment]"), 0);
        return new OperatorLayer(settings, cluster, sources);
    }

    private static void apply(Map<String, String> values, String prefix, Known known, Map<String, YamlNode.Entry> top,
                              Map<String, Sourced> cluster, List<String> sources, boolean property) {
        for (Map.Entry<String, String> e : new TreeMap<>(values).entrySet()) {
            String name = e.getKey();
            if (!name.startsWith(prefix) || e.getValue() == null || e.getValue().isBlank()) {
                continue;
            }
            String shownAs = property ? "-D" + name : name;
            String value = e.getValue().strip();
            List<String> path = property ? known.byProperty.get(name) : known.byVariable.get(name);
            if (path == null) {
                String rest = name.substring(prefix.length()).toLowerCase(Locale.ROOT);
                if (SECTIONS.stream().anyMatch(s -> rest.startsWith(s + (property ? "." : "_")))) {
                    LOG.warn("{} is not an operator setting and is ignored (a name such as {}server{}port is)",
                            shownAs, property ? PROPERTY_PREFIX : ENV_PREFIX, property ? "." : "_");
                }
                continue;
            }
            sources.add(shownAs);
            if (path.get(0).equals("cluster")) {
                cluster.put(path.get(1), new Sourced(value, shownAs));
                continue;
            }
            Path label = Path.of(shownAs);
            YamlNode leaf = known.lists.contains(path) ? list(value, label) : scalar(value, label);
            put(top, path, leaf, label);
        }
    }

    /** Sets {@code path} in the tree to {@code leaf}, creating (or replacing with) mappings on the way. */
    private static void put(Map<String, YamlNode.Entry> top, List<String> path, YamlNode leaf, Path label) {
        String key = path.get(0);
        if (path.size() == 1) {
            top.put(key, new YamlNode.Entry(key, 0, leaf));
            return;
        }
        YamlNode.Entry existing = top.get(key);
        Map<String, YamlNode.Entry> children = existing != null && existing.value() instanceof YamlNode.Mapping
                ? new LinkedHashMap<>(((YamlNode.Mapping) existing.value()).entries()) : new LinkedHashMap<>();
        put(children, path.subList(1, path.size()), leaf, label);
        Path file = existing != null && existing.value() instanceof YamlNode.Mapping ? existing.value().file() : label;
        top.put(key, new YamlNode.Entry(key, 0, new YamlNode.Mapping(children, file, 0)));
    }

    /** A value written as text, typed as the project's YAML would type it: 9090 a number, true a boolean. */
    private static YamlNode scalar(String text, Path label) {
        Problems ignored = new Problems(LOG, problem -> {
        });
        YamlNode parsed = YamlDocument.parse(text, label, ignored);
        if (parsed instanceof YamlNode.Scalar && !((YamlNode.Scalar) parsed).isNull()) {
            YamlNode.Scalar s = (YamlNode.Scalar) parsed;
            return new YamlNode.Scalar(s.value(), text, true, label, 0);
        }
        return new YamlNode.Scalar(text, text, false, label, 0);
    }

    private static YamlNode list(String text, Path label) {
        List<YamlNode> items = new ArrayList<>();
        for (String item : text.split(",")) {
            if (!item.isBlank()) {
                items.add(new YamlNode.Scalar(item.strip(), item.strip(), false, label, 0));
            }
        }
        return new YamlNode.Sequence(items, label, 0);
    }

    /** A tree read by vertx-config (maps, lists, strings, numbers, booleans) as nodes labelled with the file. */
    private static YamlNode fromTree(Object value, Path file) {
        if (value instanceof Map) {
            Map<String, YamlNode.Entry> entries = new LinkedHashMap<>();
            ((Map<?, ?>) value).forEach((k, v) -> entries.put(String.valueOf(k),
                    new YamlNode.Entry(String.valueOf(k), 0, fromTree(v, file))));
            return new YamlNode.Mapping(entries, file, 0);
        }
        if (value instanceof List) {
            List<YamlNode> items = new ArrayList<>();
            ((List<?>) value).forEach(item -> items.add(fromTree(item, file)));
            return new YamlNode.Sequence(items, file, 0);
        }
        if (value == null) {
            return new YamlNode.Scalar(null, "", true, file, 0);
        }
        return new YamlNode.Scalar(value, String.valueOf(value), !(value instanceof String), file, 0);
    }

    private static String text(Object value) {
        if (value instanceof List) {
            List<String> items = new ArrayList<>();
            ((List<?>) value).forEach(item -> items.add(String.valueOf(item)));
            return String.join(",", items);
        }
        return String.valueOf(value);
    }

    private static String describe(Object value) {
        return value instanceof List ? "a list" : "\"" + value + "\"";
    }

    /** The {@code server} and {@code observability} settings, to merge under a project's {@code .hyperterse}; null when none. */
    YamlNode settings() {
        return settings;
    }

    /** The {@code cluster} settings by key ({@code enabled}, {@code port}, …). */
    public Map<String, Sourced> cluster() {
        return cluster;
    }

    /** Where settings were read from, in order: the file, then each property and variable. */
    public List<String> sources() {
        return sources;
    }

    /** The setting names an operator may use, read off the packaged defaults so the two cannot drift. */
    private record Known(Map<String, List<String>> byVariable, Map<String, List<String>> byProperty,
                         List<List<String>> lists) {
        static Known fromDefaults() {
            Map<String, List<String>> byVariable = new LinkedHashMap<>();
            Map<String, List<String>> byProperty = new LinkedHashMap<>();
            List<List<String>> lists = new ArrayList<>();
            YamlNode.Mapping defaults = (YamlNode.Mapping) PackagedDefaults.load();
            List<List<String>> leaves = new ArrayList<>();
            for (String section : List.of("server", "observability")) {
                leaves(defaults.entries().get(section).value(), List.of(section), leaves, lists);
            }
            leaves.add(List.of("server", "port")); // no default: the command line falls back to $PORT, then 8080
            for (String key : CLUSTER_KEYS) {
                leaves.add(List.of("cluster", key));
            }
            for (List<String> path : leaves) {
                boolean clusterEnabled = path.equals(List.of("cluster", "enabled"));
                byVariable.put(clusterEnabled ? ENV_PREFIX + "CLUSTER"
                        : ENV_PREFIX + String.join("_", path).toUpperCase(Locale.ROOT), path);
                byProperty.put(PROPERTY_PREFIX + String.join(".", path), path);
            }
            lists.add(List.of("cluster", "members"));
            return new Known(byVariable, byProperty, lists);
        }

        private static void leaves(YamlNode node, List<String> path, List<List<String>> out, List<List<String>> lists) {
            if (node instanceof YamlNode.Mapping) {
                ((YamlNode.Mapping) node).entries().forEach((k, e) -> {
                    List<String> child = new ArrayList<>(path);
                    child.add(k);
                    leaves(e.value(), List.copyOf(child), out, lists);
                });
                return;
            }
            out.add(path);
            if (node instanceof YamlNode.Sequence) {
                lists.add(path);
            }
        }
    }
}

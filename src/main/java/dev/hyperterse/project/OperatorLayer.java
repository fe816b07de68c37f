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
    public static final List<String> CLUSTER_KEYS = List.of("enabled", "members", "host", "port", "name", "multicast",
            "kubernetes_dns");
    private static final String ENV_PREFIX = "HYPERTERSE_";
    private static final String PROPERTY_PREFIX = "hyperterse.";

    /** No operator settings: the packaged defaults and the project decide. */
    public static final OperatorLayer NONE = new OperatorLayer(null, Map.of(), List.of(), List.of());

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
    private final List<String> warnings;

    private OperatorLayer(YamlNode.Mapping settings, Map<String, Sourced> cluster, List<String> sources,
                          List<String> warnings) {
        this.settings = settings;
        this.cluster = Map.copyOf(cluster);
        this.sources = List.copyOf(sources);
        this.warnings = List.copyOf(warnings);
    }

    /**
     * Reads the operator file (when there is one) as project files are read, with the same YAML
     * rules and limits, then layers the properties and variables over it. Reading the file blocks:
     * call this off any event loop.
     *
     * @param file        the operator file, or null for none
     * @param fileShown   the file as messages name it
     * @param environment environment variables (only {@code HYPERTERSE_*} ones are read)
     * @param properties  system properties (only {@code hyperterse.*} ones are read)
     * @throws IllegalArgumentException naming the file (and line) when it cannot be read or holds
     *                                  something other than operator settings
     */
    public static OperatorLayer read(Path file, String fileShown, Map<String, String> environment,
                                     Map<String, String> properties) {
        return layered(file == null ? null : readFile(file, fileShown), fileShown, environment, properties);
    }

    /** The operator file's tree; throws naming the file (and line) for each problem in it. */
    private static YamlNode.Mapping readFile(Path file, String fileShown) {
        Path shown = Path.of(fileShown);
        Problems problems = new Problems(LOG, warning -> {
        });
        String text = TextFiles.read(file, shown, problems);
        YamlNode root = text == null ? null : YamlDocument.parse(text, shown, problems);
        if (problems.hasErrors()) {
            List<String> lines = new ArrayList<>();
            for (ConfigProblem problem : problems.errors()) {
                // a syntax error's message holds its line and column; a file not read at all has no line
                boolean whole = problem.location().line() <= 0 || problem.message().startsWith(YamlSyntaxError.PREFIX);
                lines.add(whole ? fileShown + ": cannot read it: " + problem.message() : problem.toString());
            }
            throw new IllegalArgumentException(String.join("\n", lines));
        }
        if (!(root instanceof YamlNode.Mapping)) {
            throw new IllegalArgumentException(fileShown + ": cannot read it: expected a mapping of keys ("
                    + String.join(", ", SECTIONS) + ") at the top of the file");
        }
        return (YamlNode.Mapping) root;
    }

    /**
     * @param file        the operator file's tree, or null when there is none
     * @param fileShown   the file as messages name it; null when there is none
     * @param environment environment variables (only {@code HYPERTERSE_*} ones are read)
     * @param properties  system properties (only {@code hyperterse.*} ones are read)
     * @throws IllegalArgumentException naming the file and line when the file holds something
     *                                  other than operator settings
     */
    static OperatorLayer layered(YamlNode.Mapping file, String fileShown, Map<String, String> environment,
                                 Map<String, String> properties) {
        Known known = Known.fromDefaults();
        Map<String, YamlNode.Entry> top = new LinkedHashMap<>();
        Map<String, Sourced> cluster = new LinkedHashMap<>();
        List<String> sources = new ArrayList<>();
        List<String> warnings = new ArrayList<>();
        if (file != null) {
            sources.add(fileShown);
            for (YamlNode.Entry entry : file.entries().values()) {
                String key = entry.key();
                String at = fileShown + ":" + entry.keyLine();
                if (!SECTIONS.contains(key)) {
                    throw new IllegalArgumentException(at + ": '" + key + "' is not an operator setting "
                            + (RootConfigReader.ROOT_KEYS.contains(key) ? "(it belongs in a project's .hyperterse); "
                            : "; ") + "an operator file holds " + String.join(", ", SECTIONS));
                }
                YamlNode value = entry.value();
                if (value instanceof YamlNode.Scalar && ((YamlNode.Scalar) value).isNull()) {
                    continue;
                }
                if (!(value instanceof YamlNode.Mapping)) {
                    throw new IllegalArgumentException(at + ": '" + key + "' must be a mapping of keys, got "
                            + YamlNode.describe(value));
                }
                if (key.equals("cluster")) {
                    for (YamlNode.Entry c : ((YamlNode.Mapping) value).entries().values()) {
                        String name = c.key();
                        if (!CLUSTER_KEYS.contains(name)) {
                            throw new IllegalArgumentException(fileShown + ":" + c.keyLine() + ": unknown key 'cluster."
                                    + name + "' (cluster keys: " + String.join(", ", CLUSTER_KEYS) + ")");
                        }
                        if (c.value() instanceof YamlNode.Mapping) {
                            throw new IllegalArgumentException(fileShown + ":" + c.keyLine() + ": 'cluster." + name
                                    + "' must be a value or a list, got a mapping");
                        }
                        if (!(c.value() instanceof YamlNode.Scalar && ((YamlNode.Scalar) c.value()).isNull())) {
                            cluster.put(name, new Sourced(text(c.value()), fileShown + ": cluster." + name));
                        }
                    }
                } else {
                    top.put(key, entry);
                }
            }
        }
        // properties, then variables: each source over the one before
        apply(properties, PROPERTY_PREFIX, known, top, cluster, sources, warnings, true);
        apply(environment, ENV_PREFIX, known, top, cluster, sources, warnings, false);
        YamlNode.Mapping settings = top.isEmpty() ? null
                : new YamlNode.Mapping(top, fileShown != null ? Path.of(fileShown) : Path.of("[environment]"), 0);
        return new OperatorLayer(settings, cluster, sources, warnings);
    }

    private static void apply(Map<String, String> values, String prefix, Known known, Map<String, YamlNode.Entry> top,
                              Map<String, Sourced> cluster, List<String> sources, List<String> warnings,
                              boolean property) {
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
                    warnings.add(unknownName(shownAs, name, (property ? known.byProperty : known.byVariable).keySet()));
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

    /**
     * Why a variable or property that looks like a setting is ignored, naming the real one closest
     * to it as it would be written (upper case for a variable, lower case for a property), since
     * any other spelling is ignored too.
     */
    static String unknownName(String shownAs, String name, java.util.Collection<String> known) {
        Suggestions.Closest closest = Suggestions.closest(name, known);
        String flag = shownAs.startsWith("-D") ? "-D" : "";
        String hint = closest == null ? ""
                : closest.distance() <= Suggestions.MAX_DISTANCE ? " (did you mean " + flag + closest.word() + "?)"
                : " (the closest setting is " + flag + closest.word() + "; start --print-config lists them all)";
        return shownAs + " is not an operator setting and is ignored" + hint;
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

    /** A cluster value as the command line reads it: a list joined with commas. */
    private static String text(YamlNode value) {
        if (value instanceof YamlNode.Sequence) {
            List<String> items = new ArrayList<>();
            ((YamlNode.Sequence) value).items().forEach(item -> items.add(text(item)));
            return String.join(",", items);
        }
        return value instanceof YamlNode.Scalar ? String.valueOf(((YamlNode.Scalar) value).value()) : "";
    }

    /** The {@code server} and {@code observability} settings, to merge under a project's {@code .hyperterse}; null when none. */
    YamlNode settings() {
        return settings;
    }

    /** The {@code cluster} settings by key ({@code enabled}, {@code port}, …). */
    public Map<String, Sourced> cluster() {
        return cluster;
    }

    /**
     * What the layer found odd but did not refuse (a variable that looks like a setting and is not
     * one), for the command line to log once the log format is set: reading the layer logs nothing.
     */
    public List<String> warnings() {
        return warnings;
    }

    /** Logs {@link #warnings()}, under this class's name. */
    public void logWarnings() {
        warnings.forEach(w -> LOG.warn("{}", w));
    }

    /**
     * The value of one {@code server} or {@code observability} setting as this layer writes it
     * (file, property or variable, the last over the first), unchecked; null when it sets none.
     * For the few settings that act before a project is compiled and checked (the log format).
     */
    public String written(String... key) {
        return YamlDocument.writtenText(settings, key);
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

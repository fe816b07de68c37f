package dev.hyperterse.project;

import org.yaml.snakeyaml.DumperOptions;
import org.yaml.snakeyaml.LoaderOptions;
import org.yaml.snakeyaml.Yaml;
import org.yaml.snakeyaml.constructor.SafeConstructor;
import org.yaml.snakeyaml.error.MarkedYAMLException;
import org.yaml.snakeyaml.error.YAMLException;
import org.yaml.snakeyaml.nodes.MappingNode;
import org.yaml.snakeyaml.nodes.Node;
import org.yaml.snakeyaml.nodes.NodeTuple;
import org.yaml.snakeyaml.nodes.ScalarNode;
import org.yaml.snakeyaml.nodes.SequenceNode;
import org.yaml.snakeyaml.nodes.Tag;
import org.yaml.snakeyaml.representer.Representer;
import org.yaml.snakeyaml.resolver.Resolver;

import java.io.StringReader;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.IdentityHashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.regex.Pattern;

/**
 * Reads one YAML file into a {@link YamlNode} tree with line numbers, using SnakeYAML's node API
 * ({@code compose}) so no Java object is ever instantiated from the file.
 */
final class YamlDocument {
    private YamlDocument() {
    }

    /**
     * @return the root node (an empty mapping for an empty file), or null after a syntax error,
     *         which is reported with line, column and the parser's reason
     */
    static YamlNode parse(String text, Path file, Problems problems) {
        LoaderOptions options = new LoaderOptions();
        options.setMergeOnCompose(true);
        options.setAllowRecursiveKeys(false);
        DumperOptions unused = new DumperOptions();
        Yaml yaml = new Yaml(new SafeConstructor(options), new Representer(unused), unused, options,
                new ProjectResolver());
        String body = text.startsWith("\uFEFF") ? text.substring(1) : text;
        Node root;
        try {
            root = yaml.compose(new StringReader(body));
        } catch (MarkedYAMLException e) {
            problems.error(file, YamlSyntaxError.line(e), YamlSyntaxError.message(e));
            return null;
        } catch (YAMLException e) {
            problems.error(file, 1, YamlSyntaxError.PREFIX + ": " + e.getMessage());
            return null;
        }
        if (root == null) {
            return YamlNode.Mapping.empty(file, 1);
        }
        try {
            return new Converter(file, problems, options, body.split("\r?\n|\r", -1)).convert(root);
        } catch (AliasesTooLarge e) {
            problems.error(file, e.line, "YAML aliases repeat more than " + MAX_REPEATED_VALUES
                    + " values in this file (an alias of the value at line " + e.line + " went past that);"
                    + " aliases that contain aliases multiply: use fewer of them");
            return null;
        }
    }

    /**
     * How many values aliases may repeat in one file. SnakeYAML allows 50 aliases of lists and
     * mappings, but each may hold the ones before it: 24 aliases doubling a list are 16 million
     * values, which took a minute (or all the memory) to read.
     */
    static final int MAX_REPEATED_VALUES = 100_000;

    private static final class AliasesTooLarge extends RuntimeException {
        private final int line;

        AliasesTooLarge(int line) {
            super(null, null, false, false);
            this.line = line;
        }
    }

    /**
     * The scalar at {@code key} (a path of mapping keys) as written, or null when the tree has no
     * value there or holds a list or mapping there.
     */
    static String writtenText(YamlNode root, String... key) {
        YamlNode node = root;
        for (String k : key) {
            if (!(node instanceof YamlNode.Mapping)) {
                return null;
            }
            YamlNode.Entry entry = ((YamlNode.Mapping) node).entries().get(k);
            node = entry == null ? null : entry.value();
        }
        return node instanceof YamlNode.Scalar && !((YamlNode.Scalar) node).isNull()
                ? ((YamlNode.Scalar) node).text() : null;
    }

    /**
     * Deep-merges {@code override} over {@code base}: mappings merge key by key, anything else is
     * replaced. An empty value ({@code server:} with nothing under it) keeps the base, as
     * writing a key with no value means "not set".
     */
    static YamlNode merge(YamlNode base, YamlNode override) {
        if (override == null || override instanceof YamlNode.Scalar && ((YamlNode.Scalar) override).isNull()) {
            return base;
        }
        if (base instanceof YamlNode.Mapping && override instanceof YamlNode.Mapping) {
            YamlNode.Mapping b = (YamlNode.Mapping) base;
            YamlNode.Mapping o = (YamlNode.Mapping) override;
            Map<String, YamlNode.Entry> out = new LinkedHashMap<>(b.entries());
            for (YamlNode.Entry entry : o.entries().values()) {
                YamlNode.Entry prior = out.get(entry.key());
                out.put(entry.key(), prior == null ? entry
                        : new YamlNode.Entry(entry.key(), entry.keyLine(), merge(prior.value(), entry.value())));
            }
            return new YamlNode.Mapping(out, o.file(), o.line());
        }
        return override;
    }

    /**
     * YAML 1.2 booleans ({@code true}/{@code false} only) and no implicit timestamps, as Go's
     * yaml.v3 reads Hyperterse files: {@code default: no} stays the string "no" and
     * {@code default: 2024-01-01} stays a string for a datetime input to parse.
     */
    private static final class ProjectResolver extends Resolver {
        private static final Pattern BOOL_1_2 = Pattern.compile("^(?:true|True|TRUE|false|False|FALSE)$");

        @Override
        protected void addImplicitResolvers() {
            addImplicitResolver(Tag.BOOL, BOOL_1_2, "tTfF", 10);
            addImplicitResolver(Tag.INT, INT, "-+0123456789");
            addImplicitResolver(Tag.FLOAT, FLOAT, "-+0123456789.");
            addImplicitResolver(Tag.MERGE, MERGE, "<", 10);
            addImplicitResolver(Tag.NULL, NULL, "~nN\0", 10);
            addImplicitResolver(Tag.NULL, EMPTY, null, 10);
            addImplicitResolver(Tag.YAML, YAML, "!&*", 10);
        }
    }

    /** Builds scalars' typed values with SnakeYAML's own safe rules for ints and floats. */
    private static final class ScalarValues extends SafeConstructor {
        ScalarValues(LoaderOptions options) {
            super(options);
        }

        Object value(ScalarNode node) {
            return constructObject(node);
        }
    }

    private static final class Converter {
        private final Path file;
        private final Problems problems;
        private final ScalarValues scalars;
        private final Set<Node> inProgress = Collections.newSetFromMap(new IdentityHashMap<>());
        /** Nodes read so far: a node read again is one an alias repeats. */
        private final Set<Node> seen = Collections.newSetFromMap(new IdentityHashMap<>());
        private int repeated;
        /** The file's lines, for the text of values that span several. */
        private final String[] lines;

        Converter(Path file, Problems problems, LoaderOptions options, String[] lines) {
            this.file = file;
            this.problems = problems;
            this.scalars = new ScalarValues(options);
            this.lines = lines;
        }

        YamlNode convert(Node node) {
            int line = node.getStartMark().getLine() + 1;
            if (!inProgress.add(node)) {
                problems.error(file, line, "a YAML alias refers to a value that contains itself");
                return new YamlNode.Scalar(null, "", true, file, line);
            }
            if (!seen.add(node) && ++repeated > MAX_REPEATED_VALUES) {
                throw new AliasesTooLarge(line);
            }
            try {
                if (node instanceof ScalarNode) {
                    return scalar((ScalarNode) node, line);
                }
                if (node instanceof SequenceNode) {
                    List<YamlNode> items = new ArrayList<>();
                    for (Node item : ((SequenceNode) node).getValue()) {
                        items.add(convert(item));
                    }
                    return new YamlNode.Sequence(items, file, line);
                }
                return mapping((MappingNode) node, line);
            } finally {
                inProgress.remove(node);
            }
        }

        private YamlNode scalar(ScalarNode node, int line) {
            Tag tag = node.getTag();
            String text = node.getValue();
            Object value;
            if (tag.equals(Tag.STR)) {
                value = text;
            } else if (tag.equals(Tag.NULL)) {
                value = null;
            } else if (tag.equals(Tag.INT) || tag.equals(Tag.FLOAT) || tag.equals(Tag.BOOL)) {
                try {
                    value = scalars.value(node);
                } catch (YAMLException | NumberFormatException e) {
                    problems.error(file, line, "cannot read " + tag.getValue() + " value '" + text + "'");
                    value = text;
                }
            } else {
                problems.error(file, line, "unsupported YAML tag '" + tag.getValue()
                        + "' (only strings, numbers, booleans, lists and mappings are allowed)");
                value = text;
            }
            // a block scalar (| or >) starts on the line after its indicator: point at its text
            DumperOptions.ScalarStyle style = node.getScalarStyle();
            int textLine = style == DumperOptions.ScalarStyle.LITERAL || style == DumperOptions.ScalarStyle.FOLDED
                    ? line + 1 : line;
            return new YamlNode.Scalar(value, text, node.isPlain(), file, textLine, source(textLine, node));
        }

        /** The lines from {@code firstLine} (1-based) to the node's end, when it ends on a later line; else null. */
        private String source(int firstLine, ScalarNode node) {
            int last = Math.min(node.getEndMark().getLine() + 1, lines.length);
            if (last <= firstLine) {
                return null;
            }
            return String.join("\n", java.util.Arrays.asList(lines).subList(firstLine - 1, last));
        }

        private YamlNode mapping(MappingNode node, int line) {
            Map<String, YamlNode.Entry> entries = new LinkedHashMap<>();
            for (NodeTuple tuple : node.getValue()) {
                Node keyNode = tuple.getKeyNode();
                int keyLine = keyNode.getStartMark().getLine() + 1;
                if (!(keyNode instanceof ScalarNode)) {
                    problems.error(file, keyLine, "a mapping key must be plain text, not a list or mapping");
                    continue;
                }
                String key = ((ScalarNode) keyNode).getValue();
                YamlNode.Entry first = entries.get(key);
                if (first != null) {
                    problems.error(file, keyLine, "duplicate key '" + key + "' (first at line "
                            + first.keyLine() + ")");
                    continue;
                }
                entries.put(key, new YamlNode.Entry(key, keyLine, convert(tuple.getValueNode())));
            }
            return new YamlNode.Mapping(entries, file, line);
        }
    }
}

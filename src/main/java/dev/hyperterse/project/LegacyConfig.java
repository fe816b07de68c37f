package dev.hyperterse.project;

import java.util.ArrayList;
import java.util.List;

/**
 * Recognises a Hyperterse 1.x single-file config: one YAML file holding named adapters under
 * {@code adapters:} and the tools under {@code queries:}. Hyperterse 2.0 replaced it by the
 * project folder this server reads, so read as 2.x it would only yield unknown-key warnings and
 * a project with nothing to serve; it is named for what it is instead, with the way to migrate.
 */
final class LegacyConfig {
    /** This repository's migration steps. */
    static final String STEPS = "docs/project-format.md, \"From Hyperterse 1.x\"";
    /** Hyperterse's own guide. */
    static final String GUIDE = "https://docs.hyperterse.com/migration/v1-to-v2";

    private LegacyConfig() {
    }

    /**
     * The top-level keys that only a 1.x file has, in file order: {@code queries}, and
     * {@code adapters} holding adapters by name (in 2.x it holds only {@code directory}).
     * Empty when the file reads as 2.x.
     */
    static List<YamlNode.Entry> markers(YamlNode.Mapping top) {
        List<YamlNode.Entry> found = new ArrayList<>();
        for (YamlNode.Entry e : top.entries().values()) {
            if (e.key().equals("queries") && !isNull(e.value())) {
                found.add(e);
            } else if (e.key().equals("adapters") && holdsNamedAdapters(e.value())) {
                found.add(e);
            }
        }
        return found;
    }

    /** The error for a file with those keys: what it is, and where the migration steps are. */
    static String message(List<YamlNode.Entry> markers) {
        List<String> keys = new ArrayList<>();
        for (YamlNode.Entry e : markers) {
            keys.add(e.key().equals("adapters") ? "'adapters' holding adapters by name" : "'" + e.key() + "'");
        }
        return "this is a Hyperterse 1.x single-file config (" + String.join(" and ", keys) + "), which this "
                + "server does not read: it serves Hyperterse 2.x projects, a .hyperterse with the project's "
                + "settings beside app/adapters/<adapter>.terse (one file per adapter) and "
                + "app/tools/<tool>/config.terse (one folder per query). Migrate: move each adapter to its own "
                + "file and each query to its own tool folder, keep name and server here (steps: " + STEPS
                + "; Hyperterse's guide: " + GUIDE + ")";
    }

    private static boolean holdsNamedAdapters(YamlNode value) {
        if (!(value instanceof YamlNode.Mapping)) {
            return false;
        }
        for (YamlNode.Entry e : ((YamlNode.Mapping) value).entries().values()) {
            if (!e.key().equals("directory") && e.value() instanceof YamlNode.Mapping) {
                return true;
            }
        }
        return false;
    }

    private static boolean isNull(YamlNode node) {
        return node instanceof YamlNode.Scalar && ((YamlNode.Scalar) node).isNull();
    }
}

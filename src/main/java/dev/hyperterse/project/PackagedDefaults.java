package dev.hyperterse.project;

import org.slf4j.LoggerFactory;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * The server-level defaults packaged in the jar ({@code conf/hyperterse.yaml} in the source
 * tree). A project's {@code .hyperterse} is merged over them, so they live in one place.
 */
final class PackagedDefaults {
    static final String RESOURCE = "/conf/hyperterse.yaml";
    /** How values that come from the defaults are labelled, should a message ever point at one. */
    static final Path SHOWN_AS = Path.of("[defaults]", "conf", "hyperterse.yaml");

    private PackagedDefaults() {
    }

    /**
     * Reads and parses the defaults from the classpath.
     *
     * @throws IllegalStateException when the resource is missing or is not valid YAML: the jar
     *                               itself is broken, which no project can fix
     */
    static YamlNode load() {
        return load(RESOURCE);
    }

    static YamlNode load(String resource) {
        String text;
        try (InputStream in = PackagedDefaults.class.getResourceAsStream(resource)) {
            if (in == null) {
                throw new IllegalStateException("internal error: the default configuration " + resource
                        + " is missing from the classpath; the build that produced this jar is broken");
            }
            text = new String(in.readAllBytes(), StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new UncheckedIOException("internal error: cannot read " + resource, e);
        }
        return parse(text);
    }

    static YamlNode parse(String text) {
        List<ConfigProblem> warnings = new ArrayList<>();
        Problems problems = new Problems(LoggerFactory.getLogger(PackagedDefaults.class), warnings::add);
        YamlNode node = YamlDocument.parse(text, SHOWN_AS, problems);
        if (problems.hasErrors() || !(node instanceof YamlNode.Mapping)) {
            try {
                problems.throwIfAny();
            } catch (ProjectException e) {
                throw new IllegalStateException("internal error: the default configuration " + RESOURCE
                        + " is broken: " + e.getMessage(), e);
            }
            throw new IllegalStateException("internal error: the default configuration " + RESOURCE
                    + " is not a mapping of keys");
        }
        return node;
    }
}

package dev.hyperterse.project;

import org.junit.jupiter.api.Test;
import org.yaml.snakeyaml.Yaml;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The README and {@code docs/} hold together: every relative link reaches a file, and every
 * {@code #anchor} a heading of it; every key the compiler reads is named somewhere in docs/.
 */
class DocumentationTest {
    private static final Pattern LINK = Pattern.compile("\\]\\(([^)\\s]+)\\)");
    private static final Pattern HEADING = Pattern.compile("^#{1,6} (.*)$");

    private static List<Path> pages() throws IOException {
        List<Path> pages = new ArrayList<>();
        pages.add(Path.of("README.md"));
        try (Stream<Path> docs = Files.list(Path.of("docs"))) {
            docs.filter(p -> p.toString().endsWith(".md")).sorted().forEach(pages::add);
        }
        return pages;
    }

    /** GitHub's heading anchors: lower case, punctuation dropped, spaces as hyphens. */
    static String slug(String heading) {
        return heading.strip().toLowerCase(Locale.ROOT).replaceAll("[^\\p{L}\\p{N}_\\- ]", "").replace(' ', '-');
    }

    private static Set<String> anchors(Path page) throws IOException {
        Set<String> out = new HashSet<>();
        boolean fence = false;
        for (String line : Files.readAllLines(page)) {
            if (line.startsWith("```")) {
                fence = !fence;
            }
            Matcher m = HEADING.matcher(line);
            if (!fence && m.matches()) {
                out.add(slug(m.group(1)));
            }
        }
        return out;
    }

    @Test
    void everyRelativeLinkAndAnchorResolves() throws IOException {
        List<String> broken = new ArrayList<>();
        for (Path page : pages()) {
            Matcher m = LINK.matcher(Files.readString(page));
            while (m.find()) {
                String target = m.group(1);
                if (target.matches("^[a-z]+:.*")) {
                    continue;
                }
                int hash = target.indexOf('#');
                String file = hash < 0 ? target : target.substring(0, hash);
                Path resolved = file.isEmpty() ? page : page.toAbsolutePath().getParent().resolve(file).normalize();
                if (!Files.exists(resolved)) {
                    broken.add(page + ": " + target + " (no such file)");
                } else if (hash >= 0 && resolved.toString().endsWith(".md")
                        && !anchors(resolved).contains(target.substring(hash + 1))) {
                    broken.add(page + ": " + target + " (no such heading)");
                }
            }
        }
        assertEquals(List.of(), broken);
    }

    @Test
    void theReadmeStaysShort() throws IOException {
        int lines = Files.readAllLines(Path.of("README.md")).size();
        assertTrue(lines <= 250, "README.md has " + lines + " lines; the reference belongs in docs/");
    }

    @Test
    void everyKeyTheCompilerReadsIsNamedInTheDocs() throws IOException {
        StringBuilder all = new StringBuilder();
        for (Path page : pages()) {
            all.append(Files.readString(page)).append('\n');
        }
        String docs = all.toString();
        List<String> keys = new ArrayList<>();
        Map<String, Object> defaults = new Yaml().load(Files.readString(Path.of("conf/hyperterse.yaml")));
        collect("", defaults, keys);
        keys.addAll(RootConfigReader.ROOT_KEYS);
        keys.addAll(ToolReader.KEYS);
        keys.addAll(AdapterReader.KEYS);
        keys.addAll(PromptReader.KEYS);
        keys.addAll(ResourceReader.KEYS);
        keys.addAll(ArgumentReader.KEYS);
        List<String> unnamed = new ArrayList<>();
        for (String key : keys) {
            String leaf = key.substring(key.lastIndexOf('.') + 1);
            // a section (observability.tracing) is named by the keys documented under it
            if (!docs.contains("`" + key + "`") && !docs.contains("`" + leaf + "`") && !docs.contains(key + ":")
                    && !docs.contains(leaf + ":") && !docs.contains("`" + key + ".")) {
                unnamed.add(key);
            }
        }
        assertEquals(List.of(), unnamed, "keys the compiler reads that no page names");
    }

    @SuppressWarnings("unchecked")
    private static void collect(String prefix, Map<String, Object> map, List<String> out) {
        for (Map.Entry<String, Object> e : map.entrySet()) {
            String key = prefix.isEmpty() ? e.getKey() : prefix + "." + e.getKey();
            out.add(key);
            if (e.getValue() instanceof Map) {
                collect(key, (Map<String, Object>) e.getValue(), out);
            }
        }
    }
}

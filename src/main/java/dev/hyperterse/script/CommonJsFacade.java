package dev.hyperterse.script;

import io.vertx.core.json.Json;

import java.nio.file.Path;
import java.util.LinkedHashSet;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * An ES module that stands in for a CommonJS file, since GraalJS's module loader cannot import
 * CommonJS itself: it loads the file with the bootstrap's small CommonJS loader (which reads
 * through the project file system) and re-exports it as Node does: {@code module.exports} as the default
 * export, plus the named exports a static scan finds (a small version of Node's
 * cjs-module-lexer: {@code exports.x =}, {@code Object.defineProperty(exports, "x"}, and the
 * keys of {@code module.exports = { ... }}).
 */
final class CommonJsFacade {
    /** Appended to a CommonJS file's path to name its facade; the file system serves the facade there. */
    static final String SUFFIX = ".hyperterse-cjs.mjs";
    /** The global the bootstrap defines to load a CommonJS file by absolute path. */
    static final String REQUIRE_GLOBAL = "__hyperterse_require";

    private static final Pattern ASSIGNED = Pattern.compile(
            "(?<![\\w$.])(?:module\\s*\\.\\s*)?exports\\s*(?:\\.\\s*([A-Za-z_$][\\w$]*)|\\[\\s*['\"]([^'\"]+)['\"]\\s*\\])\\s*=(?!=)");
    private static final Pattern DEFINED = Pattern.compile(
            "Object\\s*\\.\\s*defineProperty\\s*\\(\\s*(?:module\\s*\\.\\s*)?exports\\s*,\\s*['\"]([^'\"]+)['\"]");
    private static final Pattern OBJECT_LITERAL = Pattern.compile("(?<![\\w$.])module\\s*\\.\\s*exports\\s*=\\s*\\{");
    private static final Pattern IDENTIFIER = Pattern.compile("[A-Za-z_$][\\w$]*");

    private CommonJsFacade() {
    }

    static Path facadeFor(Path commonJsFile) {
        return commonJsFile.resolveSibling(commonJsFile.getFileName() + SUFFIX);
    }

    /** The CommonJS file a facade path stands for, or null when the path is no facade. */
    static Path underlying(Path path) {
        Path name = path.getFileName();
        if (name == null || !name.toString().endsWith(SUFFIX)) {
            return null;
        }
        String file = name.toString();
        return path.resolveSibling(file.substring(0, file.length() - SUFFIX.length()));
    }

    static String source(Path commonJsFile, String commonJsSource) {
        StringBuilder out = new StringBuilder();
        // JSON string quoting is valid JavaScript string quoting
        out.append("const m = globalThis.").append(REQUIRE_GLOBAL).append("(")
                .append(Json.encode(commonJsFile.toString())).append(");\n");
        out.append("export default m;\n");
        int i = 0;
        for (String name : exportNames(commonJsSource)) {
            out.append("const __e").append(i).append(" = m == null ? undefined : m.").append(name).append(";\n");
            out.append("export { __e").append(i).append(" as ").append(name).append(" };\n");
            i++;
        }
        return out.toString();
    }

    static Set<String> exportNames(String source) {
        Set<String> names = new LinkedHashSet<>();
        Matcher m = ASSIGNED.matcher(source);
        while (m.find()) {
            names.add(m.group(1) != null ? m.group(1) : m.group(2));
        }
        m = DEFINED.matcher(source);
        while (m.find()) {
            names.add(m.group(1));
        }
        m = OBJECT_LITERAL.matcher(source);
        while (m.find()) {
            names.addAll(literalKeys(source, m.end()));
        }
        names.removeIf(n -> n.equals("default") || n.equals("__esModule") || !IDENTIFIER.matcher(n).matches());
        return names;
    }

    /** The keys written at the top level of an object literal starting after its '{'. */
    private static Set<String> literalKeys(String source, int from) {
        Set<String> keys = new LinkedHashSet<>();
        int depth = 0;
        boolean expectKey = true;
        for (int i = from; i < source.length(); i++) {
            char c = source.charAt(i);
            if (c == '"' || c == '\'' || c == '`') {
                i = skipString(source, i);
                continue;
            }
            if (c == '{' || c == '(' || c == '[') {
                depth++;
            } else if (c == '}' || c == ')' || c == ']') {
                if (depth == 0) {
                    break;
                }
                depth--;
            } else if (depth == 0 && c == ',') {
                expectKey = true;
            } else if (depth == 0 && expectKey && (Character.isJavaIdentifierStart(c))) {
                int end = i + 1;
                while (end < source.length() && Character.isJavaIdentifierPart(source.charAt(end))) {
                    end++;
                }
                String word = source.substring(i, end);
                int next = end;
                while (next < source.length() && Character.isWhitespace(source.charAt(next))) {
                    next++;
                }
                char after = next < source.length() ? source.charAt(next) : '}';
                if ((word.equals("get") || word.equals("set") || word.equals("async")) && after != ':'
                        && after != ',' && after != '}' && after != '(') {
                    i = end - 1;
                    continue;
                }
                if (after == ':' || after == ',' || after == '}' || after == '(') {
                    keys.add(word);
                }
                expectKey = false;
                i = end - 1;
            } else if (depth == 0 && !Character.isWhitespace(c)) {
                expectKey = false;
            }
        }
        return keys;
    }

    private static int skipString(String source, int start) {
        char quote = source.charAt(start);
        for (int i = start + 1; i < source.length(); i++) {
            char c = source.charAt(i);
            if (c == '\\') {
                i++;
            } else if (c == quote) {
                return i;
            }
        }
        return source.length();
    }
}

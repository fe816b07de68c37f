package dev.hyperterse.script;

import io.vertx.core.json.DecodeException;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;

/**
 * Finds the file a bare import ({@code dayjs}, {@code @scope/pkg/sub}) names in the project's
 * {@code node_modules}, reading {@code package.json} as Node and bundlers do: {@code exports}
 * (subpaths, patterns and conditions), else {@code module}, else {@code main}, else {@code index.js};
 * and says whether the file is CommonJS, which an ES module cannot import without a facade.
 *
 * <p>Conditions prefer ES module and browser builds ({@code import}, {@code module},
 * {@code browser}, {@code default}), since scripts have no Node built-ins; {@code require} and
 * {@code node} are the fallback.
 */
final class PackageResolver {
    private static final List<String> ESM_CONDITIONS = List.of("import", "module", "browser", "worker", "default");
    private static final List<String> CJS_CONDITIONS = List.of("require", "node");
    private static final List<String> REQUIRE_CONDITIONS = List.of("require", "node", "default");
    private static final List<String> EXTENSIONS = List.of("", ".js", ".mjs", ".cjs", ".json", "/index.js",
            "/index.mjs", "/index.cjs");

    /** A resolved bare import: the file, and whether it is a CommonJS module. */
    record Resolved(Path file, boolean commonJs) {
    }

    private final Path nodeModules;

    PackageResolver(Path projectDir) {
        this.nodeModules = projectDir.resolve("node_modules");
    }

    /** The file an {@code import} of {@code specifier} loads, or null when no installed package provides it. */
    Resolved resolve(String specifier) {
        return resolve(specifier, false);
    }

    /** The file a CommonJS {@code require} of {@code specifier} loads, or null. */
    Path resolveRequire(String specifier) {
        Resolved r = resolve(specifier, true);
        return r == null ? null : r.file();
    }

    private Resolved resolve(String specifier, boolean require) {
        String[] parts = specifier.split("/", -1);
        int nameParts = specifier.startsWith("@") ? 2 : 1;
        if (parts.length < nameParts || parts[0].isEmpty() || (nameParts == 2 && parts[1].isEmpty())) {
            return null;
        }
        String name = String.join("/", java.util.Arrays.copyOfRange(parts, 0, nameParts));
        String subpath = parts.length == nameParts ? "."
                : "./" + String.join("/", java.util.Arrays.copyOfRange(parts, nameParts, parts.length));
        Path packageDir = nodeModules.resolve(name).normalize();
        if (!packageDir.startsWith(nodeModules) || !Files.isDirectory(packageDir)) {
            return null;
        }
        JsonObject manifest = manifest(packageDir);
        boolean typeModule = "module".equals(manifest.getString("type"));
        Object exports = manifest.getValue("exports");
        if (exports != null) {
            Object target = subpathTarget(exports, subpath);
            if (target == null) {
                return null;
            }
            for (List<String> conditions : require ? List.of(REQUIRE_CONDITIONS, ESM_CONDITIONS)
                    : List.of(ESM_CONDITIONS, CJS_CONDITIONS)) {
                Match match = conditional(target, conditions, false);
                if (match != null) {
                    Path file = inside(packageDir, match.path());
                    if (file != null && Files.isRegularFile(file)) {
                        return new Resolved(file, isCommonJs(file, typeModule, match.viaImport()));
                    }
                }
            }
            return null;
        }
        if (!subpath.equals(".")) {
            Path file = probe(packageDir, subpath);
            return file == null ? null : new Resolved(file, isCommonJs(file, typeModule, false));
        }
        String module = !require && manifest.getValue("module") instanceof String ? manifest.getString("module") : null;
        if (module != null) {
            Path file = probe(packageDir, module);
            if (file != null) {
                return new Resolved(file, isCommonJs(file, typeModule, true));
            }
        }
        String main = manifest.getValue("main") instanceof String ? manifest.getString("main") : "index.js";
        Path file = probe(packageDir, main);
        if (file == null && !main.equals("index.js")) {
            file = probe(packageDir, "index.js");
        }
        return file == null ? null : new Resolved(file, isCommonJs(file, typeModule, false));
    }

    private record Match(String path, boolean viaImport) {
    }

    /** The {@code exports} entry for a subpath: exact keys first, then the longest {@code *} pattern. */
    private static Object subpathTarget(Object exports, String subpath) {
        if (!(exports instanceof JsonObject) || !hasSubpathKeys((JsonObject) exports)) {
            return subpath.equals(".") ? exports : null;
        }
        JsonObject map = (JsonObject) exports;
        if (map.containsKey(subpath)) {
            return map.getValue(subpath);
        }
        String bestKey = null;
        String bestStar = null;
        for (String key : map.fieldNames()) {
            int star = key.indexOf('*');
            if (star < 0) {
                continue;
            }
            String prefix = key.substring(0, star);
            String suffix = key.substring(star + 1);
            if (subpath.startsWith(prefix) && subpath.endsWith(suffix)
                    && subpath.length() >= prefix.length() + suffix.length()
                    && (bestKey == null || prefix.length() > bestKey.indexOf('*'))) {
                bestKey = key;
                bestStar = subpath.substring(prefix.length(), subpath.length() - suffix.length());
            }
        }
        if (bestKey == null) {
            return null;
        }
        return substitute(map.getValue(bestKey), bestStar);
    }

    private static boolean hasSubpathKeys(JsonObject exports) {
        for (String key : exports.fieldNames()) {
            if (key.startsWith(".")) {
                return true;
            }
        }
        return false;
    }

    /** Replaces {@code *} in every string of a target with what the pattern matched. */
    private static Object substitute(Object target, String star) {
        if (target instanceof String) {
            return ((String) target).replace("*", star);
        }
        if (target instanceof JsonObject) {
            JsonObject out = new JsonObject();
            ((JsonObject) target).forEach(e -> out.put(e.getKey(), substitute(e.getValue(), star)));
            return out;
        }
        if (target instanceof JsonArray) {
            JsonArray out = new JsonArray();
            ((JsonArray) target).forEach(v -> out.add(substitute(v, star)));
            return out;
        }
        return target;
    }

    /** Walks condition objects in their key order, taking the first key among {@code conditions}. */
    private static Match conditional(Object target, List<String> conditions, boolean viaImport) {
        if (target instanceof String) {
            return new Match((String) target, viaImport);
        }
        if (target instanceof JsonArray) {
            for (Object alternative : (JsonArray) target) {
                Match m = conditional(alternative, conditions, viaImport);
                if (m != null) {
                    return m;
                }
            }
            return null;
        }
        if (target instanceof JsonObject) {
            for (Map.Entry<String, Object> e : (JsonObject) target) {
                if (conditions.contains(e.getKey())) {
                    boolean esm = e.getKey().equals("import") || e.getKey().equals("module");
                    Match m = conditional(e.getValue(), conditions, viaImport || esm);
                    if (m != null) {
                        return m;
                    }
                }
            }
        }
        return null;
    }

    /**
     * As Node decides, except that a file reached through an {@code import}/{@code module}
     * condition or the {@code module} field is taken as an ES module, as bundlers do.
     */
    private static boolean isCommonJs(Path file, boolean typeModule, boolean viaImport) {
        String name = file.getFileName().toString();
        if (name.endsWith(".mjs")) {
            return false;
        }
        if (name.endsWith(".cjs")) {
            return true;
        }
        if (name.endsWith(".json")) {
            return false;
        }
        return !(typeModule || viaImport);
    }

    /**
     * A relative or absolute {@code require}: the file, then with {@code .js}, {@code .cjs},
     * {@code .json}, then a folder's {@code package.json} {@code main} or {@code index.js}.
     */
    static Path probeRequire(Path base) {
        for (String extension : List.of("", ".js", ".cjs", ".json", ".ts", ".cts")) {
            Path candidate = Path.of(base + extension);
            if (Files.isRegularFile(candidate)) {
                return candidate;
            }
        }
        if (Files.isDirectory(base)) {
            Object main = manifest(base).getValue("main");
            if (main instanceof String) {
                Path file = probe(base, (String) main);
                if (file != null) {
                    return file;
                }
            }
            return probe(base, "index.js");
        }
        return null;
    }

    private static Path probe(Path packageDir, String relative) {
        for (String extension : EXTENSIONS) {
            Path candidate = inside(packageDir, relative + extension);
            if (candidate != null && Files.isRegularFile(candidate)) {
                return candidate;
            }
        }
        return null;
    }

    private static Path inside(Path packageDir, String relative) {
        Path p = packageDir.resolve(relative).normalize();
        return p.startsWith(packageDir) ? p : null;
    }

    private static JsonObject manifest(Path packageDir) {
        Path file = packageDir.resolve("package.json");
        if (!Files.isRegularFile(file)) {
            return new JsonObject();
        }
        try {
            return new JsonObject(Files.readString(file, StandardCharsets.UTF_8));
        } catch (IOException | DecodeException | ClassCastException e) {
            return new JsonObject();
        }
    }
}

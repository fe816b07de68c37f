// What the dev-only exploration harnesses share: the four real catalogs of bench/search/catalogs
// as tools, and the DEV intents of bench/search/intents.txt (held-out intents are skipped when
// read, so no harness can tune on them).
package dev.hyperterse.search;

import dev.hyperterse.model.InputDef;
import dev.hyperterse.model.InputType;
import dev.hyperterse.model.ScriptRef;
import dev.hyperterse.model.SourceLocation;
import dev.hyperterse.model.ToolDef;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

final class DevSet {
    static final List<String> CATALOGS = List.of("hyperterse-docs", "mcp-reference", "toolbox-mysql", "toolbox-postgres");

    record Intent(String catalog, Set<String> expected, String text) {}

    private DevSet() {
    }

    /** Each real catalog's tools, by catalog name. */
    static Map<String, List<ToolDef>> catalogs() throws IOException {
        Map<String, List<ToolDef>> out = new LinkedHashMap<>();
        for (String c : CATALOGS) {
            List<ToolDef> tools = new ArrayList<>();
            JsonObject catalog = new JsonObject(Files.readString(Path.of("bench/search/catalogs/" + c + ".json")));
            for (Object t : catalog.getJsonArray("tools")) {
                tools.add(tool((JsonObject) t));
            }
            out.put(c, tools);
        }
        return out;
    }

    /** The dev intents, in file order. */
    static List<Intent> devIntents() throws IOException {
        List<Intent> out = new ArrayList<>();
        for (String line : Files.readAllLines(Path.of("bench/search/intents.txt"))) {
            if (line.isBlank() || line.startsWith("#")) {
                continue;
            }
            int sep = line.indexOf(" :: ");
            String[] head = line.substring(0, sep).trim().split("\\s+");
            if (head[0].equals("dev")) {
                out.add(new Intent(head[1], Set.of(head[2].split(",")), line.substring(sep + 4).trim()));
            }
        }
        return out;
    }

    /** 1 / the rank of the first expected tool among the ten best scores, 0 when none is there. */
    static double reciprocalRank(double[] score, List<ToolDef> tools, Set<String> expected) {
        Integer[] order = new Integer[tools.size()];
        for (int i = 0; i < order.length; i++) {
            order[i] = i;
        }
        java.util.Arrays.sort(order, (x, y) -> Double.compare(score[y], score[x]));
        for (int r = 0; r < Math.min(10, order.length); r++) {
            if (expected.contains(tools.get(order[r]).name())) {
                return 1.0 / (r + 1);
            }
        }
        return 0;
    }

    private static ToolDef tool(JsonObject json) {
        String name = json.getString("name");
        SourceLocation loc = new SourceLocation(Path.of("x"), 1);
        List<InputDef> inputs = new ArrayList<>();
        for (Object i : json.getJsonArray("inputs", new JsonArray())) {
            JsonObject in = (JsonObject) i;
            inputs.add(new InputDef(in.getString("name"), InputType.STRING, in.getString("description", ""),
                    in.getBoolean("optional", false), false, null, loc));
        }
        String statement = json.getString("statement", "");
        if (!statement.isEmpty()) {
            return ToolDef.builder(name).description(json.getString("description")).statement("db", statement)
                    .inputs(inputs).location(loc).build();
        }
        return ToolDef.builder(name).description(json.getString("description")).inputs(inputs)
                .handler(new ScriptRef(Path.of("h.ts"), "default", loc)).location(loc).build();
    }
}

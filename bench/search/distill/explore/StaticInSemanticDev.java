// Dev-only exploration: the static embedding inside the `semantic` ranking. MRR@10 over the DEV
// intents of the four real catalogs of (1 - w) ((1 - b) MiniLM cosine + b static cosine) + w BM25/best
// for static shares b and BM25 shares w. Needs the embedding model on the class path
// (bench/search/semantic-pom.xml); bench/search/distill/explore/run.sh --semantic runs it.
package dev.hyperterse.search;
import dev.hyperterse.model.*; import io.vertx.core.json.*; import org.apache.lucene.search.ScoreDoc;
import java.nio.file.*; import java.util.*;
public class StaticInSemanticDev {
  record Intent(String catalog, Set<String> expected, String text) {}
  static ToolDef tool(JsonObject json) {
    String name = json.getString("name"); List<InputDef> inputs = new ArrayList<>();
    SourceLocation loc = new SourceLocation(Path.of("x"), 1);
    for (Object i : json.getJsonArray("inputs", new JsonArray())) { JsonObject in = (JsonObject) i;
      inputs.add(new InputDef(in.getString("name"), InputType.STRING, in.getString("description", ""), in.getBoolean("optional", false), false, null, loc)); }
    String st = json.getString("statement", "");
    if (!st.isEmpty()) return new ToolDef(name, name, json.getString("description"), "db", st, inputs, null, null, null, null, CachePolicy.OFF, List.of(), Limits.DEFAULTS, loc);
    return new ToolDef(name, name, json.getString("description"), null, null, inputs, new ScriptRef(Path.of("h.ts"), "default", loc), null, null, null, CachePolicy.OFF, List.of(), Limits.DEFAULTS, loc);
  }
  public static void main(String[] a) throws Exception {
    Map<String, List<ToolDef>> cats = new LinkedHashMap<>();
    for (String c : List.of("hyperterse-docs","mcp-reference","toolbox-mysql","toolbox-postgres")) {
      List<ToolDef> ts = new ArrayList<>(); for (Object t : new JsonObject(Files.readString(Path.of("bench/search/catalogs/"+c+".json"))).getJsonArray("tools")) ts.add(tool((JsonObject) t)); cats.put(c, ts); }
    List<Intent> intents = new ArrayList<>();
    for (String line : Files.readAllLines(Path.of("bench/search/intents.txt"))) { if (line.isBlank()||line.startsWith("#")) continue;
      int sep = line.indexOf(" :: "); String[] h = line.substring(0, sep).trim().split("\\s+"); if (!h[0].equals("dev")) continue;
      intents.add(new Intent(h[1], Set.of(h[2].split(",")), line.substring(sep+4).trim())); }
    StaticEmbedder e = StaticEmbedder.bundled();
    TextEmbedder m = TextEmbedder.bundled().orElseThrow();
    Map<String, Object[]> prep = new HashMap<>();
    for (var c : cats.entrySet()) {
      List<ToolDef> ts = c.getValue(); int N = ts.size();
      float[][] vs = new float[N][], vm = new float[N][];
      for (int i = 0; i < N; i++) { String t = SemanticRanking.text(ts.get(i)); vs[i] = e.embed(t); vm[i] = m.embed(t); }
      prep.put(c.getKey(), new Object[]{vs, vm, new HybridRanking(ts, RankFusion.DEFAULT)});
    }
    Map<Intent, float[][]> qv = new HashMap<>();
    for (Intent in : intents) qv.put(in, new float[][]{e.embed(in.text()), m.embed(in.text())});
    for (double b : new double[]{0, 0.1, 0.2, 0.3, 0.5}) for (double w : new double[]{0.1, 0.15}) {
      double mrrSum = 0; int n = 0;
      for (Intent in : intents) {
        Object[] p = prep.get(in.catalog()); float[][] vs = (float[][]) p[0], vm = (float[][]) p[1]; HybridRanking hr = (HybridRanking) p[2];
        List<ToolDef> ts = cats.get(in.catalog()); float[] qs = qv.get(in)[0], qm = qv.get(in)[1];
        double[] lex = new double[ts.size()]; double best = 0;
        for (ScoreDoc d : hr.bm25(in.text(), 100)) { lex[d.doc] = d.score; best = Math.max(best, d.score); }
        double[] score = new double[ts.size()];
        for (int t = 0; t < ts.size(); t++) {
          double cs = 0, cm = 0; for (int d = 0; d < qs.length; d++) cs += qs[d]*vs[t][d]; for (int d = 0; d < qm.length; d++) cm += qm[d]*vm[t][d];
          score[t] = (1 - w) * ((1 - b) * cm + b * cs) + w * (best > 0 ? lex[t] / best : 0);
        }
        Integer[] order = new Integer[ts.size()]; for (int i = 0; i < order.length; i++) order[i] = i;
        Arrays.sort(order, (x, y) -> Double.compare(score[y], score[x]));
        int rank = 0; for (int r = 0; r < Math.min(10, order.length); r++) if (in.expected().contains(ts.get(order[r]).name())) { rank = r+1; break; }
        mrrSum += rank == 0 ? 0 : 1.0/rank; n++;
      }
      System.out.printf("static share %.1f bm25 %.2f: dev MRR@10 %.3f%n", b, w, mrrSum / n);
    }
  }
}

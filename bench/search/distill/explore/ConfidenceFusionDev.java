// Dev-only: does BM25 deserve more weight when its match is strong? The static ranking fuses
// (1 - w) cosine + w BM25/best with a fixed w; here w depends on how strong the best BM25 match is
// (raw: cosine + b × BM25 without normalization; conf: w = W × min(1, best / K)).
package dev.hyperterse.search;
import dev.hyperterse.model.*; import org.apache.lucene.search.ScoreDoc;
import java.util.*;
public class ConfidenceFusionDev {
  public static void main(String[] a) throws Exception {
    Map<String, List<ToolDef>> cats = DevSet.catalogs();
    List<DevSet.Intent> intents = DevSet.devIntents();
    StaticEmbedder e = StaticEmbedder.bundled();
    Map<String, float[][]> vecs = new HashMap<>(); Map<String, HybridRanking> hrs = new HashMap<>();
    for (var c : cats.entrySet()) {
      float[][] vs = new float[c.getValue().size()][];
      for (int i = 0; i < vs.length; i++) vs[i] = e.embed(SemanticRanking.text(c.getValue().get(i)));
      vecs.put(c.getKey(), vs); hrs.put(c.getKey(), new HybridRanking(c.getValue(), RankFusion.DEFAULT));
    }
    List<String> fusions = new ArrayList<>(List.of("lin0.15"));
    for (String b : List.of("0.005", "0.01", "0.015", "0.02", "0.03")) fusions.add("raw" + b);
    for (String w : List.of("0.15", "0.2", "0.3")) for (String k : List.of("4", "8", "12", "16")) fusions.add("conf" + w + "k" + k);
    double[] bests = new double[intents.size()];
    for (String fusion : fusions) {
      double mrr = 0; int n = 0;
      for (DevSet.Intent in : intents) {
        List<ToolDef> ts = cats.get(in.catalog()); float[][] vs = vecs.get(in.catalog());
        float[] q = e.embed(in.text());
        double[] lex = new double[ts.size()]; double best = 0;
        for (ScoreDoc d : hrs.get(in.catalog()).bm25(in.text(), 100)) { lex[d.doc] = d.score; best = Math.max(best, d.score); }
        bests[n] = best;
        double[] score = new double[ts.size()];
        for (int t = 0; t < ts.size(); t++) {
          double cos = 0; for (int d = 0; d < q.length; d++) cos += q[d] * vs[t][d];
          double l = best > 0 ? lex[t] / best : 0;
          if (fusion.startsWith("lin")) { double w = Double.parseDouble(fusion.substring(3)); score[t] = (1 - w) * cos + w * l; }
          else if (fusion.startsWith("raw")) { score[t] = cos + Double.parseDouble(fusion.substring(3)) * lex[t]; }
          else { String[] f = fusion.substring(4).split("k"); double w = Double.parseDouble(f[0]) * Math.min(1, best / Double.parseDouble(f[1])); score[t] = (1 - w) * cos + w * l; }
        }
        mrr += DevSet.reciprocalRank(score, ts, in.expected()); n++;
      }
      System.out.printf("%-14s %.3f%n", fusion, mrr / n);
    }
    double[] s = bests.clone(); Arrays.sort(s);
    System.out.printf("best BM25 per dev intent: p10 %.1f p50 %.1f p90 %.1f max %.1f%n", s[s.length / 10], s[s.length / 2], s[s.length * 9 / 10], s[s.length - 1]);
  }
}

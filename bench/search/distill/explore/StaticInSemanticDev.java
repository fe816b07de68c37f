// Dev-only exploration: the static embedding inside the `semantic` ranking. MRR@10 over the DEV
// intents of the four real catalogs of (1 - w) ((1 - b) MiniLM cosine + b static cosine) + w BM25/best
// for static shares b and BM25 shares w. Needs the embedding model on the class path
// (bench/search/semantic-pom.xml); bench/search/distill/explore/run.sh --semantic runs it.
package dev.hyperterse.search;
import dev.hyperterse.model.*; import io.vertx.core.json.*; import org.apache.lucene.search.ScoreDoc;
import java.nio.file.*; import java.util.*;
public class StaticInSemanticDev {
  public static void main(String[] a) throws Exception {
    Map<String, List<ToolDef>> cats = DevSet.catalogs();
    List<DevSet.Intent> intents = DevSet.devIntents();
    StaticEmbedder e = StaticEmbedder.bundled();
    TextEmbedder m = TextEmbedder.bundled().orElseThrow();
    Map<String, Object[]> prep = new HashMap<>();
    for (var c : cats.entrySet()) {
      List<ToolDef> ts = c.getValue(); int N = ts.size();
      float[][] vs = new float[N][], vm = new float[N][];
      for (int i = 0; i < N; i++) { String t = SemanticRanking.text(ts.get(i)); vs[i] = e.embed(t); vm[i] = m.embed(t); }
      prep.put(c.getKey(), new Object[]{vs, vm, new HybridRanking(ts, RankFusion.DEFAULT)});
    }
    Map<DevSet.Intent, float[][]> qv = new HashMap<>();
    for (DevSet.Intent in : intents) qv.put(in, new float[][]{e.embed(in.text()), m.embed(in.text())});
    for (double b : new double[]{0, 0.1, 0.2, 0.3, 0.5}) for (double w : new double[]{0.1, 0.15}) {
      double mrrSum = 0; int n = 0;
      for (DevSet.Intent in : intents) {
        Object[] p = prep.get(in.catalog()); float[][] vs = (float[][]) p[0], vm = (float[][]) p[1]; HybridRanking hr = (HybridRanking) p[2];
        List<ToolDef> ts = cats.get(in.catalog()); float[] qs = qv.get(in)[0], qm = qv.get(in)[1];
        double[] lex = new double[ts.size()]; double best = 0;
        for (ScoreDoc d : hr.bm25(in.text(), 100)) { lex[d.doc] = d.score; best = Math.max(best, d.score); }
        double[] score = new double[ts.size()];
        for (int t = 0; t < ts.size(); t++) {
          double cs = 0, cm = 0; for (int d = 0; d < qs.length; d++) cs += qs[d]*vs[t][d]; for (int d = 0; d < qm.length; d++) cm += qm[d]*vm[t][d];
          score[t] = (1 - w) * ((1 - b) * cm + b * cs) + w * (best > 0 ? lex[t] / best : 0);
        }
        mrrSum += DevSet.reciprocalRank(score, ts, in.expected()); n++;
      }
      System.out.printf("static share %.1f bm25 %.2f: dev MRR@10 %.3f%n", b, w, mrrSum / n);
    }
  }
}

// Dev-only exploration behind the `static` ranking's configuration (bench/RESULTS.md, "Measured on
// dev while choosing static"): for each static table given, MRR@10 over the DEV intents of the four
// real catalogs (held-out intents are skipped when read) for
//   tool text: full (the ranking's: name as words, description, inputs) or name and description;
//   token weights: the table's alone, or times the catalog's own IDF (log(1 + (N + 1) / (df + 0.5)));
//   fusion: linN = (1 - N) cosine + N BM25/best; zN = z-scored cosine + N BM25/best;
//           linNhM = (1 - N - M) cosine + N BM25/best + M Hyperterse's raw score.
// In the search package to reach its package-private parts; bench/search/distill/explore/run.sh
// compiles it against target/classes.
package dev.hyperterse.search;
import dev.hyperterse.model.*; import io.vertx.core.json.*; import org.apache.lucene.search.ScoreDoc;
import java.nio.file.*; import java.util.*;
public class StaticFusionDev {
  public static void main(String[] a) throws Exception {
    Map<String, List<ToolDef>> cats = DevSet.catalogs();
    List<DevSet.Intent> intents = DevSet.devIntents();
    for (String table : a[0].split(",")) {
      StaticEmbedder e = StaticEmbedder.fromFile(Path.of(table));
      for (String textMode : List.of("full","namedesc")) for (String idfMode : List.of("none","idf")) {
        StringBuilder line = new StringBuilder(String.format("%-28s %-9s %-5s", Path.of(table).getFileName(), textMode, idfMode));
        for (String fusion : List.of("lin0.05","lin0.1","lin0.15","lin0.2","z0.5","z1","z2","lin0.15h0.05","lin0.15h0.1","lin0.15h0.2")) {
          double mrrSum = 0; int n = 0;
          Map<String, Object[]> prep = new HashMap<>();
          for (var c : cats.entrySet()) {
            List<ToolDef> ts = c.getValue(); String[] texts = new String[ts.size()];
            for (int i = 0; i < ts.size(); i++) texts[i] = textMode.equals("full") ? SemanticRanking.text(ts.get(i)) : HybridRanking.words(ts.get(i).name()) + ". " + ts.get(i).description();
            Map<Integer,Integer> df = new HashMap<>();
            for (String t : texts) { for (int id : new HashSet<>(Arrays.stream(e.tokenIds(t)).boxed().toList())) df.merge(id, 1, Integer::sum); }
            int N = ts.size();
            java.util.function.IntToDoubleFunction w = idfMode.equals("none") ? null : id -> Math.log(1 + (N + 1.0) / (df.getOrDefault(id, 0) + 0.5));
            float[][] vs = new float[N][]; for (int i = 0; i < N; i++) vs[i] = e.embed(texts[i], w);
            prep.put(c.getKey(), new Object[]{vs, w, new HybridRanking(ts, RankFusion.DEFAULT), new SearchIndex(ts, 1000)});
          }
          for (DevSet.Intent in : intents) {
            Object[] p = prep.get(in.catalog()); float[][] vs = (float[][]) p[0]; var w = (java.util.function.IntToDoubleFunction) p[1]; HybridRanking hr = (HybridRanking) p[2];
            List<ToolDef> ts = cats.get(in.catalog()); float[] q = e.embed(in.text(), w);
            double[] cos = new double[ts.size()]; double mean = 0;
            for (int t = 0; t < ts.size(); t++) { double s = 0; for (int d = 0; d < q.length; d++) s += q[d]*vs[t][d]; cos[t] = s; mean += s; }
            mean /= ts.size(); double var = 0; for (double c : cos) var += (c-mean)*(c-mean); double sd = Math.sqrt(var/ts.size()) + 1e-9;
            double[] lex = new double[ts.size()]; double best = 0;
            for (ScoreDoc d : hr.bm25(in.text(), 100)) { lex[d.doc] = d.score; best = Math.max(best, d.score); }
            double[] hy = new double[ts.size()];
            for (SearchHit h : ((SearchIndex) p[3]).search(in.text(), null, 1000)) hy[ts.indexOf(h.tool())] = h.rawScore();
            double[] score = new double[ts.size()];
            for (int t = 0; t < ts.size(); t++) {
              double l = best > 0 ? lex[t]/best : 0;
              if (fusion.startsWith("lin")) { String[] f = fusion.substring(3).split("h"); double wt = Double.parseDouble(f[0]); double hw = f.length > 1 ? Double.parseDouble(f[1]) : 0; score[t] = (1-wt-hw)*cos[t] + wt*l + hw*hy[t]; }
              else { double wt = Double.parseDouble(fusion.substring(1)); score[t] = (cos[t]-mean)/sd + wt*l; }
            }
            mrrSum += DevSet.reciprocalRank(score, ts, in.expected()); n++;
          }
          line.append(String.format(" %s=%.3f", fusion, mrrSum/n));
        }
        System.out.println(line);
      }
    }
  }
}

// Dev-only exploration: a tool scored by several static vectors (its fields apart) instead of one.
// MRR@10 over the DEV intents of the four real catalogs for each static table given, with
//   full = the ranking's text (name as words, description, inputs), nd = name and description,
//   name = the name as words, first = name and the description's first sentence;
// combined as weighted sums of cosines or the best of them, plus w x BM25/best; and prf:K,B, the
// query vector moved toward the mean of its first K tools' (weight B) and ranked again.
//   bench/search/distill/explore/run.sh --fields TABLE_FILE[,TABLE_FILE...]
package dev.hyperterse.search;
import dev.hyperterse.model.*; import org.apache.lucene.search.ScoreDoc;
import java.nio.file.*; import java.util.*;
public class StaticFieldsDev {
  static String first(String d) { if (d == null) return ""; int i = d.indexOf(". "); return i < 0 ? d : d.substring(0, i); }
  public static void main(String[] a) throws Exception {
    Map<String, List<ToolDef>> cats = DevSet.catalogs();
    List<DevSet.Intent> intents = DevSet.devIntents();
    String[][] combos = {
      {"full"}, {"nd"}, {"first"}, {"max:full,nd"}, {"max:full,first"}, {"full", "0.5", "nd"}, {"full", "0.3", "first"},
      {"full", "0.3", "name"}, {"full", "0.15", "name"}, {"full", "0.5", "nd", "0.2", "name"}, {"full", "0.5", "first", "0.2", "name"},
      {"prf:3,0.3"}, {"prf:3,0.6"}, {"prf:1,0.3"}, {"prf:5,0.5"}};
    for (String table : a[0].split(",")) {
      StaticEmbedder e = StaticEmbedder.fromFile(Path.of(table));
      Map<String, Map<String, float[][]>> vecs = new HashMap<>();
      Map<String, HybridRanking> lex = new HashMap<>();
      for (var c : cats.entrySet()) {
        List<ToolDef> ts = c.getValue(); Map<String, float[][]> m = new HashMap<>();
        for (String f : List.of("full", "nd", "name", "first")) {
          float[][] vs = new float[ts.size()][];
          for (int i = 0; i < ts.size(); i++) {
            ToolDef t = ts.get(i); String n = HybridRanking.words(t.name());
            String text = switch (f) { case "full" -> SemanticRanking.text(t); case "nd" -> n + ". " + t.description();
              case "name" -> n; default -> n + ". " + first(t.description()); };
            vs[i] = e.embed(text);
          }
          m.put(f, vs);
        }
        vecs.put(c.getKey(), m); lex.put(c.getKey(), new HybridRanking(ts, RankFusion.DEFAULT));
      }
      for (double w : new double[] {0.1, 0.15, 0.2}) {
        StringBuilder line = new StringBuilder(String.format("%-24s bm25=%.2f", Path.of(table).getFileName(), w));
        for (String[] combo : combos) {
          double sum = 0;
          for (DevSet.Intent in : intents) {
            List<ToolDef> ts = cats.get(in.catalog()); Map<String, float[][]> m = vecs.get(in.catalog());
            float[] q = e.embed(in.text());
            double[] l = new double[ts.size()]; double best = 0;
            for (ScoreDoc d : lex.get(in.catalog()).bm25(in.text(), 100)) { l[d.doc] = d.score; best = Math.max(best, d.score); }
            double[] score = new double[ts.size()];
            if (combo[0].startsWith("prf:")) {
              // feedback: the query moved toward the mean of its first k tools' vectors, then ranked again
              String[] kb = combo[0].substring(4).split(","); int k = Integer.parseInt(kb[0]); double beta = Double.parseDouble(kb[1]);
              float[][] full = m.get("full");
              for (int t = 0; t < ts.size(); t++) score[t] = (1 - w) * dot(q, full[t]) + (best > 0 ? w * l[t] / best : 0);
              Integer[] order = new Integer[ts.size()]; for (int t = 0; t < order.length; t++) order[t] = t;
              final double[] sc = score.clone(); Arrays.sort(order, (x, y) -> Double.compare(sc[y], sc[x]));
              float[] q2 = q.clone();
              for (int r = 0; r < Math.min(k, order.length); r++) for (int d = 0; d < q2.length; d++) q2[d] += (float) (beta / k) * full[order[r]][d];
              double nrm = 0; for (float x : q2) nrm += x * x; nrm = Math.sqrt(nrm);
              for (int d = 0; d < q2.length; d++) q2[d] /= (float) nrm;
              for (int t = 0; t < ts.size(); t++) score[t] = (1 - w) * dot(q2, full[t]) + (best > 0 ? w * l[t] / best : 0);
              sum += DevSet.reciprocalRank(score, ts, in.expected());
              continue;
            }
            for (int t = 0; t < ts.size(); t++) {
              double cos;
              if (combo[0].startsWith("max:")) { cos = -1; for (String f : combo[0].substring(4).split(",")) cos = Math.max(cos, dot(q, m.get(f)[t])); }
              else { cos = dot(q, m.get(combo[0])[t]); double tw = 1;
                for (int k = 1; k < combo.length; k += 2) { double cw = Double.parseDouble(combo[k]); cos += cw * dot(q, m.get(combo[k + 1])[t]); tw += cw; }
                cos /= tw; }
              score[t] = (1 - w) * cos + (best > 0 ? w * l[t] / best : 0);
            }
            sum += DevSet.reciprocalRank(score, ts, in.expected());
          }
          line.append(String.format(" %s=%.3f", String.join("", combo), sum / intents.size()));
        }
        System.out.println(line);
      }
    }
  }
  static double dot(float[] x, float[] y) { double s = 0; for (int i = 0; i < x.length; i++) s += x[i] * y[i]; return s; }
}

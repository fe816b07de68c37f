// Dev-only: where should the static ranking stop listing tools? For each dev intent of the four real
// catalogs, the score of the right tool and of the best one; for each dev query of
// bench/search/unrelated.txt, the best score in each catalog. Prints, for score floors, the dev
// MRR@10 and recall@10 that would remain and the share of unrelated asks answered with nothing.
// The shipped pooling (StaticPooling.DEFAULT) is read with no floor of its own, so every floor is
// measured alike, and with the action stage off: the floor applies to each tool's own score before the
// stage re-sorts the ten best, and the stage leaves the scores in their places, so a hit it moves
// would show another tool's score. Then the floor by the project's rule: the highest, in steps of 0.01
// from 0.13, that keeps every dev intent's right tool in its top ten.
// With the argument "semantic" (and the model's jars on the class path), the same for `semantic`.
// Floors relative to the best hit (keep hits within 50-80 % of it) were measured too: each cost dev
// recall before it cut any unrelated ask to nothing.
package dev.hyperterse.search;

import dev.hyperterse.model.SearchRanking;
import dev.hyperterse.model.ToolDef;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

public final class FloorDev {
    public static void main(String[] args) throws Exception {
        Map<String, List<ToolDef>> catalogs = DevSet.catalogs();
        List<String> unrelated = new ArrayList<>();
        for (String line : Files.readAllLines(Path.of("bench/search/unrelated.txt"))) {
            if (line.startsWith("dev :: ")) {
                unrelated.add(line.substring(7).trim());
            }
        }
        Map<String, SearchIndex> indexes = new java.util.LinkedHashMap<>();
        // "semantic" as the first argument: the model's ranking (its jars on the class path)
        boolean semantic = args.length > 0 && args[0].equals("semantic");
        TextEmbedder model = semantic ? TextEmbedder.bundled().orElseThrow() : null;
        catalogs.forEach((name, tools) -> {
            SearchIndex index = new SearchIndex(tools, tools.size(),
                    semantic ? SearchRanking.SEMANTIC : SearchRanking.STATIC, RankFusion.DEFAULT);
            if (semantic) {
                index.embedTools(model, null);
            } else {
                index.embedToolsStatically(ActionWeights.OFF, StaticPooling.DEFAULT.withMinScore(0));
            }
            indexes.put(name, index);
        });
        List<List<SearchHit>> related = new ArrayList<>();
        List<DevSet.Intent> intents = DevSet.devIntents();
        for (DevSet.Intent i : intents) {
            related.add(indexes.get(i.catalog()).search(i.text(), null, 1000));
        }
        List<List<SearchHit>> noise = new ArrayList<>();
        for (String q : unrelated) {
            for (SearchIndex index : indexes.values()) {
                noise.add(index.search(q, null, 1000));
            }
        }
        StringBuilder rightScores = new StringBuilder();
        double lowest = 1;
        for (int k = 0; k < intents.size(); k++) {
            List<SearchHit> hits = related.get(k);
            for (int r = 0; r < hits.size(); r++) {
                if (intents.get(k).expected().contains(hits.get(r).name())) {
                    rightScores.append(String.format("%.2f ", hits.get(r).rawScore()));
                    if (r < 10) {
                        lowest = Math.min(lowest, hits.get(r).rawScore());
                    }
                    break;
                }
            }
        }
        System.out.println("right tool's score, dev intents: " + rightScores);
        double ruled = 0.13;
        while (ruled + 0.01 <= lowest + 1e-9 && ruled < 0.5) {
            ruled = Math.round((ruled + 0.01) * 100) / 100.0;
        }
        System.out.printf("lowest score of a right tool in its top ten: %.4f; the floor by the rule: %.2f%n",
                lowest, ruled);
        StringBuilder noiseTop = new StringBuilder();
        noise.forEach(h -> noiseTop.append(h.isEmpty() ? "- " : String.format("%.2f ", h.get(0).rawScore())));
        System.out.println("best score, unrelated dev asks: " + noiseTop);
        System.out.println("| floor | dev MRR@10 | recall@10 | mean hits | unrelated: none | unrelated mean hits |");
        for (double floor : new double[] {0, 0.1, 0.12, 0.13, 0.14, 0.15, 0.16, 0.17, 0.18, 0.19, 0.2, 0.22, 0.24, 0.26, 0.28, 0.3, 0.32, 0.35}) {
            double mrr = 0, recall = 0, hitsRelated = 0;
            for (int k = 0; k < intents.size(); k++) {
                List<SearchHit> kept = kept(related.get(k), floor);
                hitsRelated += kept.size();
                for (int r = 0; r < kept.size(); r++) {
                    if (intents.get(k).expected().contains(kept.get(r).name())) {
                        mrr += 1.0 / (r + 1);
                        recall++;
                        break;
                    }
                }
            }
            int none = 0;
            double hits = 0;
            for (List<SearchHit> h : noise) {
                List<SearchHit> kept = kept(h, floor);
                none += kept.isEmpty() ? 1 : 0;
                hits += kept.size();
            }
            int n = intents.size();
            System.out.printf("| %.2f | %.3f | %.2f | %.1f | %.2f | %.1f |%n", floor, mrr / n, recall / n,
                    hitsRelated / n, (double) none / noise.size(), hits / noise.size());
        }
    }

    private static List<SearchHit> kept(List<SearchHit> hits, double floor) {
        List<SearchHit> out = new ArrayList<>();
        for (SearchHit h : hits) {
            if (out.size() == 10 || h.rawScore() < floor) {
                break;
            }
            out.add(h);
        }
        return out;
    }
}

package dev.hyperterse.search;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * The {@code semantic} ranking's two embeddings together where its learned order does not apply (its
 * weights unreadable or learned with another model: {@link SemanticRanking#orderWith}): the model's hits and the static table's
 * for the same query, each list's raw scores scaled to 0..1 over that list (its best 1, its worst
 * 0, every score 1 when they are all equal), a tool scoring {@code w × static + (1 − w) × model}
 * with {@code w} = {@link #STATIC_SHARE} (a tool the table's list does not hold counts 0 there),
 * over the tools the model's list holds.
 */
final class EmbeddingFusion {

    /**
     * The static table's share of a tool's fused score. Chosen on the catalogs held out whole
     * (unseen, fresh, fresh2, fresh3) among shares 0, 0.1, … 1 (pooled MRR@10 0.750 against 0.738
     * for the model's ranking alone) and confirmed on fresh4, which no choice had looked at (0.593
     * against 0.577; 0.590 with the hits the model's alone): bench/RESULTS.md, "{@code static} and
     * {@code semantic} fused, and a fifth held-out set, fresh4".
     */
    static final double STATIC_SHARE = 0.4;

    /**
     * How deep each list is asked for at least: catalogs of up to this many tools fuse whole, as
     * they were measured.
     */
    static final int DEPTH = 100;

    private EmbeddingFusion() {
    }

    /**
     * The model's hits re-ordered by the two lists fused, best first, at most {@code maxHits}. Only
     * a tool the model's list holds is a hit: whether a tool answers the query at all stays the
     * model's call (its floor), so a query about nothing the catalog does gets no more hits than
     * from the model alone; the table's list lends its scores. Ties of the fused score go by the
     * place in the model's list. Every place keeps a falling score: the k-th place gets the k-th
     * highest of the tools' own {@code w × static + (1 − w) × model} over the raw scores, so the
     * scores callers see fall from first to last and stay on the rankings' 0..1 scale.
     */
    static List<SearchHit> fuse(List<SearchHit> table, List<SearchHit> model, int maxHits) {
        Scores tableScores = Scores.of(table);
        Scores modelScores = Scores.of(model);
        Set<String> seen = new HashSet<>();
        List<Fused> order = new ArrayList<>(model.size());
        for (int i = 0; i < model.size(); i++) {
            String name = model.get(i).name();
            if (seen.add(name)) {
                order.add(new Fused(model.get(i), i,
                        fused(tableScores.scaled(name), modelScores.scaled(name)),
                        fused(tableScores.raw(name), modelScores.raw(name))));
            }
        }
        order.sort((a, b) -> a.score() != b.score() ? Double.compare(b.score(), a.score())
                : Integer.compare(a.modelPlace(), b.modelPlace()));
        double[] combined = order.stream().mapToDouble(Fused::combinedRaw).sorted().toArray();
        int count = Math.min(maxHits, order.size());
        List<SearchHit> hits = new ArrayList<>(count);
        for (int k = 0; k < count; k++) {
            double raw = combined[combined.length - 1 - k];
            SearchHit hit = order.get(k).hit();
            hits.add(new SearchHit(hit.name(), SearchIndex.relevanceScore(raw), raw, hit.tool()));
        }
        return hits;
    }

    /** {@code w × static + (1 − w) × model}. */
    private static double fused(double table, double model) {
        return STATIC_SHARE * table + (1 - STATIC_SHARE) * model;
    }

    /** A list's raw scores by tool name (a name's first), with their range over the list. */
    private record Scores(Map<String, Double> raw, double min, double max) {
        static Scores of(List<SearchHit> hits) {
            double max = Double.NEGATIVE_INFINITY;
            double min = Double.POSITIVE_INFINITY;
            Map<String, Double> raw = new HashMap<>();
            for (SearchHit hit : hits) {
                max = Math.max(max, hit.rawScore());
                min = Math.min(min, hit.rawScore());
                raw.putIfAbsent(hit.name(), hit.rawScore());
            }
            return new Scores(raw, min, max);
        }

        /** The tool's raw score; 0 when the list does not hold it. */
        double raw(String name) {
            return raw.getOrDefault(name, 0.0);
        }

        /**
         * The tool's score scaled to 0..1 over the list: its best 1, its worst 0, all 1 when they
         * are equal; 0 when the list does not hold it.
         */
        double scaled(String name) {
            Double score = raw.get(name);
            return score == null ? 0 : max > min ? (score - min) / (max - min) : 1.0;
        }
    }

    /**
     * A tool in the fused order: its hit, its place in the model's list, its fused scaled score and
     * its own fused raw score.
     */
    private record Fused(SearchHit hit, int modelPlace, double score, double combinedRaw) {}
}

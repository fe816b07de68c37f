package dev.hyperterse.search;

import dev.hyperterse.model.InputDef;
import dev.hyperterse.model.ToolDef;
import org.apache.lucene.analysis.Analyzer;
import org.apache.lucene.analysis.TokenStream;
import org.apache.lucene.analysis.en.EnglishAnalyzer;
import org.apache.lucene.analysis.tokenattributes.CharTermAttribute;
import org.apache.lucene.document.Document;
import org.apache.lucene.document.Field;
import org.apache.lucene.document.TextField;
import org.apache.lucene.index.DirectoryReader;
import org.apache.lucene.index.IndexWriter;
import org.apache.lucene.index.IndexWriterConfig;
import org.apache.lucene.index.NoMergePolicy;
import org.apache.lucene.index.Term;
import org.apache.lucene.search.BoostQuery;
import org.apache.lucene.search.BooleanClause;
import org.apache.lucene.search.BooleanQuery;
import org.apache.lucene.search.IndexSearcher;
import org.apache.lucene.search.Query;
import org.apache.lucene.search.ScoreDoc;
import org.apache.lucene.search.TermQuery;
import org.apache.lucene.store.ByteBuffersDirectory;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.IdentityHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.Function;
import java.util.function.Predicate;

/**
 * The {@code hybrid} ranking: BM25 (Lucene, English stemming and stop words) over a tool's name,
 * description, inputs and statement with a weight per field, fused by reciprocal rank with
 * Hyperterse's ranking, which catches what stemming cannot (partial words, identifiers, typos by
 * 3-grams). The Lucene index lives in memory and is built once per snapshot; instances are
 * immutable and safe to query from several threads at once.
 */
final class HybridRanking {

    /**
     * Lucene fields: the text of a tool each holds and its weight. Another field (tags, say) is one
     * more constant here.
     */
    enum ToolField {
        NAME("name", 1.5f, tool -> words(tool.name())),
        DESCRIPTION("description", 1.5f, tool -> nullToEmpty(tool.description())),
        TITLE("title", 1.5f, tool -> nullToEmpty(tool.title())),
        TAGS("tags", 1.0f, tool -> String.join(" ", tool.tags())),
        EXAMPLES("examples", 1.0f, tool -> String.join(". ", tool.examples())),
        INPUTS("inputs", 0.5f, HybridRanking::inputsText),
        STATEMENT("statement", 0.4f, tool -> tool.isDatabaseTool() ? words(tool.statement()) : "");

        final String field;
        final float weight;
        final Function<ToolDef, String> text;

        ToolField(String field, float weight, Function<ToolDef, String> text) {
            this.field = field;
            this.weight = weight;
            this.text = text;
        }
    }

    /**
     * Each list contributes this many ranks (or the hits asked for, if more): beyond them a tool
     * gains next to nothing.
     */
    static final int FUSED_DEPTH = 100;
    /** Distinct query terms considered; a search query is short, this bounds a pasted essay. */
    private static final int MAX_QUERY_TERMS = 64;

    private final ToolDef[] tools;
    private final Analyzer analyzer;
    private final IndexSearcher searcher;
    private final RankFusion fusion;
    /** Position of each tool (the very instance the lexical ranking returns) in {@link #tools}. */
    private final IdentityHashMap<ToolDef, Integer> declarationIndex;

    HybridRanking(List<ToolDef> tools, RankFusion fusion) {
        this.tools = tools.toArray(new ToolDef[0]);
        this.declarationIndex = new IdentityHashMap<>(this.tools.length * 2);
        for (int i = 0; i < this.tools.length; i++) {
            declarationIndex.put(this.tools[i], i);
        }
        this.fusion = fusion;
        this.analyzer = new EnglishAnalyzer();
        ByteBuffersDirectory directory = new ByteBuffersDirectory();
        // no merges, one flush: document ids stay the declaration order
        IndexWriterConfig config = new IndexWriterConfig(analyzer)
                .setMergePolicy(NoMergePolicy.INSTANCE)
                .setRAMBufferSizeMB(256)
                .setCommitOnClose(true);
        try (IndexWriter writer = new IndexWriter(directory, config)) {
            for (ToolDef tool : this.tools) {
                writer.addDocument(document(tool));
            }
        } catch (IOException e) {
            throw new UncheckedIOException("in-memory search index", e);
        }
        try {
            this.searcher = new IndexSearcher(DirectoryReader.open(directory));
        } catch (IOException e) {
            throw new UncheckedIOException("in-memory search index", e);
        }
    }

    private static Document document(ToolDef tool) {
        Document doc = new Document();
        for (ToolField field : ToolField.values()) {
            doc.add(new TextField(field.field, field.text.apply(tool), Field.Store.NO));
        }
        return doc;
    }

    /** Input names as words and their descriptions, one sentence each. */
    private static String inputsText(ToolDef tool) {
        StringBuilder inputs = new StringBuilder();
        for (InputDef input : tool.inputs()) {
            inputs.append(words(input.name())).append(". ");
            if (input.description() != null) {
                inputs.append(input.description()).append(". ");
            }
        }
        return inputs.toString();
    }

    /**
     * The hits for {@code query} among the tools {@code visible} accepts (all when null), best
     * first, at most {@code maxHits}. {@code lexical} is Hyperterse's ranking of the same tools,
     * asked for its best {@code n}.
     */
    List<SearchHit> search(String query, Predicate<ToolDef> visible, int maxHits,
                           Function<Integer, List<SearchHit>> lexical) {
        int depth = Math.min(tools.length, Math.max(FUSED_DEPTH, maxHits));
        // only tools in either list get a score: a few hundred entries, whatever the catalog size
        Map<Integer, double[]> fused = new HashMap<>(4 * depth);

        if (fusion.bm25Weight() > 0) {
            Query bm25 = query(query);
            if (bm25 != null) {
                int rank = 0;
                for (ScoreDoc hit : visibleTopDocs(bm25, visible, depth)) {
                    if (visible != null && !visible.test(tools[hit.doc])) {
                        continue;
                    }
                    rank++;
                    fused.computeIfAbsent(hit.doc, t -> new double[1])[0] += fusion.bm25Weight() / (fusion.k() + rank);
                    if (rank == depth) {
                        break;
                    }
                }
            }
        }
        if (fusion.lexicalWeight() > 0) {
            int rank = 0;
            for (SearchHit hit : lexical.apply(depth)) {
                rank++;
                fused.computeIfAbsent(declarationIndex.get(hit.tool()), t -> new double[1])[0]
                        += fusion.lexicalWeight() / (fusion.k() + rank);
            }
        }

        Integer[] candidates = fused.keySet().toArray(new Integer[0]);
        Arrays.sort(candidates, (a, b) -> {
            int byScore = Double.compare(fused.get(b)[0], fused.get(a)[0]);
            if (byScore != 0) {
                return byScore;
            }
            int byName = SearchText.compareCodePoints(tools[a].name(), tools[b].name());
            return byName != 0 ? byName : Integer.compare(a, b);
        });
        // first place in every list is 1: the relevance score keeps Hyperterse's 1..100 scale
        double best = (fusion.bm25Weight() + fusion.lexicalWeight()) / (fusion.k() + 1);
        int count = Math.min(maxHits, candidates.length);
        List<SearchHit> hits = new ArrayList<>(count);
        for (int i = 0; i < count; i++) {
            int t = candidates[i];
            double raw = Math.min(1.0, fused.get(t)[0] / best);
            hits.add(new SearchHit(tools[t].name(), SearchIndex.relevanceScore(raw), raw, tools[t]));
        }
        return hits;
    }

    /**
     * BM25's best {@code n} documents for {@code query} (document ids are positions in the tools),
     * none for a query with no term the analyzer keeps.
     */
    ScoreDoc[] bm25(String query, int n) {
        Query bm25 = query(query);
        return bm25 == null ? new ScoreDoc[0] : topDocs(bm25, Math.min(tools.length, n));
    }

    /**
     * BM25's best documents, enough of them that {@code depth} are visible where the catalog has
     * that many matches: tools a caller may not see must not use up the depth. Starts at the depth
     * and widens fourfold, so a filter that hides few tools costs one search.
     */
    private ScoreDoc[] visibleTopDocs(Query query, Predicate<ToolDef> visible, int depth) {
        int n = depth;
        while (true) {
            ScoreDoc[] docs = topDocs(query, n);
            if (visible == null || docs.length < n || n >= tools.length) {
                return docs;
            }
            int shown = 0;
            for (ScoreDoc doc : docs) {
                if (visible.test(tools[doc.doc])) {
                    shown++;
                }
            }
            if (shown >= depth) {
                return docs;
            }
            n = (int) Math.min(tools.length, 4L * n);
        }
    }

    private ScoreDoc[] topDocs(Query query, int n) {
        try {
            return searcher.search(query, Math.max(1, n)).scoreDocs;
        } catch (IOException e) {
            throw new UncheckedIOException("in-memory search index", e);
        }
    }

    /**
     * Each distinct analysed query term in every field, weighted by field and summed (a term in
     * both name and description counts twice: on bench/search's dev intents that ranks better than
     * taking the best field); null when the query has no term the analyzer keeps.
     */
    private Query query(String text) {
        Set<String> terms = new LinkedHashSet<>();
        try (TokenStream stream = analyzer.tokenStream(ToolField.DESCRIPTION.field, words(text))) {
            CharTermAttribute term = stream.addAttribute(CharTermAttribute.class);
            stream.reset();
            while (stream.incrementToken() && terms.size() < MAX_QUERY_TERMS) {
                terms.add(term.toString());
            }
            stream.end();
        } catch (IOException e) {
            throw new UncheckedIOException("query analysis", e);
        }
        if (terms.isEmpty()) {
            return null;
        }
        BooleanQuery.Builder all = new BooleanQuery.Builder();
        for (String term : terms) {
            for (ToolField field : ToolField.values()) {
                all.add(new BoostQuery(new TermQuery(new Term(field.field, term)), field.weight),
                        BooleanClause.Occur.SHOULD);
            }
        }
        return all.build();
    }

    /**
     * Identifiers as words: {@code list_pg_settings}, {@code get-user} and {@code queryEmbedding}
     * become separate words the analyzer can stem.
     */
    static String words(String text) {
        if (text == null || text.isEmpty()) {
            return "";
        }
        StringBuilder out = new StringBuilder(text.length() + 8);
        for (int i = 0; i < text.length(); i++) {
            char c = text.charAt(i);
            if (c == '_' || c == '-' || c == '.' || c == '/') {
                out.append(' ');
                continue;
            }
            if (i > 0 && Character.isUpperCase(c) && Character.isLowerCase(text.charAt(i - 1))) {
                out.append(' ');
            }
            out.append(c);
        }
        return out.toString();
    }

    private static String nullToEmpty(String text) {
        return text == null ? "" : text;
    }
}

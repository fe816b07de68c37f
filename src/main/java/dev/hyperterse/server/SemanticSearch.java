package dev.hyperterse.server;

import dev.hyperterse.search.SearchIndex;
import dev.hyperterse.search.TextEmbedder;
import io.vertx.core.Future;
import io.vertx.core.Vertx;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.nio.file.Path;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Readies the {@code semantic} or {@code static} ranking of a snapshot's search index: the tool
 * vectors are computed on a worker (for {@code semantic}, reused from the disk cache for tools that
 * did not change). The {@code static} vectors are part of the index's build, in both; with
 * {@code semantic}, {@code search} ranks by them until the model's are ready, and from then on puts
 * the static ranking's best tools in order with the model's cosine read too.
 */
final class SemanticSearch {

    private static final Logger LOG = LoggerFactory.getLogger(SemanticSearch.class);
    /**
     * The reasons already told of why an order is not the learned one or the ranking not the default:
     * they come from the jar and its add-ons (its weights against its table and model), so each is the
     * same at every index build and reload, and is logged once per JVM (then at debug). A handful of
     * distinct strings at most.
     */
    private static final Set<String> WARNED = ConcurrentHashMap.newKeySet();

    private SemanticSearch() {
    }

    /**
     * Starts computing {@code index}'s tool vectors on a worker; the future completes when the
     * index ranks by the model (it fails, logged, when the model cannot run here: search stays as
     * it was, by the static table, or lexically when that could not be read either).
     */
    static Future<SearchIndex.EmbeddedTools> embedTools(Vertx vertx, SearchIndex index) {
        TextEmbedder embedder = TextEmbedder.bundled().orElse(null);
        String meanwhile = index.ranksByMeaning() ? "ranking by the static embedding" : "ranking lexically";
        if (!Boolean.parseBoolean(System.getProperty(MODELS_PROPERTY, "true"))) {
            // aot-cache's training run: the models' classes come from a loader of their own, which no
            // start-up cache holds, and their load is seconds of CPU for nothing there
            LOG.debug("search: the models are not loaded in this process ({}=false); {}", MODELS_PROPERTY, meanwhile);
            return Future.failedFuture(MODELS_PROPERTY + "=false");
        }
        if (embedder == null) {
            // the configuration is checked against the add-on: only a hand-made project gets here
            LOG.warn("search: no embedding model beside this server; {}", meanwhile);
            return Future.failedFuture("no embedding model beside this server");
        }
        long start = System.nanoTime();
        return vertx.executeBlocking(() -> {
                    String otherRelease = TextEmbedder.bundledOtherRelease();
                    if (otherRelease != null) {
                        warnOnce("search: ", otherRelease);
                    }
                    return index.embedTools(embedder, cacheDir());
                }, false)
                .onSuccess(done -> {
                    if (done.cacheProblem() != null) {
                        LOG.warn("search: tool vectors not cached on disk: {}", done.cacheProblem());
                    }
                    String degraded = embedder.degraded();
                    if (degraded != null) {
                        warnOnce("search: ", degraded);
                    }
                    if (done.fusedBecause() != null) {
                        warnOnce("search: the model's ranking is fused with the static table's, not put in its"
                                + " learned order: ", done.fusedBecause());
                    }
                    LOG.info("search: ranking by meaning ({} tools embedded, {} from the cache, {} ms{})",
                            done.embedded(), done.reused(), (System.nanoTime() - start) / 1_000_000,
                            done.tokenBytes() == 0 ? "" : String.format(java.util.Locale.ROOT,
                                    "; their texts' token vectors %.1f MB", done.tokenBytes() / 1e6));
                })
                .onFailure(e -> {
                    // a load or an embedding refused or cut short by the process's stop (TextEmbedder.Stopping
                    // included, which is thrown only then): no fault of the model's
                    if (TextEmbedder.processStopping()) {
                        LOG.info("search: the models' tool vectors were left unfinished: the process is stopping");
                    } else {
                        // the same on this machine at every index build and reload: once per JVM
                        warnOnce("search: the embedding model could not run here, " + meanwhile + ": ", why(e));
                    }
                });
    }

    /**
     * For the {@code static} ranking, and {@code semantic}'s until its model's vectors are ready:
     * reads the static embedding table (once per JVM) and computes {@code index}'s tool vectors on a
     * worker; the future completes when the index ranks by meaning (it fails, logged, when the table
     * cannot be read: search stays lexical until a model's vectors are ready, if ever).
     */
    static Future<SearchIndex.EmbeddedTools> embedToolsStatically(Vertx vertx, SearchIndex index) {
        long start = System.nanoTime();
        return vertx.executeBlocking(index::embedToolsStatically, false)
                .onSuccess(done -> {
                    if (done.handOrderBecause() != null) {
                        warnOnce("search: the best tools are put in order by the action stage's hand weights, not"
                                + " the learned order: ", done.handOrderBecause());
                    }
                    LOG.debug("search: ranking by meaning (static embedding, {} tools, {} ms)",
                            done.embedded(), (System.nanoTime() - start) / 1_000_000);
                })
                .onFailure(e -> LOG.warn("search: the static embedding could not load, ranking lexically: {}",
                        why(e)));
    }

    /** Logs {@code line} at info the first time in this JVM, at debug after that. */
    static void noteOnce(String line) {
        once(line, false);
    }

    /** Warns of {@code what + why} the first time in this JVM, logs it at debug after that. */
    static void warnOnce(String what, String why) {
        once(what + why, true);
    }

    private static void once(String line, boolean warn) {
        if (!WARNED.add(line)) {
            LOG.debug("{} (as before)", line);
        } else if (warn) {
            LOG.warn("{}", line);
        } else {
            LOG.info("{}", line);
        }
    }

    /**
     * What went wrong, for the log: the first message along the causes (a native library that does
     * not load fails as an error with none at the top), with its type when it is an error's.
     */
    static String why(Throwable failure) {
        for (Throwable t = failure; t != null; t = t.getCause() == t ? null : t.getCause()) {
            if (t.getMessage() != null && !t.getMessage().isBlank()) {
                return t instanceof Error ? t.toString() : t.getMessage();
            }
        }
        return failure.toString();
    }

    /** A JVM property that, {@code false}, keeps the semantic ranking's models from loading (it ranks as static). */
    static final String MODELS_PROPERTY = "hyperterse.search.models";

    /** A JVM property naming the folder for tool vectors instead of the user's cache folder. */
    static final String CACHE_DIR_PROPERTY = "hyperterse.search.vectors";

    /**
     * Where tool vectors are kept between runs: the {@value #CACHE_DIR_PROPERTY} property's folder,
     * else {@code $XDG_CACHE_HOME/hyperterse/search-vectors}, else
     * {@code ~/.cache/hyperterse/search-vectors}; null (no disk cache) without a home folder.
     */
    static Path cacheDir() {
        return CacheFolders.of(CACHE_DIR_PROPERTY, "search-vectors");
    }
}

package dev.hyperterse.search;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

class VectorCacheTest {

    @TempDir
    Path dir;

    @Test
    void aSnapshotOfMoreTextsThanTheCacheKeepsWritesAFileThatLoads() throws Exception {
        VectorCache cache = new VectorCache(dir, "concepts-1");
        Map<String, float[]> current = new LinkedHashMap<>();
        for (int i = 0; i <= VectorCache.MAX_ENTRIES; i++) {
            current.put(VectorCache.key("text " + i), new float[] {i, 1});
        }
        cache.save(current, Map.of(VectorCache.key("earlier"), new float[] {7, 7}));
        Map<String, float[]> loaded = cache.load();
        assertEquals(VectorCache.MAX_ENTRIES, loaded.size(), "the snapshot's first texts, up to the cache's size");
        assertArrayEquals(new float[] {0, 1}, loaded.get(VectorCache.key("text 0")));
        assertFalse(loaded.containsKey(VectorCache.key("text " + VectorCache.MAX_ENTRIES)));
        assertFalse(loaded.containsKey(VectorCache.key("earlier")), "no room left for an earlier snapshot's");

        // room to spare: the snapshot's texts, then the earlier ones
        cache.save(Map.of(VectorCache.key("now"), new float[] {1, 2}), loaded);
        Map<String, float[]> both = cache.load();
        assertEquals(VectorCache.MAX_ENTRIES, both.size());
        assertTrue(both.containsKey(VectorCache.key("now")));
    }
}

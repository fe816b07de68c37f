package dev.hyperterse.search;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
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

    @Test
    void keepsVectorsOfEveryLengthAndReadsTheFirstFormat() throws Exception {
        VectorCache cache = new VectorCache(dir, "concepts-1");
        Map<String, float[]> current = new LinkedHashMap<>();
        current.put(VectorCache.key("a text"), new float[] {1, 2});
        current.put(VectorCache.tokensKey(VectorCache.key("a text"), 0, null), new float[] {1, 0, 0, 1, 0, 1});
        current.put(VectorCache.tokensKey(VectorCache.key("no tokens"), 0, null), new float[0]);
        cache.save(current, Map.of());
        Map<String, float[]> loaded = cache.load();
        assertEquals(3, loaded.size());
        assertArrayEquals(new float[] {1, 0, 0, 1, 0, 1}, loaded.get(VectorCache.key("a text") + ":tokens:0"));
        assertArrayEquals(new float[0], loaded.get(VectorCache.tokensKey(VectorCache.key("no tokens"), 0, null)));

        // a file of the first format: one length for all
        try (var out = new java.io.DataOutputStream(java.nio.file.Files.newOutputStream(cache.file()))) {
            out.writeInt(0x48545631);
            out.writeUTF("concepts-1");
            out.writeInt(2);
            out.writeInt(1);
            out.writeUTF(VectorCache.key("old"));
            out.writeFloat(3);
            out.writeFloat(4);
        }
        assertArrayEquals(new float[] {3, 4}, cache.load().get(VectorCache.key("old")));

        // a file that claims more numbers than a cache keeps is refused, not read into memory
        try (var out = new java.io.DataOutputStream(java.nio.file.Files.newOutputStream(cache.file()))) {
            out.writeInt(0x48545632);
            out.writeUTF("concepts-1");
            out.writeInt(1);
            out.writeUTF(VectorCache.key("huge"));
            out.writeInt(VectorCache.MAX_LENGTH + 1);
        }
        java.io.IOException refused = assertThrows(java.io.IOException.class, cache::load);
        assertTrue(refused.getMessage().contains("not a vector cache (a vector of " + (VectorCache.MAX_LENGTH + 1)),
                refused.getMessage());
    }
}

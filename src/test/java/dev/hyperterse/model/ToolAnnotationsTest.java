package dev.hyperterse.model;

import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;

class ToolAnnotationsTest {
    private static final ToolAnnotations READ = new ToolAnnotations(true, false, true, false);
    private static final ToolAnnotations WRITE = new ToolAnnotations(false, false, null, false);
    private static final ToolAnnotations DELETE = new ToolAnnotations(false, true, null, false);

    @Test
    void sqlReadsWritesAndDeletes() {
        assertEquals(READ, ToolAnnotations.inferred("SELECT * FROM t WHERE id = {{ inputs.id }}", false));
        assertEquals(READ, ToolAnnotations.inferred("  -- users\n/* all */ (select 1) union (select 2)", false));
        assertEquals(READ, ToolAnnotations.inferred("WITH x AS (SELECT 1) SELECT * FROM x", false));
        assertEquals(WRITE, ToolAnnotations.inferred("INSERT INTO t VALUES ({{ inputs.v }})", false));
        assertEquals(WRITE, ToolAnnotations.inferred("update t set v = 1", false));
        assertEquals(WRITE, ToolAnnotations.inferred("WITH n AS (INSERT INTO t VALUES (1) RETURNING id) SELECT * FROM n",
                false));
        assertEquals(DELETE, ToolAnnotations.inferred("DELETE FROM t WHERE id = {{ inputs.id }}", false));
        assertEquals(DELETE, ToolAnnotations.inferred("WITH d AS (DELETE FROM t RETURNING id) SELECT * FROM d", false));
        assertEquals(DELETE, ToolAnnotations.inferred("DROP TABLE t", false));
        assertEquals(DELETE, ToolAnnotations.inferred("TRUNCATE t", false));
        assertEquals(new ToolAnnotations(null, null, null, false), ToolAnnotations.inferred("CALL refresh()", false));
    }

    @Test
    void redisReadsWritesAndDeletes() {
        assertEquals(READ, ToolAnnotations.inferred("GET user:{{ inputs.id }}", true));
        assertEquals(READ, ToolAnnotations.inferred("hgetall user:1", true));
        assertEquals(WRITE, ToolAnnotations.inferred("SET k {{ inputs.v }}", true));
        assertEquals(DELETE, ToolAnnotations.inferred("DEL {{ inputs.keys }}", true));
    }

    @Test
    void writtenHintsWinOverInferredOnes() {
        ToolAnnotations written = new ToolAnnotations(null, null, true, null);
        assertEquals(new ToolAnnotations(false, true, true, false), written.over(DELETE));
    }
}

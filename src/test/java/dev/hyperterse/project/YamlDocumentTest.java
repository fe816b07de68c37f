package dev.hyperterse.project;

import org.junit.jupiter.api.Test;
import org.slf4j.LoggerFactory;

import java.math.BigInteger;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

class YamlDocumentTest {
    private static final Path FILE = Path.of("t.yaml");
    private final List<ConfigProblem> warnings = new ArrayList<>();
    private final Problems problems = new Problems(LoggerFactory.getLogger(YamlDocumentTest.class), warnings::add);

    private YamlNode.Mapping parse(String text) {
        return assertInstanceOf(YamlNode.Mapping.class, YamlDocument.parse(text, FILE, problems));
    }

    private static YamlNode.Scalar scalar(YamlNode.Mapping m, String key) {
        return assertInstanceOf(YamlNode.Scalar.class, m.entries().get(key).value());
    }

    @Test
    void everyValueKnowsItsLine() {
        YamlNode.Mapping m = parse("a: 1\nb:\n  c: x\nd:\n  - 1\n  - 2\n");
        assertEquals(1, m.entries().get("a").keyLine());
        YamlNode.Mapping b = assertInstanceOf(YamlNode.Mapping.class, m.entries().get("b").value());
        assertEquals(3, b.entries().get("c").value().line());
        YamlNode.Sequence d = assertInstanceOf(YamlNode.Sequence.class, m.entries().get("d").value());
        assertEquals(6, d.items().get(1).line());
        assertEquals(FILE, d.file());
        assertFalse(problems.hasErrors());
    }

    @Test
    void scalarsAreTypedAsYaml12ButKeepTheirText() {
        YamlNode.Mapping m = parse("i: 42\nbig: 12345678901234567890\nf: 1.50\nt: true\ny: yes\nn: ~\ne:\n"
                + "d: 2024-01-02\nq: '42'\nhex: 0x10\n");
        assertEquals(42, scalar(m, "i").value());
        assertInstanceOf(BigInteger.class, scalar(m, "big").value());
        assertEquals(1.5, scalar(m, "f").value());
        assertEquals("1.50", scalar(m, "f").text());
        assertEquals(Boolean.TRUE, scalar(m, "t").value());
        assertEquals("yes", scalar(m, "y").value(), "YAML 1.1 yes/no stay strings, as in yaml.v3");
        assertNull(scalar(m, "n").value());
        assertNull(scalar(m, "e").value());
        assertEquals("2024-01-02", scalar(m, "d").value(), "no implicit timestamps");
        assertEquals("42", scalar(m, "q").value());
        assertFalse(scalar(m, "q").plain());
        assertEquals(16, scalar(m, "hex").value());
    }

    @Test
    void emptyDocumentIsAnEmptyMapping() {
        assertTrue(parse("# only a comment\n").entries().isEmpty());
    }

    @Test
    void syntaxErrorReportsLineColumnAndReason() {
        assertNull(YamlDocument.parse("a: 1\nb: c: d\n", FILE, problems));
        assertTrue(problems.hasErrors());
        ProjectException e = org.junit.jupiter.api.Assertions.assertThrows(ProjectException.class, problems::throwIfAny);
        ConfigProblem p = e.problems().get(0);
        assertEquals(2, p.location().line());
        assertEquals("YAML syntax error at line 2, column 5: mapping values are not allowed here", p.message());
    }

    @Test
    void duplicateKeysAreProblems() {
        parse("a: 1\nb: 2\na: 3\n");
        ProjectException e = org.junit.jupiter.api.Assertions.assertThrows(ProjectException.class, problems::throwIfAny);
        assertEquals("t.yaml:3: duplicate key 'a' (first at line 1)", e.problems().get(0).toString());
    }

    @Test
    void mergeKeysAndAliasesWork() {
        YamlNode.Mapping m = parse("base: &b\n  x: 1\n  y: 2\nuse:\n  <<: *b\n  y: 3\n");
        YamlNode.Mapping use = assertInstanceOf(YamlNode.Mapping.class, m.entries().get("use").value());
        assertEquals(1, scalar(use, "x").value());
        assertEquals(3, scalar(use, "y").value(), "explicit keys win over merged ones");
        assertFalse(problems.hasErrors());
    }

    @Test
    void aliasesThatMultiplyAreStoppedNotExpanded() {
        // 48 aliases (SnakeYAML allows 50), each list doubling the one before: 16 million values
        StringBuilder bomb = new StringBuilder("a0: &a0 [x]\n");
        for (int i = 1; i <= 24; i++) {
            bomb.append("a").append(i).append(": &a").append(i).append(" [*a").append(i - 1)
                    .append(", *a").append(i - 1).append("]\n");
        }
        long start = System.nanoTime();
        assertNull(YamlDocument.parse(bomb.toString(), FILE, problems));
        assertTrue(System.nanoTime() - start < java.util.concurrent.TimeUnit.SECONDS.toNanos(10),
                "stopped early, not after expanding the aliases");
        assertEquals(1, problems.errorCount());
        ProjectException e = org.junit.jupiter.api.Assertions.assertThrows(ProjectException.class, problems::throwIfAny);
        ConfigProblem p = e.problems().get(0);
        assertTrue(p.message().startsWith("YAML aliases repeat more than 100000 values in this file"), p.message());
    }

    @Test
    void aliasesUsedOftenWithinReasonAreRead() {
        StringBuilder text = new StringBuilder("base: &b {type: int, description: an id, optional: true}\n");
        for (int i = 0; i < 40; i++) {
            text.append("k").append(i).append(": *b\n");
        }
        YamlNode.Mapping m = parse(text.toString());
        assertEquals(41, m.entries().size());
        assertFalse(problems.hasErrors());
    }

    @Test
    void arbitraryTagsAreRefused() {
        parse("a: ok\nb: !custom y\n");
        assertNull(YamlDocument.parse("a: !!java.lang.Runtime x\n", FILE, problems), "global tags stop the parser");
        ProjectException e = org.junit.jupiter.api.Assertions.assertThrows(ProjectException.class, problems::throwIfAny);
        assertEquals(2, e.problems().size());
        assertEquals("t.yaml:1: YAML syntax error at line 1, column 4: Global tag is not allowed: "
                + "tag:yaml.org,2002:java.lang.Runtime", e.problems().get(0).toString());
        assertTrue(e.problems().get(1).message().contains("unsupported YAML tag '!custom'"), e.getMessage());
    }

    @Test
    void mergeOverlaysMappingsKeyByKey() {
        YamlNode base = YamlDocument.parse("a: 1\nm:\n  x: 1\n  y: 2\nl: [1]\n", Path.of("base"), problems);
        YamlNode over = YamlDocument.parse("m:\n  y: 3\nl: [2, 3]\na:\nz: 9\n", FILE, problems);
        YamlNode.Mapping merged = assertInstanceOf(YamlNode.Mapping.class, YamlDocument.merge(base, over));
        assertEquals(1, scalar(merged, "a").value(), "an empty value keeps the base");
        YamlNode.Mapping m = assertInstanceOf(YamlNode.Mapping.class, merged.entries().get("m").value());
        assertEquals(1, scalar(m, "x").value());
        assertEquals(Path.of("base"), scalar(m, "x").file(), "each value remembers its file");
        assertEquals(3, scalar(m, "y").value());
        assertEquals(FILE, scalar(m, "y").file());
        assertEquals(2, assertInstanceOf(YamlNode.Sequence.class, merged.entries().get("l").value()).items().size(),
                "lists are replaced, not appended");
        assertEquals(9, scalar(merged, "z").value());
        assertEquals(FILE, merged.file());
    }
}

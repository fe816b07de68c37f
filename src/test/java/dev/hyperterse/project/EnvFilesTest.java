package dev.hyperterse.project;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.slf4j.LoggerFactory;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

class EnvFilesTest {
    private final List<ConfigProblem> warnings = new ArrayList<>();
    private final Problems problems = new Problems(LoggerFactory.getLogger(EnvFilesTest.class), warnings::add);

    @Test
    void parsesTheUsualForms() {
        Map<String, String> values = EnvFiles.parse(String.join("\n",
                "# a comment",
                "",
                "PLAIN=value",
                "export EXPORTED=yes",
                "SPACED = padded value  ",
                "INLINE=abc # a comment",
                "HASH=abc#not-a-comment",
                "DOUBLE=\"a \\\"quoted\\\" \\n value # kept\"",
                "SINGLE='literal \\n # kept'",
                "EMPTY=",
                "EQUALS=a=b",
                "MULTI=\"line one",
                "line two\"",
                "AFTER=1",
                ""), Path.of(".env"), problems);
        assertEquals("value", values.get("PLAIN"));
        assertEquals("yes", values.get("EXPORTED"));
        assertEquals("padded value", values.get("SPACED"));
        assertEquals("abc", values.get("INLINE"));
        assertEquals("abc#not-a-comment", values.get("HASH"));
        assertEquals("a \"quoted\" \n value # kept", values.get("DOUBLE"));
        assertEquals("literal \\n # kept", values.get("SINGLE"));
        assertEquals("", values.get("EMPTY"));
        assertEquals("a=b", values.get("EQUALS"));
        assertEquals("line one\nline two", values.get("MULTI"));
        assertEquals("1", values.get("AFTER"));
        assertEquals(11, values.size());
        assertFalse(problems.hasErrors());
    }

    @Test
    void badLinesAreProblemsWithTheirLine() {
        EnvFiles.parse("OK=1\nnot a pair\n1BAD=x\nOPEN=\"never closed\n", Path.of(".env"), problems);
        ProjectException e = assertThrows(ProjectException.class, problems::throwIfAny);
        assertEquals(List.of(2, 3, 4), e.problems().stream().map(p -> p.location().line()).toList());
    }

    @Test
    void yamlStyleAssignmentsAreReadAsHyperterseReadsThem() {
        // Hyperterse's env reader (godotenv) takes "KEY: value" as well as "KEY=value"; a key ends at the first of the two
        Map<String, String> values = EnvFiles.parse(String.join("\n",
                "DATABASE_URL: postgres://app@db:5432/shop?sslmode=disable",
                "export TOKEN: 'abc: def'",
                "PLAIN=a:b",
                ""), Path.of(".env"), problems);
        assertEquals("postgres://app@db:5432/shop?sslmode=disable", values.get("DATABASE_URL"));
        assertEquals("abc: def", values.get("TOKEN"));
        assertEquals("a:b", values.get("PLAIN"));
        assertFalse(problems.hasErrors());
    }

    @Test
    void variablesDefinedAboveAreExpandedAsHyperterseExpandsThem() {
        Map<String, String> values = EnvFiles.parse(String.join("\n",
                "DB_USER=app",
                "DB_PASS='p$ss'",
                "DATABASE_URL=postgres://${DB_USER}:${DB_PASS}@db:5432/shop",
                "QUOTED=\"$DB_USER and ${DB_USER}\"",
                "LITERAL='${DB_USER}'",
                "ESCAPED=\\$DB_USER costs \\$5",
                "LOWER=$price stays",
                "LATER=${DEFINED_BELOW}x",
                "DEFINED_BELOW=1",
                ""), Path.of(".env"), problems);
        assertEquals("postgres://app:p$ss@db:5432/shop", values.get("DATABASE_URL"));
        assertEquals("app and app", values.get("QUOTED"));
        assertEquals("${DB_USER}", values.get("LITERAL"), "single quotes are literal");
        assertEquals("$DB_USER costs $5", values.get("ESCAPED"));
        assertEquals("$price stays", values.get("LOWER"), "only upper-case names are variables");
        assertEquals("x", values.get("LATER"), "a variable not defined above reads as empty");
        assertFalse(problems.hasErrors());
        assertEquals(1, warnings.size(), warnings.toString());
        assertEquals(8, warnings.get(0).location().line());
        assertEquals(7, warnings.get(0).location().column(), "the column of its '$'");
    }

    @Test
    void aWarningAboutADollarSignNamesItsPlaceNotWhatFollowsIt() {
        // a '$' in a password or a bcrypt hash is read as a variable: what follows it is part of a secret
        EnvFiles.parse(String.join("\n",
                "# passwords",
                "DB_PASS=Tr0ub4dor$AB12",
                "  export HASH = $2b$12$R9h/cIPz0gi.URNNX3kh2OPST9 # bcrypt",
                "QUOTED=\"x\\ty$SECRET_TAIL\"",
                "MULTI=\"line one",
                "  and $PART_TWO\"",
                ""), Path.of(".env"), problems);
        assertFalse(problems.hasErrors());
        assertEquals(List.of(".env:2:18", ".env:3:17", ".env:4:13", ".env:6:7"),
                warnings.stream().map(w -> w.location().toString()).toList());
        for (ConfigProblem w : warnings) {
            for (String piece : List.of("AB12", "2b", "12", "R9", "SECRET_TAIL", "PART_TWO", "Tr0ub4dor", "DB_PASS",
                    "HASH", "QUOTED", "MULTI")) {
                assertFalse(w.message().contains(piece), piece + " in: " + w.message());
            }
            assertTrue(w.message().contains("reads as empty") && w.message().contains("\\$"), w.message());
        }
        assertTrue(warnings.get(1).message().contains("2 more"), "one warning per value: " + warnings.get(1).message());
    }

    @Test
    void aBadLineIsReportedWithoutEchoingItsText() {
        // a line without '=' is often the rest of a secret that was meant to span lines
        EnvFiles.parse("PRIVATE_KEY=-----BEGIN PRIVATE KEY-----\nMIIEvQIBADANBgkqhkiG9w0BAQEFAASC\n"
                + "s3cr3t-value=x\n", Path.of(".env"), problems);
        ProjectException e = assertThrows(ProjectException.class, problems::throwIfAny);
        assertEquals(List.of(2, 3), e.problems().stream().map(p -> p.location().line()).toList());
        for (ConfigProblem p : e.problems()) {
            assertFalse(p.message().contains("MIIEvQIBADANBgkqhkiG9w0BAQEFAASC"), p.message());
            assertFalse(p.message().contains("s3cr3t"), p.message());
        }
    }

    @Test
    void theFirstFileFoundIsLoaded(@TempDir Path dir) {
        ProjectFixture p = new ProjectFixture(dir);
        DisplayPaths paths = new DisplayPaths(dir);
        assertNull(EnvFiles.load(dir, paths, problems).file());
        p.write(".env", "A=env\n");
        assertEquals(Map.of("A", "env"), EnvFiles.load(dir, paths, problems).values());
        p.write(".env.development", "A=development\n");
        assertEquals(Map.of("A", "development"), EnvFiles.load(dir, paths, problems).values());
        p.write(".env.local", "A=local\n");
        EnvFiles.Loaded loaded = EnvFiles.load(dir, paths, problems);
        assertEquals(dir.resolve(".env.local"), loaded.file());
        assertEquals(Map.of("A", "local"), loaded.values());
    }
}

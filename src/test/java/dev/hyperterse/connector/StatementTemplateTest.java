package dev.hyperterse.connector;

import dev.hyperterse.connector.CompiledStatement.Parameter;
import dev.hyperterse.connector.CompiledStatement.Source;
import org.junit.jupiter.api.Nested;
import org.junit.jupiter.api.Test;

import java.util.List;
import java.util.Map;

import static dev.hyperterse.connector.StatementDialect.MYSQL;
import static dev.hyperterse.connector.StatementDialect.POSTGRES;
import static dev.hyperterse.connector.StatementDialect.SQLITE;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

class StatementTemplateTest {
    private static final Map<String, String> ENV = Map.of("SCHEMA", "app", "QUOTE", "it's", "MULTI", "1\n2\n3");

    private static String sql(String template, StatementDialect dialect) throws StatementException {
        return StatementTemplate.compile(template, dialect, ENV).text();
    }

    private static List<Parameter> params(String template, StatementDialect dialect) throws StatementException {
        return StatementTemplate.compile(template, dialect, ENV).parameters();
    }

    private static Parameter in(String name) {
        return new Parameter(Source.INPUT, name);
    }

    private static StatementException fails(String template, StatementDialect dialect) {
        return assertThrows(StatementException.class, () -> StatementTemplate.compile(template, dialect, ENV));
    }

    private static void failsWith(String template, StatementDialect dialect, String... fragments) {
        String message = fails(template, dialect).getMessage();
        for (String fragment : fragments) {
            assertTrue(message.contains(fragment), () -> "'" + message + "' should contain '" + fragment + "'");
        }
    }

    /** The same template in the three SQL dialects: PostgreSQL, MySQL, SQLite. */
    @Nested
    class EveryDialect {
        private void each(String template, String postgres, String mysql, String sqlite) throws StatementException {
            assertEquals(postgres, sql(template, POSTGRES), "postgres");
            assertEquals(mysql, sql(template, MYSQL), "mysql");
            assertEquals(sqlite, sql(template, SQLITE), "sqlite");
        }

        @Test
        void positions() throws Exception {
            each("a = {{ inputs.x }}", "a = $1", "a = ?", "a = ?");
            each("a = '{{ inputs.x }}'", "a = $1", "a = ?", "a = ?");
            each("a LIKE '{{ inputs.x }}%'", "a LIKE ($1 || '%')", "a LIKE CONCAT(?, '%')", "a LIKE (? || '%')");
            each("a LIKE '%{{ inputs.x }}%'", "a LIKE ('%' || $1 || '%')", "a LIKE CONCAT('%', ?, '%')",
                    "a LIKE ('%' || ? || '%')");
            each("a LIKE '%{{ inputs.x }}'", "a LIKE ('%' || $1)", "a LIKE CONCAT('%', ?)", "a LIKE ('%' || ?)");
            each("a = '{{ inputs.x }}, {{ inputs.y }}'", "a = ($1 || ', ' || $2)", "a = CONCAT(?, ', ', ?)",
                    "a = (? || ', ' || ?)");
        }

        @Test
        void escapedQuotesAroundAPlaceholder() throws Exception {
            each("a = '''{{ inputs.x }}'''", "a = ('''' || $1 || '''')", "a = CONCAT('''', ?, '''')",
                    "a = ('''' || ? || '''')");
            each("a = 'it''s' AND b = {{ inputs.x }}", "a = 'it''s' AND b = $1", "a = 'it''s' AND b = ?",
                    "a = 'it''s' AND b = ?");
        }

        @Test
        void repeatedInputsAndClaimsAreOneParameterPerOccurrence() throws Exception {
            String t = "{{ inputs.a }}, {{ auth.claims.sub }}, '{{ inputs.a }}'";
            each(t, "$1, $2, $3", "?, ?, ?", "?, ?, ?");
            List<Parameter> expected = List.of(in("a"), new Parameter(Source.CLAIM, "sub"), in("a"));
            assertEquals(expected, params(t, POSTGRES));
            assertEquals(expected, params(t, MYSQL));
            assertEquals(expected, params(t, SQLITE));
        }

        @Test
        void doubleQuotes() throws Exception {
            failsWith("SELECT \"{{ inputs.x }}\"", POSTGRES, "quoted identifier");
            assertEquals("SELECT ?", sql("SELECT \"{{ inputs.x }}\"", MYSQL));
            failsWith("SELECT \"{{ inputs.x }}\"", SQLITE, "quoted identifier");
        }

        @Test
        void comments() throws Exception {
            String t = "-- {{ inputs.x }}\n/* '{{ inputs.y }} */ {{ inputs.z }}";
            each(t, "-- {{ inputs.x }}\n/* '{{ inputs.y }} */ $1", "-- {{ inputs.x }}\n/* '{{ inputs.y }} */ ?",
                    "-- {{ inputs.x }}\n/* '{{ inputs.y }} */ ?");
            for (StatementDialect d : List.of(POSTGRES, MYSQL, SQLITE)) {
                assertEquals(List.of(in("z")), params(t, d));
                failsWith("SELECT 1 /* {{ inputs.x }}", d, "unterminated /* comment", "column 10");
                failsWith("SELECT 'abc {{ inputs.x }}", d, "unterminated string literal", "column 8");
            }
        }

        @Test
        void environment() throws Exception {
            each("SELECT * FROM {{ env.SCHEMA }}.t WHERE a = '{{ inputs.a }}'",
                    "SELECT * FROM app.t WHERE a = $1", "SELECT * FROM app.t WHERE a = ?",
                    "SELECT * FROM app.t WHERE a = ?");
            for (StatementDialect d : List.of(POSTGRES, MYSQL, SQLITE)) {
                failsWith("SELECT {{ env.MISSING }}", d, "environment variable 'MISSING' is not set", "column 8");
            }
        }
    }

    @Nested
    class Postgres {
        @Test
        void aTypedLiteralWithAPlaceholderBecomesACast() throws Exception {
            // INTERVAL '...' takes only a constant; Hyperterse pasted the value into it
            assertEquals("SELECT now() - CAST(($1 || ' days') AS INTERVAL)",
                    sql("SELECT now() - INTERVAL '{{ inputs.days }} days'", POSTGRES));
            // a placeholder that is the whole literal is cast from text too: CAST($1 AS INTERVAL) made
            // PostgreSQL type the parameter as interval, and '7 days' was refused before it was read
            assertEquals("d = CAST($1::text AS DATE) AND t < CAST($2::text AS TIMESTAMPTZ) AND u = timestamp '2024-01-01'",
                    sql("d = date'{{ inputs.d }}' AND t < TIMESTAMPTZ '{{ inputs.t }}' AND u = timestamp '2024-01-01'",
                            POSTGRES));
            CompiledStatement whole = StatementTemplate.compile("d = INTERVAL '{{ inputs.p }}'", POSTGRES, ENV);
            assertEquals("d = CAST($1::text AS INTERVAL)", whole.text());
            assertTrue(whole.text().startsWith("$1", whole.markerOffsets().get(0)));
            // the marker's recorded place is where it stands in the cast (a cast to text is added there)
            CompiledStatement cast = StatementTemplate.compile("d = INTERVAL 'P{{ inputs.d }}D'", POSTGRES, ENV);
            assertEquals("d = CAST(('P' || $1 || 'D') AS INTERVAL)", cast.text());
            assertTrue(cast.text().startsWith("$1", cast.markerOffsets().get(0)));
            // a column or a word in a comment is not the keyword
            assertEquals("d = t.date $1", sql("d = t.date '{{ inputs.d }}'", POSTGRES));
            assertEquals("-- by date\n$1", sql("-- by date\n'{{ inputs.d }}'", POSTGRES));
            assertEquals("now() AT TIME ZONE $1", sql("now() AT TIME ZONE '{{ inputs.tz }}'", POSTGRES));
        }

        @Test
        void anIntervalLiteralFollowedByItsFieldsIsRefusedWithItsPlace() throws Exception {
            // PostgreSQL reads INTERVAL '3' DAY as 3 days, but '3' cast to interval day as 3 seconds cut to
            // 0 days: no cast of the bound text means what the literal meant, so the statement is refused
            for (String field : List.of("YEAR", "MONTH", "DAY", "HOUR", "MINUTE", "SECOND", "YEAR TO MONTH", "DAY TO HOUR",
                    "DAY TO MINUTE", "DAY TO SECOND", "HOUR TO MINUTE", "HOUR TO SECOND", "MINUTE TO SECOND", "second(2)",
                    "Day  To\n Second ( 3 )")) {
                failsWith("SELECT now() -\n  INTERVAL '{{ inputs.n }}' " + field + " AS since", POSTGRES,
                        "a placeholder inside an interval literal followed by its fields (INTERVAL '...' DAY, ... HOUR TO"
                                + " MINUTE) cannot be bound", "INTERVAL '{{ inputs.n }} days'", "line 2, column 12");
            }
            failsWith("INTERVAL '{{ inputs.h }}:30' HOUR TO MINUTE", POSTGRES, "cannot be bound", "line 1, column 10");
            // words that are not fields, and literals without a placeholder, are left as they are
            assertEquals("CAST($1::text AS INTERVAL) days", sql("INTERVAL '{{ inputs.n }}' days", POSTGRES));
            assertEquals("CAST($1::text AS INTERVAL) AS day_count", sql("INTERVAL '{{ inputs.n }}' AS day_count", POSTGRES));
            assertEquals("CAST($1::text AS INTERVAL) DAYS_AGO", sql("INTERVAL '{{ inputs.n }}' DAYS_AGO", POSTGRES));
            assertEquals("CAST($1::text AS DATE) AS day", sql("DATE '{{ inputs.d }}' AS day", POSTGRES));
            assertEquals("INTERVAL '3' DAY", sql("INTERVAL '3' DAY", POSTGRES));
            // MySQL's INTERVAL takes any expression, its unit included
            assertEquals("NOW() - INTERVAL ? DAY", sql("NOW() - INTERVAL '{{ inputs.n }}' DAY", MYSQL));
        }

        @Test
        void bareMarkersAreNumberedInOrder() throws Exception {
            String t = "SELECT * FROM t WHERE a = {{ inputs.a }} AND b = {{inputs.b}} OR c = {{ inputs.a }}";
            assertEquals("SELECT * FROM t WHERE a = $1 AND b = $2 OR c = $3", sql(t, POSTGRES));
            assertEquals(List.of(in("a"), in("b"), in("a")), params(t, POSTGRES));
        }

        @Test
        void wholeLiteralBecomesAMarker() throws Exception {
            assertEquals("SELECT * FROM users WHERE email = $1",
                    sql("SELECT * FROM users WHERE email = '{{ inputs.email }}'", POSTGRES));
            assertEquals("WHERE id IN ($1,$2)", sql("WHERE id IN ('{{ inputs.a }}','{{ inputs.b }}')", POSTGRES));
        }

        @Test
        void placeholderInsideLiteralBecomesConcatenation() throws Exception {
            assertEquals("WHERE name LIKE ('%' || $1 || '%')", sql("WHERE name LIKE '%{{ inputs.q }}%'", POSTGRES));
            assertEquals("WHERE name LIKE ($1 || '%')", sql("WHERE name LIKE '{{ inputs.q }}%'", POSTGRES));
            assertEquals("WHERE name LIKE ('%' || $1)", sql("WHERE name LIKE '%{{ inputs.q }}'", POSTGRES));
        }

        @Test
        void twoPlaceholdersInOneLiteral() throws Exception {
            String t = "SELECT '{{ inputs.first }} {{ inputs.last }}', {{ inputs.x }}";
            assertEquals("SELECT ($1 || ' ' || $2), $3", sql(t, POSTGRES));
            assertEquals(List.of(in("first"), in("last"), in("x")), params(t, POSTGRES));
            assertEquals("SELECT ($1 || $2)", sql("SELECT '{{ inputs.a }}{{ inputs.b }}'", POSTGRES));
        }

        @Test
        void doubledQuotesStayInTheirPiece() throws Exception {
            assertEquals("SELECT ('it''s ' || $1 || '''')", sql("SELECT 'it''s {{ inputs.x }}'''", POSTGRES));
            assertEquals("SELECT 'it''s {{', $1", sql("SELECT 'it''s {{', {{ inputs.x }}", POSTGRES));
        }

        @Test
        void backslashIsPlainInStandardStrings() throws Exception {
            // 'a\' is a complete literal in PostgreSQL (standard_conforming_strings).
            assertEquals("SELECT 'a\\' || $1", sql("SELECT 'a\\' || {{ inputs.x }}", POSTGRES));
        }

        @Test
        void escapeStrings() throws Exception {
            assertEquals("SELECT $1", sql("SELECT E'{{ inputs.x }}'", POSTGRES));
            assertEquals("SELECT (E'\\'' || $1 || E'\\n')", sql("SELECT E'\\'{{ inputs.x }}\\n'", POSTGRES));
            assertEquals("SELECT (e'\\\\' || $1)", sql("SELECT e'\\\\{{ inputs.x }}'", POSTGRES));
            // Inside an E-string \' does not close the literal, so the placeholder is inside it.
            assertEquals("SELECT (E'a\\' ' || $1)", sql("SELECT E'a\\' {{ inputs.x }}'", POSTGRES));
        }

        @Test
        void dollarQuotes() throws Exception {
            assertEquals("SELECT $tag$it's {{ x$tag$, $1",
                    sql("SELECT $tag$it's {{ x$tag$, {{ inputs.x }}", POSTGRES));
            assertEquals("SELECT $$ BEGIN PERFORM 1; END $$, $1",
                    sql("SELECT $$ BEGIN PERFORM 1; END $$, {{ inputs.x }}", POSTGRES));
            failsWith("SELECT $$ {{ inputs.x }} $$", POSTGRES, "dollar-quoted", "line 1, column 11");
            failsWith("SELECT $body$ a\n {{ inputs.x }} $body$", POSTGRES, "dollar-quoted", "line 2, column 2");
            failsWith("SELECT $$ unterminated", POSTGRES, "unterminated dollar-quoted", "column 8");
            // $ inside an identifier is not a dollar quote.
            assertEquals("SELECT a$b$ FROM t WHERE x = $1", sql("SELECT a$b$ FROM t WHERE x = {{ inputs.x }}", POSTGRES));
        }

        @Test
        void commentsKeepPlaceholdersAsText() throws Exception {
            String t = "-- by {{ inputs.x }}\nSELECT /* it's {{ inputs.y }} */ {{ inputs.z }}";
            assertEquals("-- by {{ inputs.x }}\nSELECT /* it's {{ inputs.y }} */ $1", sql(t, POSTGRES));
            assertEquals(List.of(in("z")), params(t, POSTGRES));
        }

        @Test
        void blockCommentsNest() throws Exception {
            assertEquals("/* a /* b ' */ c */ SELECT $1", sql("/* a /* b ' */ c */ SELECT {{ inputs.z }}", POSTGRES));
            failsWith("/* a /* b */ SELECT 1", POSTGRES, "unterminated /* comment", "line 1, column 1");
        }

        @Test
        void quotedIdentifiers() throws Exception {
            assertEquals("SELECT \"it's\" FROM \"my \"\"t\"\"\" WHERE a = $1",
                    sql("SELECT \"it's\" FROM \"my \"\"t\"\"\" WHERE a = {{ inputs.a }}", POSTGRES));
            failsWith("SELECT \"{{ inputs.col }}\" FROM t", POSTGRES, "quoted identifier", "column 9");
            failsWith("SELECT \"abc", POSTGRES, "unterminated quoted identifier");
        }

        @Test
        void backtickIsNotAQuoteHere() throws Exception {
            assertEquals("SELECT `a` = $1", sql("SELECT `a` = {{ inputs.a }}", POSTGRES));
        }

        @Test
        void questionMarkIsAnOperator() throws Exception {
            assertEquals("SELECT data ? 'key', $1", sql("SELECT data ? 'key', {{ inputs.a }}", POSTGRES));
        }

        @Test
        void handWrittenMarkersAreRejected() {
            failsWith("SELECT $1", POSTGRES, "'$1...' is a bind marker");
        }

        @Test
        void prefixedLiteralsCannotHoldPlaceholders() throws Exception {
            failsWith("SELECT X'{{ inputs.x }}'", POSTGRES, "X'...' literal");
            failsWith("SELECT U&'{{ inputs.x }}'", POSTGRES, "U&'...' literal");
            assertEquals("SELECT B'101', $1", sql("SELECT B'101', {{ inputs.x }}", POSTGRES));
        }

        @Test
        void keywordTouchingALiteralIsNotAPrefix() throws Exception {
            assertEquals("WHERE a LIKE ('%' || $1 || '%')", sql("WHERE a LIKE'%{{ inputs.q }}%'", POSTGRES));
            assertEquals("WHERE a LIKE $1", sql("WHERE a LIKE'{{ inputs.q }}'", POSTGRES));
        }

        @Test
        void markersStaySeparateTokens() throws Exception {
            assertEquals("LIMIT $1 0", sql("LIMIT {{ inputs.n }}0", POSTGRES));
            assertEquals("SELECT x $1", sql("SELECT x{{ inputs.n }}", POSTGRES));
            assertEquals("SELECT $1::int", sql("SELECT {{ inputs.n }}::int", POSTGRES));
        }

        @Test
        void claims() throws Exception {
            String t = "SELECT * FROM orders WHERE owner = {{ auth.claims.sub }} AND id = {{ inputs.id }}";
            assertEquals("SELECT * FROM orders WHERE owner = $1 AND id = $2", sql(t, POSTGRES));
            assertEquals(List.of(new Parameter(Source.CLAIM, "sub"), in("id")), params(t, POSTGRES));
        }
    }

    @Nested
    class MySql {
        @Test
        void aTypedLiteralWithAPlaceholderBecomesACast() throws Exception {
            assertEquals("d = CAST(? AS DATE) AND t < CAST(CONCAT(?, ' 10:00') AS DATETIME(6)) AND x = CAST(? AS TIME(6))",
                    sql("d = DATE '{{ inputs.d }}' AND t < TIMESTAMP '{{ inputs.d }} 10:00' AND x = time '{{ inputs.x }}'",
                            MYSQL));
            // MySQL's INTERVAL takes any expression
            assertEquals("NOW() - INTERVAL ? DAY", sql("NOW() - INTERVAL '{{ inputs.n }}' DAY", MYSQL));
            assertEquals("d = date ?", sql("d = date '{{ inputs.d }}'", SQLITE));
        }

        @Test
        void bareAndWholeLiterals() throws Exception {
            assertEquals("SELECT * FROM t WHERE a = ? AND b = ? AND c = ?",
                    sql("SELECT * FROM t WHERE a = {{ inputs.a }} AND b = '{{ inputs.b }}' AND c = \"{{ inputs.c }}\"", MYSQL));
        }

        @Test
        void placeholderInsideLiteralBecomesConcat() throws Exception {
            assertEquals("WHERE n LIKE CONCAT('%', ?, '%')", sql("WHERE n LIKE '%{{ inputs.q }}%'", MYSQL));
            assertEquals("WHERE n LIKE CONCAT(?, '%')", sql("WHERE n LIKE '{{ inputs.q }}%'", MYSQL));
            assertEquals("WHERE n LIKE CONCAT('%', ?)", sql("WHERE n LIKE '%{{ inputs.q }}'", MYSQL));
            assertEquals("SELECT CONCAT(?, ' ', ?)", sql("SELECT '{{ inputs.a }} {{ inputs.b }}'", MYSQL));
            assertEquals("WHERE n LIKE CONCAT('%', ?)", sql("WHERE n LIKE'%{{ inputs.q }}'", MYSQL));
        }

        @Test
        void backslashEscapes() throws Exception {
            assertEquals("SELECT CONCAT('\\'', ?, '\\\\')", sql("SELECT '\\'{{ inputs.x }}\\\\'", MYSQL));
            // \' does not end the literal, so the placeholder is inside it.
            assertEquals("SELECT CONCAT('a\\' ', ?)", sql("SELECT 'a\\' {{ inputs.x }}'", MYSQL));
            assertEquals("SELECT CONCAT(\"say \\\"\", ?, \"\\\"\")", sql("SELECT \"say \\\"{{ inputs.x }}\\\"\"", MYSQL));
            assertEquals("SELECT CONCAT('it''s ', ?)", sql("SELECT 'it''s {{ inputs.x }}'", MYSQL));
            failsWith("SELECT 'abc\\'", MYSQL, "unterminated string literal", "column 8");
        }

        @Test
        void backtickIdentifiers() throws Exception {
            assertEquals("SELECT `it's`, `a``b` FROM t WHERE a = ?",
                    sql("SELECT `it's`, `a``b` FROM t WHERE a = {{ inputs.a }}", MYSQL));
            failsWith("SELECT `{{ inputs.col }}` FROM t", MYSQL, "quoted identifier");
        }

        @Test
        void comments() throws Exception {
            String t = "# {{ inputs.a }}\n-- {{ inputs.b }}\n/* {{ inputs.c }} */ SELECT {{ inputs.d }}";
            assertEquals("# {{ inputs.a }}\n-- {{ inputs.b }}\n/* {{ inputs.c }} */ SELECT ?", sql(t, MYSQL));
            assertEquals(List.of(in("d")), params(t, MYSQL));
            // Without a space after it, -- is two minus signs in MySQL.
            assertEquals("SELECT 5--?", sql("SELECT 5--{{ inputs.x }}", MYSQL));
        }

        @Test
        void executableCommentsAreCode() throws Exception {
            assertEquals("SELECT /*!50000 ? */ 1", sql("SELECT /*!50000 {{ inputs.x }} */ 1", MYSQL));
            failsWith("SELECT /*! 1", MYSQL, "unterminated /*! comment");
        }

        @Test
        void rejectsQuestionMarksAndPrefixedLiterals() {
            failsWith("SELECT * FROM t WHERE a = ?", MYSQL, "'?' is a bind marker", "column 27");
            failsWith("SELECT _utf8mb4'{{ inputs.x }}'", MYSQL, "_utf8mb4'...' literal");
            failsWith("SELECT N'x{{ inputs.x }}'", MYSQL, "N'...' literal");
        }
    }

    @Nested
    class Sqlite {
        @Test
        void markersAndConcatenation() throws Exception {
            assertEquals("SELECT * FROM users WHERE id = ? AND email = ? AND name LIKE ('%' || ? || '%')",
                    sql("SELECT * FROM users WHERE id = {{ inputs.id }} AND email = '{{ inputs.email }}'"
                            + " AND name LIKE '%{{ inputs.q }}%'", SQLITE));
            assertEquals("SELECT (? || '-' || ?)", sql("SELECT '{{ inputs.a }}-{{ inputs.b }}'", SQLITE));
        }

        @Test
        void backslashIsPlain() throws Exception {
            assertEquals("SELECT 'a\\' || ?", sql("SELECT 'a\\' || {{ inputs.x }}", SQLITE));
        }

        @Test
        void identifiers() throws Exception {
            assertEquals("SELECT \"it's\", `b'c`, [d'e] FROM t WHERE a = ?",
                    sql("SELECT \"it's\", `b'c`, [d'e] FROM t WHERE a = {{ inputs.a }}", SQLITE));
            failsWith("SELECT \"{{ inputs.x }}\"", SQLITE, "quoted identifier");
            failsWith("SELECT [{{ inputs.x }}]", SQLITE, "quoted identifier");
        }

        @Test
        void comments() throws Exception {
            assertEquals("SELECT 1 -- '{{ inputs.a }}\n, ? /* ' */",
                    sql("SELECT 1 -- '{{ inputs.a }}\n, {{ inputs.b }} /* ' */", SQLITE));
            failsWith("SELECT 1 /* open", SQLITE, "unterminated /* comment");
        }

        @Test
        void handWrittenMarkersAreRejected() {
            failsWith("SELECT ?", SQLITE, "'?' is a bind marker");
            failsWith("SELECT :name", SQLITE, "':name' is a bind marker");
            failsWith("SELECT @name", SQLITE, "'@name' is a bind marker");
            failsWith("SELECT $name", SQLITE, "'$name' is a bind marker");
        }

        @Test
        void blobLiterals() throws Exception {
            assertEquals("SELECT X'00ff', ?", sql("SELECT X'00ff', {{ inputs.a }}", SQLITE));
            failsWith("SELECT X'{{ inputs.a }}'", SQLITE, "X'...' literal");
        }
    }

    @Nested
    class Environment {
        @Test
        void envIsTextualEverywhere() throws Exception {
            assertEquals("SELECT * FROM app.users WHERE id = ? AND note = 'app'",
                    sql("SELECT * FROM {{ env.SCHEMA }}.users WHERE id = {{ inputs.id }} AND note = '{{ env.SCHEMA }}'", SQLITE));
            assertEquals(List.of(in("id")),
                    params("SELECT * FROM {{ env.SCHEMA }}.users WHERE id = {{ inputs.id }}", SQLITE));
        }

        @Test
        void envValuesAreLexedAsSql() throws Exception {
            // Operator-controlled text: its quote opens a literal, as if written in the template.
            failsWith("SELECT {{ env.QUOTE }}", POSTGRES, "unterminated string literal", "line 1, column 8");
        }

        @Test
        void missingEnvIsNamedWithItsPosition() {
            failsWith("SELECT 1\nFROM {{ env.NOPE }}", POSTGRES, "'NOPE'", "line 2, column 6");
        }

        @Test
        void positionsPointAtTheTemplateNotTheExpansion() {
            StatementException e = fails("SELECT {{ env.MULTI }}\n  'abc", SQLITE);
            assertEquals(2, e.line());
            assertEquals(3, e.column());
        }

        @Test
        void nullEnvMeansEmpty() throws Exception {
            assertEquals("SELECT ?", StatementTemplate.compile("SELECT {{ inputs.a }}", SQLITE, null).text());
        }
    }

    @Nested
    class Errors {
        @Test
        void unterminatedLiteralGivesLineAndColumn() {
            StatementException e = fails("SELECT 1\nFROM t WHERE a = 'abc", SQLITE);
            assertEquals(2, e.line());
            assertEquals(18, e.column());
            assertTrue(e.getMessage().startsWith("unterminated string literal (line 2, column 18"));
        }

        @Test
        void malformedPlaceholders() {
            failsWith("SELECT {{ input.x }}", SQLITE, "malformed placeholder '{{ input.x }}'");
            failsWith("SELECT '{{ inputs.x.y }}'", POSTGRES, "malformed placeholder");
        }

        @Test
        void redisIsNotSql() {
            assertThrows(IllegalArgumentException.class,
                    () -> StatementTemplate.compile("GET {{ inputs.k }}", StatementDialect.REDIS, ENV));
        }

        @Test
        void oneStatementPerTemplate() throws Exception {
            for (StatementDialect d : List.of(POSTGRES, MYSQL, SQLITE)) {
                failsWith("SELECT 1; SELECT 2", d, "holds one SQL statement", "column 9");
                failsWith("DELETE FROM t WHERE id = {{ inputs.id }};\nDROP TABLE t", d, "holds one SQL statement",
                        "line 1, column 41");
                failsWith("SELECT 1;/* c */ x", d, "holds one SQL statement");
                // a final ';' (also repeated, or followed by comments) just ends the statement
                assertEquals("SELECT 1", sql("SELECT 1;", d));
                assertEquals("SELECT 1 -- done\n", sql("SELECT 1;; -- done\n", d));
                assertEquals("SELECT 1 /* end */", sql("SELECT 1; /* end */", d));
                // ';' inside literals, identifiers and comments is not the end of anything
                assertEquals("SELECT ';' -- ; x\n", sql("SELECT ';' -- ; x\n", d));
            }
            assertEquals("CREATE FUNCTION f() RETURNS int AS $$ SELECT 1; SELECT 2 $$ LANGUAGE sql",
                    sql("CREATE FUNCTION f() RETURNS int AS $$ SELECT 1; SELECT 2 $$ LANGUAGE sql;", POSTGRES));
            assertEquals("SELECT \"a;b\" FROM t", sql("SELECT \"a;b\" FROM t;", POSTGRES));
            assertEquals("SELECT 1 # ; x\n", sql("SELECT 1; # ; x\n", MYSQL));
            // MySQL runs what is inside /*! ... */, and '--' needs a space after it to be a comment there
            failsWith("SELECT 1 /*! ; DROP TABLE t */", MYSQL, "holds one SQL statement");
            failsWith("SELECT 1; --1", MYSQL, "holds one SQL statement");
            assertEquals("SELECT 1 /*! FOR UPDATE */", sql("SELECT 1 /*! FOR UPDATE; */", MYSQL));
            failsWith("SELECT 1; #x", POSTGRES, "holds one SQL statement");
        }

        @Test
        void markerOffsetsPointAtEachMarker() throws Exception {
            for (StatementDialect d : List.of(POSTGRES, MYSQL, SQLITE)) {
                CompiledStatement s = StatementTemplate.compile(
                        "SELECT {{ inputs.a }}0 FROM t WHERE b LIKE '%{{ inputs.b }}_{{ inputs.c }}' AND d = '{{ inputs.d }}'",
                        d, ENV);
                assertEquals(4, s.markerOffsets().size(), d.name());
                for (int i = 0; i < 4; i++) {
                    String marker = d == POSTGRES ? "$" + (i + 1) : "?";
                    assertTrue(s.text().startsWith(marker, s.markerOffsets().get(i)), d + " marker " + i + " in " + s.text());
                }
            }
            assertEquals(List.of(), StatementTemplate.compile("SELECT 1", POSTGRES, ENV).markerOffsets());
        }

        @Test
        void emptyTemplateIsEmpty() throws Exception {
            assertEquals("", sql("", SQLITE));
        }
    }
}

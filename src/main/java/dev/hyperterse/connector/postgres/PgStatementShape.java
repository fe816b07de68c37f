package dev.hyperterse.connector.postgres;

import dev.hyperterse.connector.sql.SqlText;

import java.util.List;
import java.util.Set;

/**
 * What PostgreSQL made of a statement: the text to prepare and the type of each parameter.
 *
 * @param text      the statement, with a {@code ::text} cast on each parameter whose type the
 *                  server cannot infer ({@code {{ inputs.x }} IS NULL}); its result columns are
 *                  the ones the tool describes
 * @param typeOids  each parameter's type as the server inferred it; null when the statement
 *                  cannot be described (DDL, CALL), and values are then bound as they are
 * @param typeNames the same types as PostgreSQL names them, for messages
 * @param counts    whether the driver's row count means rows written or read (PostgreSQL's
 *                  client reads a number out of every command tag, {@code CREATE TABLE} included);
 *                  known from the statement's first keyword, once
 * @param reads     whether the statement only reads ({@code SELECT}, {@code VALUES}, {@code TABLE},
 *                  {@code SHOW}), so running it again changes nothing; a {@code WITH} may write
 * @param writesRows whether it may write and return rows ({@code INSERT}, {@code UPDATE},
 *                  {@code DELETE}, {@code MERGE} with {@code RETURNING}, or a {@code WITH})
 * @param runText   what is prepared and run: {@code text}, or {@code text} returning its
 *                  {@code numeric} columns as text ({@link PgNumericText})
 * @param decimalText the positions of the result columns {@code runText} returns as decimal text
 */
record PgStatementShape(String text, List<Integer> typeOids, List<String> typeNames, boolean counts, boolean reads,
                        boolean writesRows, String runText, Set<Integer> decimalText) {
    /** Statements whose command tag carries a row count; others (DDL) affect no rows. */
    private static final Set<String> COUNTING = Set.of("INSERT", "UPDATE", "DELETE", "MERGE", "WITH", "COPY", "SELECT");
    private static final Set<String> READING = Set.of("SELECT", "VALUES", "TABLE", "SHOW");
    private static final Set<String> WRITING_ROWS = Set.of("INSERT", "UPDATE", "DELETE", "MERGE", "WITH");

    PgStatementShape {
        typeOids = typeOids == null ? null : List.copyOf(typeOids);
        typeNames = typeNames == null ? null : List.copyOf(typeNames);
        decimalText = Set.copyOf(decimalText);
    }

    PgStatementShape(String text, List<Integer> typeOids, List<String> typeNames) {
        this(text, typeOids, typeNames, COUNTING.contains(SqlText.leadingKeyword(text)),
                READING.contains(SqlText.leadingKeyword(text)), WRITING_ROWS.contains(SqlText.leadingKeyword(text)),
                text, Set.of());
    }

    /** The same statement, run as {@code runText}, which returns the columns at {@code decimalText} as text. */
    PgStatementShape runAs(String runText, Set<Integer> decimalText) {
        return new PgStatementShape(text, typeOids, typeNames, counts, reads, writesRows, runText, decimalText);
    }

    static PgStatementShape untyped(String text) {
        return new PgStatementShape(text, null, null);
    }

    boolean typed() {
        return typeOids != null;
    }
}

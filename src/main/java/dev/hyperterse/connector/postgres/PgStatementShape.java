package dev.hyperterse.connector.postgres;

import java.util.List;

/**
 * What PostgreSQL made of a statement: the text to prepare and the type of each parameter.
 *
 * @param text      the statement, with a {@code ::text} cast on each parameter whose type the
 *                  server cannot infer ({@code {{ inputs.x }} IS NULL})
 * @param typeOids  each parameter's type as the server inferred it; null when the statement
 *                  cannot be described (DDL, CALL), and values are then bound as they are
 * @param typeNames the same types as PostgreSQL names them, for messages
 */
record PgStatementShape(String text, List<Integer> typeOids, List<String> typeNames) {
    PgStatementShape {
        typeOids = typeOids == null ? null : List.copyOf(typeOids);
        typeNames = typeNames == null ? null : List.copyOf(typeNames);
    }

    static PgStatementShape untyped(String text) {
        return new PgStatementShape(text, null, null);
    }

    boolean typed() {
        return typeOids != null;
    }
}

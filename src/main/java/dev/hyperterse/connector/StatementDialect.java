package dev.hyperterse.connector;

/** How a statement template becomes a prepared statement for one family of databases. */
public enum StatementDialect {
    /** {@code $1, $2 …}; literal concatenation with {@code ||}. */
    POSTGRES,
    /** {@code ?}; literal concatenation with {@code CONCAT(…)}; backslash escapes in literals. */
    MYSQL,
    /** {@code ?}; literal concatenation with {@code ||}. */
    SQLITE,
    /** A command split on whitespace; each placeholder-bearing word is one argument. */
    REDIS,
    /** A JSON database command parsed once; each placeholder is one BSON value, never JSON text. */
    MONGODB
}

package dev.hyperterse.connector;

/**
 * A statement template that cannot be compiled. The message says what is wrong and where;
 * {@link #line()} and {@link #column()} (1-based, within the statement text as written) let the
 * project compiler turn the position into {@code file:line}.
 */
public final class StatementException extends Exception {
    private static final long serialVersionUID = 1L;

    private final int line;
    private final int column;

    public StatementException(String problem, int line, int column) {
        super(problem + " (line " + line + ", column " + column + " of the statement)");
        this.line = line;
        this.column = column;
    }

    /** 1-based line within the statement. */
    public int line() {
        return line;
    }

    /** 1-based column within the line. */
    public int column() {
        return column;
    }
}

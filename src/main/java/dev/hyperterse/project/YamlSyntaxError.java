package dev.hyperterse.project;

import org.yaml.snakeyaml.error.Mark;
import org.yaml.snakeyaml.error.MarkedYAMLException;

/** Where and why SnakeYAML could not read a file, in the same words for project and operator files. */
public final class YamlSyntaxError {
    /** How every such message starts. */
    public static final String PREFIX = "YAML syntax error";

    private YamlSyntaxError() {
    }

    /** The line (from 1) of the problem, else of its context, else 1. */
    public static int line(MarkedYAMLException e) {
        Mark mark = mark(e);
        return mark == null ? 1 : mark.getLine() + 1;
    }

    /** {@code YAML syntax error at line L, column C: reason}. */
    public static String message(MarkedYAMLException e) {
        Mark mark = mark(e);
        int column = mark == null ? 1 : mark.getColumn() + 1;
        String reason = e.getProblem() != null ? e.getProblem() : e.getMessage();
        return PREFIX + " at line " + line(e) + ", column " + column + ": " + reason;
    }

    private static Mark mark(MarkedYAMLException e) {
        return e.getProblemMark() != null ? e.getProblemMark() : e.getContextMark();
    }
}

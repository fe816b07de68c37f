package dev.hyperterse.connector;

import java.util.List;

/**
 * A statement ready to prepare: {@code text} holds bind markers in the dialect's style (for
 * Redis, the command words), and {@code parameters} names the value bound at each marker, in
 * order. Values never become part of {@code text}.
 *
 * @param markerOffsets where each parameter's marker starts in {@code text}, in parameter order, so
 *                      a connector can annotate a marker (PostgreSQL: a cast where the server cannot
 *                      infer a parameter's type) without lexing the SQL again; empty when unknown
 */
public record CompiledStatement(StatementDialect dialect, String text, List<Parameter> parameters,
                                List<Integer> markerOffsets) {
    public CompiledStatement {
        parameters = List.copyOf(parameters);
        markerOffsets = List.copyOf(markerOffsets);
        if (!markerOffsets.isEmpty() && markerOffsets.size() != parameters.size()) {
            throw new IllegalArgumentException(markerOffsets.size() + " marker offsets for "
                    + parameters.size() + " parameters");
        }
    }

    /** A statement whose marker positions are not known. */
    public CompiledStatement(StatementDialect dialect, String text, List<Parameter> parameters) {
        this(dialect, text, parameters, List.of());
    }

    /** Where a bind value comes from: a tool input or a claim of the caller's token. */
    public record Parameter(Source source, String name) {
    }

    public enum Source { INPUT, CLAIM }
}

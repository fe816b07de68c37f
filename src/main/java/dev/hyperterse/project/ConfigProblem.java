package dev.hyperterse.project;

import dev.hyperterse.model.SourceLocation;

/** One configuration error, printed as {@code file:line: message}. */
public record ConfigProblem(SourceLocation location, String message) implements Comparable<ConfigProblem> {

    @Override
    public String toString() {
        return location + ": " + message;
    }

    @Override
    public int compareTo(ConfigProblem o) {
        int c = String.valueOf(location.file()).compareTo(String.valueOf(o.location.file()));
        return c != 0 ? c : Integer.compare(location.line(), o.location.line());
    }
}

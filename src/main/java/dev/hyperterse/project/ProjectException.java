package dev.hyperterse.project;

import java.util.List;
import java.util.stream.Collectors;

/** Every problem found while compiling a project, reported together. */
public final class ProjectException extends Exception {
    private static final long serialVersionUID = 1L;
    private final transient List<ConfigProblem> problems;

    public ProjectException(List<ConfigProblem> problems) {
        super(problems.size() + (problems.size() == 1 ? " configuration error" : " configuration errors") + ":\n"
                + problems.stream().map(p -> "  " + p).collect(Collectors.joining("\n")));
        this.problems = List.copyOf(problems);
    }

    public List<ConfigProblem> problems() {
        return problems;
    }
}

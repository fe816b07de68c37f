package dev.hyperterse.project;

import java.util.List;
import java.util.Optional;
import java.util.stream.Collectors;

/** Every problem found while compiling a project, reported together. */
public final class ProjectException extends Exception {
    private static final long serialVersionUID = 1L;
    private final transient List<ConfigProblem> problems;
    private final transient Project partial;

    public ProjectException(List<ConfigProblem> problems) {
        this(problems, null);
    }

    /** @param partial what could be read despite the problems, or null; see {@link #partial()} */
    public ProjectException(List<ConfigProblem> problems, Project partial) {
        super(problems.size() + (problems.size() == 1 ? " configuration error" : " configuration errors") + ":\n"
                + problems.stream().map(p -> "  " + p).collect(Collectors.joining("\n")));
        this.problems = List.copyOf(problems);
        this.partial = partial;
    }

    /**
     * The root config, adapters and tools as far as they could be read, when the root config
     * was readable: NOT a checked project, never to be served, only to look for further
     * problems in one run (the scripts its tools name, which the compiler does not load).
     */
    public Optional<Project> partial() {
        return Optional.ofNullable(partial);
    }

    public List<ConfigProblem> problems() {
        return problems;
    }
}

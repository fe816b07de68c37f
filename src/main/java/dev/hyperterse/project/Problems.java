package dev.hyperterse.project;

import dev.hyperterse.model.SourceLocation;
import org.slf4j.Logger;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.function.Consumer;

/**
 * Collects the errors of one compilation so they can all be reported together, and passes
 * warnings on at once (logged, and handed to a listener such as the {@code validate} command).
 * One instance per {@link ProjectCompiler#compile} call.
 */
final class Problems {
    private final List<ConfigProblem> errors = new ArrayList<>();
    private final Logger log;
    private final Consumer<ConfigProblem> warningListener;

    Problems(Logger log, Consumer<ConfigProblem> warningListener) {
        this.log = log;
        this.warningListener = warningListener;
    }

    void error(Path file, int line, String message) {
        errors.add(new ConfigProblem(new SourceLocation(file, line), message));
    }

    void warn(Path file, int line, String message) {
        ConfigProblem warning = new ConfigProblem(new SourceLocation(file, line), message);
        log.warn("{}", warning);
        warningListener.accept(warning);
    }

    boolean hasErrors() {
        return !errors.isEmpty();
    }

    /** Throws every error collected so far, sorted by file and line. */
    void throwIfAny() throws ProjectException {
        throwIfAny(null);
    }

    /** Like {@link #throwIfAny()}, handing on what could be read (see {@link ProjectException#partial()}). */
    void throwIfAny(Project partial) throws ProjectException {
        if (!errors.isEmpty()) {
            List<ConfigProblem> sorted = new ArrayList<>(errors);
            Collections.sort(sorted);
            throw new ProjectException(sorted, partial);
        }
    }
}

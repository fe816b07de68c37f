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
    private final boolean missingVariablesAreWarnings;
    private final java.util.Set<String> missingVariables = new java.util.TreeSet<>();
    private int missingReports;

    Problems(Logger log, Consumer<ConfigProblem> warningListener) {
        this(log, warningListener, false);
    }

    /**
     * @param missingVariablesAreWarnings true for a check without the deployment's secrets
     *                                    ({@code validate} in CI): a variable that is not set is a warning
     */
    Problems(Logger log, Consumer<ConfigProblem> warningListener, boolean missingVariablesAreWarnings) {
        this.log = log;
        this.warningListener = warningListener;
        this.missingVariablesAreWarnings = missingVariablesAreWarnings;
    }

    /** A {@code {{ env.X }}} (or an {@code env:} list item) whose variable is not set. */
    void missingVariable(Path file, int line, String variable, String message) {
        missingReports++;
        missingVariables.add(variable);
        if (missingVariablesAreWarnings) {
            warn(file, line, message + " (start needs it)");
        } else {
            error(file, line, message);
        }
    }

    /** How many uses of variables that are not set were reported so far. */
    int missingVariables() {
        return missingReports;
    }

    /** The names of the variables that are not set but are used. */
    java.util.Set<String> missingVariableNames() {
        return java.util.Collections.unmodifiableSet(missingVariables);
    }

    boolean missingVariablesAreWarnings() {
        return missingVariablesAreWarnings;
    }

    void error(Path file, int line, String message) {
        errors.add(new ConfigProblem(new SourceLocation(file, line), message));
    }

    void warn(Path file, int line, String message) {
        warn(new SourceLocation(file, line), message);
    }

    void warn(SourceLocation at, String message) {
        ConfigProblem warning = new ConfigProblem(at, message);
        log.warn("{}", warning);
        warningListener.accept(warning);
    }

    /**
     * Something worth knowing that needs no change, such as a Hyperterse setting this server has no
     * use for: logged at info, never counted as a warning.
     */
    void note(Path file, int line, String message) {
        log.info("{}", new ConfigProblem(new SourceLocation(file, line), message));
    }

    boolean hasErrors() {
        return !errors.isEmpty();
    }

    int errorCount() {
        return errors.size();
    }

    /** The errors collected so far, sorted by file and line. */
    List<ConfigProblem> errors() {
        List<ConfigProblem> sorted = new ArrayList<>(errors);
        Collections.sort(sorted);
        return sorted;
    }

    /** Throws every error collected so far, sorted by file and line. */
    void throwIfAny() throws ProjectException {
        throwIfAny(null);
    }

    /** Like {@link #throwIfAny()}, handing on what could be read (see {@link ProjectException#partial()}). */
    void throwIfAny(Project partial) throws ProjectException {
        if (!errors.isEmpty()) {
            throw new ProjectException(errors(), partial);
        }
    }
}

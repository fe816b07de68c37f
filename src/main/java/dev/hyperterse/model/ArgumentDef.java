package dev.hyperterse.model;

import java.util.List;

/**
 * One argument of a prompt or a resource template ({@code arguments: {<name>: {...}}}).
 * Completion candidates come from the static {@code completion} list, or from a statement run
 * as the derived tool {@code completionTool} (null when there is none).
 *
 * @param defaultValue a prompt argument's {@code default}: the text rendered when a caller leaves
 *                     the argument out; null when it has none (it renders as empty text then)
 */
public record ArgumentDef(String name, String title, String description, boolean required, List<String> completion,
                          String completionTool, SourceLocation location, String defaultValue) {
    public ArgumentDef {
        completion = List.copyOf(completion);
    }

    public ArgumentDef(String name, String title, String description, boolean required, List<String> completion,
                       String completionTool, SourceLocation location) {
        this(name, title, description, required, completion, completionTool, location, null);
    }
}

package dev.hyperterse.model;

import java.util.List;

/**
 * One argument of a prompt or a resource template ({@code arguments: {<name>: {...}}}).
 * Completion candidates come from the static {@code completion} list, or from a statement run
 * as the derived tool {@code completionTool} (null when there is none).
 */
public record ArgumentDef(String name, String title, String description, boolean required, List<String> completion,
                          String completionTool, SourceLocation location) {
    public ArgumentDef {
        completion = List.copyOf(completion);
    }
}

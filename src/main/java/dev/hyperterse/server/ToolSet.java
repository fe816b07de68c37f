package dev.hyperterse.server;

import dev.hyperterse.model.InputDef;
import dev.hyperterse.model.ToolDef;
import dev.hyperterse.project.Project;

import java.util.ArrayList;
import java.util.List;
import java.util.Objects;

/**
 * What a client can learn about a project's tools (through {@code search} and {@code execute}):
 * names, descriptions, statements, inputs and who may call them; not where they are written.
 * Clients are told {@code notifications/tools/list_changed} after a reload only when this changed
 * ({@link ProjectChanges}).
 */
final class ToolSet {
    private ToolSet() {
    }

    static List<Object> of(Project project) {
        List<Object> out = new ArrayList<>();
        for (ToolDef t : project.tools().values()) {
            List<Object> inputs = new ArrayList<>();
            for (InputDef i : t.inputs()) {
                inputs.add(List.of(i.name(), i.type().keyword(), Objects.toString(i.description(), ""), i.optional(),
                        i.hasDefault(), Objects.toString(i.defaultValue(), "")));
            }
            out.add(List.of(t.name(), Objects.toString(t.description(), ""), Objects.toString(t.statement(), ""),
                    t.handler() != null, inputs,
                    t.auth() == null ? List.of() : List.of(t.auth().plugin(), t.auth().policy())));
        }
        return out;
    }
}

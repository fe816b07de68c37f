package dev.hyperterse.project;

import dev.hyperterse.model.AdapterDef;
import dev.hyperterse.model.ProjectConfig;
import dev.hyperterse.model.ToolDef;

import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * An immutable, fully checked project: the root config, adapters and tools in file order, and
 * the environment the project was compiled against (real variables over the first env file found).
 */
public record Project(ProjectConfig config, Map<String, AdapterDef> adapters, Map<String, ToolDef> tools,
                      Map<String, String> environment) {
    public Project {
        adapters = Collections.unmodifiableMap(new LinkedHashMap<>(adapters));
        tools = Collections.unmodifiableMap(new LinkedHashMap<>(tools));
        environment = Map.copyOf(environment);
    }
}

package dev.hyperterse.project;

import dev.hyperterse.model.AdapterDef;
import dev.hyperterse.model.ProjectConfig;
import dev.hyperterse.model.PromptDef;
import dev.hyperterse.model.ResourceDef;
import dev.hyperterse.model.ToolDef;

import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * An immutable, fully checked project: the root config, adapters and tools in file order, and
 * the environment the project was compiled against (real variables over the first env file found).
 *
 * @param prompts      prompts by name, in file order
 * @param resources    concrete resources and templates, in file order
 * @param derivedTools the statements of statement-backed resource templates and database
 *                     completions, as tools the pipeline runs; named {@code resource:…} and
 *                     {@code completion:…}, so they never clash with a tool, and neither searched nor executable
 */
public record Project(ProjectConfig config, Map<String, AdapterDef> adapters, Map<String, ToolDef> tools,
                      Map<String, String> environment, Map<String, PromptDef> prompts, List<ResourceDef> resources,
                      Map<String, ToolDef> derivedTools) {
    public Project {
        adapters = Collections.unmodifiableMap(new LinkedHashMap<>(adapters));
        tools = Collections.unmodifiableMap(new LinkedHashMap<>(tools));
        environment = Map.copyOf(environment);
        prompts = Collections.unmodifiableMap(new LinkedHashMap<>(prompts));
        resources = List.copyOf(resources);
        derivedTools = Collections.unmodifiableMap(new LinkedHashMap<>(derivedTools));
    }

    /** A project with tools only. */
    public Project(ProjectConfig config, Map<String, AdapterDef> adapters, Map<String, ToolDef> tools,
                   Map<String, String> environment) {
        this(config, adapters, tools, environment, Map.of(), List.of(), Map.of());
    }

    /** Tools and derived tools together: everything that needs a statement compiled or an auth check. */
    public Map<String, ToolDef> allTools() {
        if (derivedTools.isEmpty()) {
            return tools;
        }
        Map<String, ToolDef> all = new LinkedHashMap<>(tools);
        all.putAll(derivedTools);
        return Collections.unmodifiableMap(all);
    }
}

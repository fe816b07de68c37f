package dev.hyperterse.server;

import dev.hyperterse.mcp.McpEndpoint;
import dev.hyperterse.model.PromptDef;
import dev.hyperterse.model.ResourceDef;
import dev.hyperterse.project.Project;
import io.vertx.core.json.JsonObject;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.util.ArrayList;
import java.util.List;
import java.util.Objects;

/**
 * What sessions learn when a reload changed a project's prompts or resources:
 * {@code notifications/prompts/list_changed} and {@code notifications/resources/list_changed}
 * when what a list shows changed, and {@code notifications/resources/updated} to the sessions
 * subscribed to a concrete resource whose content changed.
 */
final class PromptsAndResources {
    private static final Logger LOG = LoggerFactory.getLogger(PromptsAndResources.class);

    private PromptsAndResources() {
    }

    static void notifyChanges(McpEndpoint endpoint, Project before, Project after) {
        if (!prompts(before).equals(prompts(after))) {
            int told = endpoint.notifyAll(notification("notifications/prompts/list_changed"));
            LOG.debug("the project's prompts changed: told {} sessions", told);
        }
        if (!resources(before).equals(resources(after))) {
            int told = endpoint.notifyAll(notification("notifications/resources/list_changed"));
            LOG.debug("the project's resources changed: told {} sessions", told);
        }
        for (ResourceDef was : before.resources()) {
            if (was.isTemplate()) {
                continue;
            }
            ResourceDef now = after.resources().stream().filter(r -> !r.isTemplate() && r.uri().equals(was.uri()))
                    .findFirst().orElse(null);
            if (now != null && !was.sameContent(now)) {
                endpoint.resourceUpdated(was.uri()).onSuccess(told ->
                        LOG.debug("resource {} changed: told {} subscribed sessions", was.uri(), told));
            }
        }
    }

    private static JsonObject notification(String method) {
        return new JsonObject().put("jsonrpc", "2.0").put("method", method);
    }

    /** What prompts/list shows (and who may see it). */
    private static List<Object> prompts(Project project) {
        List<Object> out = new ArrayList<>();
        for (PromptDef p : project.prompts().values()) {
            out.add(List.of(p.name(), Objects.toString(p.title(), ""), Objects.toString(p.description(), ""),
                    p.arguments(), Objects.toString(p.auth(), "")));
        }
        return out;
    }

    /** What resources/list and resources/templates/list show. */
    private static List<Object> resources(Project project) {
        List<Object> out = new ArrayList<>();
        for (ResourceDef r : project.resources()) {
            out.add(List.of(r.address(), r.name(), Objects.toString(r.title(), ""),
                    Objects.toString(r.description(), ""), r.mimeType(), Objects.toString(r.auth(), "")));
        }
        return out;
    }
}

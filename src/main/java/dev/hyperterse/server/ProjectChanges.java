package dev.hyperterse.server;

import dev.hyperterse.mcp.session.McpEndpoint;
import dev.hyperterse.model.PromptDef;
import dev.hyperterse.model.ResourceDef;
import dev.hyperterse.project.Project;
import io.vertx.core.json.JsonObject;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import java.util.Objects;

/**
 * What this node's clients are told when the project changes:
 * {@code notifications/tools/list_changed}, {@code notifications/prompts/list_changed} and
 * {@code notifications/resources/list_changed} when what a list shows changed, and
 * {@code notifications/resources/updated} to those watching a concrete resource whose content
 * changed. Each is said once per change, whichever way the node learns of it: its own reload, or
 * (in a cluster) another node's ({@link ClusterReloads} carries what that node now serves).
 * What clients were last told is kept as fingerprints (SHA-256) of each list and of each
 * resource's content, the form in which other nodes send it, so a change this node already
 * announced, because it reloaded the same files itself or heard of it first, is not announced again.
 */
final class ProjectChanges {
    private static final Logger LOG = LoggerFactory.getLogger(ProjectChanges.class);
    private static final String TOOLS = "tools";
    private static final String PROMPTS = "prompts";
    private static final String RESOURCES = "resources";
    private static final String CONTENTS = "contents";

    private final McpEndpoint endpoint;
    // guarded by this
    private JsonObject told;
    private JsonObject serving;

    /** @param start the project this node started with (what its clients know) */
    ProjectChanges(McpEndpoint endpoint, Project start) {
        this.endpoint = endpoint;
        this.told = fingerprints(start);
        this.serving = told;
    }

    /**
     * This node now serves {@code now} (a reload was swapped in): its clients are told what changed
     * since they were last told.
     */
    void served(Project now) {
        JsonObject f = fingerprints(now);
        synchronized (this) {
            serving = f;
        }
        announce(f);
    }

    /** The fingerprints of the project this node serves, for the other nodes. */
    synchronized JsonObject serving() {
        return serving.copy();
    }

    /**
     * Another node serves a project with these fingerprints: this node's clients are told what
     * differs from what they were last told (nothing, when this node reloaded the same change).
     */
    void heard(JsonObject fingerprints) {
        if (fingerprints != null && fingerprints.getValue(CONTENTS) instanceof JsonObject) {
            announce(fingerprints);
        }
    }

    private void announce(JsonObject now) {
        JsonObject before;
        synchronized (this) {
            before = told;
            told = now;
        }
        if (!Objects.equals(before.getString(TOOLS), now.getString(TOOLS))) {
            int sent = endpoint.notifyAll(notification("notifications/tools/list_changed"));
            LOG.debug("the project's tools changed: told {}", sent);
        }
        if (!Objects.equals(before.getString(PROMPTS), now.getString(PROMPTS))) {
            int sent = endpoint.notifyAll(notification("notifications/prompts/list_changed"));
            LOG.debug("the project's prompts changed: told {}", sent);
        }
        if (!Objects.equals(before.getString(RESOURCES), now.getString(RESOURCES))) {
            int sent = endpoint.notifyAll(notification("notifications/resources/list_changed"));
            LOG.debug("the project's resources changed: told {}", sent);
        }
        JsonObject was = before.getJsonObject(CONTENTS);
        JsonObject is = now.getJsonObject(CONTENTS);
        for (String uri : was.fieldNames()) {
            Object content = is.getValue(uri);
            if (content != null && !content.equals(was.getValue(uri))) {
                endpoint.resourceUpdated(uri).onSuccess(sent ->
                        LOG.debug("resource {} changed: told {} watching", uri, sent));
            }
        }
    }

    private static JsonObject notification(String method) {
        return new JsonObject().put("jsonrpc", "2.0").put("method", method);
    }

    /** What each list shows, and each concrete resource's content, as fingerprints. */
    static JsonObject fingerprints(Project project) {
        JsonObject contents = new JsonObject();
        for (ResourceDef r : project.resources()) {
            if (!r.isTemplate()) {
                contents.put(r.uri(), digest(r.source().name(), Objects.toString(r.mimeType(), ""),
                        Objects.toString(r.content(), ""), r.bytes()));
            }
        }
        return new JsonObject()
                .put(TOOLS, digest(String.valueOf(ToolSet.of(project))))
                .put(PROMPTS, digest(String.valueOf(prompts(project))))
                .put(RESOURCES, digest(String.valueOf(resources(project))))
                .put(CONTENTS, contents);
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

    private static String digest(String text) {
        return digest(text, "", "", null);
    }

    /** Parts are length-prefixed, so two different splits never hash alike. */
    private static String digest(String a, String b, String c, byte[] bytes) {
        try {
            MessageDigest sha = MessageDigest.getInstance("SHA-256");
            for (String part : new String[]{a, b, c}) {
                byte[] utf8 = part.getBytes(StandardCharsets.UTF_8);
                sha.update((utf8.length + ":").getBytes(StandardCharsets.US_ASCII));
                sha.update(utf8);
            }
            if (bytes != null) {
                sha.update((bytes.length + ":").getBytes(StandardCharsets.US_ASCII));
                sha.update(bytes);
            }
            return HexFormat.of().formatHex(sha.digest());
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("SHA-256 is part of every JDK", e);
        }
    }
}

package dev.hyperterse.mcp;

import dev.hyperterse.model.ArgumentText;
import dev.hyperterse.model.CallerText;
import dev.hyperterse.model.ConfinedPaths;
import dev.hyperterse.model.MimeTypes;
import dev.hyperterse.model.ResourceDef;
import dev.hyperterse.pipeline.CallContext;
import dev.hyperterse.pipeline.ToolResult;
import io.vertx.core.Future;
import io.vertx.core.Vertx;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;
import java.util.Map;
import java.util.function.Supplier;

/**
 * {@code resources/list}, {@code resources/templates/list}, {@code resources/read} and
 * {@code resources/subscribe}/{@code unsubscribe}, over one backend and one caller, whatever
 * protocol generation asked. Text or base64 {@code blob} by the resource's mime type; a template's
 * file is read on a worker and only from the template's own folder; a statement-backed template
 * runs through the pipeline like a tool.
 */
public final class ResourceMethods {
    /** Code the MCP specification gives "resource not found". */
    static final int RESOURCE_NOT_FOUND = -32002;
    /** The most URIs one session may watch: subscriptions are kept with the session (in the cluster's store). */
    static final int MAX_SUBSCRIPTIONS = 100;
    /**
     * The longest URI a session may watch. A template matches URIs as long as the body limit, and
     * each watched URI is kept with the session until it ends: 100 of 4 MB each held 400 MB.
     */
    static final int MAX_SUBSCRIBED_URI_CHARS = 2048;
    static final long MAX_TEMPLATE_FILE_BYTES = 10L << 20;

    private final Vertx vertx;
    private final McpExtensions extensions;

    /** @param extensions the resources and templates added next to the project's */
    ResourceMethods(Vertx vertx, McpExtensions extensions) {
        this.vertx = vertx;
        this.extensions = extensions;
    }

    boolean offered(McpBackend backend) {
        return extensions.hasResources() || !backend.resources().isEmpty();
    }

    Future<JsonObject> list(McpBackend backend, CallContext context, boolean templates) {
        List<ResourceDef> of = new ArrayList<>();
        for (ResourceDef r : backend.resources()) {
            if (r.isTemplate() == templates) {
                of.add(r);
            }
        }
        return McpResults.visible(backend.pipeline(), of, ResourceDef::accessKey, context).map(visible -> {
            JsonArray out = new JsonArray();
            for (ResourceDef r : visible) {
                JsonObject d = templates ? new JsonObject().put("uriTemplate", r.uriTemplate().text())
                        : new JsonObject().put("uri", r.uri());
                d.put("name", r.name());
                if (r.title() != null) {
                    d.put("title", r.title());
                }
                if (r.description() != null) {
                    d.put("description", r.description());
                }
                d.put("mimeType", r.mimeType());
                if (r.source() == ResourceDef.Source.FILE) {
                    d.put("size", r.bytes().length);
                } else if (r.source() == ResourceDef.Source.TEXT) {
                    d.put("size", r.content().getBytes(StandardCharsets.UTF_8).length);
                }
                out.add(d);
            }
            extensions.resourceDefinitions(templates).forEach(out::add);
            return new JsonObject().put(templates ? "resourceTemplates" : "resources", out);
        });
    }

    Future<JsonObject> read(McpBackend backend, JsonObject params, CallContext context) {
        String uri = McpResults.requiredString(params, "resources/read", "uri");
        Target target = find(backend, uri);
        Future<JsonObject> content;
        if (target == null) {
            McpExtensions.Resource added = extensions.resource(uri);
            if (added == null) {
                throw notFound(uri);
            }
            content = added.read().read(uri);
        } else {
            ResourceDef r = target.resource();
            content = McpResults.admitted(backend.pipeline(), r.accessKey(), context, () -> notFound(uri))
                    .compose(caller -> content(backend, r, uri, target.values(), context));
        }
        return content.map(c -> new JsonObject().put("contents", new JsonArray().add(c)));
    }

    /**
     * Where a caller's resource subscriptions are kept: a session's watch list, in the session
     * store, so whichever node of a cluster holds the session's stream hears of them.
     */
    public interface Subscriptions {
        /**
         * Adds ({@code on}) or removes {@code uri}; adding to a list that already holds
         * {@code max} other URIs fails with {@code full}'s exception.
         */
        Future<Void> change(String uri, boolean on, int max, Supplier<McpException> full);
    }

    /**
     * {@code resources/subscribe} ({@code on}) or {@code resources/unsubscribe} of the URI in
     * {@code params}, kept in {@code held} (null when the caller has no session: refused).
     */
    public Future<JsonObject> subscribe(McpBackend backend, JsonObject params, boolean on, Subscriptions held,
                                        CallContext context) {
        String method = on ? "resources/subscribe" : "resources/unsubscribe";
        String uri = McpResults.requiredString(params, method, "uri");
        if (held == null) {
            throw new McpException(JsonRpc.INVALID_REQUEST, method + ": subscriptions belong to a session; "
                    + "initialize one first");
        }
        if (on && uri.length() > MAX_SUBSCRIBED_URI_CHARS) {
            throw new McpException(JsonRpc.INVALID_PARAMS, method + ": 'uri' is too long (at most "
                    + MAX_SUBSCRIBED_URI_CHARS + " characters)");
        }
        Target target = on ? find(backend, uri) : null;
        if (on && target == null && extensions.resource(uri) == null) {
            throw notFound(uri);
        }
        // watching a resource is reading it as it changes: the caller must pass its auth as for a read
        Future<?> admitted = target == null ? Future.succeededFuture()
                : McpResults.admitted(backend.pipeline(), target.resource().accessKey(), context, () -> notFound(uri));
        return admitted.compose(x -> held.change(uri, on, MAX_SUBSCRIPTIONS, () -> new McpException(JsonRpc.INVALID_PARAMS,
                method + ": a session may watch at most " + MAX_SUBSCRIPTIONS + " resources")))
                .map(x -> new JsonObject());
    }

    /**
     * Of the URIs a {@code subscriptions/listen} stream asks to watch ({@code resourceSubscriptions}),
     * those naming a concrete resource of the project that the caller may read (watching a resource
     * is reading it as it changes); the others are left out of what the stream is acknowledged.
     */
    Future<List<String>> watchable(McpBackend backend, List<String> uris, CallContext context) {
        List<Future<String>> each = new ArrayList<>();
        for (String uri : uris) {
            Target target = find(backend, uri);
            if (target != null && !target.resource().isTemplate()) {
                each.add(McpResults.admitted(backend.pipeline(), target.resource().accessKey(), context,
                        () -> notFound(uri)).map(x -> uri).otherwise((String) null));
            }
        }
        return Future.join(each).transform(x -> Future.succeededFuture(
                each.stream().map(Future::result).filter(java.util.Objects::nonNull).toList()));
    }

    private record Target(ResourceDef resource, Map<String, String> values) {
    }

    /** The concrete resource with this URI, else the first template that matches it. */
    private static Target find(McpBackend backend, String uri) {
        for (ResourceDef r : backend.resources()) {
            if (!r.isTemplate() && r.uri().equals(uri)) {
                return new Target(r, Map.of());
            }
        }
        for (ResourceDef r : backend.resources()) {
            if (r.isTemplate()) {
                Map<String, String> values = r.uriTemplate().match(uri);
                if (values != null) {
                    return new Target(r, values);
                }
            }
        }
        return null;
    }

    private Future<JsonObject> content(McpBackend backend, ResourceDef r, String uri, Map<String, String> values,
                                       CallContext context) {
        switch (r.source()) {
            case TEXT:
                return Future.succeededFuture(text(uri, r.mimeType(), r.content()));
            case FILE:
                // a large file's text or base64 is made on a worker
                return LargeJson.sizedBy(r.bytes(), () -> bytes(uri, r.mimeType(), r.bytes()));
            case TEXT_TEMPLATE:
                return Future.succeededFuture(text(uri, r.mimeType(), ArgumentText.render(r.content(), values)));
            case FILE_TEMPLATE:
                return templateFile(r, uri, ArgumentText.render(r.content(), values));
            default:
                return backend.pipeline().executeDerived(r.tool(), new JsonObject(new java.util.LinkedHashMap<>(values)),
                        context).compose(result -> LargeJson.sizedBy(result.rows(), () -> rows(r, uri, result)));
        }
    }

    /** A template's file: on a worker, from the template's own folder only. */
    private Future<JsonObject> templateFile(ResourceDef r, String uri, String path) {
        return vertx.executeBlocking(() -> {
            Path file;
            try {
                file = ConfinedPaths.resolve(r.folder(), "its resource folder", r.folder(), path);
            } catch (IllegalArgumentException e) {
                boolean missing = e.getMessage().endsWith("does not exist");
                throw missing ? notFound(uri) : new McpException(JsonRpc.INVALID_PARAMS,
                        "resources/read: " + CallerText.cut(uri) + ": " + e.getMessage());
            }
            if (!servable(r.folder(), path, file)) {
                throw notFound(uri);
            }
            try {
                if (Files.size(file) > MAX_TEMPLATE_FILE_BYTES) {
                    throw new McpException(JsonRpc.SERVER_ERROR, "resources/read: the file is larger than "
                            + (MAX_TEMPLATE_FILE_BYTES >> 20) + " MB");
                }
                return bytes(uri, r.mimeType(), Files.readAllBytes(file));
            } catch (IOException e) {
                throw new McpException(JsonRpc.SERVER_ERROR, "resources/read: the file cannot be read");
            }
        }, false);
    }

    /**
     * Whether a template may serve {@code file} (real path), asked for as {@code written}: never a
     * hidden file or one inside a hidden folder ({@code .env}, {@code .git/config}), nor a
     * {@code .terse} file, by the name written or the real one (a link named {@code x.txt} to
     * {@code .env} included), as the scripts' module file system refuses them.
     */
    static boolean servable(Path folder, String written, Path file) {
        for (String segment : written.split("[/\\\\]")) {
            if (!segment.isEmpty() && !segment.equals(".") && !segment.equals("..")
                    && ConfinedPaths.isHiddenOrConfig(segment)) {
                return false;
            }
        }
        Path relative;
        try {
            relative = folder.toRealPath().relativize(file);
        } catch (IOException e) {
            return false;
        }
        for (Path name : relative) {
            if (ConfinedPaths.isHiddenOrConfig(name.toString())) {
                return false;
            }
        }
        return true;
    }

    /** A statement's rows as JSON; no row means there is no such resource. */
    private static JsonObject rows(ResourceDef r, String uri, ToolResult result) {
        if (result.rows().isEmpty()) {
            throw notFound(uri);
        }
        JsonObject content = text(uri, r.mimeType(), result.rows().encode());
        if (result.truncated()) {
            content.put("_meta", new JsonObject().put("dev.hyperterse/truncated", true)
                    .put("dev.hyperterse/rowLimit", result.rowLimit()));
        }
        return content;
    }

    private static JsonObject text(String uri, String mimeType, String text) {
        return new JsonObject().put("uri", uri).put("mimeType", mimeType).put("text", text);
    }

    private static JsonObject bytes(String uri, String mimeType, byte[] bytes) {
        if (MimeTypes.isText(mimeType)) {
            return text(uri, mimeType, new String(bytes, StandardCharsets.UTF_8));
        }
        return new JsonObject().put("uri", uri).put("mimeType", mimeType)
                .put("blob", Base64.getEncoder().encodeToString(bytes));
    }

    static McpException notFound(String uri) {
        return new McpException(RESOURCE_NOT_FOUND, "Resource not found: " + CallerText.cut(uri));
    }
}

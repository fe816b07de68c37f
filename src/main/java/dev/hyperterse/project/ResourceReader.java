package dev.hyperterse.project;

import dev.hyperterse.model.ArgumentDef;
import dev.hyperterse.model.ArgumentText;
import dev.hyperterse.model.AuthDef;
import dev.hyperterse.model.ConfinedPaths;
import dev.hyperterse.model.MimeTypes;
import dev.hyperterse.model.ResourceDef;
import dev.hyperterse.model.SourceLocation;
import dev.hyperterse.model.UriTemplate;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Pattern;

/**
 * Reads one resource folder's {@code config.terse}: a concrete resource ({@code uri} and exactly
 * one of {@code text} or {@code file}) or a template ({@code uri_template} and exactly one of
 * {@code text_template}, {@code file_template} or {@code use} + {@code statement}). Unknown keys
 * are errors; files may not leave the project.
 */
final class ResourceReader {
    static final List<String> KEYS = List.of("name", "title", "description", "mime_type", "uri", "text", "file",
            "uri_template", "text_template", "file_template", "use", "statement", "arguments", "auth");
    private static final List<String> CONCRETE_SOURCES = List.of("text", "file");
    private static final List<String> TEMPLATE_SOURCES = List.of("text_template", "file_template", "statement");
    private static final Pattern SCHEME = Pattern.compile("[A-Za-z][A-Za-z0-9+.-]*:.*", Pattern.DOTALL);
    /** A resource file is held in memory by every snapshot: larger ones belong behind a statement. */
    static final long MAX_FILE_BYTES = 10L << 20;

    private final RootConfigReader.RootConfig root;
    private final AuthBlocks authBlocks;
    private final ArgumentReader arguments;
    private final DerivedStatements statements;
    private final Problems problems;

    ResourceReader(RootConfigReader.RootConfig root, AuthBlocks authBlocks, ArgumentReader arguments,
                   DerivedStatements statements, Problems problems) {
        this.root = root;
        this.authBlocks = authBlocks;
        this.arguments = arguments;
        this.statements = statements;
        this.problems = problems;
    }

    /** @return the resource, or null when it is too broken to describe (reported) */
    ResourceDef read(Path configFile, Path shown, YamlNode node) {
        ConfigMap cfg = ConfigMap.top(node, shown, problems);
        cfg.rejectUnknownKeys(KEYS);
        Path folder = configFile.getParent();
        String written = cfg.string("name");
        String name = written != null && !written.isEmpty() ? written : folder.getFileName().toString();
        String owner = "resource '" + name + "'";
        String title = cfg.string("title");
        String description = cfg.string("description");
        String mimeType = cfg.string("mime_type");
        if (mimeType != null && !mimeType.matches("[\\w.+-]+/[\\w.+-]+(\\s*;.*)?")) {
            cfg.error("mime_type", "'mime_type' of " + owner + " must look like type/subtype, got \"" + mimeType + "\"");
            mimeType = null;
        }

        AuthDef auth = root.defaultAuth();
        boolean authBroken = root.defaultAuthBroken();
        ConfigMap authMap = cfg.map("auth");
        if (authMap != null) {
            auth = authBlocks.read(authMap, owner, folder);
            authBroken = auth == null;
        } else if (cfg.has("auth")) {
            auth = null;
            authBroken = true;
        }

        String uri = cfg.string("uri");
        String templateText = cfg.string("uri_template");
        boolean hasUri = cfg.has("uri");
        boolean hasTemplate = cfg.has("uri_template");
        if (hasUri == hasTemplate) {
            problems.error(shown, hasUri ? cfg.location("uri_template").line() : 1, owner + (hasUri
                    ? " sets both 'uri' and 'uri_template'; a resource is either concrete or a template"
                    : " sets neither 'uri' (a concrete resource) nor 'uri_template' (a template)"));
            return null;
        }
        SourceLocation at = SourceLocation.of(shown);
        if (hasUri) {
            if (uri == null) {
                return null;
            }
            if (!SCHEME.matcher(uri).matches() || uri.chars().anyMatch(Character::isWhitespace)) {
                cfg.error("uri", "'uri' of " + owner + " must be an absolute URI such as docs://release-notes, got \""
                        + uri + "\"");
            } else if (uri.indexOf('{') >= 0 || uri.indexOf('}') >= 0) {
                // no client can ask for docs://pages/{id} meaningfully: braces are not URI characters
                String with = cfg.has("text") ? "'text_template'" : cfg.has("file") ? "'file_template'"
                        : "'text_template', 'file_template' or 'statement'";
                cfg.error("uri", "'uri' of " + owner + " holds '{' or '}', which a URI cannot (RFC 3986); "
                        + "a resource addressed with variables is a template: use 'uri_template' (" + uri + ") with "
                        + with);
            }
            onlyOne(cfg, owner, CONCRETE_SOURCES, TEMPLATE_SOURCES, "a concrete resource ('uri')");
            if (cfg.has("arguments")) {
                cfg.error("arguments", "'arguments' of " + owner + " describe the variables of a 'uri_template'; "
                        + "a resource with 'uri' has none");
            }
            if (cfg.has("text")) {
                String text = cfg.string("text");
                return text == null ? null : new ResourceDef(name, title, description,
                        mimeType == null ? "text/plain" : mimeType, uri, null, ResourceDef.Source.TEXT, text, null,
                        folder, null, List.of(), auth, at);
            }
            String file = cfg.string("file");
            if (file == null) {
                return null;
            }
            byte[] bytes = readFile(cfg, owner, folder, file);
            return bytes == null ? null : new ResourceDef(name, title, description,
                    mimeType == null ? MimeTypes.ofFileName(file) : mimeType, uri, null, ResourceDef.Source.FILE, null,
                    bytes, folder, null, List.of(), auth, at);
        }

        if (templateText == null) {
            return null;
        }
        UriTemplate template;
        try {
            if (!SCHEME.matcher(templateText).matches()) {
                throw new IllegalArgumentException("it must start with a scheme such as shop://");
            }
            template = UriTemplate.parse(templateText);
        } catch (IllegalArgumentException e) {
            cfg.error("uri_template", "'uri_template' of " + owner + " is not an RFC 6570 level 1 template: "
                    + e.getMessage());
            return null;
        }
        List<String> variables = template.variables();
        String source = onlyOne(cfg, owner, TEMPLATE_SOURCES, CONCRETE_SOURCES, "a template ('uri_template')");
        if (cfg.has("use") && !"statement".equals(source) && source != null) {
            cfg.error("use", "'use' of " + owner + " goes with 'statement', not with '" + source + "'");
        }
        List<ArgumentDef> args = arguments.read(cfg, owner, "completion:resource:" + templateText, auth, authBroken);
        for (ArgumentDef a : args) {
            if (!variables.contains(a.name())) {
                problems.error(a.location().file(), a.location().line(), "argument '" + a.name() + "' of " + owner
                        + " is not a variable of its uri_template " + templateText
                        + Suggestions.didYouMean(a.name(), variables));
            }
        }
        if (source == null) {
            return null;
        }
        switch (source) {
            case "statement": {
                String tool = statements.read(cfg, "resource:" + templateText, owner, variables, auth, authBroken);
                return tool == null ? null : new ResourceDef(name, title, description,
                        mimeType == null ? "application/json" : mimeType, null, template, ResourceDef.Source.STATEMENT,
                        null, null, folder, tool, args, auth, at);
            }
            case "text_template": {
                String text = cfg.string("text_template");
                if (text == null || !placeholders(cfg, "text_template", text, variables, owner)) {
                    return null;
                }
                return new ResourceDef(name, title, description, mimeType == null ? "text/plain" : mimeType, null,
                        template, ResourceDef.Source.TEXT_TEMPLATE, text, null, folder, null, args, auth, at);
            }
            default: {
                String path = cfg.string("file_template");
                if (path == null || !placeholders(cfg, "file_template", path, variables, owner)) {
                    return null;
                }
                if (ArgumentText.names(path).isEmpty()) {
                    cfg.error("file_template", "'file_template' of " + owner + " uses no {{ variable }}; a single "
                            + "file is a concrete resource ('uri' and 'file')");
                    return null;
                }
                // a template reads files of its own folder only: whatever a caller puts in a
                // variable, and whatever the literal part says
                String literal = ArgumentText.render(path, java.util.Map.of());
                Path probe = folder.resolve(literal.isEmpty() ? "x" : literal).normalize();
                if (Path.of(literal).isAbsolute() || !probe.startsWith(folder.normalize())) {
                    cfg.error("file_template", "'file_template' of " + owner + " leaves its resource folder");
                    return null;
                }
                return new ResourceDef(name, title, description,
                        mimeType == null ? MimeTypes.ofFileName(literal) : mimeType, null, template,
                        ResourceDef.Source.FILE_TEMPLATE, path, null, folder, null, args, auth, at);
            }
        }
    }

    /**
     * Exactly one of {@code allowed} must be set, and none of {@code others}.
     *
     * @return the one set, or null (reported)
     */
    private String onlyOne(ConfigMap cfg, String owner, List<String> allowed, List<String> others, String kind) {
        for (String other : others) {
            if (cfg.has(other)) {
                cfg.error(other, "'" + other + "' does not belong to " + kind + "; " + owner + " takes exactly one of "
                        + String.join(", ", allowed));
            }
        }
        List<String> set = new ArrayList<>();
        for (String key : allowed) {
            if (cfg.has(key)) {
                set.add(key);
            }
        }
        if (set.size() == 1) {
            return set.get(0);
        }
        if (set.isEmpty()) {
            problems.error(cfg.file(), 1, owner + " has no content: set exactly one of " + String.join(", ", allowed));
        } else {
            cfg.error(set.get(1), owner + " sets " + String.join(" and ", set) + "; set exactly one of "
                    + String.join(", ", allowed));
        }
        return null;
    }

    private boolean placeholders(ConfigMap cfg, String key, String text, List<String> variables, String owner) {
        boolean ok = true;
        for (String bad : ArgumentText.malformed(text)) {
            cfg.error(key, "malformed placeholder '" + bad + "' in '" + key + "' of " + owner + "; expected {{ variable }}");
            ok = false;
        }
        for (String ref : ArgumentText.names(text)) {
            if (!variables.contains(ref)) {
                cfg.error(key, "'" + key + "' of " + owner + " uses {{ " + ref + " }}, which is not a variable of its "
                        + "uri_template" + Suggestions.didYouMean(ref, variables));
                ok = false;
            }
        }
        return ok;
    }

    private byte[] readFile(ConfigMap cfg, String owner, Path folder, String written) {
        Path file;
        try {
            file = ConfinedPaths.resolve(root.config().folders().projectDir(), "the project folder", folder, written);
        } catch (IllegalArgumentException e) {
            cfg.error("file", "'file' of " + owner + ": " + e.getMessage());
            return null;
        }
        try {
            if (Files.size(file) > MAX_FILE_BYTES) {
                cfg.error("file", "'file' of " + owner + " is larger than " + (MAX_FILE_BYTES >> 20) + " MB");
                return null;
            }
            return Files.readAllBytes(file);
        } catch (IOException e) {
            cfg.error("file", "'file' of " + owner + " cannot be read: " + e.getMessage());
            return null;
        }
    }
}

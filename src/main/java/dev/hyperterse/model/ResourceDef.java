package dev.hyperterse.model;

import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;

/**
 * A compiled resource ({@code app/resources/**}{@code /config.terse}): a concrete one with a
 * {@code uri}, or a template with a {@code uri_template}, and where its content comes from.
 *
 * @param content    {@link Source#TEXT}: the text; {@link Source#FILE}: null (see {@code bytes});
 *                   {@link Source#TEXT_TEMPLATE} and {@link Source#FILE_TEMPLATE}: the template
 *                   with {@code {{ variable }}} placeholders; {@link Source#STATEMENT}: null
 * @param bytes      {@link Source#FILE}: the file's content, read when the project compiled
 * @param folder     the config's folder, which template file paths resolve against
 * @param tool       {@link Source#STATEMENT}: the derived tool that runs the statement
 * @param auth       the resource's own auth block, else the root one; null when anyone may read it
 */
public record ResourceDef(String name, String title, String description, String mimeType, String uri,
                          UriTemplate uriTemplate, Source source, String content, byte[] bytes, Path folder,
                          String tool, List<ArgumentDef> arguments, AuthDef auth, SourceLocation location) {

    /** Where a read's content comes from. */
    public enum Source { TEXT, FILE, TEXT_TEMPLATE, FILE_TEMPLATE, STATEMENT }

    public ResourceDef {
        arguments = List.copyOf(arguments);
    }

    public boolean isTemplate() {
        return uriTemplate != null;
    }

    /** The URI or URI template as written: unique within a project. */
    public String address() {
        return isTemplate() ? uriTemplate.text() : uri;
    }

    /** The key its auth check is known by; a statement-backed template's derived tool has the same name. */
    public String accessKey() {
        return "resource:" + address();
    }

    public ArgumentDef argument(String argumentName) {
        for (ArgumentDef a : arguments) {
            if (a.name().equals(argumentName)) {
                return a;
            }
        }
        return null;
    }

    /** Content equality, so a reload can tell which concrete resources changed. */
    public boolean sameContent(ResourceDef other) {
        return other != null && source == other.source && java.util.Objects.equals(content, other.content)
                && Arrays.equals(bytes, other.bytes) && java.util.Objects.equals(mimeType, other.mimeType);
    }
}

package dev.hyperterse.project;

import dev.hyperterse.model.ArgumentDef;
import dev.hyperterse.model.AuthDef;
import dev.hyperterse.model.SourceLocation;

import java.util.ArrayList;
import java.util.List;
import java.util.regex.Pattern;

/**
 * Reads {@code arguments: {<name>: {title, description, required, completion}}} (and, for a
 * prompt, {@code default}) of a prompt or
 * a resource template. {@code completion} is a list of values, or {@code {use, statement}}: a
 * statement returning candidates for {@code {{ args.prefix }}}.
 */
final class ArgumentReader {
    static final List<String> KEYS = List.of("title", "description", "required", "completion");
    /** A prompt's argument may also have a {@code default}; a resource template's comes from its URI. */
    static final List<String> PROMPT_KEYS = List.of("title", "description", "required", "default", "completion");
    private static final List<String> COMPLETION_KEYS = List.of("use", "statement");
    private static final Pattern NAME = Pattern.compile("[A-Za-z_][A-Za-z0-9_-]*");

    private final DerivedStatements statements;
    private final Problems problems;

    ArgumentReader(DerivedStatements statements, Problems problems) {
        this.statements = statements;
        this.problems = problems;
    }

    /**
     * @param owner        how messages name the prompt or resource ({@code prompt 'x'})
     * @param completionPrefix the derived completion tools' name prefix ({@code completion:prompt:x})
     */
    List<ArgumentDef> read(ConfigMap cfg, String owner, String completionPrefix, AuthDef auth, boolean authBroken) {
        return read(cfg, owner, completionPrefix, auth, authBroken, false);
    }

    /** @param defaults whether an argument may have a {@code default} (a prompt's) */
    List<ArgumentDef> read(ConfigMap cfg, String owner, String completionPrefix, AuthDef auth, boolean authBroken,
                           boolean defaults) {
        List<ArgumentDef> out = new ArrayList<>();
        ConfigMap arguments = cfg.map("arguments");
        if (arguments == null) {
            return out;
        }
        for (YamlNode.Entry entry : arguments.entries()) {
            String name = entry.key();
            SourceLocation at = new SourceLocation(arguments.file(), entry.keyLine());
            if (!NAME.matcher(name).matches()) {
                problems.error(at.file(), at.line(), "argument name '" + name + "' of " + owner + " is invalid: use "
                        + "letters, digits, '_' and '-', starting with a letter or '_'");
                continue;
            }
            YamlNode value = entry.value();
            if (value instanceof YamlNode.Scalar && ((YamlNode.Scalar) value).isNull()) {
                out.add(new ArgumentDef(name, null, null, false, List.of(), null, at));
                continue;
            }
            if (!(value instanceof YamlNode.Mapping)) {
                cfg.errorAt(value, "'arguments." + name + "' must be a mapping (title, description, required, "
                        + "completion), got " + YamlNode.describe(value));
                continue;
            }
            ConfigMap arg = arguments.child(entry);
            arg.rejectUnknownKeys(defaults ? PROMPT_KEYS : KEYS);
            String title = arg.string("title");
            String description = arg.string("description");
            Boolean required = arg.bool("required");
            String defaultValue = defaults ? defaultText(arg) : null;
            if (defaultValue != null && Boolean.TRUE.equals(required)) {
                arg.error("default", "argument '" + name + "' of " + owner + " is required, so its 'default' is never "
                        + "used: remove one of the two");
            }
            List<String> values = List.of();
            String completionTool = null;
            YamlNode completion = arg.node("completion");
            if (completion instanceof YamlNode.Sequence) {
                List<String> list = arg.stringList("completion");
                values = list == null ? List.of() : list;
            } else if (completion instanceof YamlNode.Mapping) {
                ConfigMap source = arg.map("completion");
                source.rejectUnknownKeys(COMPLETION_KEYS);
                completionTool = statements.read(source, completionPrefix + ":" + name,
                        owner + " argument '" + name + "' completion", List.of("prefix"), auth, authBroken);
            } else if (completion != null) {
                arg.error("completion", "'" + arg.name("completion") + "' must be a list of values or "
                        + "{use, statement}, got " + YamlNode.describe(completion));
            }
            out.add(new ArgumentDef(name, title, description, required != null && required, values, completionTool, at,
                    defaultValue));
        }
        return out;
    }

    /**
     * A {@code default} as the text it renders as: a string, or a number or boolean as written
     * (prompt arguments are text); null when there is none, or it is a list or mapping (reported).
     */
    private static String defaultText(ConfigMap arg) {
        YamlNode node = arg.node("default");
        if (node == null || node instanceof YamlNode.Scalar && ((YamlNode.Scalar) node).isNull()) {
            return null;
        }
        if (!(node instanceof YamlNode.Scalar)) {
            arg.error("default", "'" + arg.name("default") + "' must be a text (prompt arguments are text), got "
                    + YamlNode.describe(node));
            return null;
        }
        return ((YamlNode.Scalar) node).text();
    }
}

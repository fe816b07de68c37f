package dev.hyperterse.project;

import dev.hyperterse.model.ArgumentDef;
import dev.hyperterse.model.ArgumentText;
import dev.hyperterse.model.AuthDef;
import dev.hyperterse.model.PromptDef;
import dev.hyperterse.model.SourceLocation;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.regex.Pattern;

/** Reads one prompt file ({@code app/prompts/**}{@code /*.terse}); unknown keys are errors. */
final class PromptReader {
    static final List<String> KEYS = List.of("name", "title", "description", "arguments", "messages", "auth");
    private static final List<String> MESSAGE_KEYS = List.of("role", "text");
    static final Pattern NAME = Pattern.compile("[a-z][a-z0-9_-]*");

    /** A prompt as read, with where its name is written, for duplicate names. */
    record ReadPrompt(PromptDef prompt, SourceLocation nameLocation) {
    }

    private final RootConfigReader.RootConfig root;
    private final AuthBlocks authBlocks;
    private final ArgumentReader arguments;
    private final Problems problems;

    PromptReader(RootConfigReader.RootConfig root, AuthBlocks authBlocks, ArgumentReader arguments, Problems problems) {
        this.root = root;
        this.authBlocks = authBlocks;
        this.arguments = arguments;
        this.problems = problems;
    }

    ReadPrompt read(Path file, Path shown, YamlNode node) {
        ConfigMap cfg = ConfigMap.top(node, shown, problems);
        cfg.rejectUnknownKeys(KEYS);
        String fileName = file.getFileName().toString();
        String stem = fileName.substring(0, fileName.lastIndexOf('.'));
        String written = cfg.string("name");
        boolean explicit = written != null && !written.isEmpty();
        String name = explicit ? written : stem;
        SourceLocation nameLocation = explicit ? cfg.location("name") : SourceLocation.of(shown);
        if (!NAME.matcher(name).matches()) {
            problems.error(nameLocation.file(), nameLocation.line(), "prompt name '" + name + "'"
                    + (explicit ? "" : " (from the file name)") + " is invalid: use lower-case letters, digits, "
                    + "'_' and '-', starting with a letter" + (explicit ? "" : "; rename the file or set 'name'"));
        }
        String owner = "prompt '" + name + "'";
        String title = cfg.string("title");
        String description = cfg.string("description");

        AuthDef auth = root.defaultAuth();
        boolean authBroken = root.defaultAuthBroken();
        ConfigMap authMap = cfg.map("auth");
        if (authMap != null) {
            auth = authBlocks.read(authMap, owner, file.getParent());
            authBroken = auth == null;
        } else if (cfg.has("auth")) {
            auth = null;
            authBroken = true;
        }
        List<ArgumentDef> args = arguments.read(cfg, owner, "completion:prompt:" + name, auth, authBroken, true);
        List<String> declared = new ArrayList<>();
        args.forEach(a -> declared.add(a.name()));

        List<PromptDef.Message> messages = new ArrayList<>();
        Set<String> used = new HashSet<>();
        YamlNode.Sequence list = cfg.list("messages", "messages ({role, text})");
        if (list == null && !cfg.has("messages")) {
            cfg.missing("messages", " (at least one {role, text})");
        } else if (list != null && list.items().isEmpty()) {
            cfg.error("messages", "'messages' must hold at least one message");
        }
        if (list != null) {
            for (YamlNode item : list.items()) {
                if (!(item instanceof YamlNode.Mapping)) {
                    cfg.errorAt(item, "each of 'messages' must be a mapping with 'role' and 'text', got "
                            + YamlNode.describe(item));
                    continue;
                }
                ConfigMap message = ConfigMap.top(item, shown, problems);
                message.rejectUnknownKeys(MESSAGE_KEYS);
                String role = message.string("role");
                String text = message.string("text");
                if (role == null && !message.has("role")) {
                    problems.error(shown, item.line(), "a message of " + owner + " has no 'role' (one of "
                            + String.join(", ", PromptDef.ROLES) + ")");
                } else if (role != null && !PromptDef.ROLES.contains(role)) {
                    message.error("role", "message role '" + role + "' of " + owner + " must be one of "
                            + String.join(", ", PromptDef.ROLES) + Suggestions.didYouMean(role, PromptDef.ROLES));
                }
                if (text == null && !message.has("text")) {
                    problems.error(shown, item.line(), "a message of " + owner + " has no 'text'");
                }
                if (text != null) {
                    for (String bad : ArgumentText.malformed(text)) {
                        message.error("text", "malformed placeholder '" + bad + "' in a message of " + owner
                                + "; expected {{ argument }}");
                    }
                    for (String ref : ArgumentText.names(text)) {
                        used.add(ref);
                        if (!declared.contains(ref)) {
                            message.error("text", "a message of " + owner + " uses {{ " + ref + " }} but the prompt "
                                    + "declares no argument '" + ref + "'" + Suggestions.didYouMean(ref, declared));
                        }
                    }
                }
                if (role != null && text != null) {
                    messages.add(new PromptDef.Message(role, text));
                }
            }
        }
        for (ArgumentDef a : args) {
            if (!used.contains(a.name())) {
                problems.warn(a.location().file(), a.location().line(), "argument '" + a.name() + "' of " + owner
                        + " is declared but no message uses it");
            }
        }
        return new ReadPrompt(new PromptDef(name, title, description, args, messages, auth, SourceLocation.of(shown)),
                nameLocation);
    }
}

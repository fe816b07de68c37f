package dev.hyperterse.model;

import java.util.List;

/**
 * A compiled prompt ({@code app/prompts/**}{@code /*.terse}): its arguments in declaration order and
 * its messages, whose text holds {@code {{ argument }}} placeholders.
 *
 * @param auth the prompt's own auth block, else the root one; null when anyone may use it
 */
public record PromptDef(String name, String title, String description, List<ArgumentDef> arguments,
                        List<Message> messages, AuthDef auth, SourceLocation location) {
    /** Roles a prompt file may give a message; MCP itself knows only user and assistant. */
    public static final List<String> ROLES = List.of("user", "assistant", "system");

    public PromptDef {
        arguments = List.copyOf(arguments);
        messages = List.copyOf(messages);
    }

    /** One message as written: a role of {@link #ROLES} and its text. */
    public record Message(String role, String text) {
    }

    /** The key its auth check is known by (tools use their name; prompts cannot clash with them). */
    public String accessKey() {
        return "prompt:" + name;
    }

    public ArgumentDef argument(String argumentName) {
        for (ArgumentDef a : arguments) {
            if (a.name().equals(argumentName)) {
                return a;
            }
        }
        return null;
    }
}

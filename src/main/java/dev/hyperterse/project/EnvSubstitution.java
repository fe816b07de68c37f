package dev.hyperterse.project;

import java.util.LinkedHashSet;
import java.util.Map;
import java.util.Set;
import java.util.function.Consumer;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Resolves {@code {{ env.NAME }}} against the project's environment (real variables over the
 * env file). Used at compile time for values that are operator-controlled text: connection
 * strings, adapter options, auth policies and the server port.
 */
final class EnvSubstitution {
    static final Pattern ENV_PLACEHOLDER = Pattern.compile("\\{\\{\\s*env\\.(\\w+)\\s*\\}\\}");

    private final Map<String, String> environment;

    EnvSubstitution(Map<String, String> environment) {
        this.environment = environment;
    }

    /**
     * @param onMissing called once per variable that is referenced but not set; its placeholder
     *                  is left in the text
     */
    String resolve(String text, Consumer<String> onMissing) {
        Matcher m = ENV_PLACEHOLDER.matcher(text);
        StringBuilder out = new StringBuilder();
        Set<String> reported = new LinkedHashSet<>();
        while (m.find()) {
            String value = environment.get(m.group(1));
            if (value == null) {
                if (reported.add(m.group(1))) {
                    onMissing.accept(m.group(1));
                }
                value = m.group();
            }
            m.appendReplacement(out, Matcher.quoteReplacement(value));
        }
        m.appendTail(out);
        return out.toString();
    }

    boolean isSet(String name) {
        return environment.containsKey(name);
    }
}

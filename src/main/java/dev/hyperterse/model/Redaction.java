package dev.hyperterse.model;

import java.util.regex.Pattern;

/** Removes secrets from text that may reach logs, traces or callers. */
public final class Redaction {
    public static final String MASK = "***";

    private static final Pattern URL_PASSWORD = Pattern.compile("(?<=://)([^:/@\\s]*):([^@/\\s]*)@");
    private static final Pattern KV_PASSWORD =
            Pattern.compile("(?i)\\b(password|passwd|pwd|secret|token|api[_-]?key)\\s*=\\s*('[^']*'|\"[^\"]*\"|[^\\s;&]*)");
    /** Words that make a name (an input, a query parameter, a header, a key) hold a secret. */
    private static final String SECRET_WORDS = "password|passwd|passphrase|pwd|secret|token|api[_-]?key|apikey"
            + "|private[_-]?key|access[_-]?key|credential|signature|authorization|cookie";
    private static final Pattern SENSITIVE_NAME = Pattern.compile("(?i)(" + SECRET_WORDS + ")");
    /** A name that is, or ends in, the word "key": {@code key}, {@code license_key}, {@code sshKey} (not {@code monkey}). */
    private static final Pattern KEY_NAME = Pattern.compile("(?:^|[_.-])(?i:key)$|^(?i:key)(?:[_.-]|$)|[a-z0-9]Key$");
    /** {@code name=value}, {@code name: value}, {@code "name":"value"} where the name holds a secret word. */
    private static final Pattern KV_SECRET = Pattern.compile("(?i)([\\w.-]*(?:" + SECRET_WORDS + ")[\\w.-]*)"
            + "([\"']?\\s*[=:]\\s*)((?:bearer|basic)\\s+)?(\"[^\"]*\"|'[^']*'|[^\\s;&,}\"']+)");
    private static final Pattern AUTH_SCHEME = Pattern.compile("(?i)\\b(bearer|basic)\\s+[A-Za-z0-9._~+/=-]{8,}");

    private Redaction() {
    }

    /** {@code postgres://u:secret@h/db} → {@code postgres://u:***@h/db}; {@code password=x} → {@code password=***}. */
    public static String connectionString(String text) {
        if (text == null) {
            return null;
        }
        String out = URL_PASSWORD.matcher(text).replaceAll("$1:***@");
        return KV_PASSWORD.matcher(out).replaceAll("$1=***");
    }

    /**
     * Everything {@link #connectionString} removes, plus the values of any {@code name=value} or
     * {@code name: value} whose name looks secret ({@code access_token=…}, {@code "apiKey":"…"})
     * and bearer or basic credentials. For free text on its way to a log line or a span.
     */
    public static String secrets(String text) {
        if (text == null || text.isEmpty()) {
            return text;
        }
        String out = URL_PASSWORD.matcher(text).replaceAll("$1:***@");
        out = KV_SECRET.matcher(out).replaceAll(m -> java.util.regex.Matcher.quoteReplacement(
                m.group(1) + m.group(2) + (m.group(3) == null ? "" : m.group(3)) + quoted(m.group(4))));
        return AUTH_SCHEME.matcher(out).replaceAll("$1 ***");
    }

    /** True when a name (an input, a header, a parameter) suggests its value is a secret. */
    public static boolean sensitiveName(String name) {
        return name != null && (SENSITIVE_NAME.matcher(name).find() || KEY_NAME.matcher(name).find());
    }

    private static String quoted(String value) {
        if (value.length() >= 2 && (value.charAt(0) == '"' || value.charAt(0) == '\'')) {
            return value.charAt(0) + MASK + value.charAt(0);
        }
        return MASK;
    }
}

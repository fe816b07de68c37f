package dev.hyperterse.project;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.regex.Pattern;

/** Tool names and paths, derived from a tool's folder exactly as Hyperterse does. */
final class ToolNames {
    /** What a tool name may be: it travels in JSON, logs and metric labels. */
    static final Pattern VALID_NAME = Pattern.compile("[A-Za-z0-9_][A-Za-z0-9_.-]{0,127}");
    private static final Pattern SEPARATORS = Pattern.compile("[^a-zA-Z0-9_-]+");

    private ToolNames() {
    }

    /**
     * The tool folder relative to the tools folder with {@code /} separators ({@code users/get});
     * {@code index} for a {@code config.terse} directly in the tools folder. Scripts get this as
     * {@code payload.tool}.
     */
    static String toolPath(Path toolsDir, Path toolDir) {
        Path relative = toolsDir.toAbsolutePath().normalize().relativize(toolDir.toAbsolutePath().normalize());
        if (relative.toString().isEmpty()) {
            return "index";
        }
        List<String> parts = new ArrayList<>();
        for (Path part : relative) {
            parts.add(part.toString());
        }
        return String.join("/", parts);
    }

    /** {@code users/Get User} → {@code users-get-user}: each segment normalised, joined by {@code -}. */
    static String fromToolPath(String toolPath) {
        List<String> out = new ArrayList<>();
        for (String segment : toolPath.split("/", -1)) {
            out.add(segment(segment));
        }
        return String.join("-", out);
    }

    private static String segment(String raw) {
        String s = SEPARATORS.matcher(raw.strip()).replaceAll("-");
        int start = 0;
        int end = s.length();
        while (start < end && (s.charAt(start) == '-' || s.charAt(start) == '_')) {
            start++;
        }
        while (end > start && (s.charAt(end - 1) == '-' || s.charAt(end - 1) == '_')) {
            end--;
        }
        s = s.substring(start, end);
        return s.isEmpty() ? "index" : s.toLowerCase(Locale.ROOT);
    }

    static boolean isValid(String name) {
        return VALID_NAME.matcher(name).matches();
    }
}

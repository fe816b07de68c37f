package dev.hyperterse.project;

import dev.hyperterse.model.AdapterCheck;
import dev.hyperterse.model.AdapterDef;
import dev.hyperterse.model.Durations;
import dev.hyperterse.model.SourceLocation;

import java.math.BigDecimal;
import java.nio.file.Path;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;

/** Reads one adapter file ({@code app/adapters/*.terse}); unknown keys are errors. */
final class AdapterReader {
    static final List<String> KEYS = List.of("name", "connector", "connection_string", "options");
    /** Options the compiler itself reads (they override the root {@code tools.*} limits). */
    static final String ROW_LIMIT_OPTION = "row_limit";
    static final String STATEMENT_TIMEOUT_OPTION = "statement_timeout";

    /** An adapter and where its name was decided (the {@code name} key, or line 0 for the file stem). */
    record ReadAdapter(AdapterDef adapter, SourceLocation nameLocation) {
    }

    private final Set<String> connectorTypes;
    private final EnvSubstitution env;
    private final Problems problems;
    private final AdapterCheck check;
    private final Path projectDir;

    /** @param check reads an adapter as its connector will; run on adapters with no problem of their own */
    AdapterReader(Set<String> connectorTypes, EnvSubstitution env, Problems problems, AdapterCheck check,
                  Path projectDir) {
        this.connectorTypes = connectorTypes;
        this.env = env;
        this.problems = problems;
        this.check = check;
        this.projectDir = projectDir;
    }

    ReadAdapter read(Path file, Path shown, YamlNode root) {
        int problemsBefore = problems.errorCount();
        int missingBefore = problems.missingVariables();
        ConfigMap cfg = ConfigMap.top(root, shown, problems);
        cfg.rejectUnknownKeys(KEYS);

        String name = cfg.string("name");
        SourceLocation nameLocation = cfg.location("name");
        if (name == null || name.isBlank()) {
            String fileName = file.getFileName().toString();
            name = fileName.substring(0, fileName.lastIndexOf('.'));
            nameLocation = SourceLocation.of(shown);
        } else {
            name = name.strip();
        }
        String owner = "adapter '" + name + "'";

        String written = cfg.requiredString("connector", " (one of " + known() + ")");
        String connector = null;
        if (written != null) {
            connector = written.strip().toLowerCase(Locale.ROOT);
            if (!connectorTypes.contains(connector)) {
                cfg.error("connector", "unknown connector '" + written + "' in " + owner
                        + Suggestions.didYouMean(connector, new TreeSet<>(connectorTypes))
                        + "; known connectors: " + known());
            }
        }

        String connection = cfg.requiredString("connection_string", "");
        if (connection != null) {
            SourceLocation at = cfg.location("connection_string");
            connection = env.resolve(connection, variable -> problems.missingVariable(at.file(), at.line(), variable, owner
                    + ": environment variable '" + variable + "' is not set (used in 'connection_string')"));
        }

        Map<String, String> options = new LinkedHashMap<>();
        ConfigMap optionsMap = cfg.map("options");
        if (optionsMap != null) {
            for (YamlNode.Entry entry : optionsMap.entries()) {
                String value = optionValue(entry, optionsMap, owner);
                if (value != null) {
                    options.put(entry.key(), value);
                }
            }
        }
        AdapterDef adapter = new AdapterDef(name, connector, connection, options, SourceLocation.of(shown));
        // an adapter whose variables are not all set cannot be read as it will be at start
        if (problems.errorCount() == problemsBefore && problems.missingVariables() == missingBefore) {
            checkWithConnector(adapter, cfg, optionsMap);
        }
        return new ReadAdapter(adapter, nameLocation);
    }

    /** The connector's own reading: its refusal is an error, options it does not use are warnings. */
    private void checkWithConnector(AdapterDef adapter, ConfigMap cfg, ConfigMap optionsMap) {
        try {
            for (String warning : check.check(adapter, projectDir)) {
                SourceLocation at = optionLocation(warning, cfg, optionsMap);
                problems.warn(at.file(), at.line(), warning);
            }
        } catch (IllegalArgumentException e) {
            SourceLocation at = optionLocation(e.getMessage(), cfg, optionsMap);
            problems.error(at.file(), at.line(), e.getMessage());
        }
    }

    /** The line of the option a message names ({@code option 'x'} or {@code option x}), else of the connection string. */
    private static SourceLocation optionLocation(String message, ConfigMap cfg, ConfigMap optionsMap) {
        if (optionsMap != null) {
            String lower = message.toLowerCase(Locale.ROOT);
            for (YamlNode.Entry entry : optionsMap.entries()) {
                String key = entry.key().toLowerCase(Locale.ROOT);
                if (lower.contains("option '" + key + "'") || lower.contains("option " + key + " ")) {
                    return new SourceLocation(entry.value().file(), entry.value().line());
                }
            }
        }
        return cfg.location("connection_string");
    }

    private String optionValue(YamlNode.Entry entry, ConfigMap optionsMap, String owner) {
        String key = optionsMap.name(entry.key());
        YamlNode node = entry.value();
        if (!(node instanceof YamlNode.Scalar) || ((YamlNode.Scalar) node).isNull()) {
            problems.error(node.file(), node.line(), "'" + key + "' must be a string, number or boolean, got "
                    + YamlNode.describe(node));
            return null;
        }
        Object typed = ((YamlNode.Scalar) node).value();
        String value = typed instanceof String
                ? env.resolve((String) typed, variable -> problems.missingVariable(node.file(), node.line(), variable, owner
                        + ": environment variable '" + variable + "' is not set (used in '" + key + "')"))
                : plainText(typed);
        if (entry.key().equals(ROW_LIMIT_OPTION) && rowLimit(value) == null) {
            problems.error(node.file(), node.line(), "'" + key + "' must be a positive integer, got "
                    + YamlNode.describe(node));
        }
        if (entry.key().equals(STATEMENT_TIMEOUT_OPTION) && statementTimeout(value) == null) {
            problems.error(node.file(), node.line(), "'" + key + "' must be a duration greater than zero such as "
                    + "500ms, 30s, 2m, 1h or a number of seconds, got " + YamlNode.describe(node));
        }
        return value;
    }

    /** Numbers as a reader would write them ({@code 1.5}, never {@code 1.5E0}); booleans as true/false. */
    private static String plainText(Object value) {
        if (value instanceof Double) {
            double d = (Double) value;
            if (Double.isNaN(d) || Double.isInfinite(d)) {
                return value.toString();
            }
            BigDecimal exact = BigDecimal.valueOf(d).stripTrailingZeros();
            return exact.scale() <= 0 ? exact.toBigInteger().toString() : exact.toPlainString();
        }
        return String.valueOf(value);
    }

    /** {@code options.row_limit} as the compiler reads it, or null when it is not a positive integer. */
    static Integer rowLimit(String option) {
        try {
            int value = Integer.parseInt(option.strip());
            return value > 0 ? value : null;
        } catch (NumberFormatException e) {
            return null;
        }
    }

    /** {@code options.statement_timeout}, or null when it is not a duration greater than zero. */
    static Duration statementTimeout(String option) {
        Duration d = Durations.parse(option);
        return d == null || d.isZero() ? null : d;
    }

    private String known() {
        return String.join(", ", new TreeSet<>(connectorTypes));
    }
}

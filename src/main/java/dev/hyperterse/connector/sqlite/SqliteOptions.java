package dev.hyperterse.connector.sqlite;

import dev.hyperterse.connector.AdapterOptions;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * The {@code options} of a sqlite adapter.
 *
 * @param maxConnections pool size ({@code max_connections}, default 4)
 * @param busyTimeout    how long a statement waits for another connection's lock ({@code busy_timeout}, default 5s)
 * @param journalMode    {@code journal_mode} as given (upper case), or null for the default
 *                       (WAL for writable files, SQLite's own otherwise)
 * @param readOnly       {@code read_only}: pool connections cannot write
 * @param initSql        {@code init_sql}: SQL files, relative to the project, run in order on a new database
 * @param warnings       options this connector does not use, each named as written
 */
record SqliteOptions(int maxConnections, Duration busyTimeout, String journalMode, boolean readOnly,
                     List<String> initSql, List<String> warnings) {

    static final Set<String> KNOWN = Set.of("max_connections", "busy_timeout", "journal_mode", "read_only", "init_sql");
    private static final Map<String, String> JOURNAL_MODES = Map.of("delete", "DELETE", "truncate", "TRUNCATE",
            "persist", "PERSIST", "memory", "MEMORY", "wal", "WAL", "off", "OFF");
    private static final int DEFAULT_MAX_CONNECTIONS = 4;
    private static final Duration DEFAULT_BUSY_TIMEOUT = Duration.ofSeconds(5);

    SqliteOptions {
        initSql = List.copyOf(initSql);
        warnings = List.copyOf(warnings);
    }

    static SqliteOptions parse(String adapter, Map<String, String> options) {
        AdapterOptions o = AdapterOptions.of(adapter, "sqlite", options, KNOWN);
        List<String> initSql = new ArrayList<>();
        for (String file : o.string("init_sql", "").split(",")) {
            if (!file.isBlank()) {
                initSql.add(file.trim());
            }
        }
        return new SqliteOptions(o.positiveInt("max_connections", DEFAULT_MAX_CONNECTIONS),
                o.duration("busy_timeout", DEFAULT_BUSY_TIMEOUT, true),
                o.choice("journal_mode", JOURNAL_MODES, null), o.bool("read_only", false), initSql,
                o.ignoredWarnings());
    }
}

package dev.hyperterse.connector.sqlite;

import dev.hyperterse.connector.ConnectorException;
import org.sqlite.SQLiteConfig;
import org.sqlite.SQLiteConnection;

import java.io.IOException;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.AccessDeniedException;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.FileSystemException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.UUID;

/**
 * The blocking part of connecting (file checks and {@code init_sql}); runs on a worker thread.
 *
 * <p>A new database file is built under a temporary name and renamed into place only when every
 * init file has run, so "the file exists" always means "the database was initialised": a failed
 * or interrupted first start leaves nothing behind and the next start tries again.
 */
final class SqliteSetup {
    private final String adapter;
    private final SqliteLocation location;
    private final SqliteOptions options;
    private final Path projectDir;

    /** What the pool opens: its URL, its connections' settings, and the in-memory anchor or null. */
    record Opened(String jdbcUrl, SQLiteConfig config, SQLiteConnection anchor) {
    }

    SqliteSetup(String adapter, SqliteLocation location, SqliteOptions options, Path projectDir) {
        this.adapter = adapter;
        this.location = location;
        this.options = options;
        this.projectDir = projectDir;
    }

    /** Settings of the pool's connections. */
    SQLiteConfig poolConfig() {
        SQLiteConfig config = baseConfig();
        config.setReadOnly(options.readOnly());
        String journal = options.journalMode();
        if (journal == null && !location.inMemory() && !options.readOnly()) {
            // WAL lets readers run while one connection writes, which a pool of connections needs.
            journal = "WAL";
        }
        if (journal != null) {
            config.setJournalMode(SQLiteConfig.JournalMode.valueOf(journal));
        }
        return config;
    }

    private SQLiteConfig baseConfig() {
        SQLiteConfig config = new SQLiteConfig();
        config.setBusyTimeout((int) options.busyTimeout().toMillis());
        // Declared foreign keys are enforced, as on PostgreSQL and MySQL (SQLite's default is off).
        config.enforceForeignKeys(true);
        return config;
    }

    /**
     * Prepares the database.
     *
     * @return for an in-memory database, the open connection that keeps it alive; otherwise null
     */
    SQLiteConnection prepare() {
        if (location.inMemory()) {
            SQLiteConfig config = baseConfig();
            if (options.journalMode() != null) {
                config.setJournalMode(SQLiteConfig.JournalMode.valueOf(options.journalMode()));
            }
            SQLiteConnection anchor = open(location.jdbcUrl(), config);
            try {
                runInitSql(anchor);
                return anchor;
            } catch (RuntimeException e) {
                closeQuietly(anchor);
                throw e;
            }
        }
        Path file = location.file();
        Path dir = file.getParent();
        if (Files.isDirectory(file)) {
            throw cannotOpen("it is a directory");
        }
        if (Files.exists(file)) {
            return null;
        }
        if (options.readOnly()) {
            throw cannotOpen("the file does not exist and read_only is set");
        }
        if (dir == null) {
            throw cannotOpen("it has no parent folder");
        }
        if (!Files.isDirectory(dir)) {
            // a new database may live in a folder that is not checked in (data/ is usually ignored)
            try {
                Files.createDirectories(dir);
            } catch (IOException e) {
                throw cannotOpen(folderProblem(dir, e, System.getProperty("user.name", "?")));
            }
        }
        if (!Files.isWritable(dir)) {
            throw cannotOpen(notWritable(dir, System.getProperty("user.name", "?")));
        }
        if (!options.initSql().isEmpty()) {
            createInitialised(file);
        }
        return null;
    }

    /**
     * Prepares a check that changes nothing on disk: an existing file opens read-only (and
     * immutable when no write-ahead log is beside it, since a read-only open of a WAL database
     * would leave -wal and -shm files behind); a missing one is built in memory, as
     * {@link #prepare} would build it on disk, and {@code notes} says so.
     */
    Opened prepareToCheck(java.util.function.Consumer<String> notes) {
        Path file = location.file();
        if (Files.isDirectory(file)) {
            throw cannotOpen("it is a directory");
        }
        if (Files.exists(file)) {
            boolean logBeside = Files.exists(file.resolveSibling(file.getFileName() + "-wal"));
            SQLiteConfig config = baseConfig();
            config.setReadOnly(true);
            return new Opened(location.readOnlyJdbcUrl(!logBeside), config, null);
        }
        if (options.readOnly()) {
            throw cannotOpen("the file does not exist and read_only is set");
        }
        SqliteLocation memory = SqliteLocation.newInMemory();
        SqliteSetup inMemory = new SqliteSetup(adapter, memory, options, projectDir);
        SQLiteConnection anchor = inMemory.prepare();
        notes.accept("adapter '" + adapter + "': SQLite database " + location.describe() + " does not exist yet; "
                + "start will create it" + (options.initSql().isEmpty() ? " empty"
                : " from init_sql " + String.join(", ", options.initSql()))
                + " (statements checked against a temporary copy in memory)");
        return new Opened(memory.jdbcUrl(), inMemory.poolConfig(), anchor);
    }

    private void createInitialised(Path file) {
        Path temp = file.resolveSibling("." + file.getFileName() + ".init-" + UUID.randomUUID());
        SQLiteConfig config = baseConfig();
        // The file is thrown away if anything fails, so it needs no journal on disk and no fsync
        // per statement; one fsync before the rename makes the finished file durable.
        config.setJournalMode(SQLiteConfig.JournalMode.MEMORY);
        config.setSynchronous(SQLiteConfig.SynchronousMode.OFF);
        try {
            SQLiteConnection connection = open(location.jdbcUrl(temp), config);
            try {
                runInitSql(connection);
            } finally {
                closeQuietly(connection);
            }
            try (FileChannel channel = FileChannel.open(temp, StandardOpenOption.WRITE)) {
                channel.force(true);
            }
            Files.move(temp, file, StandardCopyOption.ATOMIC_MOVE);
        } catch (IOException e) {
            throw cannotOpen("cannot create the initialised file: " + e.getMessage());
        } finally {
            try {
                Files.deleteIfExists(temp);
                Files.deleteIfExists(temp.resolveSibling(temp.getFileName() + "-journal"));
            } catch (IOException ignored) {
                // A leftover temporary file is harmless: it has a fresh name every time.
            }
        }
    }

    private void runInitSql(SQLiteConnection connection) {
        for (String name : options.initSql()) {
            Path path = projectDir.resolve(name).toAbsolutePath().normalize();
            String sql;
            try {
                sql = new String(Files.readAllBytes(path), StandardCharsets.UTF_8);
            } catch (NoSuchFileException e) {
                throw initFailed(name, "file " + path + " does not exist");
            } catch (AccessDeniedException e) {
                throw initFailed(name, "file " + path + " cannot be read (permission denied)");
            } catch (IOException e) {
                throw initFailed(name, "file " + path + " cannot be read: " + e.getMessage());
            }
            if (!sql.isEmpty() && sql.charAt(0) == '\uFEFF') {
                sql = sql.substring(1);
            }
            if (sql.isBlank()) {
                continue;
            }
            // executeUpdate hands the text to sqlite3_exec, which runs every statement in it.
            try (Statement statement = connection.createStatement()) {
                statement.executeUpdate(sql);
            } catch (SQLException e) {
                throw initFailed(name, DriverMessages.of(e));
            }
        }
    }

    private SQLiteConnection open(String url, SQLiteConfig config) {
        try {
            return (SQLiteConnection) config.createConnection(url);
        } catch (SQLException e) {
            throw cannotOpen(DriverMessages.of(e));
        }
    }

    private static void closeQuietly(SQLiteConnection connection) {
        try {
            connection.close();
        } catch (SQLException ignored) {
            // Closing after a failure; the failure is what gets reported.
        }
    }

    /**
     * Why a folder for a new database file could not be made, with the fix. The exceptions' own
     * messages are bare paths ({@code AccessDeniedException: /project/data}).
     */
    static String folderProblem(Path dir, IOException e, String user) {
        if (e instanceof AccessDeniedException) {
            return notWritable(dir, user);
        }
        if (e instanceof FileAlreadyExistsException) {
            return "cannot create the folder " + dir + ": a file of that name is in the way";
        }
        String reason = e instanceof FileSystemException fse && fse.getReason() != null ? fse.getReason()
                : e.getMessage();
        return "cannot create the folder " + dir + ": " + reason;
    }

    static String notWritable(Path dir, String user) {
        Path existing = dir;
        while (existing != null && !Files.exists(existing)) {
            existing = existing.getParent();
        }
        return "cannot create the database in " + dir + ": permission denied (the server runs as user '" + user
                + "', who cannot write to " + (existing == null ? dir : existing) + "). Give that user write access, "
                + "or create the database file beforehand; in a container with the project mounted from the host, "
                + "run as the folder's owner: docker run --user \"$(id -u):$(id -g)\" ...";
    }

    ConnectorException cannotOpen(String reason) {
        return new ConnectorException("adapter '" + adapter + "': cannot open SQLite database "
                + location.describe() + ": " + reason);
    }

    private ConnectorException initFailed(String file, String reason) {
        return new ConnectorException("adapter '" + adapter + "': init_sql " + file + " failed on SQLite database "
                + location.describe() + ": " + reason);
    }
}

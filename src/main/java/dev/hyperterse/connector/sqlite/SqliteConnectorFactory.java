package dev.hyperterse.connector.sqlite;

import dev.hyperterse.connector.Connector;
import dev.hyperterse.connector.ConnectorException;
import dev.hyperterse.connector.ConnectorFactory;
import dev.hyperterse.connector.StatementDialect;
import dev.hyperterse.model.AdapterDef;
import io.vertx.core.Future;
import io.vertx.core.Vertx;
import io.vertx.jdbcclient.JDBCPool;
import io.vertx.sqlclient.Pool;
import io.vertx.sqlclient.PoolOptions;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.function.Consumer;

/**
 * {@code connector: sqlite}: an embedded database in a file or in memory, so a project runs with
 * no database server.
 *
 * <p>{@code connection_string}: {@code sqlite:path}, {@code sqlite:///abs/path}, a {@code file:}
 * SQLite URI, {@code jdbc:sqlite:...}, a plain path, or {@code :memory:}; relative paths are
 * relative to the project folder. Options: {@code max_connections} (default 4),
 * {@code busy_timeout} (default 5s), {@code journal_mode} (default WAL for files),
 * {@code read_only}, {@code init_sql} (comma-separated SQL files run once, when the database is
 * created). {@code row_limit} and {@code statement_timeout} are the server's and pass unchecked.
 *
 * <p>Results follow SQLite's storage classes, not declared column types (SQLite does not enforce
 * them): integer and real → JSON numbers (an infinite real → the string {@code "Infinity"}),
 * text → string, blob → standard base64 string, null → null. SQLite has no boolean: bound
 * booleans are stored and returned as 1 and 0. A statement without result columns returns
 * {@code [{"rows_affected": n}]}. A repeated column name keeps its first position and the last
 * value. Declared foreign keys are enforced.
 */
public final class SqliteConnectorFactory implements ConnectorFactory {

    @Override
    public String type() {
        return "sqlite";
    }

    @Override
    public StatementDialect dialect() {
        return StatementDialect.SQLITE;
    }

    @Override
    public java.util.List<String> check(AdapterDef adapter, Path projectDir) {
        SqliteLocation location = SqliteLocation.resolve(adapter.name(), adapter.connectionString(), projectDir);
        SqliteOptions options = SqliteOptions.parse(adapter.name(), adapter.options());
        // start runs init_sql to create the database: a file it cannot find fails start, so it
        // fails validate too (a database that exists already never runs it)
        if (location.inMemory() || !Files.exists(location.file())) {
            for (String name : options.initSql()) {
                if (!Files.isRegularFile(projectDir.resolve(name))) {
                    throw new ConnectorException("adapter '" + adapter.name() + "': option init_sql names " + name
                            + ", which is not a file in the project folder; start runs it to create the database");
                }
            }
        }
        return options.warnings();
    }

    /**
     * A database file's connections can be split, one pool per event loop (each holds its share
     * of {@code max_connections}, and SQLite's own locking serialises writers across them as
     * within one pool); an in-memory database lives in its one pool's connections, so it cannot.
     */
    @Override
    public int splittableConnections(AdapterDef adapter) {
        try {
            SqliteLocation location = SqliteLocation.resolve(adapter.name(), adapter.connectionString(), Path.of("."));
            return location.inMemory() ? 0 : SqliteOptions.parse(adapter.name(), adapter.options()).maxConnections();
        } catch (ConnectorException e) {
            return 0;
        }
    }

    @Override
    public Future<Connector> connect(Vertx vertx, AdapterDef adapter, Path projectDir) {
        return connect(vertx, adapter, projectDir, 0);
    }

    /**
     * @param maxConnections this pool's share of the adapter's connections, or 0 for all of them;
     *                       the first of several pools creates and initialises a missing file,
     *                       the others find it there
     */
    @Override
    public Future<Connector> connect(Vertx vertx, AdapterDef adapter, Path projectDir, int maxConnections) {
        SqliteOptions options;
        SqliteLocation location;
        try {
            options = SqliteOptions.parse(adapter.name(), adapter.options());
            location = SqliteLocation.resolve(adapter.name(), adapter.connectionString(), projectDir);
        } catch (ConnectorException e) {
            return Future.failedFuture(e);
        }
        SqliteSetup setup = new SqliteSetup(adapter.name(), location, options, projectDir);
        int poolSize = maxConnections > 0 ? maxConnections : options.maxConnections();
        return vertx.executeBlocking(setup::prepare, false).compose(anchor ->
                open(vertx, adapter, setup, new SqliteSetup.Opened(location.jdbcUrl(), setup.poolConfig(), anchor),
                        poolSize));
    }

    /**
     * A file that exists is opened read-only, without creating journal files beside it; a file
     * that does not exist yet is built in memory from {@code init_sql}, as start would build it
     * on disk, and the notes say so.
     */
    @Override
    public Future<Connector> connectToCheck(Vertx vertx, AdapterDef adapter, Path projectDir,
                                            Consumer<String> notes) {
        SqliteOptions options;
        SqliteLocation location;
        try {
            options = SqliteOptions.parse(adapter.name(), adapter.options());
            location = SqliteLocation.resolve(adapter.name(), adapter.connectionString(), projectDir);
        } catch (ConnectorException e) {
            return Future.failedFuture(e);
        }
        if (location.inMemory()) {
            return connect(vertx, adapter, projectDir);
        }
        SqliteSetup setup = new SqliteSetup(adapter.name(), location, options, projectDir);
        return vertx.executeBlocking(() -> setup.prepareToCheck(notes), false)
                .compose(opened -> open(vertx, adapter, setup, opened, options.maxConnections()));
    }

    private static Future<Connector> open(Vertx vertx, AdapterDef adapter, SqliteSetup setup,
                                          SqliteSetup.Opened opened, int poolSize) {
        // the pool is made and asked its first connection on a worker: the first pool of a process
        // loads and initialises the JDBC client's classes, which would hold an event loop
        return vertx.executeBlocking(() -> {
            TrackedDataSource dataSource = new TrackedDataSource(opened.config(), opened.jdbcUrl());
            // named after the adapter, so pool metrics (vertx_pool_*{pool_name=...}) tell adapters apart
            Pool pool = JDBCPool.pool(vertx, dataSource, new PoolOptions().setMaxSize(poolSize)
                    .setName(adapter.name()));
            SqliteConnector connector = new SqliteConnector(vertx, adapter.name(), pool, dataSource, opened.anchor());
            return pool.query("SELECT 1").execute()
                    .<Connector>map(ignored -> connector)
                    .recover(e -> connector.close().transform(closed ->
                            Future.failedFuture(setup.cannotOpen(DriverMessages.of(e)))));
        }, false).compose(connected -> connected);
    }
}

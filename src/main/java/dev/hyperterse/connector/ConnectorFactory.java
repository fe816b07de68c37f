package dev.hyperterse.connector;

import dev.hyperterse.model.AdapterDef;
import io.vertx.core.Future;
import io.vertx.core.Vertx;

import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.function.Consumer;

/** Creates connectors of one type ({@code connector: sqlite} in an adapter file). */
public interface ConnectorFactory {

    /** The connector keyword, lower case. */
    String type();

    StatementDialect dialect();

    /**
     * Compiles a tool's statement template for this connector, without touching a database.
     * SQL connectors use {@link StatementTemplate}; a connector whose statements are not SQL
     * (Redis commands) compiles its own.
     *
     * @param env the environment for {@code {{ env.X }}}
     */
    default CompiledStatement compile(String template, Map<String, String> env) throws StatementException {
        return StatementTemplate.compile(template, dialect(), env);
    }

    /**
     * Reads the adapter's connection string and options exactly as {@link #connect} does, without
     * connecting: {@code validate} and {@code start} judge an adapter by this one reading.
     *
     * @param projectDir the project folder; relative file paths in the adapter resolve against it
     * @return warnings: options this connector does not use, each named as written
     * @throws ConnectorException naming the adapter and what is wrong
     */
    List<String> check(AdapterDef adapter, Path projectDir);

    /**
     * Opens the adapter's pool and verifies a connection. Fails with a {@link ConnectorException}
     * naming host, port and database and the driver's reason, never the password.
     *
     * @param projectDir the project folder; relative file paths in the adapter resolve against it
     */
    Future<Connector> connect(Vertx vertx, AdapterDef adapter, Path projectDir);

    /**
     * How many connections the adapter may hold in all ({@code max_connections}) when this
     * connector can split them over several pools, one per event loop, each used only from its
     * own loop; 0 when the adapter keeps a single pool (an embedded database, a driver with threads
     * of its own). An adapter whose settings do not read answers 0, and {@link #connect} reports why.
     */
    default int splittableConnections(AdapterDef adapter) {
        return 0;
    }

    /**
     * Like {@link #connect}, for one of several pools of a split adapter (see
     * {@link #splittableConnections}): the pool holds at most {@code maxConnections}, and its
     * connections live on the event loop of the context this is called on.
     */
    default Future<Connector> connect(Vertx vertx, AdapterDef adapter, Path projectDir, int maxConnections) {
        return connect(vertx, adapter, projectDir);
    }

    /**
     * Connects only to check statements ({@code validate --check-db}), changing nothing: no file,
     * folder or table is created. A database server is connected to as {@link #connect} does; an
     * embedded database is opened read-only, or built in memory when {@code start} would create it.
     *
     * @param notes told, in a sentence for the user, each way the check differs from what
     *              {@code start} would do (such as a database file start would create); may be
     *              called on any thread
     */
    default Future<Connector> connectToCheck(Vertx vertx, AdapterDef adapter, Path projectDir,
                                             Consumer<String> notes) {
        return connect(vertx, adapter, projectDir);
    }
}

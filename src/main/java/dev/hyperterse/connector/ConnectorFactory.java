package dev.hyperterse.connector;

import dev.hyperterse.model.AdapterDef;
import io.vertx.core.Future;
import io.vertx.core.Vertx;

import java.nio.file.Path;
import java.util.List;
import java.util.Map;

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
}

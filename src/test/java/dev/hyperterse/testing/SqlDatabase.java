package dev.hyperterse.testing;

import dev.hyperterse.connector.ConnectorFactory;
import dev.hyperterse.connector.mysql.MySqlConnectorFactory;
import dev.hyperterse.connector.postgres.PostgresConnectorFactory;

import java.util.function.Supplier;

/** The SQL servers the connector contract and the shop examples run on: each one's connector and where to reach it. */
public enum SqlDatabase {
    POSTGRES(PostgresConnectorFactory::new, TestDatabases::postgresUrl, 5432),
    /** MariaDB, through the mysql connector. */
    MARIADB(MySqlConnectorFactory::new, TestDatabases::mysqlUrl, 3306);

    private final Supplier<ConnectorFactory> factory;
    private final Supplier<String> url;
    private final int defaultPort;

    SqlDatabase(Supplier<ConnectorFactory> factory, Supplier<String> url, int defaultPort) {
        this.factory = factory;
        this.url = url;
        this.defaultPort = defaultPort;
    }

    /** A new factory of the database's connector. */
    public ConnectorFactory factory() {
        return factory.get();
    }

    /** The server's URL (see {@link TestDatabases}); skips the calling test when there is none. */
    public String url() {
        return url.get();
    }

    /** The port a URL that names none means. */
    public int defaultPort() {
        return defaultPort;
    }
}

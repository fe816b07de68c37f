package dev.hyperterse.connector;

import dev.hyperterse.connector.mongodb.MongoConnectorFactory;
import dev.hyperterse.connector.mysql.MySqlConnectorFactory;
import dev.hyperterse.connector.postgres.PostgresConnectorFactory;
import dev.hyperterse.connector.redis.RedisConnectorFactory;
import dev.hyperterse.connector.sqlite.SqliteConnectorFactory;

import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/** The connector types this server knows, by keyword. */
public final class Connectors {
    private final Map<String, ConnectorFactory> byType = new LinkedHashMap<>();

    public Connectors(List<ConnectorFactory> factories) {
        for (ConnectorFactory f : factories) {
            byType.put(f.type(), f);
        }
    }

    public static Connectors builtIn() {
        return new Connectors(List.of(new PostgresConnectorFactory(), new MySqlConnectorFactory(),
                new RedisConnectorFactory(), new SqliteConnectorFactory(), new MongoConnectorFactory()));
    }

    public Set<String> types() {
        return Collections.unmodifiableSet(byType.keySet());
    }

    /**
     * An {@link dev.hyperterse.model.AdapterCheck} for the project compiler: each adapter read by its
     * connector as it will be read at connect time.
     */
    public dev.hyperterse.model.AdapterCheck adapterCheck() {
        return (adapter, projectDir) -> {
            ConnectorFactory factory = byType.get(adapter.connector());
            if (factory == null) {
                return List.of();
            }
            try {
                return factory.check(adapter, projectDir);
            } catch (ConnectorException e) {
                throw new IllegalArgumentException(e.getMessage(), e);
            }
        };
    }

    /** @return the factory, or null when the type is unknown */
    public ConnectorFactory get(String type) {
        return byType.get(type);
    }
}

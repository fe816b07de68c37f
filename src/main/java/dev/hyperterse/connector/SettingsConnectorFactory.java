package dev.hyperterse.connector;

import dev.hyperterse.model.AdapterDef;
import io.vertx.core.Future;
import io.vertx.core.Vertx;

import java.nio.file.Path;
import java.util.List;

/**
 * A connector type that reads an adapter into settings of its own ({@code S}) one way for all
 * uses: {@code validate}'s check, the count of connections to split over event loops, and the
 * connection itself, so the three can never disagree about what an adapter says.
 *
 * @param <S> the connector's reading of an adapter's connection string and options
 */
public abstract class SettingsConnectorFactory<S> implements ConnectorFactory {

    /**
     * Reads the adapter's connection string and options.
     *
     * @throws ConnectorException naming the adapter and what is wrong
     */
    protected abstract S settings(AdapterDef adapter);

    /** Options the connector does not use, each named as written. */
    protected abstract List<String> warnings(S settings);

    /** {@code max_connections}: how many connections the adapter may hold in all. */
    protected abstract int maxConnections(S settings);

    /**
     * Opens the adapter's pool and verifies a connection (see {@link ConnectorFactory#connect}).
     *
     * @param maxConnections this pool's share of the adapter's connections, or 0 for all of them
     */
    protected abstract Future<Connector> open(Vertx vertx, AdapterDef adapter, Path projectDir, S settings,
                                              int maxConnections);

    @Override
    public final List<String> check(AdapterDef adapter, Path projectDir) {
        return warnings(settings(adapter));
    }

    @Override
    public final int splittableConnections(AdapterDef adapter) {
        try {
            return maxConnections(settings(adapter));
        } catch (ConnectorException e) {
            return 0;
        }
    }

    @Override
    public final Future<Connector> connect(Vertx vertx, AdapterDef adapter, Path projectDir) {
        return connect(vertx, adapter, projectDir, 0);
    }

    /** @param maxConnections this pool's share of the adapter's connections, or 0 for all of them */
    @Override
    public final Future<Connector> connect(Vertx vertx, AdapterDef adapter, Path projectDir, int maxConnections) {
        S settings;
        try {
            settings = settings(adapter);
        } catch (ConnectorException e) {
            return Future.failedFuture(e);
        }
        return open(vertx, adapter, projectDir, settings, maxConnections);
    }
}

package dev.hyperterse.connector.mongodb;

import com.mongodb.reactivestreams.client.MongoClient;
import com.mongodb.reactivestreams.client.MongoClients;
import dev.hyperterse.connector.CompiledStatement;
import dev.hyperterse.connector.Connector;
import dev.hyperterse.connector.ConnectorException;
import dev.hyperterse.connector.ConnectorFactory;
import dev.hyperterse.connector.StatementDialect;
import dev.hyperterse.connector.StatementException;
import dev.hyperterse.model.AdapterDef;
import io.vertx.core.Context;
import io.vertx.core.Future;
import io.vertx.core.Vertx;

import java.nio.file.Path;
import java.util.List;
import java.util.Map;

/**
 * {@code connector: mongodb}: a statement is JSON, {@code {"database": "shop", "command": {…}}},
 * run as a database command (see {@link MongoStatementTemplate} for how placeholders are bound).
 *
 * <p>Built on the MongoDB reactive streams driver (the one the Vert.x MongoDB client wraps)
 * rather than the Vert.x client's API, whose {@code runCommand} runs only in the one database a
 * client is created for and takes commands as JSON objects: a statement names its own database,
 * and its bound values go in as BSON values, never through a JSON conversion that reads
 * {@code $}-keys.
 */
public final class MongoConnectorFactory implements ConnectorFactory {

    @Override
    public String type() {
        return "mongodb";
    }

    @Override
    public StatementDialect dialect() {
        return StatementDialect.MONGODB;
    }

    @Override
    public CompiledStatement compile(String template, Map<String, String> env) throws StatementException {
        return MongoStatementTemplate.compile(template, env);
    }

    @Override
    public List<String> check(AdapterDef adapter, Path projectDir) {
        return MongoSettings.parse(adapter.name(), adapter.connectionString(), adapter.options()).warnings();
    }

    @Override
    public Future<Connector> connect(Vertx vertx, AdapterDef adapter, Path projectDir) {
        MongoSettings settings;
        MongoClient client;
        try {
            settings = MongoSettings.parse(adapter.name(), adapter.connectionString(), adapter.options());
            client = MongoClients.create(settings.clientSettings());
        } catch (ConnectorException e) {
            return Future.failedFuture(e);
        } catch (RuntimeException e) {
            return Future.failedFuture(new ConnectorException("adapter '" + adapter.name()
                    + "': cannot set up the MongoDB client: " + dev.hyperterse.connector.Failures.oneLine(e), e));
        }
        Context context = vertx.getOrCreateContext();
        String where = settings.where();
        return MongoConnector.ping(client, context, where)
                .<Connector>map(ok -> new MongoConnector(vertx, adapter.name(), client, where))
                .recover(e -> vertx.executeBlocking(() -> {
                    client.close();
                    return null;
                }).transform(closed -> Future.failedFuture(new ConnectorException("adapter '" + adapter.name()
                        + "': cannot connect to MongoDB at " + where + ": " + e.getMessage(), e))));
    }
}

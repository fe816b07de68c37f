package dev.hyperterse.connector.mongodb;

import com.mongodb.MongoCommandException;
import com.mongodb.MongoExecutionTimeoutException;
import com.mongodb.MongoSecurityException;
import com.mongodb.MongoSocketException;
import com.mongodb.MongoSocketOpenException;
import com.mongodb.MongoTimeoutException;
import com.mongodb.reactivestreams.client.MongoClient;
import dev.hyperterse.connector.CompiledStatement;
import dev.hyperterse.connector.Connector;
import dev.hyperterse.connector.ConnectorException;
import dev.hyperterse.connector.Failures;
import dev.hyperterse.connector.QueryOptions;
import dev.hyperterse.connector.QueryResult;
import dev.hyperterse.connector.ResultBudget;
import dev.hyperterse.connector.StatementDialect;
import io.vertx.core.Context;
import io.vertx.core.Future;
import io.vertx.core.Promise;
import io.vertx.core.Vertx;
import io.vertx.core.json.JsonArray;
import org.bson.BsonArray;
import org.bson.BsonDocument;
import org.bson.BsonInt32;
import org.bson.BsonInt64;
import org.bson.BsonString;
import org.bson.BsonValue;
import org.reactivestreams.Publisher;
import org.reactivestreams.Subscriber;
import org.reactivestreams.Subscription;

import java.time.Duration;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Function;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * One mongodb adapter: the MongoDB reactive driver's pool. A call runs its statement as one
 * database command; a result with a cursor ({@code find}, {@code aggregate}, …) becomes one row
 * per document, following the cursor with {@code getMore} up to the row limit (and killing it
 * when the limit cuts it); any other result is one row. The driver answers on its own threads,
 * where replies are turned into rows; each step continues on the caller's Vert.x context.
 */
final class MongoConnector implements Connector {
    /** Commands {@code explain} checks without running them. */
    private static final Set<String> EXPLAINABLE = Set.of("find", "aggregate", "count", "distinct", "update",
            "delete", "findandmodify");
    /** Server error codes: the command ran past maxTimeMS; the command does not exist. */
    private static final int MAX_TIME_EXPIRED = 50;
    private static final int COMMAND_NOT_FOUND = 59;
    private static final Pattern CAUSE = Pattern.compile("(?:caused by|exception=)\\s*\\{([^{}]*)\\}");

    private final Vertx vertx;
    private final String adapterName;
    private final MongoClient client;
    /** Hosts and database for messages, never credentials. */
    private final String where;
    private final Map<String, MongoStatement> statements = new ConcurrentHashMap<>();

    MongoConnector(Vertx vertx, String adapterName, MongoClient client, String where) {
        this.vertx = vertx;
        this.adapterName = adapterName;
        this.client = client;
        this.where = where;
    }

    @Override
    public String adapterName() {
        return adapterName;
    }

    @Override
    public StatementDialect dialect() {
        return StatementDialect.MONGODB;
    }

    @Override
    public Future<Void> ping() {
        return ping(client, vertx.getOrCreateContext(), where);
    }

    static Future<Void> ping(MongoClient client, Context context, String where) {
        return single(client.getDatabase("admin").runCommand(new BsonDocument("ping", new BsonInt32(1)),
                BsonDocument.class), context, reply -> null)
                .<Void>mapEmpty()
                .recover(e -> Future.failedFuture(failure(e, where, null)));
    }

    /**
     * {@code explain} for the commands it applies to (placeholders hold stand-in values of a fitting
     * type); for the others, and where the server has no explain, the command must be one the
     * server knows.
     */
    @Override
    public Future<Void> check(CompiledStatement statement) {
        if (statement.dialect() != StatementDialect.MONGODB) {
            return Future.failedFuture(new IllegalArgumentException("statement compiled for " + statement.dialect()));
        }
        MongoStatement parsed = parsed(statement);
        Context context = vertx.getOrCreateContext();
        BsonDocument command = parsed.bindForCheck(statement.parameters());
        String name = parsed.commandName().toLowerCase(Locale.ROOT);
        Future<Void> explained = EXPLAINABLE.contains(name)
                ? run(parsed.database(), new BsonDocument("explain", command).append("verbosity",
                        new BsonString("queryPlanner")), context, reply -> null).mapEmpty()
                : Future.failedFuture(new UnsupportedOperationException());
        return explained.recover(e -> {
            if (e instanceof MongoCommandException && ((MongoCommandException) e).getErrorCode() != COMMAND_NOT_FOUND) {
                return Future.failedFuture(failure(e, where, null));
            }
            if (!(e instanceof MongoCommandException) && !(e instanceof UnsupportedOperationException)) {
                return Future.failedFuture(failure(e, where, null));
            }
            return knowsCommand(parsed.commandName(), context);
        });
    }

    /** The server lists the command ({@code listCommands}); a server without that list is only pinged. */
    private Future<Void> knowsCommand(String name, Context context) {
        return run("admin", new BsonDocument("listCommands", new BsonInt32(1)), context,
                reply -> reply.getDocument("commands", new BsonDocument()).keySet())
                .transform(listed -> {
                    if (listed.failed()) {
                        return ping(client, context, where);
                    }
                    boolean known = listed.result().stream().anyMatch(c -> c.equalsIgnoreCase(name));
                    return known ? Future.<Void>succeededFuture()
                            : Future.failedFuture(new ConnectorException("the server has no command '" + name + "'"));
                });
    }

    @Override
    public Future<QueryResult> execute(CompiledStatement statement, List<Object> values, QueryOptions options) {
        if (statement.dialect() != StatementDialect.MONGODB) {
            return Future.failedFuture(new IllegalArgumentException("statement compiled for " + statement.dialect()));
        }
        ResultBudget budget;
        try {
            budget = options.budget();
        } catch (IllegalArgumentException e) {
            // a row or byte limit below 1
            return Future.failedFuture(e);
        }
        MongoStatement parsed = parsed(statement);
        BsonDocument command;
        try {
            command = parsed.bind(statement.parameters(), values);
        } catch (ConnectorException | IllegalArgumentException e) {
            return Future.failedFuture(e);
        }
        Duration timeout = options.timeout();
        boolean limited = timeout != null && !timeout.isZero() && !timeout.isNegative();
        limitCommand(parsed.commandName(), command, options.rowLimit(), limited ? timeout : null);
        return new Call(parsed.database(), options.rowLimit(), budget, limited ? timeout : null,
                vertx.getOrCreateContext())
                .start(command, options.cancellation());
    }

    /**
     * Adds what the statement did not say: {@code maxTimeMS} (the server stops the command at the
     * time limit) and a first batch no larger than the row limit needs (one more row proves a cut).
     */
    private static void limitCommand(String name, BsonDocument command, int rowLimit, Duration timeout) {
        if (timeout != null && !command.containsKey("maxTimeMS")) {
            command.append("maxTimeMS", new BsonInt64(Math.max(1, timeout.toMillis())));
        }
        int batch = (int) Math.min(Integer.MAX_VALUE, rowLimit + 1L);
        String lower = name.toLowerCase(Locale.ROOT);
        if (lower.equals("find") && !command.containsKey("batchSize")) {
            command.append("batchSize", new BsonInt32(batch));
        } else if (lower.equals("aggregate") && command.isDocument("cursor")
                && !command.getDocument("cursor").containsKey("batchSize")) {
            command.getDocument("cursor").append("batchSize", new BsonInt32(batch));
        }
    }

    private MongoStatement parsed(CompiledStatement statement) {
        return statements.computeIfAbsent(statement.text(), text -> MongoStatementTemplate.parse(statement));
    }

    /** One reply turned into the rows the call's budget admits, on the driver's thread. */
    private record Batch(JsonArray rows, long cursorId, String collection) {
    }

    /**
     * One statement run: the first command, then getMore until the cursor ends or the row or byte
     * limit cuts it (rows are counted against the budget as each batch arrives).
     */
    private final class Call {
        private final String database;
        private final int rowLimit;
        private final ResultBudget budget;
        private final Duration timeout;
        private final Context context;
        private final Promise<QueryResult> result = Promise.promise();
        private final JsonArray rows = new JsonArray();
        private volatile Batch open;

        Call(String database, int rowLimit, ResultBudget budget, Duration timeout, Context context) {
            this.database = database;
            this.rowLimit = rowLimit;
            this.budget = budget;
            this.timeout = timeout;
            this.context = context;
        }

        Future<QueryResult> start(BsonDocument command, Future<Void> cancellation) {
            long timer = timeout == null ? -1 : vertx.setTimer(Math.max(1, timeout.toMillis()),
                    id -> stop(Failures.timedOut(timeout)));
            cancellation.onSuccess(ignored -> stop(new ConnectorException("statement cancelled")));
            result.future().onComplete(done -> {
                if (timer >= 0) {
                    vertx.cancelTimer(timer);
                }
            });
            next(command, "firstBatch");
            return result.future();
        }

        private void next(BsonDocument command, String batchKey) {
            MongoConnector.run(client, database, command, context, reply -> batch(reply, batchKey))
                    .onComplete(done -> {
                        if (result.future().isComplete()) {
                            // the call ended (time limit, cancellation) while this command ran: its cursor is no one's
                            if (done.succeeded()) {
                                kill(done.result());
                            }
                            return;
                        }
                        if (done.failed()) {
                            result.tryFail(failure(done.cause(), where, timeout));
                            return;
                        }
                        take(done.result());
                    });
        }

        /**
         * Rows of one reply (its cursor's batch, or the reply itself as one row), converted on the
         * driver's thread while the call's budget admits them: a row past the limits is never
         * converted, nor any row of a reply that comes after the call ended (only its cursor is
         * kept, to be killed). Batches arrive one at a time, so the budget is never used by two
         * threads at once.
         */
        private Batch batch(BsonDocument reply, String batchKey) {
            if (reply.isDocument("cursor") && reply.getDocument("cursor").isArray(batchKey)) {
                BsonDocument cursor = reply.getDocument("cursor");
                long id = cursor.isNumber("id") ? cursor.getNumber("id").longValue() : 0;
                String ns = cursor.isString("ns") ? cursor.getString("ns").getValue() : "";
                String collection = ns.substring(ns.indexOf('.') + 1);
                if (result.future().isComplete()) {
                    return new Batch(new JsonArray(), id, collection);
                }
                return new Batch(admitted(cursor.getArray(batchKey)), id, collection);
            }
            // cluster gossip the server adds to every reply, not the command's result
            reply.remove("$clusterTime");
            reply.remove("operationTime");
            return new Batch(admitted(List.of(reply)), 0, "");
        }

        private JsonArray admitted(List<? extends BsonValue> docs) {
            JsonArray out = new JsonArray();
            for (BsonValue doc : docs) {
                Object row = doc.isDocument() ? MongoValues.document(doc.asDocument()) : MongoValues.value(doc);
                if (!budget.admit(row)) {
                    break;
                }
                out.add(row);
            }
            return out;
        }

        private void take(Batch batch) {
            // the rows the budget admitted (batch)
            rows.addAll(batch.rows());
            if (!budget.full() && batch.cursorId() != 0 && rows.size() == rowLimit) {
                // the cursor has more: one more row would not fit
                budget.moreExist();
            }
            if (budget.full() || batch.cursorId() == 0) {
                kill(batch);
                result.tryComplete(new QueryResult(rows, budget.cut()));
                return;
            }
            open = batch;
            BsonDocument getMore = new BsonDocument("getMore", new BsonInt64(batch.cursorId()))
                    .append("collection", new BsonString(batch.collection()))
                    .append("batchSize", new BsonInt32(budget.nextFetch()));
            next(getMore, "nextBatch");
        }

        /**
         * Ends the call at once (time limit, cancellation): an open cursor is killed now; a command
         * still in flight is left to answer (the driver cannot take it back from the server, and
         * the server stops it at maxTimeMS), and the cursor its reply opens is killed then.
         */
        private void stop(ConnectorException why) {
            if (result.tryFail(why)) {
                kill(open);
            }
        }

        private void kill(Batch batch) {
            if (batch == null || batch.cursorId() == 0) {
                return;
            }
            BsonDocument killCursors = new BsonDocument("killCursors", new BsonString(batch.collection()))
                    .append("cursors", new BsonArray(List.of(new BsonInt64(batch.cursorId()))));
            // best effort: a cursor not killed times out on the server by itself
            MongoConnector.run(client, database, killCursors, context, reply -> null);
        }
    }

    private <T> Future<T> run(String database, BsonDocument command, Context context, Function<BsonDocument, T> map) {
        return run(client, database, command, context, map);
    }

    private static <T> Future<T> run(MongoClient client, String database, BsonDocument command, Context context,
                                     Function<BsonDocument, T> map) {
        Publisher<BsonDocument> reply = client.getDatabase(database).runCommand(command, BsonDocument.class);
        return single(reply, context, map);
    }

    /**
     * The publisher's one reply, mapped on the driver's thread (the work proportional to the
     * reply stays off the event loop), completing on {@code context}.
     */
    private static <T> Future<T> single(Publisher<BsonDocument> publisher, Context context,
                                        Function<BsonDocument, T> map) {
        Promise<T> promise = Promise.promise();
        publisher.subscribe(new Subscriber<>() {
            private boolean done;

            @Override
            public void onSubscribe(Subscription s) {
                s.request(1);
            }

            @Override
            public void onNext(BsonDocument reply) {
                if (done) {
                    return;
                }
                done = true;
                T mapped;
                try {
                    mapped = map.apply(reply);
                } catch (RuntimeException e) {
                    context.runOnContext(v -> promise.tryFail(e));
                    return;
                }
                context.runOnContext(v -> promise.tryComplete(mapped));
            }

            @Override
            public void onError(Throwable t) {
                if (!done) {
                    done = true;
                    context.runOnContext(v -> promise.tryFail(t));
                }
            }

            @Override
            public void onComplete() {
                if (!done) {
                    done = true;
                    context.runOnContext(v -> promise.tryFail(new ConnectorException("the server sent no reply")));
                }
            }
        });
        return promise.future();
    }

    /**
     * A driver failure in words a caller can read: the server's reason for a command it refused,
     * "statement timed out" for maxTimeMS, "database unavailable" (hosts, never credentials) for a
     * server that cannot be reached or went away.
     */
    static ConnectorException failure(Throwable e, String where, Duration timeout) {
        if (e instanceof ConnectorException) {
            return (ConnectorException) e;
        }
        if (e instanceof MongoExecutionTimeoutException
                || e instanceof MongoCommandException && ((MongoCommandException) e).getErrorCode() == MAX_TIME_EXPIRED) {
            return timeout != null ? Failures.timedOut(timeout) : new ConnectorException("statement timed out", e);
        }
        if (e instanceof MongoCommandException) {
            MongoCommandException c = (MongoCommandException) e;
            String codeName = c.getErrorCodeName();
            return new ConnectorException("mongodb command failed: " + Failures.oneLine(new RuntimeException(
                    c.getErrorMessage())) + (codeName == null || codeName.isEmpty() ? " (code " + c.getErrorCode() + ")"
                    : " (" + codeName + ")"), e);
        }
        if (e instanceof MongoSecurityException) {
            return new ConnectorException("cannot log in to MongoDB at " + where + ": " + Failures.oneLine(
                    e.getCause() != null ? e.getCause() : e), e);
        }
        if (e instanceof MongoTimeoutException || e instanceof MongoSocketOpenException) {
            return new ConnectorException("database unavailable: cannot connect to " + where + ": " + reason(e), e);
        }
        if (e instanceof MongoSocketException) {
            return new ConnectorException("database unavailable: the connection to " + where + " was lost", e);
        }
        return Failures.of(e, where, Failures::oneLine);
    }

    /** The socket's own words from the driver's long cluster description, when it has them. */
    private static String reason(Throwable e) {
        String message = String.valueOf(e.getMessage());
        Matcher m = CAUSE.matcher(message);
        String last = null;
        while (m.find()) {
            last = m.group(1);
        }
        if (last != null) {
            return Failures.oneLine(new RuntimeException(last.replaceFirst("^[\\w.]+(Exception|Error):\\s*", "")));
        }
        if (e instanceof MongoTimeoutException) {
            return "no server answered in time";
        }
        return Failures.oneLine(e.getCause() != null ? e.getCause() : e);
    }

    @Override
    public Future<Void> close() {
        // closing the driver joins its monitor threads: not on the event loop
        return vertx.executeBlocking(() -> {
            client.close();
            return null;
        });
    }
}

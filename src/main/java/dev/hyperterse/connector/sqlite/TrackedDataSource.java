package dev.hyperterse.connector.sqlite;

import org.sqlite.JDBC;
import org.sqlite.ProgressHandler;
import org.sqlite.SQLiteConfig;
import org.sqlite.SQLiteConnection;
import org.sqlite.SQLiteDataSource;
import org.sqlite.jdbc4.JDBC4Connection;

import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.util.Map;
import java.util.Properties;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;

/**
 * The pool's connection source. The Vert.x JDBC pool hides which JDBC connection runs a
 * statement, but cancelling a statement needs exactly that connection. So each executed
 * statement carries a tag (a trailing SQL comment naming its {@link StatementRun}), and the
 * connections made here, on preparing a tagged statement, attach themselves to that run on the
 * worker thread just before the statement starts. Asking the lent connection who it is instead
 * would cost a round trip through a worker thread on every statement (measured: a quarter fewer
 * statements per second).
 */
final class TrackedDataSource extends SQLiteDataSource {
    /** VM instructions between cancellation checks: cheap (one JNI up-call each) yet prompt. */
    private static final int PROGRESS_INTERVAL = 4_000;
    private static final String TAG_START = "\n/* hyperterse run ";
    private static final String TAG_END = " */";

    private final AtomicLong runIds = new AtomicLong();
    private final Map<Long, StatementRun> runs = new ConcurrentHashMap<>();
    private final Properties settings;

    TrackedDataSource(SQLiteConfig config, String url) {
        super(config);
        setUrl(url);
        this.settings = config.toProperties();
    }

    /** Registers a run; its statement text must be {@link #tagged} with the returned id. */
    long register(StatementRun run) {
        long id = runIds.incrementAndGet();
        runs.put(id, run);
        return id;
    }

    void unregister(long id) {
        runs.remove(id);
    }

    static String tagged(String sql, long runId) {
        return sql + TAG_START + runId + TAG_END;
    }

    /** The run id a statement is tagged with, or -1. */
    private static long runIdOf(String sql) {
        if (!sql.endsWith(TAG_END)) {
            return -1;
        }
        int start = sql.lastIndexOf(TAG_START);
        if (start < 0) {
            return -1;
        }
        try {
            return Long.parseLong(sql.substring(start + TAG_START.length(), sql.length() - TAG_END.length()));
        } catch (NumberFormatException e) {
            return -1;
        }
    }

    @Override
    public SQLiteConnection getConnection(String user, String password) throws SQLException {
        // What JDBC.createConnection does, with our subclass (xerial offers no factory hook).
        String url = getUrl();
        Properties properties = new Properties();
        properties.putAll(settings);
        TaggedConnection connection = new TaggedConnection(url, url.substring(JDBC.PREFIX.length()), properties);
        try {
            ProgressHandler.setHandler(connection, PROGRESS_INTERVAL, new ProgressHandler() {
                @Override
                protected int progress() {
                    return connection.handle.cancelled ? 1 : 0;
                }
            });
        } catch (SQLException e) {
            connection.close();
            throw e;
        }
        return connection;
    }

    /** A connection that joins the {@link StatementRun} named by a tagged statement it prepares. */
    private final class TaggedConnection extends JDBC4Connection {
        final Handle handle = new Handle(this);

        TaggedConnection(String url, String fileName, Properties properties) throws SQLException {
            super(url, fileName, properties);
        }

        // Every prepareStatement overload of xerial's connection ends here.
        @Override
        public PreparedStatement prepareStatement(String sql, int type, int concurrency, int holdability)
                throws SQLException {
            long runId = runIdOf(sql);
            if (runId >= 0) {
                StatementRun run = runs.get(runId);
                if (run == null || !run.begin(handle, getDatabase().total_changes())) {
                    // The time limit passed while the statement waited for this connection.
                    throw new SQLException("statement cancelled before it started");
                }
            }
            return super.prepareStatement(sql, type, concurrency, holdability);
        }
    }

    /** Control over one JDBC connection from outside the thread that runs its statements. */
    static final class Handle {
        private final SQLiteConnection connection;
        /** Read by the progress handler on the statement's thread; set from the timer's. */
        private volatile boolean cancelled;

        Handle(SQLiteConnection connection) {
            this.connection = connection;
        }

        /**
         * Stops the running statement, and any statement started before {@link #reset()}:
         * sqlite3_interrupt stops what runs now at once, and the progress handler catches a
         * statement that was about to start (which sqlite3_interrupt would miss).
         */
        void cancel() {
            cancelled = true;
            try {
                if (!connection.isClosed()) {
                    connection.getDatabase().interrupt();
                }
            } catch (SQLException e) {
                // The connection is closing; nothing left to stop.
            }
        }

        void reset() {
            cancelled = false;
        }
    }
}

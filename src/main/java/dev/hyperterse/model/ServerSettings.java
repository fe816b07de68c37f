package dev.hyperterse.model;

import java.time.Duration;
import java.util.List;
import java.util.function.Consumer;

/**
 * The {@code server:} block of the root config after defaults were applied, grouped by concern.
 * A new setting is a component of the group it belongs to (and a setter of that group's builder).
 *
 * @param network            where the server listens and whom it answers
 * @param sessions           how many MCP sessions live, and for how long
 * @param limits             how much one request may ask of the server
 * @param timeouts           how often the server reports, and how long it takes to stop
 * @param logLevel           1 error, 2 warn, 3 info, 4 debug
 * @param toolErrors         how tool failures reach callers
 * @param searchOutputSchema whether {@code search} declares an {@code outputSchema} and returns {@code structuredContent}
 * @param metricsToken       the bearer token the metrics path asks for, or null for none
 * @param console            whether the web console is served at {@code /console} ({@code server.console},
 *                           {@code start --console}); off by default
 */
public record ServerSettings(Network network, Sessions sessions, RequestLimits limits, Timeouts timeouts,
                             int logLevel, ToolErrorMode toolErrors, boolean searchOutputSchema,
                             String metricsToken, boolean console) {
    /** The packaged defaults ({@code conf/hyperterse.yaml}). */
    public static final ServerSettings DEFAULTS = new ServerSettings(Network.DEFAULTS, Sessions.DEFAULTS,
            RequestLimits.DEFAULTS, Timeouts.DEFAULTS, 3, ToolErrorMode.RESULT, false, null, false);

    public static Builder builder() {
        return DEFAULTS.toBuilder();
    }

    public Builder toBuilder() {
        return new Builder(this);
    }

    /** Without the metrics token, which is a secret. */
    @Override
    public String toString() {
        return "ServerSettings[network=" + network + ", sessions=" + sessions + ", limits=" + limits
                + ", timeouts=" + timeouts + ", logLevel=" + logLevel + ", toolErrors=" + toolErrors
                + ", searchOutputSchema=" + searchOutputSchema
                + ", metricsToken=" + (metricsToken == null ? "none" : "(set)") + ", console=" + console + "]";
    }

    /**
     * Where the server listens and whom it answers.
     *
     * @param port           {@code server.port}, or null when unset (the CLI then tries {@code PORT}, then 8080)
     * @param host           bind address; loopback by default
     * @param corsOrigins    origins answered with CORS headers ({@code *} for any)
     * @param allowedOrigins browser {@code Origin}s accepted besides loopback ones ({@code *} for any)
     * @param allowedHosts   {@code Host} names accepted besides loopback ones when bound to loopback
     * @param instances      how many HTTP listeners serve the port, each on its own event loop
     *                       with its own share of every adapter's pool; 0 for one per CPU core
     */
    public record Network(Integer port, String host, List<String> corsOrigins, List<String> allowedOrigins,
                          List<String> allowedHosts, int instances) {
        public static final Network DEFAULTS = new Network(null, "127.0.0.1", List.of("*"), List.of(), List.of(), 0);

        public Network {
            corsOrigins = List.copyOf(corsOrigins);
            allowedOrigins = List.copyOf(allowedOrigins);
            allowedHosts = List.copyOf(allowedHosts);
        }

        /**
         * How many listeners to deploy on a machine with {@code cpus} processors: the configured
         * number, or one per processor for {@code auto}.
         */
        public int instancesFor(int cpus) {
            return instances > 0 ? instances : Math.max(1, cpus);
        }

        @Override
        public String toString() {
            return "Network[port=" + port + ", host=" + host + ", corsOrigins=" + corsOrigins + ", allowedOrigins="
                    + allowedOrigins + ", allowedHosts=" + allowedHosts
                    + ", instances=" + (instances == 0 ? "auto" : instances) + "]";
        }

        public static final class Builder {
            private Integer port;
            private String host;
            private List<String> corsOrigins;
            private List<String> allowedOrigins;
            private List<String> allowedHosts;
            private int instances;

            private Builder(Network from) {
                port = from.port;
                host = from.host;
                corsOrigins = from.corsOrigins;
                allowedOrigins = from.allowedOrigins;
                allowedHosts = from.allowedHosts;
                instances = from.instances;
            }

            public Builder port(Integer port) {
                this.port = port;
                return this;
            }

            public Builder host(String host) {
                this.host = host;
                return this;
            }

            public Builder corsOrigins(List<String> origins) {
                this.corsOrigins = origins;
                return this;
            }

            public Builder allowedOrigins(List<String> origins) {
                this.allowedOrigins = origins;
                return this;
            }

            public Builder allowedHosts(List<String> hosts) {
                this.allowedHosts = hosts;
                return this;
            }

            public Builder instances(int count) {
                this.instances = count;
                return this;
            }

            public Network build() {
                return new Network(port, host, corsOrigins, allowedOrigins, allowedHosts, instances);
            }
        }
    }

    /**
     * The MCP sessions the server keeps ({@code server.sessions}).
     *
     * @param idleTimeout how long an unused MCP session lives
     * @param max         the most live MCP sessions
     * @param perClient   the most live MCP sessions one client (network address) holds
     */
    public record Sessions(Duration idleTimeout, int max, int perClient) {
        public static final Sessions DEFAULTS = new Sessions(Duration.ofMinutes(30), 10_000, 1000);

        public static final class Builder {
            private Duration idleTimeout;
            private int max;
            private int perClient;

            private Builder(Sessions from) {
                idleTimeout = from.idleTimeout;
                max = from.max;
                perClient = from.perClient;
            }

            public Builder idleTimeout(Duration timeout) {
                this.idleTimeout = timeout;
                return this;
            }

            public Builder max(int sessions) {
                this.max = sessions;
                return this;
            }

            public Builder perClient(int sessions) {
                this.perClient = sessions;
                return this;
            }

            public Sessions build() {
                return new Sessions(idleTimeout, max, perClient);
            }
        }
    }

    /**
     * How much one request may ask of the server.
     *
     * @param maxBodyBytes the largest request body accepted
     * @param http         how long the server waits on a client's connection, and how many body bytes
     *                     it holds while they arrive
     * @param pageSize     the most tools in one {@code tools/list} page
     */
    public record RequestLimits(long maxBodyBytes, HttpLimits http, int pageSize) {
        public static final RequestLimits DEFAULTS = new RequestLimits(4L << 20, HttpLimits.DEFAULTS, 100);

        public static final class Builder {
            private long maxBodyBytes;
            private HttpLimits http;
            private int pageSize;

            private Builder(RequestLimits from) {
                maxBodyBytes = from.maxBodyBytes;
                http = from.http;
                pageSize = from.pageSize;
            }

            public Builder maxBodyBytes(long bytes) {
                this.maxBodyBytes = bytes;
                return this;
            }

            public Builder http(HttpLimits limits) {
                this.http = limits;
                return this;
            }

            public Builder pageSize(int tools) {
                this.pageSize = tools;
                return this;
            }

            public RequestLimits build() {
                return new RequestLimits(maxBodyBytes, http, pageSize);
            }
        }
    }

    /**
     * How often the server reports, and how long it takes to stop.
     *
     * @param progressInterval how often a running {@code execute} reports progress to a caller that asked for it
     * @param shutdownTimeout  how long a stopping server lets in-flight calls finish
     * @param drainPeriod      how long a stopping server keeps serving (new calls included) with
     *                         {@code /ready} false before it stops accepting connections, so load
     *                         balancers take it out of rotation first; zero stops accepting at once
     */
    public record Timeouts(Duration progressInterval, Duration shutdownTimeout, Duration drainPeriod) {
        public static final Timeouts DEFAULTS =
                new Timeouts(Duration.ofSeconds(1), Duration.ofSeconds(30), Duration.ofSeconds(5));

        public static final class Builder {
            private Duration progressInterval;
            private Duration shutdownTimeout;
            private Duration drainPeriod;

            private Builder(Timeouts from) {
                progressInterval = from.progressInterval;
                shutdownTimeout = from.shutdownTimeout;
                drainPeriod = from.drainPeriod;
            }

            public Builder progressInterval(Duration interval) {
                this.progressInterval = interval;
                return this;
            }

            public Builder shutdownTimeout(Duration timeout) {
                this.shutdownTimeout = timeout;
                return this;
            }

            public Builder drainPeriod(Duration period) {
                this.drainPeriod = period;
                return this;
            }

            public Timeouts build() {
                return new Timeouts(progressInterval, shutdownTimeout, drainPeriod);
            }
        }
    }

    /**
     * A copy of settings with some changed: {@code settings.toBuilder().console(true)
     * .sessions(s -> s.max(3)).build()}. A group is changed through its own builder.
     */
    public static final class Builder {
        private final Network.Builder network;
        private final Sessions.Builder sessions;
        private final RequestLimits.Builder limits;
        private final Timeouts.Builder timeouts;
        private int logLevel;
        private ToolErrorMode toolErrors;
        private boolean searchOutputSchema;
        private String metricsToken;
        private boolean console;

        private Builder(ServerSettings from) {
            network = new Network.Builder(from.network);
            sessions = new Sessions.Builder(from.sessions);
            limits = new RequestLimits.Builder(from.limits);
            timeouts = new Timeouts.Builder(from.timeouts);
            logLevel = from.logLevel;
            toolErrors = from.toolErrors;
            searchOutputSchema = from.searchOutputSchema;
            metricsToken = from.metricsToken;
            console = from.console;
        }

        public Builder network(Consumer<Network.Builder> change) {
            change.accept(network);
            return this;
        }

        public Builder sessions(Consumer<Sessions.Builder> change) {
            change.accept(sessions);
            return this;
        }

        public Builder limits(Consumer<RequestLimits.Builder> change) {
            change.accept(limits);
            return this;
        }

        public Builder timeouts(Consumer<Timeouts.Builder> change) {
            change.accept(timeouts);
            return this;
        }

        public Builder logLevel(int level) {
            this.logLevel = level;
            return this;
        }

        public Builder toolErrors(ToolErrorMode mode) {
            this.toolErrors = mode;
            return this;
        }

        public Builder searchOutputSchema(boolean on) {
            this.searchOutputSchema = on;
            return this;
        }

        public Builder metricsToken(String token) {
            this.metricsToken = token;
            return this;
        }

        public Builder console(boolean on) {
            this.console = on;
            return this;
        }

        public ServerSettings build() {
            return new ServerSettings(network.build(), sessions.build(), limits.build(), timeouts.build(),
                    logLevel, toolErrors, searchOutputSchema, metricsToken, console);
        }
    }
}

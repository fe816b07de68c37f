package dev.hyperterse.model;

import java.time.Duration;
import java.util.List;

/**
 * The {@code server:} block of the root config after defaults were applied.
 *
 * @param port               {@code server.port}, or null when unset (the CLI then tries {@code PORT}, then 8080)
 * @param host               bind address; loopback by default
 * @param logLevel           1 error, 2 warn, 3 info, 4 debug
 * @param corsOrigins        origins answered with CORS headers ({@code *} for any)
 * @param allowedOrigins     browser {@code Origin}s accepted besides loopback ones ({@code *} for any)
 * @param allowedHosts       {@code Host} names accepted besides loopback ones when bound to loopback
 * @param maxBodyBytes       the largest request body accepted
 * @param toolErrors         how tool failures reach callers
 * @param sessionIdleTimeout how long an unused MCP session lives
 * @param maxSessions        the most live MCP sessions
 * @param pageSize           the most tools in one {@code tools/list} page
 * @param progressInterval   how often a running {@code execute} reports progress to a caller that asked for it
 * @param searchOutputSchema whether {@code search} declares an {@code outputSchema} and returns {@code structuredContent}
 * @param shutdownTimeout    how long a stopping server lets in-flight calls finish
 * @param sessionsPerClient  the most live MCP sessions one client (network address) holds
 * @param http               how long the server waits on a client's connection, and how many body bytes it holds while they arrive
 * @param metricsToken       the bearer token the metrics path asks for, or null for none
 * @param instances          how many HTTP listeners serve the port, each on its own event loop
 *                           with its own share of every adapter's pool; 0 for one per CPU core
 * @param console            whether the web console is served at {@code /console} ({@code server.console},
 *                           {@code start --console}); off by default
 * @param drainPeriod        how long a stopping server keeps serving (new calls included) with
 *                           {@code /ready} false before it stops accepting connections, so load
 *                           balancers take it out of rotation first; zero stops accepting at once
 */
public record ServerSettings(Integer port, String host, int logLevel, List<String> corsOrigins,
                             List<String> allowedOrigins, List<String> allowedHosts, long maxBodyBytes,
                             ToolErrorMode toolErrors, Duration sessionIdleTimeout, int maxSessions,
                             int pageSize, Duration progressInterval, boolean searchOutputSchema,
                             Duration shutdownTimeout, int sessionsPerClient, HttpLimits http,
                             String metricsToken, int instances, boolean console, Duration drainPeriod) {
    public ServerSettings {
        corsOrigins = List.copyOf(corsOrigins);
        allowedOrigins = List.copyOf(allowedOrigins);
        allowedHosts = List.copyOf(allowedHosts);
    }

    public ServerSettings withHost(String newHost) {
        return new ServerSettings(port, newHost, logLevel, corsOrigins, allowedOrigins, allowedHosts, maxBodyBytes,
                toolErrors, sessionIdleTimeout, maxSessions, pageSize, progressInterval, searchOutputSchema,
                shutdownTimeout, sessionsPerClient, http, metricsToken, instances, console, drainPeriod);
    }

    public ServerSettings withToolErrors(ToolErrorMode mode) {
        return new ServerSettings(port, host, logLevel, corsOrigins, allowedOrigins, allowedHosts, maxBodyBytes,
                mode, sessionIdleTimeout, maxSessions, pageSize, progressInterval, searchOutputSchema,
                shutdownTimeout, sessionsPerClient, http, metricsToken, instances, console, drainPeriod);
    }

    public ServerSettings withSessions(Duration idleTimeout, int max) {
        return new ServerSettings(port, host, logLevel, corsOrigins, allowedOrigins, allowedHosts, maxBodyBytes,
                toolErrors, idleTimeout, max, pageSize, progressInterval, searchOutputSchema,
                shutdownTimeout, sessionsPerClient, http, metricsToken, instances, console, drainPeriod);
    }

    public ServerSettings withPageSize(int size) {
        return new ServerSettings(port, host, logLevel, corsOrigins, allowedOrigins, allowedHosts, maxBodyBytes,
                toolErrors, sessionIdleTimeout, maxSessions, size, progressInterval, searchOutputSchema,
                shutdownTimeout, sessionsPerClient, http, metricsToken, instances, console, drainPeriod);
    }

    public ServerSettings withProgressInterval(Duration interval) {
        return new ServerSettings(port, host, logLevel, corsOrigins, allowedOrigins, allowedHosts, maxBodyBytes,
                toolErrors, sessionIdleTimeout, maxSessions, pageSize, interval, searchOutputSchema,
                shutdownTimeout, sessionsPerClient, http, metricsToken, instances, console, drainPeriod);
    }

    public ServerSettings withShutdownTimeout(Duration timeout) {
        return new ServerSettings(port, host, logLevel, corsOrigins, allowedOrigins, allowedHosts, maxBodyBytes,
                toolErrors, sessionIdleTimeout, maxSessions, pageSize, progressInterval, searchOutputSchema, timeout,
                sessionsPerClient, http, metricsToken, instances, console, drainPeriod);
    }

    public ServerSettings withSearchOutputSchema(boolean on) {
        return new ServerSettings(port, host, logLevel, corsOrigins, allowedOrigins, allowedHosts, maxBodyBytes,
                toolErrors, sessionIdleTimeout, maxSessions, pageSize, progressInterval, on,
                shutdownTimeout, sessionsPerClient, http, metricsToken, instances, console, drainPeriod);
    }

    public ServerSettings withSessionsPerClient(int perClient) {
        return new ServerSettings(port, host, logLevel, corsOrigins, allowedOrigins, allowedHosts, maxBodyBytes,
                toolErrors, sessionIdleTimeout, maxSessions, pageSize, progressInterval, searchOutputSchema,
                shutdownTimeout, perClient, http, metricsToken, instances, console, drainPeriod);
    }

    public ServerSettings withHttpLimits(HttpLimits timeouts) {
        return new ServerSettings(port, host, logLevel, corsOrigins, allowedOrigins, allowedHosts, maxBodyBytes,
                toolErrors, sessionIdleTimeout, maxSessions, pageSize, progressInterval, searchOutputSchema,
                shutdownTimeout, sessionsPerClient, timeouts, metricsToken, instances, console, drainPeriod);
    }

    public ServerSettings withMetricsToken(String token) {
        return new ServerSettings(port, host, logLevel, corsOrigins, allowedOrigins, allowedHosts, maxBodyBytes,
                toolErrors, sessionIdleTimeout, maxSessions, pageSize, progressInterval, searchOutputSchema,
                shutdownTimeout, sessionsPerClient, http, token, instances, console, drainPeriod);
    }

    public ServerSettings withInstances(int count) {
        return new ServerSettings(port, host, logLevel, corsOrigins, allowedOrigins, allowedHosts, maxBodyBytes,
                toolErrors, sessionIdleTimeout, maxSessions, pageSize, progressInterval, searchOutputSchema,
                shutdownTimeout, sessionsPerClient, http, metricsToken, count, console, drainPeriod);
    }

    public ServerSettings withConsole(boolean on) {
        return new ServerSettings(port, host, logLevel, corsOrigins, allowedOrigins, allowedHosts, maxBodyBytes,
                toolErrors, sessionIdleTimeout, maxSessions, pageSize, progressInterval, searchOutputSchema,
                shutdownTimeout, sessionsPerClient, http, metricsToken, instances, on, drainPeriod);
    }

    public ServerSettings withDrainPeriod(Duration period) {
        return new ServerSettings(port, host, logLevel, corsOrigins, allowedOrigins, allowedHosts, maxBodyBytes,
                toolErrors, sessionIdleTimeout, maxSessions, pageSize, progressInterval, searchOutputSchema,
                shutdownTimeout, sessionsPerClient, http, metricsToken, instances, console, period);
    }

    /**
     * How many listeners to deploy on a machine with {@code cpus} processors: the configured
     * number, or one per processor for {@code auto}.
     */
    public int instancesFor(int cpus) {
        return instances > 0 ? instances : Math.max(1, cpus);
    }

    /** Without the metrics token, which is a secret. */
    @Override
    public String toString() {
        return "ServerSettings[port=" + port + ", host=" + host + ", logLevel=" + logLevel + ", corsOrigins="
                + corsOrigins + ", allowedOrigins=" + allowedOrigins + ", allowedHosts=" + allowedHosts
                + ", maxBodyBytes=" + maxBodyBytes + ", toolErrors=" + toolErrors + ", sessionIdleTimeout="
                + sessionIdleTimeout + ", maxSessions=" + maxSessions + ", pageSize=" + pageSize
                + ", progressInterval=" + progressInterval + ", searchOutputSchema=" + searchOutputSchema
                + ", shutdownTimeout=" + shutdownTimeout + ", sessionsPerClient=" + sessionsPerClient
                + ", http=" + http + ", metricsToken=" + (metricsToken == null ? "none" : "(set)")
                + ", instances=" + (instances == 0 ? "auto" : instances) + ", console=" + console
                + ", drainPeriod=" + drainPeriod + "]";
    }
}

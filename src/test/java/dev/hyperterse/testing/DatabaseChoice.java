package dev.hyperterse.testing;

import java.util.function.BooleanSupplier;
import java.util.function.Function;
import java.util.function.Predicate;

/**
 * Where one test database comes from, decided once per run: the variable naming a server if it is
 * set, else the local service if it answers, else a container when a Docker engine is present,
 * else no server at all, and that database's tests are skipped with {@link #reason()} saying how
 * to provide one.
 *
 * @param source how the server was found
 * @param url    the server's URL; null when skipped
 * @param reason one line for the test log: where the server came from, or how to provide one
 */
public record DatabaseChoice(Source source, String url, String reason) {

    /** How a test database was found. */
    public enum Source { VARIABLE, LOCAL, CONTAINER, NONE }

    /**
     * A test database and how to reach it.
     *
     * @param title    shown in messages: {@code PostgreSQL}
     * @param variable the environment variable that names a server
     * @param localUrl the local service's URL
     * @param image    the container image used when nothing answers locally
     */
    public record Service(String title, String variable, String localUrl, String image) {
    }

    /**
     * What the decision looks at, injected so it can be tested without the services or an engine.
     *
     * @param environment     the process environment
     * @param answers         whether a server accepts connections at a URL
     * @param dockerAvailable whether a Docker engine is reachable
     * @param startContainer  starts the service's container, returning its URL (throws when it cannot)
     */
    public record Probes(Function<String, String> environment, Predicate<String> answers,
                         BooleanSupplier dockerAvailable, Function<Service, String> startContainer) {
    }

    public boolean available() {
        return url != null;
    }

    public static DatabaseChoice decide(Service service, Probes probes) {
        String configured = probes.environment().apply(service.variable());
        if (configured != null && !configured.isBlank()) {
            // named deliberately: used even if it does not answer, so a wrong URL fails loudly
            return new DatabaseChoice(Source.VARIABLE, configured.strip(),
                    service.title() + ": " + service.variable());
        }
        if (probes.answers().test(service.localUrl())) {
            return new DatabaseChoice(Source.LOCAL, service.localUrl(),
                    service.title() + ": the local service at " + address(service.localUrl()));
        }
        if (probes.dockerAvailable().getAsBoolean()) {
            // a present engine that cannot start the image is a broken set-up: the exception fails the tests
            String url = probes.startContainer().apply(service);
            return new DatabaseChoice(Source.CONTAINER, url,
                    service.title() + ": container " + service.image() + " at " + address(url));
        }
        return new DatabaseChoice(Source.NONE, null, service.title() + " tests skipped: nothing answers at "
                + address(service.localUrl()) + ", " + service.variable() + " is not set and no Docker engine"
                + " was found; start " + service.title() + " there, set " + service.variable()
                + " to a server's URL, or start Docker (the tests then run " + service.image() + ")");
    }

    private static String address(String url) {
        return TestDatabases.host(url) + ":" + TestDatabases.port(url, 0);
    }
}

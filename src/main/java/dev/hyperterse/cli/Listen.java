package dev.hyperterse.cli;

/** Where to listen: flags win over the project's server block, which wins over the environment. */
final class Listen {
    static final int DEFAULT_PORT = 8080;

    private Listen() {
    }

    /** {@code --port} &gt; {@code server.port} &gt; {@code $PORT} &gt; 8080. */
    static int port(Integer flag, Integer configured, String environment) {
        if (flag != null) {
            return checked(flag, "--port");
        }
        if (configured != null) {
            return checked(configured, "server.port");
        }
        if (environment != null && !environment.isBlank()) {
            try {
                return checked(Integer.parseInt(environment.trim()), "$PORT");
            } catch (NumberFormatException e) {
                throw new IllegalArgumentException("$PORT must be a port number, got '" + environment + "'");
            }
        }
        return DEFAULT_PORT;
    }

    private static int checked(int port, String where) {
        if (port < 0 || port > 65535) {
            throw new IllegalArgumentException(where + " must be between 0 and 65535, got " + port);
        }
        return port;
    }
}

package dev.hyperterse.cli;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Netty's probe of the platform, begun on a thread of its own while {@code start} reads and
 * compiles the project, instead of on the main thread when Vert.x is made. The probe is the
 * single largest piece of a start that depends on nothing the project says: on JDK 24 and later,
 * where Netty may not use {@code sun.misc.Unsafe}, it links C's {@code malloc} and {@code free}
 * through the JDK's foreign-function linker (which generates and loads a few hundred classes),
 * and on Linux it loads the native epoll transport's library. Both run once per process,
 * single-threaded, whoever asks first; the main thread, when it needs them, waits for what is left
 * of them or finds them done.
 *
 * <p>Nothing here is required: a class that cannot be found is left for Vert.x to do without, as
 * it would without this; a class whose initialisation fails is logged here with its cause (Vert.x,
 * meeting it again, would only be told that the class could not be initialised).
 */
final class NetworkWarmUp {
    private static final Logger LOG = LoggerFactory.getLogger(NetworkWarmUp.class);
    static final String THREAD = "hyperterse-network-warm-up";

    private NetworkWarmUp() {
    }

    /**
     * Starts the probe on a daemon thread and returns it. Call after the logging is set up: Netty
     * logs through SLF4J, and a logger taken on another thread while SLF4J is still initialising is
     * a stand-in, which makes the start's own logging set-up fail.
     */
    static Thread startInBackground() {
        Thread thread = new Thread(NetworkWarmUp::run, THREAD);
        thread.setDaemon(true);
        thread.start();
        return thread;
    }

    /** Netty's platform classes (the direct-memory cleaner among them), then the epoll transport's check. */
    static void run() {
        ClassLoader loader = NetworkWarmUp.class.getClassLoader();
        try {
            Class.forName("io.netty.util.internal.PlatformDependent", true, loader);
            // Vert.x prefers the native transport (TelemetrySetup): initialising this class loads its library
            Class.forName("io.netty.channel.epoll.Epoll", true, loader);
        } catch (ClassNotFoundException e) {
            LOG.debug("warming up the network classes: {} is not on the class path", e.getMessage());
        } catch (LinkageError e) {
            LOG.warn("Netty's platform classes failed to initialise: {}", e.toString(), e);
        }
    }
}

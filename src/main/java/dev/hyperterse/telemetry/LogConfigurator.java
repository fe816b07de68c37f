package dev.hyperterse.telemetry;

import ch.qos.logback.classic.Level;
import ch.qos.logback.classic.LoggerContext;
import ch.qos.logback.classic.spi.Configurator;
import ch.qos.logback.classic.spi.ConfiguratorRank;
import ch.qos.logback.classic.spi.ILoggingEvent;
import ch.qos.logback.classic.util.ContextInitializer;
import ch.qos.logback.core.ConsoleAppender;
import ch.qos.logback.core.encoder.LayoutWrappingEncoder;
import ch.qos.logback.core.spi.ContextAwareBase;
import ch.qos.logback.core.status.NopStatusListener;

/**
 * The packaged log set-up, in code: text lines on stderr ({@link #PATTERN}, messages redacted,
 * stack traces only for loggers at debug), root at INFO, a few noisy libraries quieter. Logback
 * finds it through {@code META-INF/services/ch.qos.logback.classic.spi.Configurator} before its
 * XML configurator; doing this in code spares every start the XML parser and logback's
 * configuration model (some 500 classes and a few hundred milliseconds of CPU without the
 * start-up cache).
 *
 * <p>A configuration file still wins: with {@code -Dlogback.configurationFile=…} (or a
 * {@code logback-test.xml} on the class path, as in this project's tests) this steps aside and
 * logback reads that file as it always did.
 */
@ConfiguratorRank(ConfiguratorRank.CUSTOM_HIGH_PRIORITY)
public final class LogConfigurator extends ContextAwareBase implements Configurator {
    /** The name {@code Logging.setFormat} finds the console appender by. */
    public static final String APPENDER = "STDERR";
    /** The text line as a logback pattern ({@link TextLineLayout} writes it, a configuration file may use it). */
    public static final String PATTERN = "%d{HH:mm:ss.SSS} %-5level %logger{0} - %safeMsg%n%debugEx";

    @Override
    public ExecutionStatus configure(LoggerContext context) {
        ClassLoader loader = LogConfigurator.class.getClassLoader();
        if (System.getProperty(ContextInitializer.CONFIG_FILE_PROPERTY) != null
                || loader.getResource(ContextInitializer.TEST_AUTOCONFIG_FILE) != null) {
            return ExecutionStatus.INVOKE_NEXT_IF_ANY;
        }
        apply(context);
        return ExecutionStatus.DO_NOT_INVOKE_NEXT_IF_ANY;
    }

    /** The text lines' encoder ({@link #PATTERN}, by {@link TextLineLayout}), started. */
    public static LayoutWrappingEncoder<ILoggingEvent> textEncoder(LoggerContext context) {
        TextLineLayout layout = new TextLineLayout();
        layout.setContext(context);
        layout.start();
        LayoutWrappingEncoder<ILoggingEvent> encoder = new LayoutWrappingEncoder<>();
        encoder.setContext(context);
        encoder.setLayout(layout);
        encoder.start();
        return encoder;
    }

    /** Sets up {@code context} as the packaged configuration has it. */
    static void apply(LoggerContext context) {
        // logback's own status messages stay unprinted, as before
        NopStatusListener quiet = new NopStatusListener();
        context.getStatusManager().add(quiet);

        ConsoleAppender<ILoggingEvent> console = new ConsoleAppender<>();
        console.setContext(context);
        console.setName(APPENDER);
        console.setTarget("System.err");
        console.setEncoder(textEncoder(context));
        console.start();

        context.getLogger("io.netty").setLevel(Level.WARN);
        context.getLogger("com.hazelcast").setLevel(Level.WARN);
        // Hazelcast warns at every member's start that its CP subsystem (strongly consistent
        // structures) runs "in UNSAFE mode"; nothing here uses it (Vert.x's cluster locks are map
        // locks), so the warning would only alarm
        context.getLogger("com.hazelcast.cp.CPSubsystem").setLevel(Level.ERROR);
        // each JDBC connection registers the same SQL client gauges again; Micrometer keeps the
        // first and warns about the rest, which is noise
        context.getLogger("io.micrometer.core.instrument.MeterRegistry").setLevel(Level.ERROR);
        // a failed load of the result cache is a failed call, which the pipeline logs once (with
        // tool, stage and reason); Caffeine would add a warning with a stack trace
        context.getLogger("com.github.benmanes.caffeine.cache.LocalAsyncCache").setLevel(Level.ERROR);
        // the semantic search build's tokenizer (DJL) probes for a GPU it never uses and says so
        // at every start
        context.getLogger("ai.djl").setLevel(Level.ERROR);
        // Lucene 9 (the last line that runs on Java 17) uses the Vector API only up to JDK 22 and
        // on later JDKs warns at every start that it runs its plain Java code instead, which is
        // what it runs on JDK 17 too; search ranks small catalogs and needs no vector speed-up
        context.getLogger("org.apache.lucene.internal.vectorization").setLevel(Level.ERROR);
        ch.qos.logback.classic.Logger root = context.getLogger(org.slf4j.Logger.ROOT_LOGGER_NAME);
        root.setLevel(Level.INFO);
        root.addAppender(console);
    }
}

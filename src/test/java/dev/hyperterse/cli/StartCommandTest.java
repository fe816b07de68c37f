package dev.hyperterse.cli;

import org.junit.jupiter.api.Test;
import picocli.CommandLine;

import java.time.Duration;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

class StartCommandTest {

    @Test
    void conformanceFixturesAreOffUnlessAskedFor() {
        StartCommand plain = new StartCommand();
        new CommandLine(plain).parseArgs("some/project", "--port", "0");
        assertFalse(plain.conformanceFixtures);

        StartCommand fixtures = new StartCommand();
        new CommandLine(fixtures).parseArgs("some/project", "--conformance-fixtures");
        assertTrue(fixtures.conformanceFixtures);
    }

    @Test
    void watchingIsOffUnlessAskedForAndPollsEverySecondByDefault() {
        StartCommand plain = new StartCommand();
        new CommandLine(plain).parseArgs("some/project");
        assertFalse(plain.watch);
        assertEquals(Duration.ofSeconds(1), plain.watchInterval());

        StartCommand watching = new StartCommand();
        new CommandLine(watching).parseArgs("some/project", "--watch", "--watch-interval", "250ms");
        assertTrue(watching.watch);
        assertEquals(Duration.ofMillis(250), watching.watchInterval());

        StartCommand tooFast = new StartCommand();
        new CommandLine(tooFast).parseArgs("some/project", "--watch", "--watch-interval", "1ms");
        assertNull(tooFast.watchInterval());
    }

    @Test
    void badOperationsFlagsAreUsageErrors() {
        CliRunner.Run format = CommandLineTest.run("start", "tools-examples/quickstart", "--log-format", "xml");
        assertEquals(2, format.code());
        assertTrue(format.err().contains("--log-format must be text or json"), format.err());
        CliRunner.Run interval = CommandLineTest.run("start", "tools-examples/quickstart", "--watch-interval", "soon");
        assertEquals(2, interval.code());
        assertTrue(interval.err().contains("--watch-interval must be a duration"), interval.err());
    }

    @Test
    void logFormatsAreTextOrJson() {
        assertEquals("json", Logging.format(" JSON "));
        assertEquals("text", Logging.format("text"));
        assertNull(Logging.format("xml"));
    }
}

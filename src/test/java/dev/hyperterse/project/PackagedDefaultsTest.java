package dev.hyperterse.project;

import dev.hyperterse.model.CachePolicy;
import dev.hyperterse.model.Limits;
import dev.hyperterse.model.ProjectConfig;
import dev.hyperterse.model.ServerSettings;
import dev.hyperterse.model.ToolErrorMode;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.time.Duration;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

class PackagedDefaultsTest {

    @Test
    void packagedDefaultsParse() {
        YamlNode.Mapping defaults = assertInstanceOf(YamlNode.Mapping.class, PackagedDefaults.load());
        assertTrue(defaults.entries().keySet().containsAll(List.of("root", "tools", "adapters", "server")));
        assertTrue(RootConfigReader.ROOT_KEYS.containsAll(defaults.entries().keySet()),
                "the defaults hold only keys the compiler knows: " + defaults.entries().keySet());
    }

    @Test
    void aMinimalProjectGetsEveryDefault(@TempDir Path dir) throws Exception {
        ProjectConfig config = ProjectFixture.withOneTool(dir).compile().config();
        assertEquals("test-project", config.name());
        assertNull(config.version());
        assertEquals(dir.resolve("app").toAbsolutePath().normalize(), config.folders().rootDir());
        assertEquals(10, config.searchLimit());
        assertEquals(new CachePolicy(false, 120), config.tools().cache());
        assertEquals(Limits.DEFAULTS, config.tools().limits(), "the model's constant agrees with the packaged defaults");
        assertEquals(4, config.scripts().workers());

        ServerSettings server = config.server();
        assertNull(server.network().port());
        assertEquals("127.0.0.1", server.network().host());
        assertEquals(3, server.logLevel());
        assertEquals(List.of("*"), server.network().corsOrigins());
        assertEquals(List.of(), server.network().allowedOrigins());
        assertEquals(List.of(), server.network().allowedHosts());
        assertEquals(4L * 1024 * 1024, server.limits().maxBodyBytes());
        assertEquals(ToolErrorMode.RESULT, server.toolErrors(), "tool failures are isError results unless configured");
        assertEquals(Duration.ofMinutes(30), server.sessions().idleTimeout());
        assertEquals(10_000, server.sessions().max());
        assertEquals(100, server.limits().pageSize());
        assertEquals(Duration.ofSeconds(1), server.timeouts().progressInterval());
        assertFalse(server.searchOutputSchema());
        assertEquals(1000, server.sessions().perClient(), "10% of max");
        assertEquals(dev.hyperterse.model.HttpLimits.DEFAULTS, server.limits().http(),
                "the model's constant agrees with the packaged defaults");
        assertNull(server.metricsToken());
        assertEquals(ServerSettings.DEFAULTS, server, "the model's constants agree with the packaged defaults");
        assertEquals(ServerSettings.DEFAULTS, ServerSettings.builder().build());
        assertEquals(ProjectConfig.Scripts.DEFAULTS, config.scripts(),
                "the model's constant agrees with the packaged defaults");
    }

    @Test
    void toolErrorsAreResultOrRpcWhichItsOlderNameProtocolStillMeans(@TempDir Path dir) throws Exception {
        ProjectFixture p = ProjectFixture.withOneTool(dir);
        for (String[] written : new String[][] {{"result", "RESULT"}, {"rpc", "RPC"}, {" Protocol ", "RPC"}}) {
            p.write(".hyperterse", "name: x\nserver:\n  tool_errors: \"" + written[0] + "\"\n");
            assertEquals(ToolErrorMode.valueOf(written[1]), p.compile().config().server().toolErrors(), written[0]);
        }
    }

    @Test
    void theShareOfSessionsPerClientIsACountOrAPercentageOfMax(@TempDir Path dir) throws Exception {
        ProjectFixture p = ProjectFixture.withOneTool(dir);
        p.write(".hyperterse", "name: x\nserver:\n  sessions:\n    max: 200\n    per_client: 25%\n"
                + "  http:\n    header_timeout: 2s\n");
        ServerSettings server = p.compile().config().server();
        assertEquals(50, server.sessions().perClient());
        assertEquals(Duration.ofSeconds(2), server.limits().http().headers());
        assertEquals(Duration.ofMinutes(5), server.limits().http().idle(), "a sibling keeps its default");
        p.write(".hyperterse", "name: x\nserver:\n  sessions:\n    max: 200\n    per_client: 7\n");
        assertEquals(7, p.compile().config().server().sessions().perClient());
        for (String wrong : new String[] {"0", "0%", "150%", "lots", "-3"}) {
            p.write(".hyperterse", "name: x\nserver:\n  sessions:\n    per_client: '" + wrong + "'\n");
            Exception e = org.junit.jupiter.api.Assertions.assertThrows(Exception.class, p::compile, wrong);
            org.junit.jupiter.api.Assertions.assertTrue(e.getMessage().contains("'server.sessions.per_client' must be"),
                    e.getMessage());
        }
    }

    @Test
    void theProjectOverridesKeyByKey(@TempDir Path dir) throws Exception {
        ProjectFixture p = ProjectFixture.withOneTool(dir);
        p.write(".hyperterse", "name: x\nserver:\n  host: 0.0.0.0\n  sessions:\n    max: 3\ntools:\n  cache:\n    ttl:\n");
        ServerSettings server = p.compile().config().server();
        assertEquals("0.0.0.0", server.network().host());
        assertEquals(3, server.sessions().max());
        assertEquals(Duration.ofMinutes(30), server.sessions().idleTimeout(), "a sibling keeps its default");
        assertEquals(3, server.logLevel());
        assertEquals(new CachePolicy(false, 120), p.compile().config().tools().cache(),
                "a key with no value keeps the default");
    }

    @Test
    void aMissingResourceIsAClearInternalError() {
        IllegalStateException e = assertThrows(IllegalStateException.class, () -> PackagedDefaults.load("/conf/absent.yaml"));
        assertTrue(e.getMessage().contains("internal error") && e.getMessage().contains("/conf/absent.yaml")
                && e.getMessage().contains("missing from the classpath"), e.getMessage());
    }

    @Test
    void brokenDefaultsAreAnInternalError() {
        IllegalStateException e = assertThrows(IllegalStateException.class, () -> PackagedDefaults.parse("a: [1"));
        assertTrue(e.getMessage().contains("internal error"), e.getMessage());
        assertThrows(IllegalStateException.class, () -> PackagedDefaults.parse("- a list"));
    }
}

package dev.hyperterse.server;

import dev.hyperterse.testing.RunningServer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.ExecutionException;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** An adapter that cannot connect is named once in the start-up error, with the connector's reason. */
class AdapterFailureMessageTest {

    @Test
    void theAdapterIsNamedOnce(@TempDir Path dir) throws Exception {
        Path project = RunningServer.copyExample("quickstart", dir);
        // the database's folder cannot be created: a plain file holds its name
        Files.writeString(project.resolve("data"), "not a folder");

        ExecutionException failed = assertThrows(ExecutionException.class, () -> RunningServer.start(project).close());
        StartupException startup = assertInstanceOf(StartupException.class, failed.getCause());
        assertEquals(1, startup.reasons().size(), startup.reasons()::toString);
        String reason = startup.reasons().get(0);
        assertTrue(reason.contains("adapter 'shop' (sqlite) could not connect: cannot open SQLite database "
                + project.resolve("data/shop.db") + ": cannot create the folder " + project.resolve("data")
                + ": a file of that name is in the way"), reason);
        assertEquals(reason.indexOf("adapter 'shop'"), reason.lastIndexOf("adapter 'shop'"), reason);
    }
}

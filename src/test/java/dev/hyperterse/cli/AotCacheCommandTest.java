package dev.hyperterse.cli;

import org.junit.jupiter.api.Test;

import java.nio.file.Path;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

class AotCacheCommandTest {

    @Test
    void jdk25AndLaterGetAnAotCacheEarlierOnesAnAppCdsArchive() {
        assertEquals("-XX:AOTCacheOutput=", AotCacheCommand.Flags.forJdk(25).write());
        assertEquals("-XX:AOTCache=", AotCacheCommand.Flags.forJdk(26).use());
        assertEquals("-XX:ArchiveClassesAtExit=", AotCacheCommand.Flags.forJdk(17).write());
        assertEquals("-XX:SharedArchiveFile=", AotCacheCommand.Flags.forJdk(21).use());
        assertEquals("hyperterse.jsa", AotCacheCommand.Flags.forJdk(17).defaultFile());
    }

    @Test
    void thePrintedCommandUsesTheCacheWithTheTrainingFlags() {
        String command = AotCacheCommand.runCommand("/opt/jdk/bin/java", AotCacheCommand.Flags.forJdk(25),
                Path.of("/srv/hyperterse.aot"), List.of("-XX:+UseSerialGC"), Path.of("/srv/hyperterse.jar"),
                Path.of("my project"));
        assertEquals("/opt/jdk/bin/java -XX:AOTCache=/srv/hyperterse.aot -XX:+UseSerialGC -jar /srv/hyperterse.jar "
                + "start 'my project'", command);
    }

    @Test
    void callsAreToolEqualsAJsonObject() {
        var calls = AotCacheCommand.parseCalls(List.of("get-user={\"id\":1}"));
        assertEquals("get-user", calls.get(0).getKey());
        assertEquals(1, calls.get(0).getValue().getInteger("id"));
        IllegalArgumentException noTool = assertThrows(IllegalArgumentException.class,
                () -> AotCacheCommand.parseCalls(List.of("{\"id\":1}")));
        assertTrue(noTool.getMessage().contains("TOOL=JSON"), noTool.getMessage());
        IllegalArgumentException notJson = assertThrows(IllegalArgumentException.class,
                () -> AotCacheCommand.parseCalls(List.of("get-user=[1]")));
        assertTrue(notJson.getMessage().startsWith("--call get-user: the inputs must be a JSON object"),
                notJson.getMessage());
    }

    @Test
    void startWarnsOnlyAboutACacheTheJvmDidNotMap() {
        assertNull(StartCommand.unusedCacheWarning(List.of("-Xmx256m"), "mixed mode"), "no cache given");
        assertNull(StartCommand.unusedCacheWarning(List.of("-XX:AOTCache=/srv/h.aot"), "mixed mode, sharing"));
        String stale = StartCommand.unusedCacheWarning(List.of("-XX:AOTCache=/srv/h.aot"), "mixed mode");
        assertTrue(stale != null && stale.startsWith("the start-up cache /srv/h.aot is not in use")
                && stale.contains("aot-cache"), stale);
        String appCds = StartCommand.unusedCacheWarning(List.of("-XX:SharedArchiveFile=/srv/h.jsa"), "mixed mode");
        assertTrue(appCds != null && appCds.contains("/srv/h.jsa"), appCds);
    }
}

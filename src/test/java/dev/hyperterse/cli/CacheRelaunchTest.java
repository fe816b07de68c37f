package dev.hyperterse.cli;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The decision to start again with a start-up cache, and the command line it starts with (the start itself: PackagedJarIT). */
class CacheRelaunchTest {
    private static final String JAVA = "/opt/jdk/bin/java";
    private static final List<String> ARGS = List.of("-Xmx256m", "-jar", "/srv/hyperterse.jar", "start", "shop", "-p", "8080");

    @TempDir
    Path dir;

    @Test
    void aCacheBesideTheProjectGoesInFrontOfTheArgumentsAsGiven() throws Exception {
        Path project = Files.createDirectories(dir.resolve("shop"));
        Path cache = Files.writeString(project.resolve("hyperterse.aot"), "x");
        List<String> argv = CacheRelaunch.command(JAVA, ARGS, Map.of(), List.of(project), null, 25);
        assertEquals(List.of(JAVA, "-XX:AOTCache=" + cache.toAbsolutePath(), "-Xmx256m", "-jar", "/srv/hyperterse.jar",
                "start", "shop", "-p", "8080"), argv);
    }

    @Test
    void theJarsFolderIsLookedInAndBeforeJdk25TheAppCdsArchive() throws Exception {
        Path srv = Files.createDirectories(dir.resolve("srv"));
        Path jar = srv.resolve("hyperterse.jar");
        Files.writeString(srv.resolve("hyperterse.aot"), "x");
        assertNull(CacheRelaunch.command(JAVA, ARGS, Map.of(), List.of(), jar, 23), "JDK 23 reads hyperterse.jsa, not .aot");
        Path archive = Files.writeString(srv.resolve("hyperterse.jsa"), "x");
        assertEquals("-XX:SharedArchiveFile=" + archive.toAbsolutePath(),
                CacheRelaunch.command(JAVA, ARGS, Map.of(), List.of(), jar, 23).get(1));
        assertEquals("-XX:AOTCache=" + srv.resolve("hyperterse.aot").toAbsolutePath(),
                CacheRelaunch.command(JAVA, ARGS, Map.of(), List.of(), jar, 25).get(1));
    }

    @Test
    void noCacheNoNewStart() {
        assertNull(CacheRelaunch.command(JAVA, ARGS, Map.of(), List.of(dir), dir.resolve("hyperterse.jar"), 25));
    }

    @Test
    void theVariableTurnsItOffOrNamesTheCache() throws Exception {
        Files.writeString(dir.resolve("hyperterse.aot"), "x");
        assertNull(CacheRelaunch.command(JAVA, ARGS, Map.of(CacheRelaunch.VARIABLE, "off"), List.of(dir), null, 25));
        assertNull(CacheRelaunch.command(JAVA, ARGS, Map.of(CacheRelaunch.VARIABLE, " OFF "), List.of(dir), null, 25));
        Path named = Files.writeString(dir.resolve("elsewhere.aot"), "x");
        assertEquals("-XX:AOTCache=" + named.toAbsolutePath(),
                CacheRelaunch.command(JAVA, ARGS, Map.of(CacheRelaunch.VARIABLE, named.toString()), List.of(), null, 25).get(1));
        assertNull(CacheRelaunch.command(JAVA, ARGS, Map.of(CacheRelaunch.VARIABLE, dir.resolve("missing.aot").toString()),
                List.of(dir), null, 25), "a named cache that is not there: start as it is (start warns)");
    }

    @Test
    void aJvmThatChoseItsOwnCacheAgentOrSharingIsLeftAsItIs() throws Exception {
        Files.writeString(dir.resolve("hyperterse.aot"), "x");
        for (String own : List.of("-XX:AOTCache=/a.aot", "-XX:AOTMode=off", "-XX:AOTCacheOutput=/t.aot",
                "-XX:SharedArchiveFile=/a.jsa", "-XX:ArchiveClassesAtExit=/a.jsa", "-XX:+AutoCreateSharedArchive",
                "-Xshare:off", "-javaagent:/otel.jar", "-agentlib:jdwp=transport=dt_socket,server=y,address=5005",
                "-agentpath:/lib/profiler.so", "-Dcom.sun.management.jmxremote.port=9010",
                "--upgrade-module-path=/graal", "-XX:VMOptionsFile=/opts", "-XX:-UseSharedSpaces",
                "-XX:StartFlightRecording=duration=30s", "@jvm.opts")) {
            List<String> args = List.of(own, "-jar", "/srv/hyperterse.jar", "start");
            assertNull(CacheRelaunch.command(JAVA, args, Map.of(), List.of(dir), null, 25), own);
            assertNull(CacheRelaunch.command(JAVA, ARGS, Map.of("JAVA_TOOL_OPTIONS", "-Xss1m " + own), List.of(dir), null, 25),
                    "JAVA_TOOL_OPTIONS " + own);
            assertNull(CacheRelaunch.command(JAVA, ARGS, Map.of("JDK_JAVA_OPTIONS", own), List.of(dir), null, 25),
                    "JDK_JAVA_OPTIONS " + own);
        }
    }

    @Test
    void everyWordOfAnOptionsVariableIsRead() throws Exception {
        Files.writeString(dir.resolve("hyperterse.aot"), "x");
        // a quoted value with a space does not end the variable's options
        assertNull(CacheRelaunch.command(JAVA, ARGS, Map.of("JAVA_TOOL_OPTIONS", "-Dapp.name=\"my app\" -javaagent:/otel.jar"),
                List.of(dir), null, 25));
        assertNull(CacheRelaunch.command(JAVA, ARGS, Map.of("JDK_JAVA_OPTIONS", "@/etc/jvm.opts"), List.of(dir), null, 25));
        assertEquals("-XX:AOTCache=" + dir.resolve("hyperterse.aot").toAbsolutePath(), CacheRelaunch.command(JAVA, ARGS,
                Map.of("JAVA_TOOL_OPTIONS", "-Dapp.name=\"my app\" -Xss1m"), List.of(dir), null, 25).get(1));
    }

    @Test
    void aCacheOlderThanTheJarIsLeftForStartToReport() throws Exception {
        Path jar = Files.writeString(dir.resolve("hyperterse.jar"), "jar");
        Path cache = Files.writeString(dir.resolve("hyperterse.aot"), "x");
        Files.setLastModifiedTime(cache, java.nio.file.attribute.FileTime.fromMillis(System.currentTimeMillis() - 60_000));
        assertNull(CacheRelaunch.command(JAVA, ARGS, Map.of(), List.of(), jar, 25), "made for an earlier build");
        Files.setLastModifiedTime(cache, java.nio.file.attribute.FileTime.fromMillis(System.currentTimeMillis() + 60_000));
        assertEquals("-XX:AOTCache=" + cache.toAbsolutePath(), CacheRelaunch.command(JAVA, ARGS, Map.of(), List.of(), jar, 25).get(1));
    }

    @Test
    void onlyAWholeCommandLineReadBackIsStartedAgain() {
        List<String> program = List.of("start", "shop", "-p", "8080");
        assertTrue(CacheRelaunch.readBackWhole(ARGS, program));
        assertTrue(CacheRelaunch.readBackWhole(List.of("-cp", "/srv/h.jar", "dev.hyperterse.cli.Main", "start", "shop",
                "-p", "8080"), program));
        assertFalse(CacheRelaunch.readBackWhole(ARGS.subList(0, ARGS.size() - 1), program), "cut short");
        assertFalse(CacheRelaunch.readBackWhole(program, program), "no JVM part: a launcher that embeds the JVM");
        assertFalse(CacheRelaunch.readBackWhole(List.of("-Xmx1g", "start", "shop", "-p", "8080"), program), "no jar");
    }

    @Test
    void onlyTheJvmsOwnOptionsAreReadNotTheProgramsNorAnOptionsValue() {
        assertFalse(CacheRelaunch.optionsOfItsOwn(List.of("-jar", "/srv/h.jar", "start", "-XX:AOTCache=/a.aot")));
        assertFalse(CacheRelaunch.optionsOfItsOwn(List.of("-cp", "/srv/h.jar", "dev.hyperterse.cli.Main", "-Xshare:off")));
        assertFalse(CacheRelaunch.optionsOfItsOwn(List.of("--add-opens", "java.base/java.lang=ALL-UNNAMED", "-jar", "h.jar")));
        assertTrue(CacheRelaunch.optionsOfItsOwn(List.of("-cp", "/srv/h.jar", "-Xshare:off", "dev.hyperterse.cli.Main")));
        assertFalse(CacheRelaunch.optionsOfItsOwn(List.of()));
    }

    @Test
    void onlyAStartThatServesStartsAgain() {
        assertTrue(CacheRelaunch.isStart(new String[] {"start", "shop", "--port", "8080"}));
        assertTrue(CacheRelaunch.isStart(new String[] {"start"}));
        for (String[] other : List.of(new String[] {}, new String[] {"validate", "shop"}, new String[] {"aot-cache"},
                new String[] {"start", "--print-config"}, new String[] {"start", "--help"}, new String[] {"start", "-h"},
                new String[] {"start", "@args.txt"}, new String[] {"--version"})) {
            assertFalse(CacheRelaunch.isStart(other), String.join(" ", other));
        }
    }

    @Test
    void theProjectsFolderComesFromItsPathOrItsFile() throws Exception {
        Path shop = Files.createDirectories(dir.resolve("shop"));
        Path file = dir.resolve("conf/project.terse");
        assertEquals(List.of(shop), CacheRelaunch.projectFolders(new String[] {"start", "--port", "8080", shop.toString()}));
        assertEquals(List.of(file.getParent()), CacheRelaunch.projectFolders(new String[] {"start", "-f", file.toString()}));
        assertEquals(List.of(file.getParent()), CacheRelaunch.projectFolders(new String[] {"start", "--file=" + file}));
        assertEquals(List.of(file.getParent()), CacheRelaunch.projectFolders(new String[] {"start", "-f=" + file}));
        assertEquals(List.of(file.getParent()), CacheRelaunch.projectFolders(new String[] {"start", "-f" + file}));
        assertEquals(List.of(), CacheRelaunch.projectFolders(new String[] {"start", "--host", "0.0.0.0", "--log-level", "4"}));
    }

    @Test
    void onlyWhereExecReplacesTheProcess() {
        assertTrue(CacheRelaunch.replacesInPlace("Linux"));
        assertTrue(CacheRelaunch.replacesInPlace("Mac OS X"));
        assertFalse(CacheRelaunch.replacesInPlace("Windows 11"));
        assertFalse(CacheRelaunch.replacesInPlace("FreeBSD"));
    }
}

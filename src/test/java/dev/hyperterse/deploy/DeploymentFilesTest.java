package dev.hyperterse.deploy;

import dev.hyperterse.auth.AuthPlugins;
import dev.hyperterse.connector.Connectors;
import dev.hyperterse.project.ProjectCompiler;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.yaml.snakeyaml.LoaderOptions;
import org.yaml.snakeyaml.Yaml;
import org.yaml.snakeyaml.constructor.SafeConstructor;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The Dockerfile, docker-compose.yml and deploy/ files checked where no Docker engine runs: the
 * compose file parses, everything it mounts or builds exists, every served example project
 * compiles with the environment compose gives it, and the image build copies only what exists.
 */
class DeploymentFilesTest {
    static Map<String, Object> compose;
    static Map<String, Map<String, Object>> services;

    @BeforeAll
    @SuppressWarnings("unchecked")
    static void load() throws Exception {
        compose = new Yaml(new SafeConstructor(new LoaderOptions())).load(Files.readString(Path.of("docker-compose.yml")));
        services = (Map<String, Map<String, Object>>) compose.get("services");
        assertNotNull(services);
    }

    static List<String> profiles(Map<String, Object> service) {
        @SuppressWarnings("unchecked")
        List<String> p = (List<String>) service.get("profiles");
        return p == null ? List.of() : p;
    }

    @Test
    void servicesAndProfiles() {
        for (String s : List.of("postgres", "mysql", "redis", "redis-seed", "quickstart", "postgres-shop", "mysql-shop",
                "redis-shop", "scripts")) {
            assertTrue(services.containsKey(s), s);
            assertEquals(List.of(), profiles(services.get(s)), s + " runs by default");
        }
        for (String s : List.of("otel-collector", "jaeger")) {
            assertEquals(List.of("observability"), profiles(services.get(s)), s);
        }
        for (String s : List.of("hyperterse-node-1", "hyperterse-node-2", "load-balancer")) {
            assertEquals(List.of("scale"), profiles(services.get(s)), s);
        }
    }

    @Test
    @SuppressWarnings("unchecked")
    void everythingMountedExistsAndEveryDependencyIsAService() {
        for (Map.Entry<String, Map<String, Object>> e : services.entrySet()) {
            for (Object volume : (List<Object>) e.getValue().getOrDefault("volumes", List.of())) {
                String source = String.valueOf(volume).split(":")[0];
                if (source.startsWith("./")) {
                    assertTrue(Files.exists(Path.of(source)), e.getKey() + " mounts missing " + source);
                }
            }
            Object deps = e.getValue().get("depends_on");
            Iterable<String> names = deps instanceof Map ? ((Map<String, Object>) deps).keySet()
                    : deps == null ? List.of() : (List<String>) deps;
            for (String d : names) {
                assertTrue(services.containsKey(d), e.getKey() + " depends on unknown " + d);
            }
            if (e.getValue().containsKey("build")) {
                assertTrue(Files.isRegularFile(Path.of(String.valueOf(e.getValue().get("build")), "Dockerfile")));
            }
        }
    }

    @Test
    @SuppressWarnings("unchecked")
    void hostPortsAreDistinct() {
        Set<String> seen = new HashSet<>();
        for (Map.Entry<String, Map<String, Object>> e : services.entrySet()) {
            for (Object port : (List<Object>) e.getValue().getOrDefault("ports", List.of())) {
                String host = String.valueOf(port).split(":")[0];
                assertTrue(seen.add(host), "host port " + host + " used twice (" + e.getKey() + ")");
            }
        }
    }

    @Test
    @SuppressWarnings("unchecked")
    void everyServedProjectCompilesWithTheEnvironmentComposeGivesIt() throws Exception {
        int servers = 0;
        for (Map.Entry<String, Map<String, Object>> e : services.entrySet()) {
            List<String> command = (List<String>) e.getValue().get("command");
            if (command == null || command.isEmpty() || !"start".equals(command.get(0))) {
                continue;
            }
            servers++;
            String inImage = command.get(1);
            assertTrue(inImage.startsWith("/app/tools-examples/"), inImage);
            assertTrue(command.contains("0.0.0.0"), e.getKey() + " must listen on all interfaces in its container");
            Path local = Path.of("tools-examples", inImage.substring("/app/tools-examples/".length()));
            Map<String, String> env = new HashMap<>();
            ((Map<String, Object>) e.getValue().get("environment")).forEach((k, v) -> env.put(k, String.valueOf(v)));
            // the example's own .env must not be what makes it work: compose sets every variable
            Connectors connectors = Connectors.builtIn();
            AuthPlugins auth = AuthPlugins.builtIn();
            new ProjectCompiler(env, connectors.types(), auth.names()).compile(local);
            for (String adapterFile : adapterFiles(local)) {
                Matcher m = Pattern.compile("\\{\\{\\s*env\\.(\\w+)\\s*\\}\\}").matcher(Files.readString(Path.of(adapterFile)));
                while (m.find()) {
                    assertTrue(env.containsKey(m.group(1)), e.getKey() + " does not set " + m.group(1));
                }
            }
        }
        assertEquals(8, servers);
    }

    @Test
    @SuppressWarnings("unchecked")
    void everyExampleIsServedAndReadFromTheHostSoEditingItNeedsNoRebuild() throws Exception {
        Set<String> served = new HashSet<>();
        for (Map.Entry<String, Map<String, Object>> e : services.entrySet()) {
            List<String> command = (List<String>) e.getValue().get("command");
            if (command == null || command.isEmpty() || !"start".equals(command.get(0))) {
                continue;
            }
            String example = command.get(1).substring("/app/tools-examples/".length());
            served.add(example);
            List<String> volumes = ((List<Object>) e.getValue().getOrDefault("volumes", List.of())).stream()
                    .map(String::valueOf).toList();
            for (String part : List.of(".hyperterse", "app")) {
                String mount = "./tools-examples/" + example + "/" + part + ":/app/tools-examples/" + example + "/" + part + ":ro";
                assertTrue(volumes.contains(mount), e.getKey() + " does not mount " + mount + ": " + volumes);
            }
            // the port comes from $PORT, which the health check probes too
            assertFalse(command.contains("--port") || command.contains("-p"), e.getKey() + " sets its own port");
        }
        try (var examples = Files.list(Path.of("tools-examples"))) {
            Set<String> all = new HashSet<>(examples.filter(d -> Files.isRegularFile(d.resolve(".hyperterse")))
                    .map(d -> d.getFileName().toString()).toList());
            assertEquals(all, served, "every example project has a compose service");
        }
    }

    @Test
    @SuppressWarnings("unchecked")
    void databasesAreHealthyOnlyWhenTheirSeedScriptsHaveRun() {
        // the images run the init scripts on a server without TCP; the real one listens on TCP
        for (String db : List.of("postgres", "mysql")) {
            List<String> test = (List<String>) ((Map<String, Object>) services.get(db).get("healthcheck")).get("test");
            assertTrue(String.join(" ", test).contains("-h 127.0.0.1"), db + " health check must use TCP: " + test);
        }
    }

    @Test
    void theImageProbesThePortItServesOnAndItsNativeHelpersHaveAWritableHome() throws Exception {
        List<String> lines = joinedInstructions(Files.readString(Path.of("Dockerfile")));
        String healthcheck = lines.stream().filter(l -> l.startsWith("HEALTHCHECK")).findFirst().orElseThrow();
        assertTrue(healthcheck.contains("/dev/tcp/127.0.0.1/${PORT:-8080}"), healthcheck);
        assertTrue(lines.contains("ENV PORT=8080"), "the image sets PORT");
        String cmd = lines.stream().filter(l -> l.startsWith("CMD")).findFirst().orElseThrow();
        assertFalse(cmd.contains("--port"), "the default command leaves the port to $PORT: " + cmd);
        // Truffle and JNA unpack helpers under ~/.cache; a --user uid has no home at all
        assertTrue(lines.stream().anyMatch(l -> l.startsWith("ENV JAVA_TOOL_OPTIONS=") && l.contains("-Duser.home=/tmp")));
    }

    @Test
    void theReadmesBindMountCommandRunsAsTheFoldersOwner() throws Exception {
        String readme = Files.readString(Path.of("docs/operations.md"));
        Matcher run = Pattern.compile("docker run [^\\n]*-v \"\\$PWD/my-project:/project\"[^\\n]*").matcher(readme);
        assertTrue(run.find(), "the README shows a bind-mount docker run");
        assertTrue(run.group().contains("--user \"$(id -u):$(id -g)\""), run.group());
    }

    @Test
    @SuppressWarnings("unchecked")
    void clusteredNodesNameEachOtherAndTheBalancerNamesThem() throws Exception {
        String nginx = Files.readString(Path.of("deploy/nginx.conf"));
        for (String node : List.of("hyperterse-node-1", "hyperterse-node-2")) {
            Map<String, Object> service = services.get(node);
            assertTrue(((List<String>) service.get("command")).contains("--cluster"));
            Map<String, Object> env = (Map<String, Object>) service.get("environment");
            assertTrue(String.valueOf(env.get("HYPERTERSE_CLUSTER_MEMBERS")).contains(node));
            assertEquals(node, env.get("HYPERTERSE_CLUSTER_HOST"));
            assertTrue(nginx.contains("server " + node + ":8080 "), node);
        }
        assertTrue(nginx.contains("proxy_buffering off"), "SSE must not be buffered by the balancer");
        // a request that never reached a node goes to the next one; a call that may have run is never
        // sent twice (nginx passes a POST on only while it was not sent, unless non_idempotent is set)
        List<String> directives = nginx.lines().map(String::strip).filter(l -> !l.startsWith("#")).toList();
        assertTrue(directives.contains("proxy_next_upstream error timeout;"), directives.toString());
        // a POST is passed on after it was sent only when the node answered 503: it was not run
        assertTrue(directives.stream().filter(l -> l.contains("non_idempotent"))
                .allMatch(l -> l.equals("proxy_next_upstream http_503 non_idempotent;")), "POSTs are not retried once sent");
        assertTrue(directives.contains("error_page 503 = @refused;"), "a request a stopping node refused is sent again");
        assertTrue(directives.contains("random;"), "so a refused request may meet the stopping node again, which marks it failed");
        assertTrue(directives.contains("proxy_connect_timeout 2s;"), "a node that is gone is given up on quickly");
    }

    @Test
    void theDockerfileCopiesOnlyWhatExistsAndRunsAsANonRootUser() throws Exception {
        List<String> lines = joinedInstructions(Files.readString(Path.of("Dockerfile")));
        List<String> copies = new ArrayList<>();
        String lastUser = null;
        boolean healthcheck = false;
        int stages = 0;
        for (String line : lines) {
            String[] words = line.split("\\s+");
            switch (words[0].toUpperCase()) {
                case "FROM":
                    stages++;
                    lastUser = null;
                    break;
                case "COPY":
                    if (!line.contains("--from=")) {
                        for (int i = 1; i < words.length - 1; i++) {
                            copies.add(words[i]);
                        }
                    }
                    break;
                case "USER":
                    lastUser = words[1];
                    break;
                case "HEALTHCHECK":
                    healthcheck = line.contains("/heartbeat");
                    break;
                default:
                    break;
            }
        }
        assertEquals(2, stages, "a build stage and a runtime stage");
        for (String source : copies) {
            assertTrue(Files.exists(Path.of(source)), "COPY of missing " + source);
        }
        assertNotNull(lastUser);
        assertFalse(lastUser.equals("root") || lastUser.equals("0"), "the runtime stage runs as " + lastUser);
        assertTrue(healthcheck, "HEALTHCHECK probes /heartbeat");
        String pom = Files.readString(Path.of("pom.xml"));
        Matcher graal = Pattern.compile("<graalvm\\.version>([^<]+)</graalvm\\.version>").matcher(pom);
        assertTrue(graal.find(), "pom.xml names the GraalJS version as graalvm.version");
        assertTrue(Files.readString(Path.of("Dockerfile")).contains(":" + graal.group(1)),
                "the compiler jars must match the GraalJS version in the jar (" + graal.group(1) + ")");
        String ignored = Files.readString(Path.of(".dockerignore"));
        assertTrue(ignored.contains("target/"), "the build context leaves out build output");
    }

    /** Runs the image's launcher with a stand-in {@code java} that prints the arguments it was given. */
    private static List<String> launcherRun(Path home, Map<String, String> env) throws Exception {
        Path bin = Files.createDirectories(home.resolve("bin"));
        Path java = Files.writeString(bin.resolve("java"), "#!/bin/sh\nfor a in \"$@\"; do echo \"$a\"; done\n");
        java.toFile().setExecutable(true);
        ProcessBuilder run = new ProcessBuilder("sh", Path.of("deploy/docker/entrypoint.sh").toAbsolutePath().toString(),
                "start", "/project", "--host", "0.0.0.0").redirectErrorStream(true);
        run.environment().put("PATH", bin + ":" + System.getenv("PATH"));
        run.environment().put("HYPERTERSE_HOME", home.toString());
        run.environment().remove("HYPERTERSE_SCRIPTS_COMPILER");
        run.environment().putAll(env);
        Process p = run.start();
        List<String> out = new String(p.getInputStream().readAllBytes()).lines().toList();
        out = new ArrayList<>(out);
        out.add("exit " + p.waitFor());
        return out;
    }

    @Test
    void theImageStartsWithItsStartUpCacheOrTheScriptCompilerNeverBoth(@org.junit.jupiter.api.io.TempDir Path home)
            throws Exception {
        List<String> dockerfile = joinedInstructions(Files.readString(Path.of("Dockerfile")));
        assertTrue(dockerfile.contains("ENTRYPOINT [\"/app/entrypoint.sh\"]"), dockerfile.toString());
        assertTrue(dockerfile.stream().anyMatch(l -> l.startsWith("RUN java ") && l.contains(" aot-cache ")
                && l.contains("-o /app/hyperterse.aot")), "the image trains its start-up cache");
        String jar = home.resolve("hyperterse.jar").toString();
        String[] args = {"-jar", jar, "start", "/project", "--host", "0.0.0.0", "exit 0"};

        List<String> noCache = launcherRun(home, Map.of());
        assertFalse(noCache.stream().anyMatch(a -> a.startsWith("-XX:AOTCache")), "no cache file, no flag: " + noCache);
        assertEquals(List.of(args), noCache.subList(noCache.size() - args.length, noCache.size()));

        Files.writeString(home.resolve("hyperterse.aot"), "x");
        List<String> cached = launcherRun(home, Map.of());
        assertTrue(cached.contains("-XX:AOTCache=" + home.resolve("hyperterse.aot")), cached.toString());
        assertFalse(cached.stream().anyMatch(a -> a.contains("upgrade-module-path")), cached.toString());
        assertEquals(List.of(args), cached.subList(cached.size() - args.length, cached.size()));

        List<String> compiled = launcherRun(home, Map.of("HYPERTERSE_SCRIPTS_COMPILER", "graal"));
        assertTrue(compiled.contains("--upgrade-module-path=" + home.resolve("graal-compiler")), compiled.toString());
        assertTrue(compiled.contains("-XX:+EnableJVMCI"), compiled.toString());
        assertFalse(compiled.stream().anyMatch(a -> a.startsWith("-XX:AOTCache")),
                "the JVM maps no cache with --upgrade-module-path: " + compiled);
        assertEquals(List.of(args), compiled.subList(compiled.size() - args.length, compiled.size()));

        List<String> wrong = launcherRun(home, Map.of("HYPERTERSE_SCRIPTS_COMPILER", "fast"));
        assertEquals("exit 2", wrong.get(wrong.size() - 1), wrong.toString());
        assertTrue(wrong.get(0).contains("HYPERTERSE_SCRIPTS_COMPILER is 'fast'"), wrong.toString());
    }

    private static List<String> joinedInstructions(String dockerfile) {
        List<String> out = new ArrayList<>();
        StringBuilder current = new StringBuilder();
        for (String raw : dockerfile.split("\n")) {
            String line = raw.strip();
            if (current.length() == 0 && (line.isEmpty() || line.startsWith("#"))) {
                continue;
            }
            if (line.endsWith("\\")) {
                current.append(line, 0, line.length() - 1).append(' ');
                continue;
            }
            current.append(line);
            out.add(current.toString().strip());
            current.setLength(0);
        }
        return out;
    }

    private static List<String> adapterFiles(Path project) throws Exception {
        try (var walk = Files.walk(project.resolve("app/adapters"))) {
            return walk.filter(p -> p.toString().endsWith(".terse")).map(Path::toString).toList();
        }
    }
}

package dev.hyperterse.deploy;

import com.networknt.schema.InputFormat;
import com.networknt.schema.Schema;
import com.networknt.schema.SchemaRegistry;
import com.networknt.schema.SpecificationVersion;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.yaml.snakeyaml.LoaderOptions;
import org.yaml.snakeyaml.Yaml;
import org.yaml.snakeyaml.constructor.SafeConstructor;

import java.io.IOException;
import java.io.InputStream;
import java.net.URL;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Base64;
import java.util.Enumeration;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

/**
 * deploy/kubernetes: each overlay is rendered as kustomize renders it and every resource is
 * validated against the Kubernetes API's JSON schemas, strictly (an unknown field is an error, as
 * {@code kubectl apply} with server-side validation makes it); then what the resources say is
 * checked against what the server does (probes, drain, memory, cluster discovery).
 *
 * <p>Rendering: with {@code kubectl} on the PATH, {@code kubectl kustomize}; without it, this
 * test's own renderer, which does what the kustomization files here use and nothing more:
 * {@code resources} (files and folders), {@code configMapGenerator} ({@code files}),
 * {@code secretGenerator} ({@code envs}) and {@code patches} holding JSON patches (RFC 6902: add,
 * replace, remove) with a {@code target} kind and name; generated names get no hash suffix. When
 * both are there, the two renderings are compared, so the fallback stays faithful.
 *
 * <p>Schemas: the {@code schema/validation-schema.json} of fabric8's Kubernetes model jars (core,
 * apps, policy, autoscaling). They describe some types as their Java classes do, so before use
 * {@link KubernetesSchemas} writes back the wire form of {@code IntOrString} (integer or string)
 * and {@code Quantity} (string or number), turns {@code "required": true} on a property into the
 * object's {@code required} list, and closes every object that lists its properties
 * ({@code additionalProperties: false}, as kubeconform's strict mode does).
 */
class KubernetesManifestsTest {
    static final Path DIR = Path.of("deploy/kubernetes");
    static final List<String> OVERLAYS = List.of("single-node", "cluster");
    static KubernetesSchemas schemas;

    @BeforeAll
    static void loadSchemas() throws IOException {
        schemas = KubernetesSchemas.load();
    }

    @Test
    void everyOverlayRendersToResourcesKubernetesAccepts() throws Exception {
        for (String overlay : OVERLAYS) {
            List<JsonObject> resources = render(DIR.resolve("overlays").resolve(overlay));
            assertFalse(resources.isEmpty(), overlay);
            for (JsonObject resource : resources) {
                List<String> errors = schemas.validate(resource);
                assertEquals(List.of(), errors, overlay + ": " + id(resource));
            }
        }
        assertEquals(List.of("ConfigMap/hyperterse-config", "Deployment/hyperterse", "Secret/hyperterse-env",
                "Service/hyperterse"), ids(render(DIR.resolve("overlays/single-node"))));
        assertEquals(List.of("ConfigMap/hyperterse-config", "Deployment/hyperterse",
                "HorizontalPodAutoscaler/hyperterse", "PodDisruptionBudget/hyperterse", "Secret/hyperterse-env",
                "Service/hyperterse", "Service/hyperterse-cluster"), ids(render(DIR.resolve("overlays/cluster"))));
    }

    /** The validator is strict: a misspelt field, a wrong type or a missing kind each fail it. */
    @Test
    void theValidatorRefusesWhatKubernetesWould() throws Exception {
        JsonObject deployment = find(render(DIR.resolve("overlays/cluster")), "Deployment", "hyperterse");
        assertEquals(List.of(), schemas.validate(deployment));

        JsonObject misspelt = deployment.copy();
        JsonObject container = container(misspelt);
        container.put("readinessProbe", new JsonObject().put("httpGett", container.getJsonObject("readinessProbe")
                .getJsonObject("httpGet")));
        assertTrue(schemas.validate(misspelt).stream().anyMatch(e -> e.contains("httpGett")), schemas.validate(misspelt).toString());

        JsonObject wrongType = deployment.copy();
        wrongType.getJsonObject("spec").put("replicas", "three");
        assertFalse(schemas.validate(wrongType).isEmpty(), "replicas must be an integer");

        JsonObject badPort = deployment.copy();
        container(badPort).getJsonArray("ports").getJsonObject(0).put("containerPort", new JsonObject());
        assertFalse(schemas.validate(badPort).isEmpty(), "a port is a number");

        JsonObject service = find(render(DIR.resolve("overlays/cluster")), "Service", "hyperterse");
        service.getJsonObject("spec").getJsonArray("ports").getJsonObject(0).put("targetPort", 8080);
        assertEquals(List.of(), schemas.validate(service), "targetPort takes a number as well as a name");
        service.getJsonObject("spec").getJsonArray("ports").getJsonObject(0).put("targetPort", new JsonArray());
        assertFalse(schemas.validate(service).isEmpty(), "but not a list");

        JsonObject noKind = deployment.copy();
        noKind.remove("kind");
        assertFalse(schemas.validate(noKind).isEmpty(), "a resource without its kind");
    }

    @Test
    void theFallbackRendererAgreesWithKustomize() throws Exception {
        assumeTrue(kubectl() != null, "kubectl is not on the PATH: only the fallback renderer runs");
        for (String overlay : OVERLAYS) {
            Path dir = DIR.resolve("overlays").resolve(overlay);
            Map<String, JsonObject> kustomized = byId(withoutHashes(kustomize(dir)));
            Map<String, JsonObject> own = byId(new FallbackRenderer().render(dir));
            assertEquals(kustomized.keySet(), own.keySet(), overlay);
            for (String id : own.keySet()) {
                assertEquals(kustomized.get(id), own.get(id), overlay + ": " + id);
            }
        }
    }

    /** What the resources say fits what the server does. */
    @Test
    void theDeploymentFitsTheServer() throws Exception {
        for (String overlay : OVERLAYS) {
            List<JsonObject> resources = render(DIR.resolve("overlays").resolve(overlay));
            JsonObject deployment = find(resources, "Deployment", "hyperterse");
            JsonObject pod = deployment.getJsonObject("spec").getJsonObject("template").getJsonObject("spec");
            JsonObject container = container(deployment);
            assertEquals("/ready", container.getJsonObject("readinessProbe").getJsonObject("httpGet").getString("path"));
            assertEquals("/heartbeat", container.getJsonObject("livenessProbe").getJsonObject("httpGet").getString("path"));
            assertTrue(container.getJsonObject("readinessProbe").getInteger("timeoutSeconds") >= 3,
                    "/ready's pings give up after 2 s");

            // the operator settings the pods read are valid, and the grace period covers the stop
            JsonObject config = find(resources, "ConfigMap", "hyperterse-config");
            Path operatorFile = Files.createTempFile("hyperterse-operator", ".yaml");
            Files.writeString(operatorFile, config.getJsonObject("data").getString("hyperterse.yaml"));
            dev.hyperterse.cli.CliRunner.Run printed = dev.hyperterse.cli.CliRunner.run("start",
                    "tools-examples/quickstart", "--config", operatorFile.toString(), "--print-config");
            Files.delete(operatorFile);
            assertEquals(0, printed.code(), printed.err());
            long drain = seconds(printed.out(), "drain_period");
            long shutdown = seconds(printed.out(), "shutdown_timeout");
            assertEquals(5, drain);
            long closing = 45; // StartCommand.SHUTDOWN_CLOSING: past it the process halts
            assertTrue(pod.getInteger("terminationGracePeriodSeconds") > drain + shutdown + closing,
                    "Kubernetes would kill the pod before it stopped by itself: " + pod.getInteger("terminationGracePeriodSeconds"));
            assertTrue(container.getJsonArray("args").contains("--config")
                    && container.getJsonArray("args").contains("/etc/hyperterse/hyperterse.yaml"));

            // the heap the JVM is given fits the memory limit, with room for what is not heap
            String flags = env(container, "JAVA_TOOL_OPTIONS");
            assertTrue(flags.contains("-XX:+UseSerialGC") && flags.contains("-Xmx256m")
                    && flags.contains("-XX:+ExitOnOutOfMemoryError"), "the flags docs/operations.md recommends: " + flags);
            long limit = mebibytes(container.getJsonObject("resources").getJsonObject("limits").getString("memory"));
            long request = mebibytes(container.getJsonObject("resources").getJsonObject("requests").getString("memory"));
            assertTrue(limit >= 256 + 192 && request >= 256 + 64 && request <= limit, limit + " / " + request);

            // a rolling update starts the new pod before the old one stops
            JsonObject rolling = deployment.getJsonObject("spec").getJsonObject("strategy").getJsonObject("rollingUpdate");
            assertEquals(0, rolling.getInteger("maxUnavailable"));

            Map<String, Object> podLabels = deployment.getJsonObject("spec").getJsonObject("template")
                    .getJsonObject("metadata").getJsonObject("labels").getMap();
            JsonObject service = find(resources, "Service", "hyperterse");
            assertTrue(podLabels.entrySet().containsAll(service.getJsonObject("spec").getJsonObject("selector").getMap().entrySet()));
        }

        List<JsonObject> cluster = render(DIR.resolve("overlays/cluster"));
        JsonObject deployment = find(cluster, "Deployment", "hyperterse");
        JsonObject container = container(deployment);
        Map<String, Object> podLabels = deployment.getJsonObject("spec").getJsonObject("template")
                .getJsonObject("metadata").getJsonObject("labels").getMap();
        assertEquals("true", env(container, "HYPERTERSE_CLUSTER"));
        assertEquals("$(POD_IP)", env(container, "HYPERTERSE_CLUSTER_HOST"));
        JsonObject headless = find(cluster, "Service", "hyperterse-cluster");
        assertEquals("None", headless.getJsonObject("spec").getString("clusterIP"));
        assertEquals(true, headless.getJsonObject("spec").getBoolean("publishNotReadyAddresses"),
                "a pod joins the cluster before it is ready, so the lookup lists pods that are not");
        assertEquals("hyperterse-cluster.$(POD_NAMESPACE).svc.cluster.local",
                env(container, "HYPERTERSE_CLUSTER_KUBERNETES_DNS"), "the headless Service's name");
        assertTrue(podLabels.entrySet().containsAll(headless.getJsonObject("spec").getJsonObject("selector").getMap().entrySet()));
        JsonObject hazelcastPort = headless.getJsonObject("spec").getJsonArray("ports").getJsonObject(0);
        assertEquals(dev.hyperterse.server.ClusterOptions.DEFAULT_PORT, hazelcastPort.getInteger("port"));
        assertTrue(container.getJsonArray("ports").stream().map(JsonObject.class::cast).anyMatch(p ->
                p.getString("name").equals(hazelcastPort.getString("targetPort"))
                        && p.getInteger("containerPort") == dev.hyperterse.server.ClusterOptions.DEFAULT_PORT));
        // POD_IP and POD_NAMESPACE come before the variables that expand them
        List<String> names = container.getJsonArray("env").stream().map(e -> ((JsonObject) e).getString("name")).toList();
        assertTrue(names.indexOf("POD_IP") < names.indexOf("HYPERTERSE_CLUSTER_HOST")
                && names.indexOf("POD_NAMESPACE") < names.indexOf("HYPERTERSE_CLUSTER_KUBERNETES_DNS"), names.toString());

        JsonObject pdb = find(cluster, "PodDisruptionBudget", "hyperterse");
        assertTrue(podLabels.entrySet().containsAll(pdb.getJsonObject("spec").getJsonObject("selector")
                .getJsonObject("matchLabels").getMap().entrySet()));
        JsonObject hpa = find(cluster, "HorizontalPodAutoscaler", "hyperterse");
        JsonObject target = hpa.getJsonObject("spec").getJsonObject("scaleTargetRef");
        assertEquals("Deployment/hyperterse", target.getString("kind") + "/" + target.getString("name"));
        assertTrue(hpa.getJsonObject("spec").getInteger("minReplicas") >= 2, "a cluster outlives one pod");
        assertTrue(container.getJsonObject("resources").getJsonObject("requests").containsKey("cpu"),
                "CPU utilisation is measured against the request");
    }

    // ---- rendering ----

    static List<JsonObject> render(Path dir) throws Exception {
        return kubectl() != null ? withoutHashes(kustomize(dir)) : new FallbackRenderer().render(dir);
    }

    private static String kubectl() {
        for (String dir : System.getenv().getOrDefault("PATH", "").split(java.io.File.pathSeparator)) {
            Path candidate = Path.of(dir, "kubectl");
            if (Files.isExecutable(candidate)) {
                return candidate.toString();
            }
        }
        return null;
    }

    private static String kustomize(Path dir) throws Exception {
        Process p = new ProcessBuilder(kubectl(), "kustomize", dir.toString()).redirectErrorStream(false).start();
        byte[] out = p.getInputStream().readAllBytes();
        String err = new String(p.getErrorStream().readAllBytes(), StandardCharsets.UTF_8);
        assertTrue(p.waitFor(60, TimeUnit.SECONDS));
        assertEquals(0, p.exitValue(), "kubectl kustomize " + dir + ": " + err);
        return new String(out, StandardCharsets.UTF_8);
    }

    /** kustomize's rendering with the hash suffixes of generated names taken off (the fallback adds none). */
    static List<JsonObject> withoutHashes(String yaml) {
        String plain = yaml.replaceAll("(hyperterse-(?:config|env))-[a-z0-9]{10}\\b", "$1");
        List<JsonObject> out = new ArrayList<>();
        for (Object doc : new Yaml(new SafeConstructor(new LoaderOptions())).loadAll(plain)) {
            if (doc != null) {
                out.add(json(doc));
            }
        }
        return out;
    }

    @SuppressWarnings("unchecked")
    static JsonObject json(Object yaml) {
        return new JsonObject(new JsonObject((Map<String, Object>) yaml).encode());
    }

    static String id(JsonObject resource) {
        return resource.getString("kind") + "/" + resource.getJsonObject("metadata").getString("name");
    }

    private static List<String> ids(List<JsonObject> resources) {
        return resources.stream().map(KubernetesManifestsTest::id).sorted().toList();
    }

    private static Map<String, JsonObject> byId(List<JsonObject> resources) {
        Map<String, JsonObject> out = new TreeMap<>();
        resources.forEach(r -> out.put(id(r), r));
        return out;
    }

    private static JsonObject find(List<JsonObject> resources, String kind, String name) {
        return resources.stream().filter(r -> id(r).equals(kind + "/" + name)).findFirst()
                .orElseThrow(() -> new AssertionError("no " + kind + "/" + name + " in " + ids(resources)));
    }

    private static JsonObject container(JsonObject deployment) {
        return deployment.getJsonObject("spec").getJsonObject("template").getJsonObject("spec")
                .getJsonArray("containers").getJsonObject(0);
    }

    private static String env(JsonObject container, String name) {
        return container.getJsonArray("env").stream().map(JsonObject.class::cast)
                .filter(e -> name.equals(e.getString("name"))).map(e -> e.getString("value")).findFirst().orElse(null);
    }

    private static long seconds(String printedConfig, String key) {
        java.util.regex.Matcher m = java.util.regex.Pattern.compile("\\n\\s+" + key + ": (\\d+)s\\n").matcher(printedConfig);
        assertTrue(m.find(), key + " in " + printedConfig);
        return Long.parseLong(m.group(1));
    }

    private static long mebibytes(String quantity) {
        if (quantity.endsWith("Gi")) {
            return Long.parseLong(quantity.substring(0, quantity.length() - 2)) * 1024;
        }
        assertTrue(quantity.endsWith("Mi"), quantity);
        return Long.parseLong(quantity.substring(0, quantity.length() - 2));
    }

    /** The subset of kustomize the files here use (see the class comment); generated names get no hash. */
    static final class FallbackRenderer {
        private final Yaml yaml = new Yaml(new SafeConstructor(new LoaderOptions()));

        List<JsonObject> render(Path dir) throws IOException {
            JsonObject kustomization = json(yaml.load(Files.readString(dir.resolve("kustomization.yaml"))));
            List<JsonObject> out = new ArrayList<>();
            for (Object entry : kustomization.getJsonArray("resources", new JsonArray())) {
                Path path = dir.resolve((String) entry).normalize();
                if (Files.isDirectory(path)) {
                    out.addAll(render(path));
                } else {
                    for (Object doc : yaml.loadAll(Files.readString(path))) {
                        if (doc != null) {
                            out.add(json(doc));
                        }
                    }
                }
            }
            for (Object g : kustomization.getJsonArray("configMapGenerator", new JsonArray())) {
                JsonObject generator = (JsonObject) g;
                JsonObject data = new JsonObject();
                for (Object file : generator.getJsonArray("files")) {
                    Path path = dir.resolve((String) file);
                    data.put(path.getFileName().toString(), Files.readString(path));
                }
                out.add(new JsonObject().put("apiVersion", "v1").put("kind", "ConfigMap")
                        .put("metadata", new JsonObject().put("name", generator.getString("name"))).put("data", data));
            }
            for (Object g : kustomization.getJsonArray("secretGenerator", new JsonArray())) {
                JsonObject generator = (JsonObject) g;
                JsonObject data = new JsonObject();
                for (Object file : generator.getJsonArray("envs")) {
                    for (String line : Files.readAllLines(dir.resolve((String) file))) {
                        String l = line.strip();
                        if (l.isEmpty() || l.startsWith("#")) {
                            continue;
                        }
                        int eq = l.indexOf('=');
                        data.put(l.substring(0, eq), Base64.getEncoder().encodeToString(
                                l.substring(eq + 1).getBytes(StandardCharsets.UTF_8)));
                    }
                }
                out.add(new JsonObject().put("apiVersion", "v1").put("kind", "Secret")
                        .put("metadata", new JsonObject().put("name", generator.getString("name")))
                        .put("type", "Opaque").put("data", data));
            }
            for (Object p : kustomization.getJsonArray("patches", new JsonArray())) {
                JsonObject patch = (JsonObject) p;
                JsonObject target = patch.getJsonObject("target");
                List<Object> ops = yaml.load(Files.readString(dir.resolve(patch.getString("path"))));
                JsonObject resource = out.stream().filter(r -> r.getString("kind").equals(target.getString("kind"))
                                && r.getJsonObject("metadata").getString("name").equals(target.getString("name")))
                        .findFirst().orElseThrow(() -> new AssertionError("patch target " + target + " not found"));
                for (Object op : ops) {
                    apply(resource, json(op));
                }
            }
            return out;
        }

        /** One RFC 6902 operation: add, replace or remove, at a JSON pointer ({@code -} appends). */
        private static void apply(JsonObject document, JsonObject op) {
            String[] path = op.getString("path").substring(1).split("/");
            Object parent = document;
            for (int i = 0; i < path.length - 1; i++) {
                String step = path[i].replace("~1", "/").replace("~0", "~");
                parent = parent instanceof JsonObject ? ((JsonObject) parent).getValue(step)
                        : ((JsonArray) parent).getValue(Integer.parseInt(step));
                assertNotNull(parent, "no " + op.getString("path"));
            }
            String last = path[path.length - 1].replace("~1", "/").replace("~0", "~");
            Object value = op.getValue("value");
            switch (op.getString("op")) {
                case "add":
                    if (parent instanceof JsonArray) {
                        JsonArray array = (JsonArray) parent;
                        if (last.equals("-")) {
                            array.add(value);
                        } else {
                            array.getList().add(Integer.parseInt(last), value);
                        }
                    } else {
                        ((JsonObject) parent).put(last, value);
                    }
                    break;
                case "replace":
                    if (parent instanceof JsonArray) {
                        ((JsonArray) parent).set(Integer.parseInt(last), value);
                    } else {
                        assertTrue(((JsonObject) parent).containsKey(last), "replace of missing " + op.getString("path"));
                        ((JsonObject) parent).put(last, value);
                    }
                    break;
                case "remove":
                    if (parent instanceof JsonArray) {
                        ((JsonArray) parent).remove(Integer.parseInt(last));
                    } else {
                        ((JsonObject) parent).remove(last);
                    }
                    break;
                default:
                    throw new AssertionError("the fallback renderer does not apply '" + op.getString("op") + "'");
            }
        }
    }

    /** The Kubernetes API's JSON schemas from fabric8's model jars, made strict and wire-true (class comment). */
    static final class KubernetesSchemas {
        private static final String RESOURCE = "schema/validation-schema.json";
        private final Map<String, JsonObject> modules;
        private final SchemaRegistry registry = SchemaRegistry.withDefaultDialect(SpecificationVersion.DRAFT_4);
        private final Map<String, Schema> compiled = new HashMap<>();

        private KubernetesSchemas(Map<String, JsonObject> modules) {
            this.modules = modules;
        }

        static KubernetesSchemas load() throws IOException {
            Map<String, JsonObject> modules = new LinkedHashMap<>();
            Enumeration<URL> found = KubernetesManifestsTest.class.getClassLoader().getResources(RESOURCE);
            while (found.hasMoreElements()) {
                try (InputStream in = found.nextElement().openStream()) {
                    JsonObject module = new JsonObject(new String(in.readAllBytes(), StandardCharsets.UTF_8));
                    modules.put(module.getString("$module"), wireTrue(module));
                }
            }
            assertTrue(modules.keySet().containsAll(List.of("core", "apps", "policy", "autoscaling")), modules.keySet().toString());
            return new KubernetesSchemas(modules);
        }

        private static JsonObject wireTrue(JsonObject module) {
            module.remove("id");
            JsonObject definitions = module.getJsonObject("definitions");
            for (String name : List.copyOf(definitions.fieldNames())) {
                JsonObject definition = definitions.getJsonObject(name);
                String javaType = definition.getString("javaType", definition.getString("existingJavaType", ""));
                if (javaType.endsWith("IntOrString")) {
                    definitions.put(name, new JsonObject().put("type", new JsonArray().add("integer").add("string")));
                    continue;
                }
                if (javaType.endsWith("Quantity")) {
                    definitions.put(name, new JsonObject().put("type", new JsonArray().add("string").add("number")));
                    continue;
                }
                JsonObject properties = definition.getJsonObject("properties");
                if (properties == null) {
                    continue;
                }
                JsonArray required = new JsonArray();
                for (String property : properties.fieldNames()) {
                    Object schema = properties.getValue(property);
                    if (schema instanceof JsonObject && Boolean.TRUE.equals(((JsonObject) schema).remove("required"))) {
                        required.add(property);
                    }
                }
                if (!required.isEmpty()) {
                    definition.put("required", required);
                }
                if (Boolean.TRUE.equals(definition.getValue("additionalProperties"))) {
                    definition.put("additionalProperties", false);
                }
            }
            withoutJavaKeywords(module);
            return module;
        }

        /** Drops the generator's Java hints (javaType, existingJavaType, serializer, …), which validate nothing. */
        private static void withoutJavaKeywords(Object node) {
            if (node instanceof JsonObject) {
                JsonObject object = (JsonObject) node;
                for (String key : List.copyOf(object.fieldNames())) {
                    if (key.startsWith("java") || key.equals("existingJavaType") || key.equals("$module")
                            || key.equals("serializer") || key.equals("deserializer")
                            || key.equals("resources") && object.containsKey("definitions")) {
                        object.remove(key);
                    } else {
                        withoutJavaKeywords(object.getValue(key));
                    }
                }
            } else if (node instanceof JsonArray) {
                ((JsonArray) node).forEach(KubernetesSchemas::withoutJavaKeywords);
            }
        }

        /** The schema errors of one resource; an unknown apiVersion or kind is one. */
        List<String> validate(JsonObject resource) {
            String apiVersion = resource.getString("apiVersion", "");
            String kind = resource.getString("kind", "");
            String group = apiVersion.contains("/") ? apiVersion.substring(0, apiVersion.indexOf('/')) : "core";
            group = group.contains(".") ? group.substring(0, group.indexOf('.')) : group;
            String version = apiVersion.substring(apiVersion.indexOf('/') + 1);
            JsonObject module = modules.get(group);
            if (module == null) {
                return List.of("no schema for apiVersion '" + apiVersion + "'");
            }
            JsonObject definitions = module.getJsonObject("definitions");
            String definition = "kubernetes_" + group + "_" + version + "_" + kind;
            if (!definitions.containsKey(definition)) {
                definition = "kubernetes_" + group + "_" + kind;
            }
            if (kind.isEmpty() || !definitions.containsKey(definition)) {
                return List.of("no schema for kind '" + kind + "' of apiVersion '" + apiVersion + "'");
            }
            String key = group + "/" + definition;
            Schema schema = compiled.computeIfAbsent(key, k -> registry.getSchema(
                    module.copy().put("$ref", "#/definitions/" + k.substring(k.indexOf('/') + 1)).encode(), InputFormat.JSON));
            return schema.validate(resource.encode(), InputFormat.JSON).stream().map(Object::toString).toList();
        }
    }
}

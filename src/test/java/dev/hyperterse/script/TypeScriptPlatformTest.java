package dev.hyperterse.script;

import org.junit.jupiter.api.Test;
import org.w3c.dom.Element;
import org.w3c.dom.Node;
import org.w3c.dom.NodeList;

import javax.xml.parsers.DocumentBuilderFactory;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The fast TypeScript stripper needs swc4j's native library for the platform the server runs on:
 * the pom's OS-activated profiles add it, and {@code -Pall-platforms} adds all of them. Every
 * platform has the portable stripper: the TypeScript compiler the pom bundles.
 */
class TypeScriptPlatformTest {
    private static final Path POM = Path.of("pom.xml");

    @Test
    void namesPlatformsAsSwc4jDoes() {
        TypeScriptPlatform linux = TypeScriptPlatform.of("Linux", "amd64");
        assertEquals("linux-x86_64", linux.label());
        assertEquals("libswc4j-linux-x86_64.v.2.2.0.so", linux.nativeResource());
        assertTrue(linux.published());

        TypeScriptPlatform appleSilicon = TypeScriptPlatform.of("Mac OS X", "aarch64");
        assertEquals("libswc4j-macos-arm64.v.2.2.0.dylib", appleSilicon.nativeResource());
        assertTrue(appleSilicon.published());

        TypeScriptPlatform windows = TypeScriptPlatform.of("Windows 11", "amd64");
        assertEquals("libswc4j-windows-x86_64.v.2.2.0.dll", windows.nativeResource());
        assertTrue(windows.published());

        // swc4j 2.2.0 publishes nothing for these
        assertFalse(TypeScriptPlatform.of("Linux", "aarch64").published());
        assertFalse(TypeScriptPlatform.of("Mac OS X", "x86_64").published());
        assertFalse(TypeScriptPlatform.of("FreeBSD", "amd64").published());
    }

    @Test
    void theRunningPlatformsLibraryIsOnTheClassPathWhenSwc4jPublishesOne() {
        TypeScriptPlatform here = TypeScriptPlatform.current();
        ClassLoader loader = getClass().getClassLoader();
        if (here.published()) {
            // the profile for this machine was active: the jar built here holds its library
            assertNotNull(loader.getResource(here.nativeResource()),
                    here.nativeResource() + " is not on the class path: no swc4j profile matched " + here.label());
            assertNull(here.unavailableReason(loader));
        } else {
            String reason = here.unavailableReason(loader);
            assertTrue(reason.contains("no native library for " + here.label()), reason);
        }
    }

    @Test
    void aPublishedPlatformMissingFromTheJarSaysHowToBuildIt() {
        ClassLoader empty = new ClassLoader(null) { };
        String reason = TypeScriptPlatform.of("Windows 10", "amd64").unavailableReason(empty);
        assertTrue(reason.contains("windows-x86_64") && reason.contains("-Pall-platforms"), reason);
    }

    @Test
    void eachPublishedPlatformHasAProfileActivatedOnThatPlatformAndAllPlatformsHasThemAll() throws Exception {
        Element project = DocumentBuilderFactory.newInstance().newDocumentBuilder().parse(POM.toFile())
                .getDocumentElement();
        assertEquals(TypeScriptPlatform.SWC4J_VERSION, text(child(child(project, "properties"), "swc4j.version")));

        Set<String> activated = new HashSet<>();
        List<String> universal = null;
        for (Element profile : children(child(project, "profiles"), "profile")) {
            List<String> natives = swc4jNatives(profile);
            if ("all-platforms".equals(text(child(profile, "id")))) {
                universal = natives;
                continue;
            }
            Element activation = child(profile, "activation");
            Element os = activation == null ? null : child(activation, "os");
            if (os == null || natives.isEmpty()) {
                continue;
            }
            // the activation's words, read the way TypeScriptPlatform reads os.name/os.arch
            String osWord = child(os, "name") != null ? text(child(os, "name")) : text(child(os, "family"));
            TypeScriptPlatform platform = TypeScriptPlatform.of(osWord, text(child(os, "arch")));
            assertEquals(List.of("swc4j-" + platform.label()), natives,
                    "profile " + text(child(profile, "id")) + " adds another platform's library");
            activated.add(platform.label());
        }
        Set<String> published = new HashSet<>();
        TypeScriptPlatform.PUBLISHED.forEach(p -> published.add(p.label()));
        assertEquals(published, activated);
        assertNotNull(universal, "no all-platforms profile");
        assertEquals(published, new HashSet<>(universal.stream().map(a -> a.substring("swc4j-".length())).toList()));
    }

    @Test
    void thePortableStrippersCompilerIsTheOneThePomBundlesAndTheJarKeepsIt() throws Exception {
        Element project = DocumentBuilderFactory.newInstance().newDocumentBuilder().parse(POM.toFile())
                .getDocumentElement();
        assertEquals(CompilerTypeScript.VERSION, text(child(child(project, "properties"), "typescript.version")));
        assertNotNull(getClass().getClassLoader().getResource(CompilerTypeScript.RESOURCE), CompilerTypeScript.RESOURCE);
        // the shade filter keeps lib/typescript.js of the WebJar: the path the stripper loads
        String pom = java.nio.file.Files.readString(POM);
        String kept = "META-INF/resources/webjars/typescript/*/lib/typescript.js";
        assertTrue(pom.contains("<include>" + kept + "</include>"), "the shade filter does not keep " + kept);
        assertTrue(CompilerTypeScript.RESOURCE.matches(kept.replace("*", "[^/]+").replace(".", "\\.")),
                CompilerTypeScript.RESOURCE);
    }

    private static List<String> swc4jNatives(Element profile) {
        List<String> natives = new ArrayList<>();
        Element dependencies = child(profile, "dependencies");
        if (dependencies != null) {
            for (Element dependency : children(dependencies, "dependency")) {
                String artifact = text(child(dependency, "artifactId"));
                if (artifact.startsWith("swc4j-")) {
                    natives.add(artifact);
                }
            }
        }
        return natives;
    }

    private static Element child(Element parent, String name) {
        List<Element> found = children(parent, name);
        return found.isEmpty() ? null : found.get(0);
    }

    private static List<Element> children(Element parent, String name) {
        List<Element> found = new ArrayList<>();
        NodeList nodes = parent.getChildNodes();
        for (int i = 0; i < nodes.getLength(); i++) {
            Node node = nodes.item(i);
            if (node instanceof Element e && e.getTagName().equals(name)) {
                found.add(e);
            }
        }
        return found;
    }

    private static String text(Element element) {
        return element.getTextContent().strip();
    }
}

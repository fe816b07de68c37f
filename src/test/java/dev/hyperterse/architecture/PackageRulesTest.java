package dev.hyperterse.architecture;

import com.tngtech.archunit.core.domain.JavaClass;
import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import com.tngtech.archunit.core.importer.ImportOption;
import com.tngtech.archunit.lang.ArchRule;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

import java.util.List;
import java.util.stream.Stream;

import static com.tngtech.archunit.base.DescribedPredicate.describe;
import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noClasses;

/**
 * The design's package table, checked: each package depends only on what its "may use" column
 * names (docs/development.md lists the packages). A few dependencies that predate the check and
 * are due to move are named one by one below, so any new one fails.
 */
class PackageRulesTest {
    private static final String ROOT = "dev.hyperterse.";
    private static final JavaClasses CLASSES = new ClassFileImporter()
            .withImportOption(ImportOption.Predefined.DO_NOT_INCLUDE_TESTS).importPackages("dev.hyperterse");

    /**
     * Known dependencies against the table, each with where it should go: the JSON size estimate
     * (mcp → connector) belongs in a package both may use; the bundled embedder's presence (project
     * → search) and the output schema (pipeline → search) belong in model.
     */
    private static final List<String> KNOWN = List.of(
            "dev.hyperterse.connector.ResultBudget",
            "dev.hyperterse.search.TextEmbedder",
            "dev.hyperterse.search.InputSchema");

    /** A package, and the project packages it must not use. */
    record Rule(String pkg, List<String> never) {
        @Override
        public String toString() {
            return pkg + " uses none of " + never;
        }
    }

    static Stream<Rule> table() {
        List<String> all = List.of("cli", "project", "model", "mcp", "pipeline", "connector", "script", "auth",
                "search", "cache", "server", "telemetry", "conformance");
        return Stream.of(
                new Rule("model", all.stream().filter(p -> !p.equals("model")).toList()),
                new Rule("project", List.of("cli", "mcp", "pipeline", "connector", "script", "auth", "search", "cache",
                        "server", "telemetry")),
                new Rule("pipeline", List.of("cli", "project", "mcp", "server", "search")),
                new Rule("mcp", List.of("cli", "project", "server", "connector")),
                new Rule("connector", List.of("cli", "project", "mcp", "pipeline", "server", "search", "script", "auth",
                        "cache")),
                new Rule("script", List.of("cli", "project", "mcp", "pipeline", "server", "search", "connector", "auth",
                        "cache")),
                new Rule("auth", List.of("cli", "project", "mcp", "pipeline", "server", "search", "connector", "cache")),
                new Rule("search", List.of("cli", "project", "mcp", "pipeline", "server", "connector", "script", "auth",
                        "cache")),
                new Rule("cache", List.of("cli", "project", "mcp", "pipeline", "server", "search", "connector", "script",
                        "auth")),
                new Rule("telemetry", List.of("cli", "project", "mcp", "pipeline", "server", "search", "connector",
                        "script", "auth", "cache")),
                // test scaffolding: an MCP extension, and nothing else
                new Rule("conformance", all.stream().filter(p -> !p.equals("mcp") && !p.equals("conformance")).toList()));
    }

    @ParameterizedTest
    @MethodSource("table")
    void eachPackageUsesOnlyWhatTheTableAllows(Rule rule) {
        String[] forbidden = rule.never().stream().map(p -> ROOT + p + "..").toArray(String[]::new);
        ArchRule check = noClasses().that().resideInAPackage(ROOT + rule.pkg() + "..")
                .should().dependOnClassesThat(describe("reside in " + rule.never() + " (not a known exception)",
                        (JavaClass c) -> c.getPackage().getName().startsWith(ROOT) && !KNOWN.contains(c.getName())
                                && Stream.of(forbidden).anyMatch(f -> c.getPackageName().equals(f.substring(0, f.length() - 2))
                                || c.getPackageName().startsWith(f.substring(0, f.length() - 1)))));
        check.check(CLASSES);
    }

    /**
     * The two wire generations are sibling adapters over the shared MCP layer: {@code mcp.session}
     * (2025-03-26 … 2025-11-25, with the endpoint that routes every request) and
     * {@code mcp.stateless} (2026-07-28) never use each other, the shared {@code mcp} package uses
     * neither (the endpoint knows the 2026-07-28 adapter only as a {@code GenerationAdapter}, which
     * the server's wiring makes), and the HTTP guards use none of them.
     */
    @Test
    void theGenerationsDoNotReachIntoEachOther() {
        noClasses().that().resideInAPackage(ROOT + "mcp.stateless..")
                .should().dependOnClassesThat().resideInAPackage(ROOT + "mcp.session..")
                .check(CLASSES);
        noClasses().that().resideInAPackage(ROOT + "mcp.session..")
                .should().dependOnClassesThat().resideInAPackage(ROOT + "mcp.stateless..")
                .check(CLASSES);
        noClasses().that().resideInAPackage(ROOT + "mcp")
                .should().dependOnClassesThat().resideInAnyPackage(ROOT + "mcp.session..", ROOT + "mcp.stateless..")
                .check(CLASSES);
        noClasses().that().resideInAPackage(ROOT + "mcp.http..")
                .should().dependOnClassesThat().resideInAnyPackage(ROOT + "mcp", ROOT + "mcp.session..",
                        ROOT + "mcp.stateless..")
                .check(CLASSES);
    }

    /**
     * The MCP core (the method registry) is what both generations stand on: it uses no other
     * package of the project, so neither generation nor the methods it routes can leak into it.
     */
    @Test
    void theCoreUsesNoOtherPackageOfTheProject() {
        noClasses().that().resideInAPackage(ROOT + "mcp.core..")
                .should().dependOnClassesThat(describe("belong to the project outside mcp.core",
                        (JavaClass c) -> c.getPackageName().startsWith(ROOT)
                                && !c.getPackageName().startsWith(ROOT + "mcp.core")))
                .check(CLASSES);
    }

    /**
     * The conformance fixtures are test scaffolding that reaches the server as an MCP extension:
     * no package but the command line that wires them in knows of them, so the core serves them
     * through its extension registry and never branches on them.
     */
    @Test
    void onlyTheCommandLineKnowsTheConformanceFixtures() {
        noClasses().that().resideOutsideOfPackages(ROOT + "cli..", ROOT + "conformance..")
                .should().dependOnClassesThat().resideInAPackage(ROOT + "conformance..")
                .check(CLASSES);
    }
}

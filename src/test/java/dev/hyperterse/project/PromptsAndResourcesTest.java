package dev.hyperterse.project;

import dev.hyperterse.model.ArgumentDef;
import dev.hyperterse.model.PromptDef;
import dev.hyperterse.model.ResourceDef;
import dev.hyperterse.model.ToolDef;
import dev.hyperterse.testing.DemoProject;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;

import static dev.hyperterse.project.ProjectFixture.assertProblem;
import static dev.hyperterse.project.ProjectFixture.assertProblemAt;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** Reading Hyperterse 2.3 prompts and resources: the demo's shape, and one test per rule with file:line. */
class PromptsAndResourcesTest {
    @TempDir
    Path dir;
    ProjectFixture p;

    @BeforeEach
    void demo() {
        DemoProject.write(dir);
        p = new ProjectFixture(dir);
    }

    @Test
    void theDemoProjectCompilesAsItsFilesSay() throws Exception {
        Project project = p.compile();
        assertEquals(List.of("incident-update", "summarize-release"), List.copyOf(project.prompts().keySet()));
        PromptDef incident = project.prompts().get("incident-update");
        assertEquals("Incident update", incident.title());
        assertEquals(List.of("service", "severity"),
                incident.arguments().stream().map(ArgumentDef::name).collect(Collectors.toList()));
        assertTrue(incident.argument("service").required());
        assertFalse(incident.argument("severity").required());
        assertEquals(List.of("checkout", "catalog", "payments", "search"), incident.argument("service").completion());
        assertEquals("system", incident.messages().get(0).role());

        Map<String, ResourceDef> byName = project.resources().stream()
                .collect(Collectors.toMap(ResourceDef::name, r -> r));
        assertEquals(List.of("order-by-id", "order-file-by-id", "release-notes", "service-info"),
                project.resources().stream().map(ResourceDef::name).collect(Collectors.toList()));
        ResourceDef notes = byName.get("release-notes");
        assertEquals(ResourceDef.Source.FILE, notes.source());
        assertEquals("text/markdown", notes.mimeType());
        assertEquals(DemoProject.RELEASE_NOTES, new String(notes.bytes(), StandardCharsets.UTF_8));
        assertEquals("text/plain", byName.get("service-info").mimeType());
        assertEquals("shop://orders/{id}", byName.get("order-by-id").address());
        assertEquals(List.of("id"), byName.get("order-by-id").uriTemplate().variables());
        assertEquals(ResourceDef.Source.FILE_TEMPLATE, byName.get("order-file-by-id").source());
        assertTrue(project.derivedTools().isEmpty());
        assertTrue(p.warnings.isEmpty(), p.warnings.toString());
    }

    /**
     * A prompt argument may have a {@code default} (text; a number or boolean as written), which
     * a required one may not; a resource template's arguments come from its URI and have none.
     */
    @Test
    void aPromptArgumentMayHaveADefaultText() throws Exception {
        p.write("app/prompts/tone.terse", "arguments:\n  tone:\n    default: concise\n  count:\n    default: 3\n"
                + "messages:\n  - {role: user, text: 'Be {{ tone }}, in {{ count }} lines.'}\n");
        Project project = p.compile();
        assertEquals("concise", project.prompts().get("tone").argument("tone").defaultValue());
        assertEquals("3", project.prompts().get("tone").argument("count").defaultValue());
        assertEquals("sev3", project.prompts().get("incident-update").argument("severity").defaultValue());
        assertNull(project.prompts().get("summarize-release").argument("version").defaultValue());

        Path both = p.write("app/prompts/both.terse", "arguments:\n  x:\n    required: true\n    default: a\n"
                + "  y:\n    default: [a, b]\nmessages:\n  - {role: user, text: '{{ x }} {{ y }}'}\n");
        Path template = p.write("app/resources/by-id/config.terse", "uri_template: shop://things/{id}\n"
                + "text_template: 'thing {{ id }}'\narguments:\n  id:\n    default: '1'\n");
        ProjectException e = p.fails();
        assertProblem(e, both, 4, "argument 'x' of prompt 'both' is required, so its 'default' is never used");
        assertProblem(e, both, 6, "'arguments.y.default' must be a text (prompt arguments are text), got a list");
        assertProblem(e, template, 5, "unknown key", "default");
    }

    @Test
    void foldersComeFromTheRootFileAndDefaultToPromptsAndResources() throws Exception {
        p.write(".hyperterse", "name: demo\nprompts:\n  directory: my-prompts\nresources:\n  directory: res\n");
        ProjectException e = p.fails();
        Path root = p.file(".hyperterse");
        assertProblem(e, root, 3, "prompts folder", "does not exist");
        assertProblem(e, root, 5, "resources folder", "does not exist");
        Files.move(dir.resolve("app/prompts"), dir.resolve("app/my-prompts"));
        Files.move(dir.resolve("app/resources"), dir.resolve("app/res"));
        Project project = p.compile();
        assertEquals(2, project.prompts().size());
        assertEquals(4, project.resources().size());
    }

    @Test
    void aProjectWithoutTheFoldersHasNoPromptsOrResources() throws Exception {
        ProjectFixture bare = ProjectFixture.withOneTool(dir.resolve("bare"));
        Project project = bare.compile();
        assertTrue(project.prompts().isEmpty());
        assertTrue(project.resources().isEmpty());
    }

    @Test
    void everyPromptRuleIsReportedAtOnceWithFileAndLine() {
        Path bad = p.write("app/prompts/Bad Name.terse", String.join("\n",
                "description: x",
                "arguments:",
                "  topic: {required: true, completon: [a]}",
                "  9lives: {}",
                "messages:",
                "  - role: sistem",
                "    text: About {{ topik }} and {{ 1 + 1 }}",
                "  - text: no role",
                "colour: red",
                ""));
        Path empty = p.write("app/prompts/empty.terse", "messages: []\n");
        Path none = p.write("app/prompts/none.terse", "description: nothing to say\n");
        Path dup = p.write("app/prompts/other.terse", "name: incident-update\nmessages:\n  - {role: user, text: hi}\n");
        ProjectException e = p.fails();
        assertProblem(e, bad, 0, "prompt name 'Bad Name'", "invalid");
        assertProblemAt(e, bad, "completon", "unknown key 'arguments.topic.completon'");
        assertProblemAt(e, bad, "9lives", "argument name '9lives'");
        assertProblemAt(e, bad, "sistem", "message role 'sistem'", "one of user, assistant, system");
        assertProblemAt(e, bad, "topik", "{{ topik }}", "no argument 'topik'", "did you mean 'topic'?");
        assertProblemAt(e, bad, "topik", "malformed placeholder '{{ 1 + 1 }}'");
        assertProblemAt(e, bad, "no role", "has no 'role'");
        assertProblemAt(e, bad, "colour", "unknown key 'colour'");
        assertProblem(e, empty, 1, "at least one message");
        assertProblem(e, none, 1, "missing required key 'messages'");
        assertProblem(e, dup, 1, "duplicate prompt name 'incident-update'");
    }

    /** A placeholder never closed was sent as text: "{{ service" or "{{ service }" reached the client verbatim. */
    @Test
    void aPlaceholderNeverClosedIsReportedAtItsLine() {
        Path prompt = p.write("app/prompts/unclosed.terse", String.join("\n",
                "arguments:",
                "  service: {required: true}",
                "messages:",
                "  - role: user",
                "    text: About {{ service }} and {{ arguments.service",
                "  - role: user",
                "    text: Again {{ service }",
                "  - role: assistant",
                "    text: |",
                "      First line {{ service }}",
                "      then {{service",
                ""));
        Path text = p.write("app/resources/unclosed-text/config.terse",
                "uri_template: a://u/{id}\ntext_template: 'order {{ id }} of {{ id'\n");
        Path file = p.write("app/resources/unclosed-file/config.terse",
                "uri_template: a://f/{id}\nfile_template: '{{ id }}/{{ id }.txt'\n");
        ProjectException e = p.fails();
        assertProblem(e, prompt, 5, "malformed placeholder '{{ arguments.service'", "prompt 'unclosed'");
        assertProblem(e, prompt, 7, "malformed placeholder '{{ service }'");
        assertProblem(e, prompt, 10, "malformed placeholder '{{service'");
        assertProblem(e, text, 2, "malformed placeholder '{{ id'", "'text_template'");
        assertProblem(e, file, 2, "malformed placeholder '{{ id }.txt'", "'file_template'");
    }

    @Test
    void textThatOnlyLooksLikeBracesIsNotAPlaceholder() throws Exception {
        p.write("app/prompts/braces.terse", String.join("\n",
                "arguments:",
                "  service: {}",
                "messages:",
                "  - role: user",
                "    text: 'Report {{ service }} as JSON like {\"a\": {\"b\": 1}}, or an array {{1,2},{3,4}}'",
                ""));
        Project project = p.compile();
        assertTrue(project.prompts().containsKey("braces"));
    }

    /** A concrete 'uri' with {id} was served as a literal address no client could ask for meaningfully. */
    @Test
    void aUriWithBracesIsAskedToBeATemplate() {
        Path braces = p.write("app/resources/pages/config.terse",
                "description: one page\nuri: docs://pages/{id}\ntext: a page\n");
        Path closing = p.write("app/resources/half/config.terse", "uri: docs://half/id}\ntext: half\n");
        ProjectException e = p.fails();
        assertProblem(e, braces, 2, "'uri' of resource 'pages'", "'{' or '}'", "RFC 3986",
                "use 'uri_template' (docs://pages/{id}) with 'text_template'");
        assertProblem(e, closing, 1, "'uri' of resource 'half'", "'{' or '}'");
        assertEquals(2, e.problems().size(), e.problems().toString());
    }

    @Test
    void everyResourceRuleIsReportedAtOnceWithFileAndLine() {
        Path both = p.write("app/resources/both/config.terse",
                "uri: a://x\nuri_template: a://{x}\ntext: t\n");
        Path neither = p.write("app/resources/neither/config.terse", "text: t\n");
        Path twoSources = p.write("app/resources/two/config.terse", "uri: a://two\ntext: t\nfile: f.txt\n");
        Path noSource = p.write("app/resources/nosource/config.terse", "uri: a://none\n");
        Path wrongKind = p.write("app/resources/kind/config.terse",
                "uri_template: a://k/{id}\ntext: t\ntext_template: 'k {{ id }}'\n");
        Path badTemplate = p.write("app/resources/tpl/config.terse",
                "uri_template: a://t/{+path}\ntext_template: x\n");
        Path unknownVar = p.write("app/resources/var/config.terse", String.join("\n",
                "uri_template: a://v/{id}",
                "text_template: 'v {{ ide }}'",
                "arguments:",
                "  other: {completion: [x]}",
                ""));
        Path dupUri = p.write("app/resources/zz-dup/config.terse", "uri: docs://release-notes\ntext: again\n");
        Path relativeUri = p.write("app/resources/rel/config.terse", "uri: release-notes\ntext: t\nmime_type: text\n");
        ProjectException e = p.fails();
        assertProblem(e, both, 2, "sets both 'uri' and 'uri_template'");
        assertProblem(e, neither, 1, "sets neither 'uri'");
        assertProblem(e, twoSources, 3, "sets text and file");
        assertProblem(e, noSource, 1, "has no content", "text, file");
        assertProblem(e, wrongKind, 2, "'text' does not belong to a template");
        assertProblem(e, badTemplate, 1, "not an RFC 6570 level 1 template", "{+path}");
        assertProblem(e, unknownVar, 2, "{{ ide }}", "not a variable", "did you mean 'id'?");
        assertProblemAt(e, unknownVar, "other", "argument 'other'", "not a variable of its uri_template");
        assertProblem(e, dupUri, 0, "duplicate uri 'docs://release-notes'");
        assertProblem(e, relativeUri, 1, "must be an absolute URI");
        assertProblem(e, relativeUri, 3, "'mime_type'", "type/subtype");
    }

    @Test
    void aResourceFileMayNotLeaveTheProjectNorThroughASymbolicLink() throws Exception {
        Path outside = Files.writeString(dir.getParent().resolve(dir.getFileName() + "-outside.txt"), "outside");
        Path up = p.write("app/resources/up/config.terse", "uri: a://up\nfile: ../../../../etc/passwd\n");
        Files.createSymbolicLink(dir.resolve("app/resources/release-notes/link.md"), outside);
        Path linked = p.write("app/resources/linked/config.terse", "uri: a://linked\nfile: ../release-notes/link.md\n");
        Path missing = p.write("app/resources/missing/config.terse", "uri: a://missing\nfile: nope.md\n");
        Path tplUp = p.write("app/resources/tpl-up/config.terse",
                "uri_template: a://f/{id}\nfile_template: '../{{ id }}'\n");
        ProjectException e = p.fails();
        assertProblem(e, up, 2, "leaves the project folder");
        assertProblem(e, linked, 2, "leaves the project folder (through a symbolic link)");
        assertProblem(e, missing, 2, "'nope.md' does not exist");
        assertProblem(e, tplUp, 2, "leaves its resource folder");
        for (var problem : e.problems()) {
            assertFalse(problem.message().contains(outside.toString()), "the real path is not shown: " + problem);
        }
    }

    @Test
    void authBlocksOnPromptsAndResourcesAndTheRootDefault() throws Exception {
        p.write("app/prompts/secret.terse", String.join("\n",
                "auth:",
                "  plugin: api_key",
                "  policy: {value: k1}",
                "messages:",
                "  - {role: user, text: hi}",
                ""));
        p.write("app/resources/secret/config.terse", "uri: a://secret\ntext: t\nauth:\n  plugin: api_key\n  policy: {value: k2}\n");
        Project project = p.compile();
        assertEquals("api_key", project.prompts().get("secret").auth().plugin());
        assertNull(project.prompts().get("incident-update").auth());
        assertEquals("api_key", project.resources().stream().filter(r -> r.name().equals("secret")).findFirst()
                .orElseThrow().auth().plugin());
        Path bad = p.write("app/prompts/secret.terse", "auth:\n  plugin: nope\nmessages:\n  - {role: user, text: hi}\n");
        assertProblem(p.fails(), bad, 2, "nope");
    }

    @Test
    void statementTemplatesAndDatabaseCompletionsBecomeDerivedToolsWithBoundArgs() throws Exception {
        p.write("app/resources/order-row/config.terse", String.join("\n",
                "uri_template: shop://order-rows/{id}",
                "use: demo",
                "statement: SELECT {{ args.id }} AS id",
                "arguments:",
                "  id:",
                "    completion:",
                "      use: demo",
                "      statement: SELECT {{ args.prefix }} || '1' AS v",
                ""));
        Project project = p.compile();
        ResourceDef row = project.resources().stream().filter(r -> r.name().equals("order-row")).findFirst().orElseThrow();
        assertEquals(ResourceDef.Source.STATEMENT, row.source());
        assertEquals("application/json", row.mimeType());
        ToolDef derived = project.derivedTools().get(row.tool());
        assertEquals("SELECT {{ inputs.id }} AS id", derived.statement());
        assertEquals("demo", derived.use());
        String completion = row.argument("id").completionTool();
        assertEquals("SELECT {{ inputs.prefix }} || '1' AS v", project.derivedTools().get(completion).statement());
        assertFalse(project.tools().containsKey(row.tool()), "a derived tool is not a tool");
    }

    @Test
    void statementRulesOfTemplatesAndCompletions() {
        Path f = p.write("app/resources/order-row/config.terse", String.join("\n",
                "uri_template: shop://order-rows/{id}",
                "use: nodb",
                "statement: SELECT 1",
                ""));
        Path g = p.write("app/resources/order-row2/config.terse", String.join("\n",
                "uri_template: shop://order-rows2/{id}",
                "use: demo",
                "statement: SELECT {{ args.idd }}, {{ inputs.id }}, {{ env.NOPE }}",
                "arguments:",
                "  id:",
                "    completion: {use: demo, statement: 'SELECT {{ args.id }}'}",
                ""));
        Path h = p.write("app/resources/order-row3/config.terse", "uri_template: shop://r3/{id}\ntext_template: x\nuse: demo\n");
        ProjectException e = p.fails();
        assertProblem(e, f, 2, "unknown adapter 'nodb'", "known adapters: demo");
        assertFalse(e.problems().stream().anyMatch(x -> x.message().contains("'nodb' in 'use' (did you mean")),
                "nothing close to suggest");
        assertProblem(e, g, 3, "{{ args.idd }}", "did you mean 'id'?");
        assertProblem(e, g, 3, "{{ inputs.id }}", "write {{ args.id }}");
        assertProblem(e, g, 3, "environment variable 'NOPE' is not set");
        assertProblem(e, g, 6, "{{ args.id }}", "{{ args.prefix }}");
        assertProblem(e, h, 3, "'use'", "goes with 'statement'");
    }
}

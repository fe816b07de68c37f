package dev.hyperterse.search;

import dev.hyperterse.model.InputDef;
import dev.hyperterse.model.InputType;
import dev.hyperterse.model.ScriptRef;
import dev.hyperterse.model.SearchRanking;
import dev.hyperterse.model.ToolDef;
import org.junit.jupiter.api.Test;

import java.nio.file.Path;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;

class ValueKindsTest {

    private static final String[] KINDS = {"url", "email", "path", "date", "number", "quoted", "id", "code"};

    private static int kind(String name) {
        return 1 << List.of(KINDS).indexOf(name);
    }

    private static int kinds(String... names) {
        int bits = 0;
        for (String n : names) {
            bits |= kind(n);
        }
        return bits;
    }

    private static InputDef input(String name, InputType type, String description) {
        return new InputDef(name, type, description, false, false, null, null);
    }

    @Test
    void readsTheKindsOfValueARequestCarries() {
        assertEquals(kinds("url"), ValueKinds.carried("summarize https://example.com/pricing for me"));
        assertEquals(kinds("email"), ValueKinds.carried("the invoices of jane@example.com"));
        assertEquals(kinds("path"), ValueKinds.carried("open ./web/app and the notes in README.md"));
        assertEquals(kinds("date", "number"), ValueKinds.carried("orders since 2024-05-01"));
        assertEquals(kinds("date", "number"), ValueKinds.carried("meetings on March 3"), "a month and a day");
        assertEquals(kinds("number"), ValueKinds.carried("close issue 42"));
        assertEquals(kinds("quoted"), ValueKinds.carried("rename the \"Billing Portal\" app"));
        assertEquals(kinds("id"), ValueKinds.carried("the callback URLs of client 8fJ2kQp0"));
        assertEquals(kinds("code"), ValueKinds.carried("run cache.extract() in the app"));
        assertEquals(0, ValueKinds.carried("which inboxes are shared with the sales team?"), "no value at all");
        assertEquals(0, ValueKinds.carried(""));
        // a word with a digit is no number, a version's dots no date; an apostrophe inside a word quotes nothing
        assertEquals(0, ValueKinds.carried("the team's v2 dashboards, it's 3x faster"));
        // a month only by its whole name or abbreviation: "mark", "decks" and "junior" are none
        assertEquals(kinds("number"), ValueKinds.carried("mark 3 tasks as done"));
        assertEquals(kinds("number"), ValueKinds.carried("show the 5 decks of 2 junior players"));
        assertEquals(kinds("date", "number"), ValueKinds.carried("invoices from 3 sept. to dec 12"));
    }

    @Test
    void aLongRequestIsReadOnlyAsFarAsTheSearchTakesOne() {
        // a value past the first thousand characters is not read, and requests of repeated near-matches
        // (unclosed quotes, runs of word characters with no @, calls with no closing parenthesis, hyphenated
        // runs an identifier or a file name could start in) are read in bounded time: the patterns have no
        // unbounded repetition (a pattern that backtracked on these would take seconds to years, not milliseconds)
        assertEquals(0, ValueKinds.carried("a".repeat(ValueKinds.MAX_CHARS) + " https://example.com"));
        assertTimeoutPreemptively(java.time.Duration.ofSeconds(5), () -> {
            for (String worst : List.of("\u201c".repeat(1000), "a-".repeat(500), "a(".repeat(500), "'a".repeat(500),
                    "1.".repeat(500), "a@".repeat(500))) {
                for (int i = 0; i < 20; i++) {
                    ValueKinds.carried(worst);
                }
            }
        });
        assertEquals(0, ValueKinds.carried("\"" + "x(".repeat(300) + "ab@".repeat(2000)));
        assertEquals(kinds("email"), ValueKinds.carried("ab@".repeat(300) + "x.io"));
    }

    @Test
    void readsTheKindsAToolTakesFromItsInputs() {
        assertEquals(kinds("url", "quoted"), ValueKinds.takes(input("targetUrl", InputType.STRING, "The page to read")));
        assertEquals(kinds("email", "quoted"), ValueKinds.takes(input("to", InputType.STRING, "Recipient e-mail address")));
        assertEquals(kinds("path", "quoted"), ValueKinds.takes(input("file_path", InputType.STRING, null)));
        assertEquals(kinds("date"), ValueKinds.takes(input("from", InputType.DATETIME, "")));
        assertEquals(kinds("date", "quoted"), ValueKinds.takes(input("since", InputType.STRING, "Only entries after this")));
        assertEquals(kinds("number"), ValueKinds.takes(input("limit", InputType.INT, "How many")));
        assertEquals(kinds("id", "number"), ValueKinds.takes(input("issueId", InputType.INT, "")));
        assertEquals(kinds("id"), ValueKinds.takes(input("key", InputType.UUID, "")));
        assertEquals(kinds("code", "quoted"), ValueKinds.takes(input("expression", InputType.STRING, "JavaScript to run")));
        // words inside other words say nothing: "update" holds no date, "profile" no file
        assertEquals(kinds("quoted"), ValueKinds.takes(input("mode", InputType.STRING, "update the profile")));
        assertEquals(0, ValueKinds.takes(input("force", InputType.BOOLEAN, "")));
        assertEquals(0, ValueKinds.takes(input(null, null, null)), "nothing declared, nothing taken");
        // words end at ASCII letters and digits only, on any JDK: "éurl" names a url as "url" does
        assertEquals(kinds("url"), ValueKinds.takes(input("x", InputType.BOOLEAN, "the éurl")));
    }

    @Test
    void weighsARequestsKindsAgainstEachTools() {
        ToolDef fetch = ToolDef.builder("fetch-page").description("Reads a web page")
                .inputs(List.of(input("url", InputType.STRING, "The address"))).build();
        ToolDef count = ToolDef.builder("count-pages").description("How many pages are stored").inputs(List.of()).build();
        ToolDef issue = ToolDef.builder("close-issue").description("Closes an issue")
                .inputs(List.of(input("number", InputType.INT, "The issue's number"))).build();
        ValueKinds values = new ValueKinds(new ToolDef[] {fetch, count, issue});
        int request = ValueKinds.carried("read https://example.com/a and tell me about issue 42");
        assertEquals(kinds("url", "number"), request);
        double[] f = values.features(request, 0);
        assertEquals(ValueKinds.COUNT, f.length);
        assertEquals(1, f[0], "the URL, which it takes");
        assertEquals(0, f[4], "no number input");
        assertEquals(0.5, f[ValueKinds.KINDS], "one of the request's two kinds");
        assertEquals(0, f[ValueKinds.KINDS + 1]);
        double[] none = new double[ValueKinds.COUNT];
        none[ValueKinds.KINDS + 1] = 1;
        assertArrayEquals(none, values.features(request, 1), "a tool with no input, for a request that carries values");
        assertArrayEquals(new double[ValueKinds.COUNT], values.features(0, 1), "a request with no value");
        assertEquals(1, values.features(request, 2)[4]);
        assertEquals(0.5, values.features(request, 2)[ValueKinds.KINDS]);
        // a handler with open inputs that declares none takes whatever it is sent: not a tool with no input
        ToolDef open = ToolDef.builder("echo").description("Returns what it is sent")
                .handler(new ScriptRef(Path.of("app/tools/echo/handler.ts"), "default", null)).openInputs(true).build();
        assertEquals(0, new ValueKinds(new ToolDef[] {open}).features(request, 0)[ValueKinds.KINDS + 1]);
    }

    @Test
    void theStaticRankingsDumpHoldsTheKindsAfterTheWordMatches() {
        ToolDef fetch = ToolDef.builder("fetch-page").description("Reads a web page")
                .inputs(List.of(input("url", InputType.STRING, "The address"))).build();
        ToolDef count = ToolDef.builder("count-pages").description("How many web pages are stored").inputs(List.of()).build();
        SearchIndex index = new SearchIndex(List.of(fetch, count), 10, SearchRanking.STATIC, RankFusion.DEFAULT);
        index.embedToolsStatically();
        String[] rows = index.learnedOrderFeatures("read the web page https://example.com/a").split("\n");
        int first = 1 + LearnedOrder.BASE + TokenMatches.COUNT;
        int seen = 0;
        for (String row : rows) {
            String[] f = row.split("\t");
            if (f[0].equals("fetch-page")) {
                assertEquals(1, Double.parseDouble(f[first]), "a URL carried and taken: " + row);
                assertEquals(0, Double.parseDouble(f[first + ValueKinds.KINDS + 1]), row);
                seen++;
            } else if (f[0].equals("count-pages")) {
                assertEquals(0, Double.parseDouble(f[first]), row);
                assertEquals(1, Double.parseDouble(f[first + ValueKinds.KINDS + 1]), "no input, for a request with a URL: " + row);
                seen++;
            }
        }
        assertEquals(2, seen);
    }
}

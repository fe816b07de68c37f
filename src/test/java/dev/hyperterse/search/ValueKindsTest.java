package dev.hyperterse.search;

import dev.hyperterse.model.InputDef;
import dev.hyperterse.model.InputType;
import dev.hyperterse.model.ToolDef;
import org.junit.jupiter.api.Test;

import java.util.List;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;

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
    }

    @Test
    void aLongRequestIsReadOnlyAsFarAsTheSearchTakesOne() {
        // a value past the first thousand characters is not read, and a request of repeated near-matches
        // (an unclosed quote, a run of word characters with no @, a call with no closing parenthesis) is read
        // once through
        assertEquals(0, ValueKinds.carried("a".repeat(ValueKinds.MAX_CHARS) + " https://example.com"));
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
    }
}

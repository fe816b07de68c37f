package dev.hyperterse.model;

import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;

/**
 * Matching a URI against a template: values split as a greedy regular expression would split
 * them, in time linear in the URI. The regular expression the matcher replaced backtracked: a URI
 * of 60,000 dashes against {@code docs://{section}-{page}} held the event loop for 26 seconds.
 */
class UriTemplateTest {

    @Test
    void valuesAreDecodedAndSplitGreedily() {
        UriTemplate t = UriTemplate.parse("docs://{section}-{page}");
        assertEquals(Map.of("section", "intro", "page", "2"), t.match("docs://intro-2"));
        assertEquals(Map.of("section", "a-b", "page", "c"), t.match("docs://a-b-c"));
        assertEquals(Map.of("section", "a b", "page", "é"), t.match("docs://a%20b-%C3%A9"));
        assertNull(t.match("docs://a/b-c"));
        assertNull(t.match("docs://-c"));
        assertNull(t.match("docs://a-"));
        assertNull(t.match("docs://a%zz-b"));
        assertEquals(Map.of("id", "42"), UriTemplate.parse("shop://orders/{id}").match("shop://orders/42"));
        assertNull(UriTemplate.parse("shop://orders/{id}").match("shop://orders/"));
    }

    @Test
    void adversarialUrisMatchInLinearTime() {
        String dashes = "-".repeat(1_000_000);
        assertTimeoutPreemptively(Duration.ofSeconds(20), () -> {
            assertNull(UriTemplate.parse("docs://{section}-{page}").match("docs://" + dashes + "/"));
            assertNull(UriTemplate.parse("docs://{a}-{b}-{c}").match("docs://" + dashes + "/"));
            assertNull(UriTemplate.parse("docs://{a}-{b}-{c}/x").match("docs://" + dashes + "/y"));
            assertNull(UriTemplate.parse("{a}.{b}.{c}.{d}").match(".".repeat(1_000_000) + "#"));
            Map<String, String> values = UriTemplate.parse("docs://{a}-{b}").match("docs://" + dashes);
            assertEquals(dashes.length() - 2, values.get("a").length());
            assertEquals("-", values.get("b"));
        });
    }

    @Test
    void agreesWithTheGreedyRegularExpressionOnRandomUris() {
        List<String> templates = List.of("docs://{section}-{page}", "{a}.{b}", "x/{a}-{b}-{c}/y", "s://{a}--{b}?q",
                "{a}ab{b}", "p{a}", "{a}");
        Random random = new Random(7);
        String alphabet = "ab-./?#%2";
        for (String text : templates) {
            UriTemplate template = UriTemplate.parse(text);
            Pattern regex = regexOf(text);
            for (int i = 0; i < 20_000; i++) {
                StringBuilder uri = new StringBuilder();
                String[] pieces = text.split("\\{[a-z]+\\}", -1);
                for (int j = 0; j < pieces.length; j++) {
                    uri.append(pieces[j]);
                    if (j < pieces.length - 1) {
                        int length = random.nextInt(6);
                        for (int c = 0; c < length; c++) {
                            uri.append(alphabet.charAt(random.nextInt(alphabet.length())));
                        }
                    }
                }
                if (random.nextInt(10) == 0 && uri.length() > 0) {
                    uri.deleteCharAt(random.nextInt(uri.length()));
                }
                String u = uri.toString();
                assertEquals(regexMatch(regex, template, u), template.match(u), text + " against " + u);
            }
        }
    }

    /** The regular expression the matcher replaced: each variable greedy over {@code [^/?#]+}. */
    private static Pattern regexOf(String text) {
        Matcher m = Pattern.compile("\\{([^{}]*)\\}").matcher(text);
        StringBuilder regex = new StringBuilder();
        int last = 0;
        while (m.find()) {
            regex.append(Pattern.quote(text.substring(last, m.start()))).append("([^/?#]+)");
            last = m.end();
        }
        return Pattern.compile(regex.append(Pattern.quote(text.substring(last))).toString());
    }

    private static Map<String, String> regexMatch(Pattern regex, UriTemplate template, String uri) {
        Matcher m = regex.matcher(uri);
        if (!m.matches()) {
            return null;
        }
        Map<String, String> raw = new LinkedHashMap<>();
        for (int i = 0; i < template.variables().size(); i++) {
            raw.put(template.variables().get(i), m.group(i + 1));
        }
        // decoding is the matcher's own: a single-variable template over the same value decodes it
        Map<String, String> values = new LinkedHashMap<>();
        for (Map.Entry<String, String> e : raw.entrySet()) {
            Map<String, String> one = UriTemplate.parse("{v}").match(e.getValue());
            if (one == null) {
                return null;
            }
            values.put(e.getKey(), one.get("v"));
        }
        return values;
    }
}

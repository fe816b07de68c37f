package dev.hyperterse.model;

import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * An RFC 6570 level 1 URI template ({@code shop://orders/{id}}): literal text and simple
 * {@code {var}} expressions. Level 1 expansion percent-encodes everything but unreserved
 * characters, so a variable's value never spans a {@code /}, {@code ?} or {@code #}; matching a
 * URI reverses that and percent-decodes each value. Where a URI could be split more than one way
 * (literal text that a value may also hold), each variable takes the longest value that lets the
 * rest match, as a greedy regular expression would; the match costs time linear in the URI
 * (for a template's fixed literals), whatever the URI holds, since the URI is the caller's.
 */
public final class UriTemplate {
    private static final Pattern EXPRESSION = Pattern.compile("\\{([^{}]*)\\}");
    private static final Pattern VARIABLE = Pattern.compile("[A-Za-z0-9_]+");

    private final String text;
    private final List<String> variables;
    /** The literal text before the first variable, between each two, and after the last. */
    private final List<String> literals;

    private UriTemplate(String text, List<String> variables, List<String> literals) {
        this.text = text;
        this.variables = List.copyOf(variables);
        this.literals = List.copyOf(literals);
    }

    /**
     * @throws IllegalArgumentException naming what is wrong: an expression that is not level 1,
     *                                  a repeated variable, adjacent variables, or no variable at all
     */
    public static UriTemplate parse(String text) {
        List<String> variables = new ArrayList<>();
        List<String> literals = new ArrayList<>();
        Matcher m = EXPRESSION.matcher(text);
        int last = 0;
        while (m.find()) {
            String literal = text.substring(last, m.start());
            if (literal.indexOf('{') >= 0 || literal.indexOf('}') >= 0) {
                throw new IllegalArgumentException("unbalanced '{' or '}'");
            }
            if (m.start() > 0 && last == m.start() && !variables.isEmpty()) {
                throw new IllegalArgumentException("variables {" + variables.get(variables.size() - 1) + "} and {"
                        + m.group(1) + "} must be separated by literal text");
            }
            String name = m.group(1).trim();
            if (!VARIABLE.matcher(name).matches()) {
                throw new IllegalArgumentException("'{" + m.group(1) + "}' is not a level 1 expression: use {name} "
                        + "with letters, digits and '_' (operators such as +, #, /, ? and lists are not supported)");
            }
            if (variables.contains(name)) {
                throw new IllegalArgumentException("variable {" + name + "} appears twice");
            }
            variables.add(name);
            literals.add(literal);
            last = m.end();
        }
        String tail = text.substring(last);
        if (tail.indexOf('{') >= 0 || tail.indexOf('}') >= 0) {
            throw new IllegalArgumentException("unbalanced '{' or '}'");
        }
        if (variables.isEmpty()) {
            throw new IllegalArgumentException("it has no {variable}; a resource without one takes 'uri'");
        }
        literals.add(tail);
        return new UriTemplate(text, variables, literals);
    }

    public String text() {
        return text;
    }

    public List<String> variables() {
        return variables;
    }

    /**
     * The decoded variable values when {@code uri} matches, else null. A regular expression
     * ({@code lit([^/?#]+)lit([^/?#]+)…}) backtracks: for two variables around a {@code -}, a URI
     * of dashes took time quadratic in its length (seconds for 60,000 characters, on the event
     * loop), cubic for three. Here one pass from the end marks where each variable may end with
     * the rest of the template matching after it; a pass from the start then gives each variable
     * the longest such value.
     */
    public Map<String, String> match(String uri) {
        int n = uri.length();
        int k = variables.size();
        String head = literals.get(0);
        String tail = literals.get(k);
        if (!uri.startsWith(head) || !uri.endsWith(tail) || n < head.length() + tail.length() + k) {
            return null;
        }
        // runEnd[p]: where the run of characters a value may hold that starts at p ends
        int[] runEnd = new int[n + 1];
        runEnd[n] = n;
        for (int p = n - 1; p >= 0; p--) {
            char c = uri.charAt(p);
            runEnd[p] = c == '/' || c == '?' || c == '#' ? p : runEnd[p + 1];
        }
        // ends[i][q]: variable i may end at q (its literal and the rest of the template match from q)
        boolean[][] ends = new boolean[k][];
        boolean[] nextStarts = null;
        for (int i = k - 1; i >= 0; i--) {
            String literal = literals.get(i + 1);
            boolean[] end = new boolean[n + 1];
            for (int q = 0; q + literal.length() <= n; q++) {
                int after = q + literal.length();
                end[q] = (i == k - 1 ? after == n : nextStarts[after]) && uri.startsWith(literal, q);
            }
            ends[i] = end;
            // starts[p]: variable i may start at p, i.e. may end somewhere in (p, runEnd[p]]
            boolean[] starts = new boolean[n + 1];
            int nearestEnd = Integer.MAX_VALUE;
            for (int p = n; p >= 0; p--) {
                starts[p] = p < runEnd[p] && nearestEnd <= runEnd[p];
                if (end[p]) {
                    nearestEnd = p;
                }
            }
            nextStarts = starts;
        }
        int p = head.length();
        if (!nextStarts[p]) {
            return null;
        }
        Map<String, String> values = new LinkedHashMap<>();
        for (int i = 0; i < k; i++) {
            int q = runEnd[p];
            while (!ends[i][q]) {
                q--;
            }
            String decoded = percentDecode(uri.substring(p, q));
            if (decoded == null) {
                return null;
            }
            values.put(variables.get(i), decoded);
            p = q + literals.get(i + 1).length();
        }
        return values;
    }

    /** Null for a malformed escape or bytes that are not UTF-8. */
    private static String percentDecode(String s) {
        if (s.indexOf('%') < 0) {
            return s;
        }
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        for (int i = 0; i < s.length(); i++) {
            char c = s.charAt(i);
            if (c == '%') {
                if (i + 2 >= s.length()) {
                    return null;
                }
                int hi = Character.digit(s.charAt(i + 1), 16);
                int lo = Character.digit(s.charAt(i + 2), 16);
                if (hi < 0 || lo < 0) {
                    return null;
                }
                out.write(hi * 16 + lo);
                i += 2;
            } else {
                byte[] b = String.valueOf(c).getBytes(StandardCharsets.UTF_8);
                out.write(b, 0, b.length);
            }
        }
        try {
            return StandardCharsets.UTF_8.newDecoder().decode(java.nio.ByteBuffer.wrap(out.toByteArray())).toString();
        } catch (java.nio.charset.CharacterCodingException e) {
            return null;
        }
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof UriTemplate && ((UriTemplate) o).text.equals(text);
    }

    @Override
    public int hashCode() {
        return text.hashCode();
    }

    @Override
    public String toString() {
        return text;
    }
}

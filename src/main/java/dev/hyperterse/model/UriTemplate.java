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
 * URI reverses that and percent-decodes each value.
 */
public final class UriTemplate {
    private static final Pattern EXPRESSION = Pattern.compile("\\{([^{}]*)\\}");
    private static final Pattern VARIABLE = Pattern.compile("[A-Za-z0-9_]+");

    private final String text;
    private final List<String> variables;
    private final Pattern matcher;

    private UriTemplate(String text, List<String> variables, Pattern matcher) {
        this.text = text;
        this.variables = List.copyOf(variables);
        this.matcher = matcher;
    }

    /**
     * @throws IllegalArgumentException naming what is wrong: an expression that is not level 1,
     *                                  a repeated variable, adjacent variables, or no variable at all
     */
    public static UriTemplate parse(String text) {
        List<String> variables = new ArrayList<>();
        StringBuilder regex = new StringBuilder();
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
            regex.append(Pattern.quote(literal)).append("([^/?#]+)");
            last = m.end();
        }
        String tail = text.substring(last);
        if (tail.indexOf('{') >= 0 || tail.indexOf('}') >= 0) {
            throw new IllegalArgumentException("unbalanced '{' or '}'");
        }
        if (variables.isEmpty()) {
            throw new IllegalArgumentException("it has no {variable}; a resource without one takes 'uri'");
        }
        regex.append(Pattern.quote(tail));
        return new UriTemplate(text, variables, Pattern.compile(regex.toString()));
    }

    public String text() {
        return text;
    }

    public List<String> variables() {
        return variables;
    }

    /** The decoded variable values when {@code uri} matches, else null. */
    public Map<String, String> match(String uri) {
        Matcher m = matcher.matcher(uri);
        if (!m.matches()) {
            return null;
        }
        Map<String, String> values = new LinkedHashMap<>();
        for (int i = 0; i < variables.size(); i++) {
            String decoded = percentDecode(m.group(i + 1));
            if (decoded == null) {
                return null;
            }
            values.put(variables.get(i), decoded);
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

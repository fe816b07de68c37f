package dev.hyperterse.connector.redis;

import dev.hyperterse.connector.CompiledStatement;
import dev.hyperterse.connector.EnvExpansion;
import dev.hyperterse.connector.CompiledStatement.Parameter;
import dev.hyperterse.connector.CompiledStatement.Source;
import dev.hyperterse.connector.StatementDialect;
import dev.hyperterse.connector.StatementException;
import dev.hyperterse.model.Placeholders;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;

/**
 * Turns a Redis command template ({@code HGET user:{{ inputs.id }} name}) into a command whose
 * words are fixed before any value is known: the template is split on whitespace first, so each
 * placeholder-bearing word is exactly one argument, its value pasted into the word
 * ({@code user:42}) whatever spaces, quotes or line breaks the value holds. The command name
 * itself cannot be a placeholder. {@code {{ env.X }}} is replaced before splitting (its value is
 * operator-controlled and may add words, such as {@code EX 60}).
 *
 * <p>The compiled text is the words joined by single spaces with each placeholder written as
 * {@code {{inputs.name}}} or {@code {{auth.claims.name}}}; {@link RedisCommand#of} reads it
 * back into words. Parameters are listed in order of appearance, one per occurrence.
 */
public final class RedisCommandTemplate {

    private RedisCommandTemplate() {
    }

    public static CompiledStatement compile(String template, Map<String, String> env) throws StatementException {
        List<String> words = words(EnvExpansion.of(template, env == null ? Map.of() : env, true).text());
        if (words.isEmpty()) {
            throw new StatementException("the Redis command is empty", 1, 1);
        }
        StringBuilder text = new StringBuilder();
        List<Parameter> parameters = new ArrayList<>();
        List<Integer> offsets = new ArrayList<>();
        for (int w = 0; w < words.size(); w++) {
            String word = words.get(w);
            if (w > 0) {
                text.append(' ');
            }
            Matcher m = Placeholders.PATTERN.matcher(word);
            int copied = 0;
            while (m.find()) {
                if (w == 0) {
                    throw at(template, word, "the command name cannot be a placeholder ('" + m.group()
                            + "'); write the command and pass values as its arguments");
                }
                text.append(word, copied, m.start());
                offsets.add(text.length());
                boolean input = m.group(1).equals("inputs");
                parameters.add(new Parameter(input ? Source.INPUT : Source.CLAIM, m.group(2)));
                // written without spaces, so the text splits back into the same words
                text.append(input ? "{{inputs." : "{{auth.claims.").append(m.group(2)).append("}}");
                copied = m.end();
            }
            String rest = word.substring(copied);
            List<String> malformed = Placeholders.malformed(word);
            if (!malformed.isEmpty()) {
                throw at(template, malformed.get(0), "malformed placeholder '" + malformed.get(0)
                        + "' (expected {{ inputs.name }}, {{ auth.claims.name }} or {{ env.NAME }})");
            }
            text.append(rest);
        }
        return new CompiledStatement(StatementDialect.REDIS, text.toString(), parameters, offsets);
    }

    /** Splits on whitespace outside {@code {{ ... }}}, so a placeholder's own spaces do not split its word. */
    private static List<String> words(String text) {
        List<String> words = new ArrayList<>();
        StringBuilder word = new StringBuilder();
        int i = 0;
        while (i < text.length()) {
            if (text.startsWith("{{", i)) {
                int close = text.indexOf("}}", i + 2);
                int end = close < 0 ? text.length() : close + 2;
                word.append(text, i, end);
                i = end;
                continue;
            }
            char c = text.charAt(i++);
            if (!Character.isWhitespace(c)) {
                word.append(c);
            } else if (word.length() > 0) {
                words.add(word.toString());
                word.setLength(0);
            }
        }
        if (word.length() > 0) {
            words.add(word.toString());
        }
        return words;
    }

    private static StatementException at(String template, String word, String problem) {
        int offset = template.indexOf(word);
        return EnvExpansion.at(template, Math.max(0, offset), problem);
    }

}

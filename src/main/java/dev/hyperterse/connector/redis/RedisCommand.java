package dev.hyperterse.connector.redis;

import dev.hyperterse.model.Counted;
import dev.hyperterse.connector.CompiledStatement;
import dev.hyperterse.connector.ConnectorException;
import dev.hyperterse.connector.BindText;
import dev.hyperterse.model.Placeholders;
import io.vertx.core.json.JsonArray;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.regex.Matcher;

/**
 * A compiled Redis command read back into its words: each word is literal text with the values
 * of its placeholders pasted in, in parameter order.
 *
 * @param name  the command name in upper case
 * @param words every word, the name first; a word is a list of literal strings and
 *              {@link Integer} parameter indexes
 */
record RedisCommand(String name, List<List<Object>> words) {
    RedisCommand {
        words = List.copyOf(words);
    }

    static RedisCommand of(CompiledStatement statement) {
        List<List<Object>> words = new ArrayList<>();
        int parameter = 0;
        for (String word : statement.text().split(" ")) {
            List<Object> parts = new ArrayList<>();
            Matcher m = Placeholders.PATTERN.matcher(word);
            int copied = 0;
            while (m.find()) {
                if (m.start() > copied) {
                    parts.add(word.substring(copied, m.start()));
                }
                parts.add(parameter++);
                copied = m.end();
            }
            if (copied < word.length()) {
                parts.add(word.substring(copied));
            }
            words.add(parts);
        }
        if (parameter != statement.parameters().size()) {
            throw new IllegalArgumentException("the command has " + Counted.of(parameter, "placeholder")
                    + " but the statement " + Counted.of(statement.parameters().size(), "parameter"));
        }
        return new RedisCommand(((String) words.get(0).get(0)).toUpperCase(Locale.ROOT), words);
    }

    /**
     * The arguments after the name, with values pasted in. A word holding an array input becomes
     * one argument per element, the word's literal text around each ({@code DEL {{ inputs.keys }}},
     * {@code MGET user:{{ inputs.ids }}}), so commands that take several values get a value list; an
     * object is pasted as its JSON text.
     */
    List<String> arguments(CompiledStatement statement, List<Object> values) {
        List<String> args = new ArrayList<>(words.size() - 1);
        for (List<Object> word : words.subList(1, words.size())) {
            JsonArray list = null;
            for (Object part : word) {
                if (part instanceof Integer) {
                    Object value = values.get((Integer) part);
                    if (value == null) {
                        CompiledStatement.Parameter p = statement.parameters().get((Integer) part);
                        throw new ConnectorException((p.source() == CompiledStatement.Source.INPUT ? "input '" : "claim '")
                                + p.name() + "' has no value, and a Redis argument cannot be empty of one;"
                                + " give the input a default");
                    }
                    if (value instanceof JsonArray) {
                        if (list != null) {
                            CompiledStatement.Parameter p = statement.parameters().get((Integer) part);
                            throw new ConnectorException("input '" + p.name() + "' is a second array in one"
                                    + " argument of the Redis command; an argument can spread one array only");
                        }
                        list = (JsonArray) value;
                    }
                }
            }
            if (list == null) {
                args.add(paste(word, values, null));
            } else {
                for (int i = 0; i < list.size(); i++) {
                    Object element = list.getValue(i);
                    args.add(paste(word, values, element == null ? "" : BindText.of(element)));
                }
            }
        }
        return args;
    }

    /** One argument: the word's literal parts and values, with {@code element} standing for its array. */
    private static String paste(List<Object> word, List<Object> values, String element) {
        StringBuilder arg = new StringBuilder();
        for (Object part : word) {
            if (part instanceof Integer) {
                Object value = values.get((Integer) part);
                arg.append(value instanceof JsonArray ? element : BindText.of(value));
            } else {
                arg.append((String) part);
            }
        }
        return arg.toString();
    }
}

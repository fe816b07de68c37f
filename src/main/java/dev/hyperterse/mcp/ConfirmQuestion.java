package dev.hyperterse.mcp;

import dev.hyperterse.model.InputDef;
import dev.hyperterse.model.ToolDef;
import io.vertx.core.json.Json;
import io.vertx.core.json.JsonObject;

import java.util.ArrayList;
import java.util.List;
import java.util.TreeSet;

/**
 * What the user is asked before a call of a tool marked {@code confirm: true} runs: the tool and
 * every input, one line each, so no input can hide another. Declared inputs come first in the
 * order the tool file gives them (required ones before optional ones), then any others by name;
 * each value is shortened on its own, with its full length stated, so a long value never pushes
 * the one that decides the call out of view.
 */
final class ConfirmQuestion {
    /** Characters of one value shown before it is shortened. */
    static final int VALUE_CHARS = 80;
    /** Characters of an input's name shown. */
    static final int NAME_CHARS = 40;
    /** Inputs listed one by one; any beyond are counted. */
    static final int MAX_LINES = 30;

    private ConfirmQuestion() {
    }

    static String of(ToolDef tool, JsonObject inputs) {
        List<String> order = new ArrayList<>();
        for (boolean required : new boolean[]{true, false}) {
            for (InputDef def : tool.inputs()) {
                if (def.optional() != required && inputs.containsKey(def.name())) {
                    order.add(def.name());
                }
            }
        }
        for (String name : new TreeSet<>(inputs.fieldNames())) {
            if (tool.input(name).isEmpty()) {
                order.add(name);
            }
        }
        StringBuilder question = new StringBuilder("Run '").append(tool.name()).append('\'');
        if (order.isEmpty()) {
            return question.append(" with no inputs?").toString();
        }
        question.append(" with these inputs?");
        int shown = Math.min(order.size(), MAX_LINES);
        for (int i = 0; i < shown; i++) {
            String name = order.get(i);
            question.append("\n- ").append(shortened(name, NAME_CHARS)).append(": ")
                    .append(value(inputs.getValue(name)));
        }
        if (order.size() > shown) {
            question.append("\n- and ").append(order.size() - shown).append(" more inputs");
        }
        return question.toString();
    }

    private static String value(Object value) {
        String text = Json.encode(value);
        if (text.length() <= VALUE_CHARS) {
            return text;
        }
        return shortened(text, VALUE_CHARS) + " (" + text.length() + " characters)";
    }

    private static String shortened(String text, int chars) {
        if (text.length() <= chars) {
            return text;
        }
        int end = Character.isHighSurrogate(text.charAt(chars - 1)) ? chars - 1 : chars;
        return text.substring(0, end) + "…";
    }
}

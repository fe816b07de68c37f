package dev.hyperterse.hardening;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Random;

/**
 * Random JSON-RPC bodies for the fuzz test, written as JSON text (not through a JSON library) so
 * they can hold what a library would never write: numbers past a double, lone surrogate escapes,
 * duplicate keys, truncated documents. Mostly near-valid {@code tools/call} messages, so the
 * fuzzing reaches {@code execute}'s input validation and the database, not only the parser.
 *
 * <p>Strings use a small alphabet with no letters that could spell a class or package name, so a
 * leak check on the answer cannot be fooled by text the fuzzer itself sent and the server echoed.
 */
final class FuzzMessages {
    /** The tools of {@link WatchedServer#quickstart} and their inputs. */
    private static final Map<String, List<String>> TOOLS = Map.of(
            "get-customer", List.of("customer_id"),
            "list-orders", List.of("status", "limit"),
            "order-stats", List.of("since"),
            "search-products", List.of("text"),
            "echo", List.of("s", "i", "f", "b", "d"));
    private static final List<String> TOOL_NAMES = List.copyOf(new java.util.TreeSet<>(TOOLS.keySet()));
    private static final List<String> METHODS = List.of("ping", "tools/list", "initialize", "logging/setLevel",
            "notifications/initialized", "notifications/cancelled", "resources/list", "completion/complete");
    private static final String[] STRING_PIECES = {
        "a", "b", "c", "x", "y", "z", "0", "1", "9", " ", "-", "_", "/", ".", ":", "%", "'", "*", "{{", "}}",
        "\\\"", "\\\\", "\\n", "\\t", "\\u0000", "\\ud800", "\\udfff", "\\ud83d\\ude00", "\\u202e", "\\u200f",
        "\\ufeff", "😀", "👩‍👩‍👧", "日本", "é", "e\u0301", "\u2028", "ＡＢ", "𝔘",
        "2024-06-01", "2024-06-01T10:00:00Z", "1e3", "NaN", "true", "null", "pending", "mouse", "' OR 1=1 --",
    };
    private static final String[] NUMBERS = {
        "0", "-0", "1", "-1", "42", "2147483648", "9223372036854775807", "9223372036854775808",
        "-9223372036854775809", "123456789012345678901234567890", "1.5", "-2.25", "1.0", "1e3", "1E-7",
        "1e308", "1e400", "-1e400", "0.1e-400", "4.9e-324",
    };

    private final Random random;

    FuzzMessages(long seed) {
        this.random = new Random(seed);
    }

    /** One request body. */
    String next() {
        int kind = random.nextInt(100);
        if (kind < 5) {
            return mangled(envelope());
        }
        if (kind < 9) {
            return value(2);
        }
        if (kind < 16) {
            StringBuilder batch = new StringBuilder("[");
            int n = 1 + random.nextInt(4);
            for (int i = 0; i < n; i++) {
                batch.append(i == 0 ? "" : ",").append(random.nextInt(10) == 0 ? value(1) : envelope());
            }
            return batch.append(']').toString();
        }
        return envelope();
    }

    /** A JSON-RPC message, mostly well-formed, with a random mistake here and there. */
    private String envelope() {
        List<String> members = new ArrayList<>();
        int v = random.nextInt(100);
        if (v < 88) {
            members.add("\"jsonrpc\":\"2.0\"");
        } else if (v < 96) {
            members.add("\"jsonrpc\":" + value(1));
        }
        int id = random.nextInt(100);
        if (id < 50) {
            members.add("\"id\":" + random.nextInt(1000));
        } else if (id < 70) {
            members.add("\"id\":" + string());
        } else if (id < 80) {
            members.add("\"id\":" + value(1));
        }
        String method;
        int m = random.nextInt(100);
        if (m < 65) {
            method = "tools/call";
        } else if (m < 82) {
            method = pick(METHODS);
        } else {
            method = null;
        }
        if (method != null) {
            members.add("\"method\":\"" + method + "\"");
        } else if (random.nextInt(3) > 0) {
            members.add("\"method\":" + (random.nextBoolean() ? string() : value(1)));
        }
        int p = random.nextInt(100);
        if ("tools/call".equals(method) && p < 85) {
            members.add("\"params\":" + toolsCallParams());
        } else if (p < 40) {
            members.add("\"params\":" + object(2));
        } else if (p < 55) {
            members.add("\"params\":" + value(2));
        }
        if (random.nextInt(30) == 0 && !members.isEmpty()) {
            members.add(pick(members)); // a duplicate key: the last one wins
        }
        java.util.Collections.shuffle(members, random);
        return "{" + String.join(",", members) + "}";
    }

    private String toolsCallParams() {
        List<String> members = new ArrayList<>();
        int n = random.nextInt(100);
        String name = n < 50 ? "execute" : n < 85 ? "search" : null;
        members.add("\"name\":" + (name != null ? "\"" + name + "\"" : random.nextBoolean() ? string() : value(1)));
        int a = random.nextInt(100);
        if ("execute".equals(name) && a < 90) {
            members.add("\"arguments\":" + executeArguments());
        } else if ("search".equals(name) && a < 90) {
            members.add("\"arguments\":{\"query\":" + (random.nextInt(5) > 0 ? string() : value(1)) + "}");
        } else if (a < 95) {
            members.add("\"arguments\":" + value(2));
        }
        if (random.nextInt(10) == 0) {
            members.add("\"_meta\":{\"progressToken\":" + value(1) + "}");
        }
        return "{" + String.join(",", members) + "}";
    }

    private String executeArguments() {
        List<String> members = new ArrayList<>();
        String tool = null;
        int t = random.nextInt(100);
        if (t < 75) {
            tool = pick(TOOL_NAMES);
            members.add("\"tool\":\"" + tool + "\"");
        } else if (t < 95) {
            members.add("\"tool\":" + (random.nextBoolean() ? string() : value(1)));
        }
        int i = random.nextInt(100);
        if (i < 85) {
            members.add("\"inputs\":" + inputs(tool));
        } else if (i < 95) {
            members.add("\"inputs\":" + value(2));
        }
        if (random.nextInt(20) == 0) {
            members.add(string() + ":" + value(1));
        }
        return "{" + String.join(",", members) + "}";
    }

    /** Inputs for a tool: mostly its own names with values of every type, now and then a stranger. */
    private String inputs(String tool) {
        List<String> names = tool == null ? List.of() : TOOLS.get(tool);
        List<String> members = new ArrayList<>();
        for (String name : names) {
            if (random.nextInt(4) > 0) {
                members.add("\"" + name + "\":" + inputValue());
            }
        }
        if (random.nextInt(12) == 0) {
            members.add(string() + ":" + inputValue());
        }
        return "{" + String.join(",", members) + "}";
    }

    private String inputValue() {
        int k = random.nextInt(100);
        if (k < 35) {
            return pick(List.of(NUMBERS));
        }
        if (k < 75) {
            return string();
        }
        if (k < 85) {
            return random.nextBoolean() ? "true" : "false";
        }
        if (k < 90) {
            return "null";
        }
        return value(3);
    }

    /** Any JSON value, nested at most {@code depth} levels. */
    private String value(int depth) {
        int k = random.nextInt(depth > 0 ? 8 : 6);
        switch (k) {
            case 0:
                return "null";
            case 1:
                return random.nextBoolean() ? "true" : "false";
            case 2:
            case 3:
                return pick(List.of(NUMBERS));
            case 4:
            case 5:
                return string();
            case 6:
                return array(depth - 1);
            default:
                return object(depth - 1);
        }
    }

    private String array(int depth) {
        StringBuilder out = new StringBuilder("[");
        int n = random.nextInt(4);
        for (int i = 0; i < n; i++) {
            out.append(i == 0 ? "" : ",").append(value(depth));
        }
        return out.append(']').toString();
    }

    private String object(int depth) {
        StringBuilder out = new StringBuilder("{");
        int n = random.nextInt(4);
        for (int i = 0; i < n; i++) {
            out.append(i == 0 ? "" : ",").append(string()).append(':').append(value(depth));
        }
        return out.append('}').toString();
    }

    /** A JSON string literal: pieces of text, escapes, unicode; now and then a long one. */
    private String string() {
        StringBuilder out = new StringBuilder("\"");
        int pieces = random.nextInt(20) == 0 ? 2000 + random.nextInt(4000) : random.nextInt(8);
        for (int i = 0; i < pieces; i++) {
            out.append(STRING_PIECES[random.nextInt(STRING_PIECES.length)]);
        }
        return out.append('"').toString();
    }

    /** A message broken as a network or a careless client would break it. */
    private String mangled(String json) {
        int at = random.nextInt(json.length());
        switch (random.nextInt(4)) {
            case 0:
                return json.substring(0, at);
            case 1:
                return json.substring(0, at) + pick(List.of("\"", "{", "]", ",", "\\", "\u0001", "}}")) + json.substring(at);
            case 2:
                return json + pick(List.of(" x", ",", "}", "{}", "\u0000"));
            default:
                return json.substring(0, at) + json.substring(Math.min(json.length(), at + 1 + random.nextInt(5)));
        }
    }

    private <T> T pick(List<T> from) {
        return from.get(random.nextInt(from.size()));
    }
}

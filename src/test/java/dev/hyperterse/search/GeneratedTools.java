package dev.hyperterse.search;

import dev.hyperterse.model.InputDef;
import dev.hyperterse.model.InputType;
import dev.hyperterse.model.ToolDef;

import java.util.ArrayList;
import java.util.List;
import java.util.Random;

/** A large, varied, reproducible set of tools for scale checks. */
final class GeneratedTools {

    private static final String[] VERBS = {"get", "list", "find", "count", "create", "update", "delete", "search",
        "archive", "export", "sync", "summarize"};
    private static final String[] NOUNS = {"orders", "users", "invoices", "payments", "tickets", "products",
        "shipments", "accounts", "sessions", "reviews", "refunds", "coupons", "warehouses", "suppliers", "events",
        "subscriptions", "carts", "teams", "projects", "comments", "metrics", "alerts", "devices", "regions"};
    private static final String[] QUALIFIERS = {"by status", "by id", "for a customer", "in a date range",
        "with totals", "per region", "that are overdue", "created today", "by email", "with their items"};
    private static final String[] COLUMNS = {"id", "status", "email", "created_at", "total", "region", "owner_id",
        "amount", "name", "updated_at", "priority", "sku"};

    private GeneratedTools() {
    }

    static List<ToolDef> generate(int count, long seed) {
        Random random = new Random(seed);
        List<ToolDef> tools = new ArrayList<>(count);
        for (int i = 0; i < count; i++) {
            String verb = pick(random, VERBS);
            String noun = pick(random, NOUNS);
            String name = verb + "-" + noun + "-" + i;
            String description = capitalize(verb) + " " + noun + " " + pick(random, QUALIFIERS)
                    + (random.nextInt(4) == 0 ? ", paginated" : "");
            String column = pick(random, COLUMNS);
            List<InputDef> inputs = new ArrayList<>();
            inputs.add(TestTools.input(column, InputType.STRING, "the " + column.replace('_', ' ') + " to match"));
            if (random.nextBoolean()) {
                inputs.add(TestTools.optionalInput("limit", InputType.INT, "most rows to return", 50L));
            }
            if (random.nextInt(5) == 0) {
                tools.add(TestTools.handler(name, description, inputs.toArray(new InputDef[0])));
            } else {
                String statement = "SELECT " + pick(random, COLUMNS) + ", " + pick(random, COLUMNS) + " FROM " + noun
                        + " WHERE " + column + " = {{ inputs." + column + " }} ORDER BY " + pick(random, COLUMNS);
                tools.add(TestTools.db(name, description, statement, inputs.toArray(new InputDef[0])));
            }
        }
        return tools;
    }

    private static String pick(Random random, String[] words) {
        return words[random.nextInt(words.length)];
    }

    private static String capitalize(String word) {
        return Character.toUpperCase(word.charAt(0)) + word.substring(1);
    }
}

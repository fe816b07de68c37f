package dev.hyperterse.search;

import dev.hyperterse.model.InputDef;
import dev.hyperterse.model.InputType;
import dev.hyperterse.model.ToolDef;

import java.util.regex.Pattern;

/**
 * The kinds of value a request carries against the kinds of value each tool takes: "open
 * https://example.com/pricing" carries a URL, and a tool with a {@code url} input takes one;
 * "the invoices of jane@example.com" carries an e-mail address, "since 2024-05-01" a date, "issue
 * 42" a number, "the \"Billing Portal\" app" a quoted name, "client 8fJ2kQp0" an identifier,
 * "run {@code cache.extract()}" code, "./web/app.json" a path or file name. A tool takes a kind
 * when one of its inputs is of a type that holds it (int and float a number, date and datetime a
 * date, uuid an identifier, string a quoted text) or the input's name or description names it
 * ({@code url}, {@code email}, {@code path}, {@code since}, {@code id}, {@code script}, …). Read by the learned order as base features ({@link LearnedOrder}): for each
 * kind, whether the request carries it and the tool takes it; the share of the request's kinds the
 * tool takes; whether the request carries any and the tool takes no input at all.
 *
 * <p>Every pattern is bounded (no unbounded repetition next to another), so reading a request costs
 * time linear in its length, and at most {@link #MAX_CHARS} of it are read. Immutable and safe to
 * share between threads.
 */
final class ValueKinds {

    /** The kinds, in the order of the readings: URL, e-mail, path, date, number, quoted, identifier, code. */
    static final int KINDS = 8;
    /** How many readings {@link #features} gives per tool: one per kind, the share, the tool with no input. */
    static final int COUNT = KINDS + 2;
    /** The most characters of a request read (the search tool takes a thousand). */
    static final int MAX_CHARS = 1000;

    private static final int URL = 0;
    private static final int EMAIL = 1;
    private static final int PATH = 2;
    private static final int DATE = 3;
    private static final int NUMBER = 4;
    private static final int QUOTED = 5;
    private static final int ID = 6;
    private static final int CODE = 7;

    /**
     * A word's edges: ASCII letters, digits and the underscore are word characters, whatever the JDK
     * ({@code \b} counts other letters too before Java 19, not after).
     */
    private static final String B = "(?<![A-Za-z0-9_])";
    private static final String E = "(?![A-Za-z0-9_])";
    /** A month's name or its abbreviation, whole: "March", "mar.", not "mark" or "decks". */
    private static final String MONTH = "(?:jan(?:uary)?|feb(?:ruary)?|mar(?:ch)?|apr(?:il)?|may|june?|july?|aug(?:ust)?"
            + "|sep(?:t(?:ember)?)?|oct(?:ober)?|nov(?:ember)?|dec(?:ember)?)";
    /** What a request carries, per kind. */
    private static final Pattern[] CARRIED = {
            Pattern.compile("https?://|" + B + "www\\.\\w", Pattern.CASE_INSENSITIVE),
            Pattern.compile("[\\w.+-]@[\\w-]{1,64}\\.[A-Za-z]"),
            Pattern.compile("(?:^|\\s)(?:~|\\.{1,2})?/[\\w.-]|" + B + "[\\w-]{1,64}\\.(?:json|ya?ml|txt|md|csv|js|ts|tsx|py|java"
                    + "|png|jpe?g|gif|pdf|log|xml|html?|sql|env|sh|zip|docx?|xlsx?|svg|mp4|mp3|wav)" + E, Pattern.CASE_INSENSITIVE),
            Pattern.compile(B + "\\d{4}-\\d{2}-\\d{2}" + E + "|" + B + "\\d{1,2}:\\d{2}" + E + "|" + B + MONTH + "\\.? \\d{1,2}" + E
                    + "|" + B + "\\d{1,2} " + MONTH + E, Pattern.CASE_INSENSITIVE),
            Pattern.compile("(?<![\\w.])\\d{1,32}(?:\\.\\d{1,32})?(?![\\w.])"),
            Pattern.compile("\"[^\"]{1,200}\"|\u201c[^\u201d]{1,200}\u201d|(?<!\\w)'[^']{1,200}'(?!\\w)|`[^`]{1,200}`"),
            Pattern.compile(B + "(?=[A-Za-z_-]{0,64}\\d)(?=[\\d_-]{0,64}[A-Za-z])[A-Za-z0-9_-]{5,64}" + E),
            Pattern.compile("[{}\\[\\]]|=>|\\w\\(.{0,200}\\)|;\\s{0,50}$|" + B + "(?:select|function|const|import)" + E,
                    Pattern.CASE_INSENSITIVE),
    };
    /** What an input's name or description says it takes, per kind (null: its type alone says). */
    private static final Pattern[] TAKEN = {
            Pattern.compile(B + "(?:urls?|uris?|links?|endpoints?|hrefs?|websites?|webpages?|domains?)" + E, Pattern.CASE_INSENSITIVE),
            Pattern.compile(B + "e-?mails?" + E, Pattern.CASE_INSENSITIVE),
            Pattern.compile(B + "(?:paths?|files?|filenames?|director(?:y|ies)|folders?|dirs?)" + E, Pattern.CASE_INSENSITIVE),
            Pattern.compile(B + "(?:dates?|times?|timestamps?|datetimes?|since|until|before|after|iso ?8601|yyyy)" + E,
                    Pattern.CASE_INSENSITIVE),
            null,
            null,
            Pattern.compile(B + "(?:ids?|identifiers?|keys?|tokens?|codes?|uuids?|slugs?|sha|hash)" + E, Pattern.CASE_INSENSITIVE),
            Pattern.compile(B + "(?:code|script|expression|javascript|json|query|sql|payload|body)" + E, Pattern.CASE_INSENSITIVE),
    };

    /** Per tool, the kinds it takes, a bit each. */
    private final int[] taken;
    /** Per tool, whether it takes no input at all (a handler with open inputs takes any). */
    private final boolean[] noInput;

    ValueKinds(ToolDef[] tools) {
        taken = new int[tools.length];
        noInput = new boolean[tools.length];
        for (int t = 0; t < tools.length; t++) {
            noInput[t] = tools[t].inputs().isEmpty() && !tools[t].takesAnyInputs();
            for (InputDef input : tools[t].inputs()) {
                taken[t] |= takes(input);
            }
        }
    }

    /** The kinds an input takes, a bit each: by its type, its name (split into words) and its description. */
    static int takes(InputDef input) {
        int kinds = 0;
        InputType type = input.type();
        if (type != null) {
            kinds |= type.isNumeric() ? 1 << NUMBER : 0;
            kinds |= type == InputType.STRING ? 1 << QUOTED : 0;
            kinds |= type == InputType.DATE || type == InputType.DATETIME ? 1 << DATE : 0;
            kinds |= type == InputType.UUID ? 1 << ID : 0;
        }
        // its words as a tool's name's are read ("targetUrl", "file_path": "target url", "file path")
        String name = input.name() == null ? "" : String.join(" ", LearnedOrder.nameWords(input.name()));
        String description = input.description() == null ? "" : input.description();
        for (int k = 0; k < KINDS; k++) {
            if (TAKEN[k] != null && (TAKEN[k].matcher(name).find() || TAKEN[k].matcher(description).find())) {
                kinds |= 1 << k;
            }
        }
        return kinds;
    }

    /** The kinds of value {@code request} carries, a bit each (its first {@link #MAX_CHARS} characters read). */
    static int carried(String request) {
        String text = request.length() > MAX_CHARS ? request.substring(0, MAX_CHARS) : request;
        int kinds = 0;
        for (int k = 0; k < KINDS; k++) {
            if (CARRIED[k].matcher(text).find()) {
                kinds |= 1 << k;
            }
        }
        return kinds;
    }

    /**
     * The readings of {@code tool} for a request that carries {@code carried} ({@link #carried}): per
     * kind, 1 when the request carries it and the tool takes it; the share of the request's kinds the
     * tool takes; 1 when the request carries any kind and the tool takes no input.
     */
    double[] features(int carried, int tool) {
        double[] out = new double[COUNT];
        int both = carried & taken[tool];
        for (int k = 0; k < KINDS; k++) {
            out[k] = (both >> k & 1);
        }
        int kinds = Integer.bitCount(carried);
        out[KINDS] = (double) Integer.bitCount(both) / Math.max(1, kinds);
        out[KINDS + 1] = kinds > 0 && noInput[tool] ? 1 : 0;
        return out;
    }
}

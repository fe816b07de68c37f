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
 * when one of its inputs is of a type that holds it (a number, a date, a uuid, a string) or its
 * name or description says so ({@code url}, {@code email}, {@code path}, {@code since}, {@code id},
 * {@code script}, …). Read by the learned order as base features ({@link LearnedOrder}): for each
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

    private static final String MONTH = "(?:jan|feb|mar|apr|may|jun|jul|aug|sep|sept|oct|nov|dec)[a-z]{0,6}";
    /** What a request carries, per kind. */
    private static final Pattern[] CARRIED = {
            Pattern.compile("https?://|\\bwww\\.\\w", Pattern.CASE_INSENSITIVE),
            Pattern.compile("[\\w.+-]@[\\w-]{1,64}\\.[A-Za-z]"),
            Pattern.compile("(?:^|\\s)(?:~|\\.{1,2})?/[\\w.-]|\\b[\\w-]{1,64}\\.(?:json|ya?ml|txt|md|csv|js|ts|tsx|py|java"
                    + "|png|jpe?g|gif|pdf|log|xml|html?|sql|env|sh|zip|docx?|xlsx?|svg|mp4|mp3|wav)\\b", Pattern.CASE_INSENSITIVE),
            Pattern.compile("\\b\\d{4}-\\d{2}-\\d{2}\\b|\\b\\d{1,2}:\\d{2}\\b|\\b" + MONTH + "\\.? \\d{1,2}\\b|\\b\\d{1,2} "
                    + MONTH + "\\b", Pattern.CASE_INSENSITIVE),
            Pattern.compile("(?<![\\w.])\\d{1,32}(?:\\.\\d{1,32})?(?![\\w.])"),
            Pattern.compile("\"[^\"]{1,200}\"|\u201c[^\u201d]{1,200}\u201d|(?<!\\w)'[^']{1,200}'(?!\\w)|`[^`]{1,200}`"),
            Pattern.compile("\\b(?=[A-Za-z_-]{0,64}\\d)(?=[\\d_-]{0,64}[A-Za-z])[A-Za-z0-9_-]{5,64}\\b"),
            Pattern.compile("[{}\\[\\]]|=>|\\w\\(.{0,200}\\)|;\\s{0,50}$|\\b(?:select|function|const|import)\\b",
                    Pattern.CASE_INSENSITIVE),
    };
    /** What an input's name or description says it takes, per kind (null: its type alone says). */
    private static final Pattern[] TAKEN = {
            Pattern.compile("\\b(?:urls?|uris?|links?|endpoints?|hrefs?|websites?|webpages?|domains?)\\b", Pattern.CASE_INSENSITIVE),
            Pattern.compile("\\be-?mails?\\b", Pattern.CASE_INSENSITIVE),
            Pattern.compile("\\b(?:paths?|files?|filenames?|director(?:y|ies)|folders?|dirs?)\\b", Pattern.CASE_INSENSITIVE),
            Pattern.compile("\\b(?:dates?|times?|timestamps?|datetimes?|since|until|before|after|iso ?8601|yyyy)\\b",
                    Pattern.CASE_INSENSITIVE),
            null,
            null,
            Pattern.compile("\\b(?:ids?|identifiers?|keys?|tokens?|codes?|uuids?|slugs?|sha|hash)\\b", Pattern.CASE_INSENSITIVE),
            Pattern.compile("\\b(?:code|script|expression|javascript|json|query|sql|payload|body)\\b", Pattern.CASE_INSENSITIVE),
    };

    /** Per tool, the kinds it takes, a bit each. */
    private final int[] taken;
    /** Per tool, whether it takes no input at all. */
    private final boolean[] noInput;

    ValueKinds(ToolDef[] tools) {
        taken = new int[tools.length];
        noInput = new boolean[tools.length];
        for (int t = 0; t < tools.length; t++) {
            noInput[t] = tools[t].inputs().isEmpty();
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
        String name = input.name() == null ? "" : input.name().replaceAll("([a-z0-9])([A-Z])", "$1 $2").replace('_', ' ')
                .replace('-', ' ');
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

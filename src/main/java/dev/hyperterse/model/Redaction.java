package dev.hyperterse.model;

import java.util.function.Function;

/**
 * Removes secrets from text that may reach logs, traces or callers.
 *
 * <p>Every method is one left-to-right scan (hand-written, no regular expressions), so its cost is
 * linear in the text it reads, and {@link #secrets} and {@link #connectionString} read at most
 * {@link #MAX_CHARS} (plus a short look-ahead) of any text: a longer one is cut, visibly
 * ({@code … (truncated, N chars)}). Log lines, spans and error answers are written on the thread
 * that finished a call, often an event loop, and their text often repeats a caller's value, so
 * neither super-linear matching nor work proportional to a caller's value may happen here.
 *
 * <p>What is masked (the regular expressions these scans implement, for the record; ASCII letters
 * compare case-insensitively, {@code \w} is {@code [A-Za-z0-9_]} and {@code \s} {@code [ \t\n\x0B\f\r]}):
 * <ul>
 * <li>URL passwords: {@code (?<=://)([^:/@\s]*):([^@/\s]*)@} becomes {@code $1:***@};</li>
 * <li>{@code \b(password|passwd|pwd|secret|token|api[_-]?key)\s*=\s*('[^']*'|"[^"]*"|[^\s;&]*)} becomes
 * {@code $1=***} (connection strings);</li>
 * <li>any name holding a secret word, {@code ([\w.-]*(?:WORD)[\w.-]*)(["']?\s*[=:]\s*)((?:bearer|basic)\s+)?
 * ("[^"]*"|'[^']*'|[^\s;&,}"']+)}: the value becomes {@code ***} (kept in its quotes);</li>
 * <li>{@code \b(bearer|basic)\s+[A-Za-z0-9._~+/=-]{8,}} becomes {@code $1 ***}.</li>
 * </ul>
 */
public final class Redaction {
    public static final String MASK = "***";
    /** The longest text redacted whole; longer text is cut to this before anything reads the rest. */
    public static final int MAX_CHARS = 16_384;
    /**
     * How far past a cut the text is still redacted before the cut is made, so a secret that
     * straddles the cut (a value starting just before it) is masked rather than half shown.
     */
    static final int CUT_LOOKAHEAD = 512;

    /** Words that make a name (an input, a query parameter, a header, a key) hold a secret. */
    private static final String[] SECRET_WORDS = {"password", "passwd", "passphrase", "pwd", "secret", "token",
        "api_key", "api-key", "apikey", "private_key", "private-key", "privatekey", "access_key", "access-key",
        "accesskey", "credential", "signature", "authorization", "cookie"};
    /** The words {@link #connectionString} masks after {@code word=}. */
    private static final String[] CONNECTION_WORDS = {"password", "passwd", "pwd", "secret", "token",
        "api_key", "api-key", "apikey"};
    private static final String[] AUTH_SCHEMES = {"bearer", "basic"};

    private Redaction() {
    }

    /** {@code postgres://u:secret@h/db} → {@code postgres://u:***@h/db}; {@code password=x} → {@code password=***}. */
    public static String connectionString(String text) {
        if (text == null) {
            return null;
        }
        return bounded(text, MAX_CHARS, t -> connectionSecrets(t));
    }

    /**
     * Everything {@link #connectionString} removes, plus the values of any {@code name=value} or
     * {@code name: value} whose name looks secret ({@code access_token=…}, {@code "apiKey":"…"})
     * and bearer or basic credentials. For free text on its way to a log line or a span; text
     * longer than {@link #MAX_CHARS} is cut.
     */
    public static String secrets(String text) {
        return secrets(text, MAX_CHARS);
    }

    /** {@link #secrets(String)} with a bound of its own ({@code maxChars}) instead of {@link #MAX_CHARS}. */
    public static String secrets(String text, int maxChars) {
        if (text == null || text.isEmpty()) {
            return text;
        }
        return bounded(text, maxChars, Redaction::allSecrets);
    }

    /** True when a name (an input, a header, a parameter) suggests its value is a secret. */
    public static boolean sensitiveName(String name) {
        if (name == null) {
            return false;
        }
        for (int i = 0; i < name.length(); i++) {
            if (secretWordAt(name, i) > 0) {
                return true;
            }
        }
        return isKeyName(name);
    }

    /**
     * Redacts at most {@code maxChars} (plus {@link #CUT_LOOKAHEAD}) characters of the text, then
     * cuts the redacted text to {@code maxChars}, saying so.
     */
    private static String bounded(String text, int maxChars, Function<CharSequence, String> redact) {
        if (text.length() <= maxChars) {
            return redact.apply(text);
        }
        String window = BoundedText.prefix(text, maxChars + CUT_LOOKAHEAD);
        return BoundedText.prefix(redact.apply(window), maxChars) + BoundedText.marker(text.length());
    }

    /** The three passes of {@link #secrets}, unbounded: linear in the text's length. */
    static String allSecrets(CharSequence text) {
        return authSchemes(nameValues(urlPasswords(text)));
    }

    /** The two passes of {@link #connectionString}, unbounded: linear in the text's length. */
    static String connectionSecrets(CharSequence text) {
        return connectionValues(urlPasswords(text));
    }

    /** {@code scheme://user:password@} → {@code scheme://user:***@}. */
    static CharSequence urlPasswords(CharSequence t) {
        int n = t.length();
        StringBuilder out = null;
        int copied = 0;
        int i = indexOf(t, "://", 0);
        while (i >= 0) {
            int user = i + 3;
            int colon = user;
            // the user part stops at ':' or '/' (so at the next "://" at the latest): scans never overlap
            while (colon < n && !isSpace(t.charAt(colon)) && ":/@".indexOf(t.charAt(colon)) < 0) {
                colon++;
            }
            if (colon < n && t.charAt(colon) == ':') {
                int at = colon + 1;
                while (at < n && !isSpace(t.charAt(at)) && t.charAt(at) != '@' && t.charAt(at) != '/') {
                    at++;
                }
                if (at < n && t.charAt(at) == '@') {
                    out = out == null ? new StringBuilder(n) : out;
                    out.append(t, copied, colon + 1).append(MASK);
                    copied = at;
                    i = indexOf(t, "://", at + 1);
                    continue;
                }
            }
            i = indexOf(t, "://", i + 1);
        }
        return out == null ? t : out.append(t, copied, n);
    }

    /** {@code password = 'x'} → {@code password=***} for the words of {@link #CONNECTION_WORDS}. */
    static String connectionValues(CharSequence t) {
        int n = t.length();
        StringBuilder out = null;
        int copied = 0;
        NextChar singleQuote = new NextChar('\'');
        NextChar doubleQuote = new NextChar('"');
        int i = 0;
        while (i < n) {
            int wordEnd = i > 0 && isWord(t.charAt(i - 1)) ? -1 : wordAt(t, i, CONNECTION_WORDS);
            if (wordEnd < 0) {
                i++;
                continue;
            }
            int eq = skipSpaces(t, wordEnd);
            if (eq >= n || t.charAt(eq) != '=') {
                i = wordEnd;
                continue;
            }
            int value = skipSpaces(t, eq + 1);
            int end = quotedEnd(t, value, singleQuote, doubleQuote);
            if (end < 0) {
                end = value;
                while (end < n && !isSpace(t.charAt(end)) && t.charAt(end) != ';' && t.charAt(end) != '&') {
                    end++;
                }
            }
            out = out == null ? new StringBuilder(n) : out;
            out.append(t, copied, wordEnd).append('=').append(MASK);
            copied = end;
            i = Math.max(end, i + 1);
        }
        return out == null ? t.toString() : out.append(t, copied, n).toString();
    }

    /**
     * {@code client_secret: abc}, {@code "apiKey":"k"}, {@code access_token=x},
     * {@code Authorization: Bearer x}: the value of a name holding a secret word is masked.
     */
    static CharSequence nameValues(CharSequence t) {
        int n = t.length();
        StringBuilder out = null;
        int copied = 0;
        NextChar singleQuote = new NextChar('\'');
        NextChar doubleQuote = new NextChar('"');
        int i = 0;
        while (i < n) {
            if (!isNameChar(t.charAt(i))) {
                i++;
                continue;
            }
            // a name is a whole run of [\w.-] from here: it can only end where the run ends, since a
            // separator never starts with a name character
            int nameEnd = i;
            while (nameEnd < n && isNameChar(t.charAt(nameEnd))) {
                nameEnd++;
            }
            int sep = nameEnd;
            if (sep < n && (t.charAt(sep) == '"' || t.charAt(sep) == '\'')) {
                sep++;
            }
            sep = skipSpaces(t, sep);
            if (sep >= n || (t.charAt(sep) != '=' && t.charAt(sep) != ':') || !holdsSecretWord(t, i, nameEnd)) {
                i = nameEnd;
                continue;
            }
            int value = skipSpaces(t, sep + 1);
            int valueStart = -1;
            int valueEnd = -1;
            int scheme = wordAt(t, value, AUTH_SCHEMES);
            if (scheme >= 0 && scheme < n && isSpace(t.charAt(scheme))) {
                int credential = skipSpaces(t, scheme);
                valueEnd = plainOrQuotedEnd(t, credential, singleQuote, doubleQuote);
                valueStart = credential;
            }
            if (valueEnd < 0) {
                valueEnd = plainOrQuotedEnd(t, value, singleQuote, doubleQuote);
                valueStart = value;
            }
            if (valueEnd < 0) {
                i = nameEnd;
                continue;
            }
            out = out == null ? new StringBuilder(n) : out;
            out.append(t, copied, valueStart);
            char first = t.charAt(valueStart);
            if (valueEnd - valueStart >= 2 && (first == '"' || first == '\'')) {
                out.append(first).append(MASK).append(first);
            } else {
                out.append(MASK);
            }
            copied = valueEnd;
            i = valueEnd;
        }
        return out == null ? t : out.append(t, copied, n);
    }

    /** {@code Bearer eyJ…} → {@code Bearer ***} (a credential of 8 characters or more). */
    static String authSchemes(CharSequence t) {
        int n = t.length();
        StringBuilder out = null;
        int copied = 0;
        int i = 0;
        while (i < n) {
            int wordEnd = i > 0 && isWord(t.charAt(i - 1)) ? -1 : wordAt(t, i, AUTH_SCHEMES);
            if (wordEnd < 0 || wordEnd >= n || !isSpace(t.charAt(wordEnd))) {
                i++;
                continue;
            }
            int credential = skipSpaces(t, wordEnd);
            int end = credential;
            while (end < n && isCredentialChar(t.charAt(end))) {
                end++;
            }
            if (end - credential < 8) {
                // the spaces and the short word after it are read again from wordEnd on: at most twice each
                i = wordEnd;
                continue;
            }
            out = out == null ? new StringBuilder(n) : out;
            out.append(t, copied, wordEnd).append(' ').append(MASK);
            copied = end;
            i = end;
        }
        return out == null ? t.toString() : out.append(t, copied, n).toString();
    }

    /** End of {@code "…"} or {@code '…'} at {@code at}, or of a run of {@code [^\s;&,}"']+}; -1 when neither. */
    private static int plainOrQuotedEnd(CharSequence t, int at, NextChar singleQuote, NextChar doubleQuote) {
        int n = t.length();
        if (at >= n) {
            return -1;
        }
        char c = t.charAt(at);
        if (c == '"' || c == '\'') {
            return quotedEnd(t, at, singleQuote, doubleQuote);
        }
        int end = at;
        while (end < n && !isSpace(t.charAt(end)) && ";&,}\"'".indexOf(t.charAt(end)) < 0) {
            end++;
        }
        return end > at ? end : -1;
    }

    /** End (past the closing quote) of a quoted value starting at {@code at}, or -1. */
    private static int quotedEnd(CharSequence t, int at, NextChar singleQuote, NextChar doubleQuote) {
        if (at >= t.length()) {
            return -1;
        }
        char c = t.charAt(at);
        if (c != '"' && c != '\'') {
            return -1;
        }
        int close = (c == '"' ? doubleQuote : singleQuote).find(t, at + 1);
        return close < 0 ? -1 : close + 1;
    }

    /** Whether {@code t[from, to)} contains a secret word. */
    private static boolean holdsSecretWord(CharSequence t, int from, int to) {
        for (int i = from; i < to; i++) {
            int end = secretWordAt(t, i);
            if (end > 0 && end <= to) {
                return true;
            }
        }
        return false;
    }

    /** End of the secret word starting at {@code i}, or -1. */
    private static int secretWordAt(CharSequence t, int i) {
        char c = lower(t.charAt(i));
        if (c != 'p' && c != 's' && c != 't' && c != 'a' && c != 'c') {
            return -1;
        }
        return wordAt(t, i, SECRET_WORDS);
    }

    /** End of the first of {@code words} written at {@code i} (ASCII letters in any case), or -1. */
    private static int wordAt(CharSequence t, int i, String[] words) {
        for (String word : words) {
            if (startsWith(t, i, word)) {
                return i + word.length();
            }
        }
        return -1;
    }

    private static boolean startsWith(CharSequence t, int i, String lowerWord) {
        if (i < 0 || i + lowerWord.length() > t.length()) {
            return false;
        }
        for (int k = 0; k < lowerWord.length(); k++) {
            if (lower(t.charAt(i + k)) != lowerWord.charAt(k)) {
                return false;
            }
        }
        return true;
    }

    /**
     * A name that is, or ends in, the word "key": {@code key}, {@code license_key}, {@code sshKey}
     * (not {@code monkey}, {@code keyword}); or starts with {@code key} and a separator ({@code key-id}).
     */
    private static boolean isKeyName(String name) {
        int n = name.length();
        if (n < 3) {
            return false;
        }
        boolean endsInKey = startsWith(name, n - 3, "key");
        if (endsInKey && (n == 3 || "_.-".indexOf(name.charAt(n - 4)) >= 0)) {
            return true;
        }
        if (startsWith(name, 0, "key") && (n == 3 || "_.-".indexOf(name.charAt(3)) >= 0)) {
            return true;
        }
        if (n >= 4 && name.endsWith("Key")) {
            char before = name.charAt(n - 4);
            return (before >= 'a' && before <= 'z') || (before >= '0' && before <= '9');
        }
        return false;
    }

    private static int skipSpaces(CharSequence t, int i) {
        while (i < t.length() && isSpace(t.charAt(i))) {
            i++;
        }
        return i;
    }

    private static int indexOf(CharSequence t, String needle, int from) {
        int last = t.length() - needle.length();
        outer:
        for (int i = Math.max(0, from); i <= last; i++) {
            for (int k = 0; k < needle.length(); k++) {
                if (t.charAt(i + k) != needle.charAt(k)) {
                    continue outer;
                }
            }
            return i;
        }
        return -1;
    }

    private static char lower(char c) {
        return c >= 'A' && c <= 'Z' ? (char) (c + ('a' - 'A')) : c;
    }

    /** {@code \s} in Java's regular expressions. */
    private static boolean isSpace(char c) {
        return c == ' ' || c == '\t' || c == '\n' || c == 0x0B || c == '\f' || c == '\r';
    }

    /** {@code \w} in Java's regular expressions. */
    private static boolean isWord(char c) {
        return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_';
    }

    /** {@code [\w.-]}: what a name is made of. */
    private static boolean isNameChar(char c) {
        return isWord(c) || c == '.' || c == '-';
    }

    /** {@code [A-Za-z0-9._~+/=-]}: what a bearer or basic credential is made of. */
    private static boolean isCredentialChar(char c) {
        return isWord(c) && c != '_' || "._~+/=-".indexOf(c) >= 0;
    }

    /**
     * Where a character next occurs, remembered: searches start left to right, so a text with one
     * opening quote and no closing one is searched to its end once, not once per opening quote.
     */
    private static final class NextChar {
        private final char c;
        private int searchedFrom = Integer.MAX_VALUE;
        private int found = -1;

        NextChar(char c) {
            this.c = c;
        }

        int find(CharSequence t, int from) {
            if (from >= searchedFrom && (found < 0 || from <= found)) {
                return found;
            }
            searchedFrom = from;
            found = -1;
            for (int i = from; i < t.length(); i++) {
                if (t.charAt(i) == c) {
                    found = i;
                    break;
                }
            }
            return found;
        }
    }
}

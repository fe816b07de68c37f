package dev.hyperterse.model;

import org.junit.jupiter.api.Test;

import java.util.Random;
import java.util.function.Function;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Redaction costs time linear in the text it reads, and never reads past its bound: adversarial
 * texts (runs of word characters, {@code password=} or {@code bearer } repeated, unclosed quotes)
 * of 20,000 characters, 1,000,000 characters and 20 MB. Work is counted as characters read (a
 * counting {@link CharSequence}), not as time. The regular expressions the scans replaced took
 * seconds on 10,000 word characters and minutes on 40,000; the scans must also give exactly their
 * answers, which a differential test on random texts checks.
 */
class RedactionLinearTimeTest {
    /** Characters read per character of text: a small constant, whatever the text. */
    private static final int READS_PER_CHAR = 32;

    /** Adversarial texts, each a function of its length. */
    private static final String[][] SHAPES = {
        {"word run", "a"},
        {"word run with a secret word at the end", "a", "password"},
        {"name run", "a.b-c_"},
        {"password= repeated", "password="},
        {"password=\" repeated", "password=\""},
        {"token: ' repeated", "token: '"},
        {"bearer repeated", "bearer "},
        {"Authorization: Bearer repeated", "Authorization: Bearer "},
        {"basic and short credentials", "basic abc "},
        {"url prefix repeated", "://a:"},
        {"url without @", "postgres://user:pw"},
        {"spaces", " "},
        {"secret words glued", "tokensecretpasswordapikey"},
        {"separator runs", "secret \t :: == "},
    };

    private static String shape(String[] s, int length) {
        StringBuilder out = new StringBuilder(length + 16);
        while (out.length() < length) {
            out.append(s[1]);
        }
        out.setLength(length);
        if (s.length > 2) {
            out.replace(length - s[2].length(), length, s[2]);
        }
        return out.toString();
    }

    @Test
    void unboundedScansReadEachCharacterAConstantNumberOfTimes() {
        for (int length : new int[] {20_000, 1_000_000}) {
            for (String[] s : SHAPES) {
                String text = shape(s, length);
                for (Function<CharSequence, String> scan : new Function[] {
                        (Function<CharSequence, String>) Redaction::allSecrets,
                        (Function<CharSequence, String>) Redaction::connectionSecrets}) {
                    CountingText counted = new CountingText(text);
                    scan.apply(counted);
                    assertTrue(counted.reads <= (long) READS_PER_CHAR * length + 64,
                            s[0] + " of " + length + " chars: " + counted.reads + " characters read");
                }
            }
        }
    }

    @Test
    void theBoundedMethodsReadOnlyTheBoundWhateverTheLength() {
        int bound = Redaction.MAX_CHARS + Redaction.CUT_LOOKAHEAD;
        for (String[] s : SHAPES) {
            String text = shape(s, 20 * 1024 * 1024);
            // the public methods take a String; what they read of it is the window they cut first
            CountingText window = new CountingText(BoundedText.prefix(text, bound));
            Redaction.allSecrets(window);
            assertTrue(window.reads <= (long) READS_PER_CHAR * bound, s[0] + ": " + window.reads);

            long started = System.nanoTime();
            String redacted = Redaction.secrets(text);
            String connection = Redaction.connectionString(text);
            long tookMs = (System.nanoTime() - started) / 1_000_000;
            String marker = "… (truncated, " + text.length() + " chars)";
            assertTrue(redacted.endsWith(marker), s[0] + ": " + tail(redacted));
            assertTrue(redacted.length() <= Redaction.MAX_CHARS + marker.length(), s[0] + ": " + redacted.length());
            assertTrue(connection.endsWith(marker), s[0] + ": " + tail(connection));
            // generous: one 20 MB text is cut in microseconds; this only catches work proportional to it
            assertTrue(tookMs < 2000, s[0] + " of 20 MB took " + tookMs + " ms");
        }
    }

    @Test
    void aSecretAcrossTheCutIsMaskedNotHalfShown() {
        String secret = "hunter2hunter2hunter2";
        String text = "x".repeat(Redaction.MAX_CHARS - 10) + " password=" + secret + " " + "y".repeat(100_000);
        String redacted = Redaction.secrets(text);
        assertFalse(redacted.contains("hunter"), tail(redacted));
        assertTrue(redacted.endsWith("… (truncated, " + text.length() + " chars)"), tail(redacted));
        assertEquals("short", Redaction.secrets("short", 10));
        assertEquals("0123456789… (truncated, 11 chars)", Redaction.secrets("0123456789a", 10));
    }

    @Test
    void theScansAnswerExactlyAsTheRegularExpressionsTheyReplaced() {
        String[] pieces = {"password", "passwd", "pwd", "secret", "token", "api_key", "api-key", "apiKey", "Api_Key",
            "private_key", "access-key", "credential", "signature", "Authorization", "cookie", "passphrase", "PASSWORD",
            "bearer", "Bearer", "BASIC", "basic", "key", "monkey", "x", "ab", "_", ".", "-", "=", ":", " ", "  ", "\t",
            "\n", "\"", "'", ";", "&", ",", "}", "{", "@", "/", "://", "postgres://", "u", "é", "12345678", "abcdefghij",
            "~+/=", "tok.en", "a.b"};
        Random random = new Random(12);
        for (int round = 0; round < 200_000; round++) {
            StringBuilder text = new StringBuilder();
            int n = 1 + random.nextInt(12);
            for (int i = 0; i < n; i++) {
                text.append(pieces[random.nextInt(pieces.length)]);
            }
            String t = text.toString();
            assertEquals(Reference.secrets(t), Redaction.secrets(t), () -> "secrets of [" + t + "]");
            assertEquals(Reference.connectionString(t), Redaction.connectionString(t), () -> "connection string [" + t + "]");
        }
        String[] names = {"password", "db_password", "apiKey", "api_key", "X-API-Key", "token", "refresh_token",
            "client_secret", "authorization", "Cookie", "private_key", "key", "license_key", "sshKey", "KEY", "key-id",
            "signing.key", "customer_id", "email", "status", "query", "text", "monkey", "keyword", "turkey_count",
            "keys_pressed", "Key", "aKey", "AKey", "_Key", "key_", "ke", "", "k", "mykey", "my.KEY", "KEY.x", "PrivateKey",
            "accessKEY", "passPhrase", "9Key", "ÉKey"};
        for (String name : names) {
            assertEquals(Reference.sensitiveName(name), Redaction.sensitiveName(name), name);
        }
    }

    private static String tail(String s) {
        return s.length() <= 120 ? s : "…" + s.substring(s.length() - 120);
    }

    /** A text that counts how many of its characters were read. */
    private static final class CountingText implements CharSequence {
        private final String text;
        long reads;

        CountingText(String text) {
            this.text = text;
        }

        @Override
        public int length() {
            return text.length();
        }

        @Override
        public char charAt(int index) {
            reads++;
            return text.charAt(index);
        }

        @Override
        public CharSequence subSequence(int start, int end) {
            reads += end - start;
            return text.subSequence(start, end);
        }

        @Override
        public String toString() {
            reads += text.length();
            return text;
        }
    }

    /**
     * The regular expressions the scans replaced, as the specification of what they mask (ASCII
     * word boundaries, as {@code \w}). Only ever given short texts here: on long ones they backtrack.
     */
    private static final class Reference {
        static final Pattern URL_PASSWORD = Pattern.compile("(?<=://)([^:/@\\s]*):([^@/\\s]*)@");
        static final Pattern KV_PASSWORD = Pattern.compile(
                "(?i)(?<![A-Za-z0-9_])(password|passwd|pwd|secret|token|api[_-]?key)\\s*=\\s*('[^']*'|\"[^\"]*\"|[^\\s;&]*)");
        static final String SECRET_WORDS = "password|passwd|passphrase|pwd|secret|token|api[_-]?key|apikey"
                + "|private[_-]?key|access[_-]?key|credential|signature|authorization|cookie";
        static final Pattern SENSITIVE_NAME = Pattern.compile("(?i)(" + SECRET_WORDS + ")");
        static final Pattern KEY_NAME = Pattern.compile("(?:^|[_.-])(?i:key)$|^(?i:key)(?:[_.-]|$)|[a-z0-9]Key$");
        static final Pattern KV_SECRET = Pattern.compile("(?i)([\\w.-]*(?:" + SECRET_WORDS + ")[\\w.-]*)"
                + "([\"']?\\s*[=:]\\s*)((?:bearer|basic)\\s+)?(\"[^\"]*\"|'[^']*'|[^\\s;&,}\"']+)");
        static final Pattern AUTH_SCHEME = Pattern.compile("(?i)(?<![A-Za-z0-9_])(bearer|basic)\\s+[A-Za-z0-9._~+/=-]{8,}");

        static String connectionString(String text) {
            String out = URL_PASSWORD.matcher(text).replaceAll("$1:***@");
            return KV_PASSWORD.matcher(out).replaceAll("$1=***");
        }

        static String secrets(String text) {
            String out = URL_PASSWORD.matcher(text).replaceAll("$1:***@");
            out = KV_SECRET.matcher(out).replaceAll(m -> Matcher.quoteReplacement(
                    m.group(1) + m.group(2) + (m.group(3) == null ? "" : m.group(3)) + quoted(m.group(4))));
            return AUTH_SCHEME.matcher(out).replaceAll("$1 ***");
        }

        static boolean sensitiveName(String name) {
            return SENSITIVE_NAME.matcher(name).find() || KEY_NAME.matcher(name).find();
        }

        private static String quoted(String value) {
            if (value.length() >= 2 && (value.charAt(0) == '"' || value.charAt(0) == '\'')) {
                return value.charAt(0) + "***" + value.charAt(0);
            }
            return "***";
        }
    }
}

package dev.hyperterse.search;

import java.text.Normalizer;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * BERT's uncased WordPiece tokenizer, as all-MiniLM-L6-v2 tokenizes its input: the text is
 * cleaned (control and format characters dropped, every kind of white space made a space), CJK
 * ideographs set apart, accents stripped (NFD, nonspacing marks dropped), lower-cased; split at
 * white space and around each punctuation character (Unicode punctuation and every ASCII
 * punctuation or symbol character); then each word becomes the longest vocabulary entries that
 * spell it from the left, pieces after the first written with a {@code ##} prefix. A word longer
 * than 100 characters, or one that cannot be spelled so, is the unknown token. Special tokens
 * ({@code [CLS]}, {@code [SEP]}) are not added. Immutable and safe to share between threads.
 */
final class WordPieceTokenizer {

    static final String UNKNOWN = "[UNK]";
    private static final String CONTINUATION = "##";
    private static final int MAX_WORD_CHARS = 100;

    private final Map<String, Integer> ids;
    private final int unknownId;

    /** @param vocabulary the tokens in id order */
    WordPieceTokenizer(List<String> vocabulary) {
        this.ids = new HashMap<>(vocabulary.size() * 2);
        for (int i = 0; i < vocabulary.size(); i++) {
            ids.putIfAbsent(vocabulary.get(i), i);
        }
        Integer unknown = ids.get(UNKNOWN);
        if (unknown == null) {
            throw new IllegalArgumentException("the vocabulary has no " + UNKNOWN + " token");
        }
        this.unknownId = unknown;
    }

    /** The unknown token's id. */
    int unknownId() {
        return unknownId;
    }

    /** The text's token ids, in order, without special tokens. */
    int[] encode(String text) {
        String normalized = normalize(text);
        int[] out = new int[Math.max(8, normalized.length())];
        int count = 0;
        int length = normalized.length();
        int i = 0;
        while (i < length) {
            int cp = normalized.codePointAt(i);
            if (cp == ' ') {
                i++;
                continue;
            }
            if (isPunctuation(cp)) {
                int end = i + Character.charCount(cp);
                out = grow(out, count + 1);
                count = piece(normalized, i, end, out, count);
                i = end;
                continue;
            }
            int end = i;
            while (end < length) {
                int c = normalized.codePointAt(end);
                if (c == ' ' || isPunctuation(c)) {
                    break;
                }
                end += Character.charCount(c);
            }
            out = grow(out, count + (end - i));
            count = piece(normalized, i, end, out, count);
            i = end;
        }
        return Arrays.copyOf(out, count);
    }

    /** Appends the pieces of the word {@code text[from, to)}, or the unknown token. */
    private int piece(String text, int from, int to, int[] out, int count) {
        if (text.codePointCount(from, to) > MAX_WORD_CHARS) {
            out[count] = unknownId;
            return count + 1;
        }
        int start = from;
        int written = count;
        while (start < to) {
            int end = to;
            Integer found = null;
            while (end > start) {
                String candidate = start == from ? text.substring(start, end)
                        : CONTINUATION + text.substring(start, end);
                found = ids.get(candidate);
                if (found != null) {
                    break;
                }
                end = text.offsetByCodePoints(end, -1);
            }
            if (found == null) {
                out[count] = unknownId;
                return count + 1;
            }
            out[written++] = found;
            start = end;
        }
        return written;
    }

    private static int[] grow(int[] out, int needed) {
        return needed <= out.length ? out : Arrays.copyOf(out, Math.max(needed, out.length * 2));
    }

    /**
     * Cleaning, CJK spacing, accent stripping and lower-casing, in that order; white space comes
     * out as single spaces (runs are not collapsed).
     */
    static String normalize(String text) {
        StringBuilder cleaned = new StringBuilder(text.length() + 8);
        boolean ascii = true;
        for (int i = 0; i < text.length(); ) {
            int cp = text.codePointAt(i);
            i += Character.charCount(cp);
            if (cp == 0 || cp == 0xFFFD || isControl(cp)) {
                continue;
            }
            if (isWhitespace(cp)) {
                cleaned.append(' ');
            } else if (isChinese(cp)) {
                cleaned.append(' ').appendCodePoint(cp).append(' ');
                ascii = false;
            } else {
                cleaned.appendCodePoint(cp);
                ascii &= cp < 0x80;
            }
        }
        if (ascii) {
            return cleaned.toString().toLowerCase(Locale.ROOT);
        }
        String decomposed = Normalizer.normalize(cleaned, Normalizer.Form.NFD);
        StringBuilder out = new StringBuilder(decomposed.length());
        for (int i = 0; i < decomposed.length(); ) {
            int cp = decomposed.codePointAt(i);
            i += Character.charCount(cp);
            if (Character.getType(cp) == Character.NON_SPACING_MARK) {
                continue;
            }
            // one code point at a time, as the original does: no context-dependent final sigma
            if (cp < 0x80) {
                out.append((char) Character.toLowerCase(cp));
            } else {
                out.append(new String(Character.toChars(cp)).toLowerCase(Locale.ROOT));
            }
        }
        return out.toString();
    }

    /**
     * Control, format, private-use, unassigned and surrogate code points, which are dropped; tab,
     * line feed and carriage return are white space instead.
     */
    private static boolean isControl(int cp) {
        if (cp == '\t' || cp == '\n' || cp == '\r') {
            return false;
        }
        return switch (Character.getType(cp)) {
            case Character.CONTROL, Character.FORMAT, Character.UNASSIGNED, Character.PRIVATE_USE,
                 Character.SURROGATE -> true;
            default -> false;
        };
    }

    /** Unicode's White_Space property (the control characters among it are already dropped). */
    private static boolean isWhitespace(int cp) {
        return cp == ' ' || cp == '\t' || cp == '\n' || cp == '\r' || Character.isSpaceChar(cp);
    }

    private static boolean isPunctuation(int cp) {
        if (cp < 0x80) {
            return (cp >= 33 && cp <= 47) || (cp >= 58 && cp <= 64) || (cp >= 91 && cp <= 96)
                    || (cp >= 123 && cp <= 126);
        }
        return switch (Character.getType(cp)) {
            case Character.CONNECTOR_PUNCTUATION, Character.DASH_PUNCTUATION, Character.START_PUNCTUATION,
                 Character.END_PUNCTUATION, Character.INITIAL_QUOTE_PUNCTUATION, Character.FINAL_QUOTE_PUNCTUATION,
                 Character.OTHER_PUNCTUATION -> true;
            default -> false;
        };
    }

    /** The CJK Unified Ideographs blocks and their extensions and compatibility forms. */
    private static boolean isChinese(int cp) {
        return (cp >= 0x4E00 && cp <= 0x9FFF) || (cp >= 0x3400 && cp <= 0x4DBF) || (cp >= 0x20000 && cp <= 0x2A6DF)
                || (cp >= 0x2A700 && cp <= 0x2B73F) || (cp >= 0x2B740 && cp <= 0x2B81F)
                || (cp >= 0x2B920 && cp <= 0x2CEAF) || (cp >= 0xF900 && cp <= 0xFAFF)
                || (cp >= 0x2F800 && cp <= 0x2FA1F);
    }
}

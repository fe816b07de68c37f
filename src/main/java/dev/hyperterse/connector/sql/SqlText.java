package dev.hyperterse.connector.sql;

import java.util.Locale;

/** Small facts about a compiled statement's text that decide how it is run. */
public final class SqlText {

    private SqlText() {
    }

    /**
     * The statement's first keyword in upper case (after whitespace, comments and opening
     * parentheses), or "" when it starts with something else.
     */
    public static String leadingKeyword(String sql) {
        int i = 0;
        int n = sql.length();
        while (i < n) {
            char c = sql.charAt(i);
            if (Character.isWhitespace(c) || c == '(') {
                i++;
            } else if (sql.startsWith("--", i) || c == '#') {
                int end = sql.indexOf('\n', i);
                i = end < 0 ? n : end;
            } else if (sql.startsWith("/*", i) && !sql.startsWith("/*!", i)) {
                int end = sql.indexOf("*/", i + 2);
                i = end < 0 ? n : end + 2;
            } else {
                break;
            }
        }
        int start = i;
        while (i < n && Character.isLetter(sql.charAt(i))) {
            i++;
        }
        return sql.substring(start, i).toUpperCase(Locale.ROOT);
    }
}

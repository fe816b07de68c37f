package dev.hyperterse.model;

import java.util.Locale;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * A tool's advisory hints, MCP's {@code readOnlyHint}, {@code destructiveHint},
 * {@code idempotentHint} and {@code openWorldHint}; null means not stated. They describe, they do
 * not enforce: a client may use them to ask before running a destructive tool.
 *
 * <p>A hint a tool file does not write is inferred from the statement ({@link #inferred}): a read
 * (SQL {@code SELECT}, {@code WITH … SELECT}, {@code SHOW}, {@code EXPLAIN}; a Redis read command)
 * is read-only and idempotent; {@code DELETE}, {@code DROP}, {@code TRUNCATE} and Redis commands that
 * remove data are destructive; {@code INSERT}, {@code UPDATE} and other Redis writes are neither. A
 * database tool works on its own database, so it is not open-world. Handlers get no inference.
 */
public record ToolAnnotations(Boolean readOnly, Boolean destructive, Boolean idempotent, Boolean openWorld) {
    public static final ToolAnnotations NONE = new ToolAnnotations(null, null, null, null);

    private static final ToolAnnotations READ = new ToolAnnotations(true, false, true, false);
    private static final ToolAnnotations WRITE = new ToolAnnotations(false, false, null, false);
    private static final ToolAnnotations DELETE = new ToolAnnotations(false, true, null, false);
    private static final ToolAnnotations DATABASE = new ToolAnnotations(null, null, null, false);

    private static final Pattern LEADING_NOISE = Pattern.compile("\\A(?:\\s+|--[^\\n]*\\n?|/\\*.*?\\*/|\\()*",
            Pattern.DOTALL);
    private static final Pattern FIRST_WORD = Pattern.compile("[A-Za-z_.]+");
    private static final Pattern DATA_CHANGE = Pattern.compile("\\b(INSERT|UPDATE|DELETE|MERGE|TRUNCATE|DROP)\\b",
            Pattern.CASE_INSENSITIVE);
    private static final Set<String> SQL_READS = Set.of("SELECT", "SHOW", "EXPLAIN", "VALUES", "TABLE", "DESCRIBE",
            "DESC", "PRAGMA");
    private static final Set<String> SQL_DELETES = Set.of("DELETE", "DROP", "TRUNCATE");
    private static final Set<String> SQL_WRITES = Set.of("INSERT", "UPDATE", "REPLACE", "MERGE", "UPSERT");
    private static final Set<String> REDIS_READS = Set.of("GET", "MGET", "GETRANGE", "STRLEN", "EXISTS", "TTL", "PTTL",
            "TYPE", "KEYS", "SCAN", "DBSIZE", "HGET", "HMGET", "HGETALL", "HKEYS", "HVALS", "HLEN", "HEXISTS",
            "HSTRLEN", "HSCAN", "LRANGE", "LLEN", "LINDEX", "LPOS", "SMEMBERS", "SISMEMBER", "SMISMEMBER", "SCARD",
            "SINTER", "SUNION", "SDIFF", "SSCAN", "SRANDMEMBER", "ZRANGE", "ZRANGEBYSCORE", "ZRANGEBYLEX",
            "ZREVRANGE", "ZREVRANGEBYSCORE", "ZSCORE", "ZMSCORE", "ZCARD", "ZCOUNT", "ZRANK", "ZREVRANK", "ZSCAN",
            "XRANGE", "XREVRANGE", "XLEN", "GETBIT", "BITCOUNT", "BITPOS", "PFCOUNT", "GEOPOS", "GEODIST",
            "GEOSEARCH", "JSON.GET", "JSON.MGET", "JSON.TYPE", "JSON.STRLEN", "JSON.ARRLEN", "JSON.OBJKEYS", "PING",
            "ECHO");
    private static final Set<String> REDIS_DELETES = Set.of("DEL", "UNLINK", "GETDEL", "FLUSHDB", "FLUSHALL", "HDEL",
            "LREM", "LPOP", "RPOP", "LTRIM", "SREM", "SPOP", "ZREM", "ZPOPMIN", "ZPOPMAX", "ZREMRANGEBYSCORE",
            "ZREMRANGEBYRANK", "ZREMRANGEBYLEX", "XDEL", "XTRIM", "JSON.DEL", "JSON.FORGET", "EXPIRE", "PEXPIRE",
            "EXPIREAT", "PEXPIREAT");

    /** These hints, with each unstated one taken from {@code fallback}. */
    public ToolAnnotations over(ToolAnnotations fallback) {
        return new ToolAnnotations(readOnly != null ? readOnly : fallback.readOnly,
                destructive != null ? destructive : fallback.destructive,
                idempotent != null ? idempotent : fallback.idempotent,
                openWorld != null ? openWorld : fallback.openWorld);
    }

    public boolean isEmpty() {
        return readOnly == null && destructive == null && idempotent == null && openWorld == null;
    }

    /**
     * What a database tool's statement says about it.
     *
     * @param redis true for a Redis command, false for SQL
     */
    public static ToolAnnotations inferred(String statement, boolean redis) {
        if (statement == null) {
            return NONE;
        }
        String rest = statement.substring(skipNoise(statement, redis));
        Matcher m = FIRST_WORD.matcher(rest);
        if (!m.lookingAt()) {
            return DATABASE;
        }
        String first = m.group().toUpperCase(Locale.ROOT);
        if (redis) {
            return REDIS_READS.contains(first) ? READ : REDIS_DELETES.contains(first) ? DELETE : WRITE;
        }
        if (first.equals("WITH")) {
            // a data-modifying CTE or main statement makes it a write; the worst one wins
            Matcher change = DATA_CHANGE.matcher(rest);
            ToolAnnotations found = READ;
            while (change.find()) {
                String word = change.group(1).toUpperCase(Locale.ROOT);
                if (SQL_DELETES.contains(word)) {
                    return DELETE;
                }
                found = WRITE;
            }
            return found;
        }
        if (SQL_READS.contains(first)) {
            return READ;
        }
        if (SQL_DELETES.contains(first)) {
            return DELETE;
        }
        if (SQL_WRITES.contains(first)) {
            return WRITE;
        }
        return DATABASE;
    }

    private static int skipNoise(String statement, boolean redis) {
        if (redis) {
            int i = 0;
            while (i < statement.length() && Character.isWhitespace(statement.charAt(i))) {
                i++;
            }
            return i;
        }
        Matcher m = LEADING_NOISE.matcher(statement);
        return m.lookingAt() ? m.end() : 0;
    }
}

package dev.hyperterse.testing;

import java.util.UUID;

/**
 * Where the tests find PostgreSQL, MySQL/MariaDB and Redis: the local services by default, or
 * the servers named by {@code HYPERTERSE_TEST_POSTGRES_URL}, {@code HYPERTERSE_TEST_MYSQL_URL}
 * and {@code HYPERTERSE_TEST_REDIS_URL} (README, Testing); MongoDB: an in-process server unless
 * {@code HYPERTERSE_TEST_MONGODB_URL} names one. Tests work in a schema, database or
 * key prefix of their own, so runs on a shared server do not meet.
 */
public final class TestDatabases {

    private TestDatabases() {
    }

    public static String postgresUrl() {
        return env("HYPERTERSE_TEST_POSTGRES_URL", "postgres://postgres@127.0.0.1:5432/test?sslmode=disable");
    }

    public static String mysqlUrl() {
        return env("HYPERTERSE_TEST_MYSQL_URL", "mysql://root@127.0.0.1:3306/test");
    }

    public static String redisUrl() {
        return env("HYPERTERSE_TEST_REDIS_URL", "redis://127.0.0.1:6379");
    }

    /**
     * A real MongoDB server named by {@code HYPERTERSE_TEST_MONGODB_URL}, or null: then the tests
     * run against an in-process server ({@link MongoTestServer}).
     */
    public static String mongodbUrl() {
        String v = System.getenv("HYPERTERSE_TEST_MONGODB_URL");
        return v == null || v.isBlank() ? null : v.trim();
    }

    /** A name no other run uses: {@code prefix_1a2b3c4d5e6f}. */
    public static String uniqueName(String prefix) {
        return prefix + "_" + UUID.randomUUID().toString().replace("-", "").substring(0, 12);
    }

    /** The same URL with another database (path), keeping credentials, host and query. */
    public static String withDatabase(String url, String database) {
        int authority = url.indexOf("://") + 3;
        int at = url.lastIndexOf('@');
        int slash = url.indexOf('/', Math.max(authority, at + 1));
        int query = url.indexOf('?', Math.max(authority, at + 1));
        String head = slash < 0 ? (query < 0 ? url : url.substring(0, query)) : url.substring(0, slash);
        String tail = query < 0 ? "" : url.substring(query);
        return head + "/" + database + tail;
    }

    /** The same URL pointing at another host and port (a {@link TcpProxy}, say). */
    public static String withAddress(String url, String host, int port) {
        int authority = url.indexOf("://") + 3;
        int at = url.lastIndexOf('@');
        int hostStart = Math.max(authority, at + 1);
        int end = hostStart;
        while (end < url.length() && url.charAt(end) != '/' && url.charAt(end) != '?') {
            end++;
        }
        return url.substring(0, hostStart) + host + ":" + port + url.substring(end);
    }

    /** The host of a URL such as {@code postgres://u@host:5432/db}. */
    public static String host(String url) {
        String address = address(url);
        int colon = address.lastIndexOf(':');
        return colon < 0 ? address : address.substring(0, colon);
    }

    /** The port of a URL, or {@code fallback} when it names none. */
    public static int port(String url, int fallback) {
        String address = address(url);
        int colon = address.lastIndexOf(':');
        return colon < 0 ? fallback : Integer.parseInt(address.substring(colon + 1));
    }

    private static String address(String url) {
        int authority = url.indexOf("://") + 3;
        int at = url.lastIndexOf('@');
        int hostStart = Math.max(authority, at + 1);
        int end = hostStart;
        while (end < url.length() && url.charAt(end) != '/' && url.charAt(end) != '?') {
            end++;
        }
        return url.substring(hostStart, end);
    }

    private static String env(String name, String fallback) {
        String v = System.getenv(name);
        return v == null || v.isBlank() ? fallback : v.trim();
    }
}

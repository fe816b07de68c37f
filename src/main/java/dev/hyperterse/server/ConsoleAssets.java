package dev.hyperterse.server;

import io.vertx.core.buffer.Buffer;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The web console's files, read from the jar once at start-up. Each script and style sheet is
 * served under its content hash ({@code /console/assets/<hash>/console.js}), so a browser may
 * keep it for good and a new version of the server is never mixed with an old file; the page
 * names them by those paths and is itself revalidated by its own hash (its ETag).
 */
final class ConsoleAssets {
    /** Where the hashed files are served, under the console's path. */
    static final String ASSETS = "/console/assets/";
    /** uPlot's browser build, from its WebJar (the version is the pom's). */
    private static final String UPLOT = "META-INF/resources/webjars/uplot/1.6.30/dist/";
    /** name in the page, resource, media type. */
    private static final List<String[]> FILES = List.of(
            new String[] {"console.js", "console/console.js", "text/javascript; charset=utf-8"},
            new String[] {"console.css", "console/console.css", "text/css; charset=utf-8"},
            new String[] {"uPlot.min.js", UPLOT + "uPlot.iife.min.js", "text/javascript; charset=utf-8"},
            new String[] {"uPlot.min.css", UPLOT + "uPlot.min.css", "text/css; charset=utf-8"});
    private static final String PAGE = "console/index.html";

    /** One file as served. */
    record Asset(Buffer body, String contentType, String etag) {
    }

    private final Asset page;
    private final Map<String, Asset> byPath;

    private ConsoleAssets(Asset page, Map<String, Asset> byPath) {
        this.page = page;
        this.byPath = Map.copyOf(byPath);
    }

    /**
     * Reads and hashes the files (blocking: run it on a worker). The page's
     * {@code {{asset:NAME}}} marks become the hashed paths.
     *
     * @throws IOException when a file is missing from the jar
     */
    static ConsoleAssets load(ClassLoader loader) throws IOException {
        Map<String, Asset> byPath = new LinkedHashMap<>();
        String html = new String(read(loader, PAGE), StandardCharsets.UTF_8);
        for (String[] file : FILES) {
            byte[] bytes = read(loader, file[1]);
            String hash = hash(bytes);
            String path = ASSETS + hash + "/" + file[0];
            byPath.put(path, new Asset(Buffer.buffer(bytes), file[2], "\"" + hash + "\""));
            html = html.replace("{{asset:" + file[0] + "}}", path);
        }
        if (html.contains("{{asset:")) {
            throw new IOException(PAGE + " names a file the console does not serve: "
                    + html.substring(html.indexOf("{{asset:"), Math.min(html.length(), html.indexOf("{{asset:") + 40)));
        }
        byte[] pageBytes = html.getBytes(StandardCharsets.UTF_8);
        Asset page = new Asset(Buffer.buffer(pageBytes), "text/html; charset=utf-8", "\"" + hash(pageBytes) + "\"");
        return new ConsoleAssets(page, byPath);
    }

    Asset page() {
        return page;
    }

    /** The file served at {@code path}, or null. */
    Asset at(String path) {
        return byPath.get(path);
    }

    /** Every hashed file's path. */
    java.util.Set<String> paths() {
        return byPath.keySet();
    }

    private static byte[] read(ClassLoader loader, String resource) throws IOException {
        try (InputStream in = loader.getResourceAsStream(resource)) {
            if (in == null) {
                throw new IOException("the jar holds no " + resource);
            }
            return in.readAllBytes();
        }
    }

    /** The first 16 bytes of the SHA-256, in hex. */
    static String hash(byte[] bytes) {
        try {
            byte[] digest = MessageDigest.getInstance("SHA-256").digest(bytes);
            return HexFormat.of().formatHex(digest, 0, 16);
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("every Java platform has SHA-256", e);
        }
    }
}

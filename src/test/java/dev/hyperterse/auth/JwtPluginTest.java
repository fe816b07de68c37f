package dev.hyperterse.auth;

import io.vertx.core.Future;
import io.vertx.core.Vertx;
import io.vertx.core.http.HttpServer;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import io.vertx.ext.auth.JWTOptions;
import io.vertx.ext.auth.PubSecKeyOptions;
import io.vertx.ext.auth.jwt.JWTAuth;
import io.vertx.ext.auth.jwt.JWTAuthOptions;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import java.security.KeyPair;
import java.security.KeyPairGenerator;
import java.security.interfaces.RSAPublicKey;
import java.util.Base64;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

class JwtPluginTest {
    static final String SECRET = "a-shared-secret-of-at-least-32-characters!";
    static Vertx vertx;

    @BeforeAll
    static void start() {
        vertx = Vertx.vertx();
    }

    @AfterAll
    static void stop() throws Exception {
        vertx.close().toCompletionStage().toCompletableFuture().get(10, TimeUnit.SECONDS);
    }

    static <T> T await(Future<T> f) throws Exception {
        return f.toCompletionStage().toCompletableFuture().get(10, TimeUnit.SECONDS);
    }

    static String denial(Future<Caller> f) throws Exception {
        return f.toCompletionStage().toCompletableFuture().handle((c, e) -> e == null ? null : e.getMessage())
                .get(10, TimeUnit.SECONDS);
    }

    static RequestHeaders bearer(String token) {
        return name -> name.equalsIgnoreCase("Authorization") ? "Bearer " + token : null;
    }

    static String hmacToken(JsonObject claims) {
        JWTAuth signer = JWTAuth.create(vertx, new JWTAuthOptions()
                .addPubSecKey(new PubSecKeyOptions().setAlgorithm("HS256").setBuffer(SECRET)));
        return signer.generateToken(claims, new JWTOptions().setNoTimestamp(true));
    }

    static long now() {
        return System.currentTimeMillis() / 1000;
    }

    static JsonObject claims() {
        return new JsonObject().put("sub", "alice").put("aud", "mcp-test").put("iss", "https://issuer.test")
                .put("exp", now() + 300).put("scope", "tools:read tools:write");
    }

    AuthCheck started(Map<String, Object> policy) throws Exception {
        AuthCheck check = new JwtPlugin().create(policy, Map.of());
        await(check.start(vertx));
        return check;
    }

    Map<String, Object> hmacPolicy() {
        Map<String, Object> p = new HashMap<>();
        p.put("secret", SECRET);
        p.put("audience", "mcp-test");
        p.put("issuer", "https://issuer.test");
        return p;
    }

    @Test
    void aValidTokenGivesTheCallerAndClaims() throws Exception {
        AuthCheck check = started(hmacPolicy());
        Caller caller = await(check.authenticate(bearer(hmacToken(claims().put("tenant", 7)))));
        assertEquals("alice", caller.subject());
        assertEquals(7, ((Number) caller.claims().get("tenant")).intValue());
    }

    @Test
    void missingWrongExpiredAndForeignTokensAreRefused() throws Exception {
        AuthCheck check = started(hmacPolicy());
        assertTrue(denial(check.authenticate(name -> null)).startsWith("missing bearer token"));
        assertTrue(denial(check.authenticate(name -> "Basic abc")).startsWith("missing bearer token"));
        assertEquals("invalid token", denial(check.authenticate(bearer("not.a.token"))));
        String forged = hmacToken(claims()).replaceAll(".$", "A").replaceAll(".(?=.$)", "B");
        assertEquals("invalid token", denial(check.authenticate(bearer(forged))));
        assertEquals("token expired", denial(check.authenticate(bearer(hmacToken(claims().put("exp", now() - 120))))));
        assertEquals(null, denial(check.authenticate(bearer(hmacToken(claims().put("exp", now() - 5))))), "within leeway");
        assertEquals("token was not issued for this server (audience)",
                denial(check.authenticate(bearer(hmacToken(claims().put("aud", "someone-else"))))));
        assertEquals("token issuer is not trusted",
                denial(check.authenticate(bearer(hmacToken(claims().put("iss", "https://evil.test"))))));
        assertEquals("token is not valid yet (nbf)",
                denial(check.authenticate(bearer(hmacToken(claims().put("nbf", now() + 600))))));
        assertEquals("token is not valid yet (iat)",
                denial(check.authenticate(bearer(hmacToken(claims().put("iat", now() + 600))))));
        assertEquals("token expired", denial(check.authenticate(bearer(hmacToken(claims().put("exp", now() - 120)
                .put("nbf", now() + 600))))), "an expired token is called expired whatever else is wrong");
        JsonObject noExp = claims();
        noExp.remove("exp");
        assertEquals("token has no expiry (exp)", denial(check.authenticate(bearer(hmacToken(noExp)))));
    }

    @Test
    void requiredClaimsAndScopes() throws Exception {
        Map<String, Object> policy = hmacPolicy();
        policy.put("required_claims", List.of("tenant"));
        policy.put("scopes", List.of("tools:read", "orders:admin"));
        AuthCheck check = started(policy);
        assertEquals("token lacks the required claim 'tenant'", denial(check.authenticate(bearer(hmacToken(claims())))));
        Future<Caller> scoped = check.authenticate(bearer(hmacToken(claims().put("tenant", 1))));
        Throwable e = scoped.toCompletionStage().toCompletableFuture().handle((c, x) -> x).get(5, TimeUnit.SECONDS);
        assertEquals(AuthDeniedException.Reason.INSUFFICIENT_SCOPE, ((AuthDeniedException) e).reason());
        assertEquals("token lacks the required scope 'orders:admin'", e.getMessage());
        assertEquals(null, denial(check.authenticate(bearer(hmacToken(claims().put("tenant", 1)
                .put("scp", new JsonArray().add("tools:read").add("orders:admin")))))));
    }

    /**
     * A signed token whose registered claims have the wrong JSON type is refused with a reason,
     * as an expired one is: the check never throws and never fails with anything but a denial.
     */
    @Test
    void typeConfusedClaimsAreDenialsNeverInternalErrors() throws Exception {
        AuthCheck check = started(hmacPolicy());
        Object[] notNumbers = {"soon", String.valueOf(now() + 300), null, true, new JsonObject().put("t", 1),
                new JsonArray().add(now() + 300)};
        Object[] notStrings = {12, null, false, new JsonObject(), new JsonArray().add("https://issuer.test")};
        Map<String, Object[]> cases = Map.of("exp", notNumbers, "nbf", notNumbers, "iat", notNumbers,
                "iss", notStrings, "sub", notStrings,
                "aud", new Object[]{7, null, true, new JsonObject().put("aud", "mcp-test"),
                        new JsonArray().add("mcp-test").add(3), new JsonArray().add(new JsonArray().add("mcp-test"))});
        for (Map.Entry<String, Object[]> c : cases.entrySet()) {
            for (Object value : c.getValue()) {
                String token = hmacToken(claims().put(c.getKey(), value));
                Future<Caller> answer;
                try {
                    answer = check.authenticate(bearer(token));
                } catch (RuntimeException thrown) {
                    throw new AssertionError(c.getKey() + " = " + value + " threw " + thrown, thrown);
                }
                Throwable e = answer.toCompletionStage().toCompletableFuture().handle((ok, x) -> x)
                        .get(10, TimeUnit.SECONDS);
                String what = c.getKey() + " = " + value;
                assertTrue(e instanceof AuthDeniedException, what + " gave " + e);
                assertEquals(AuthDeniedException.Reason.UNAUTHENTICATED, ((AuthDeniedException) e).reason(), what);
                assertTrue(e.getMessage().startsWith("invalid token: claim '" + c.getKey() + "' must be"),
                        what + " gave " + e.getMessage());
                assertTrue(!e.getMessage().contains("soon") && !e.getMessage().contains("issuer.test"),
                        "the reason names the claim, not its value: " + e.getMessage());
            }
        }
        // the right types still pass: fractional NumericDates, an audience array, a null custom claim
        Caller caller = await(check.authenticate(bearer(hmacToken(claims().put("exp", now() + 300.5)
                .put("iat", now() - 1.25).put("nbf", now() - 10).put("aud", new JsonArray().add("mcp-test").add("x"))
                .putNull("tenant")))));
        assertEquals("alice", caller.subject());
        assertTrue(!caller.claims().containsKey("tenant"), "a null claim is an absent claim");
    }

    /** A token signed with the test secret, with this header (HS256), as a token service could make it. */
    static String hmacToken(JsonObject header, JsonObject claims) throws Exception {
        Base64.Encoder b64 = Base64.getUrlEncoder().withoutPadding();
        String signingInput = b64.encodeToString(header.encode().getBytes(java.nio.charset.StandardCharsets.UTF_8))
                + "." + b64.encodeToString(claims.encode().getBytes(java.nio.charset.StandardCharsets.UTF_8));
        javax.crypto.Mac mac = javax.crypto.Mac.getInstance("HmacSHA256");
        mac.init(new javax.crypto.spec.SecretKeySpec(SECRET.getBytes(java.nio.charset.StandardCharsets.UTF_8), "HmacSHA256"));
        return signingInput + "." + b64.encodeToString(mac.doFinal(
                signingInput.getBytes(java.nio.charset.StandardCharsets.US_ASCII)));
    }

    /**
     * RFC 7515 §4.1.11: a token whose header lists, in {@code crit}, extensions the recipient does
     * not understand must be refused, whatever its signature; this server understands none. A
     * malformed {@code crit} (not an array of names, or empty) is refused too.
     */
    @Test
    void tokensThatNeedHeaderExtensionsAreRefused() throws Exception {
        AuthCheck check = started(hmacPolicy());
        JsonObject header = new JsonObject().put("alg", "HS256").put("typ", "JWT");
        assertEquals("alice", await(check.authenticate(bearer(hmacToken(header, claims())))).subject(),
                "the same token without crit passes");
        for (Object crit : new Object[] {new JsonArray().add("exp"), new JsonArray().add("b64").add("http://x.test/ext"),
                new JsonArray().add("iss")}) {
            String token = hmacToken(header.copy().put("crit", crit).put("exp", now() + 300).put("b64", true)
                    .put("http://x.test/ext", 1).put("iss", "x"), claims());
            Throwable e = check.authenticate(bearer(token)).toCompletionStage().toCompletableFuture()
                    .handle((ok, x) -> x).get(10, TimeUnit.SECONDS);
            assertTrue(e instanceof AuthDeniedException, crit + " gave " + e);
            assertEquals("invalid token: it requires header extensions this server does not understand (crit)",
                    e.getMessage(), String.valueOf(crit));
        }
        for (Object crit : new Object[] {new JsonArray(), "exp", 1, null, true, new JsonObject().put("exp", 1),
                new JsonArray().add(1), new JsonArray().add("exp").addNull(), new JsonArray().add("")}) {
            String token = hmacToken(header.copy().put("crit", crit), claims());
            assertEquals("invalid token: header 'crit' must be a non-empty array of names",
                    denial(check.authenticate(bearer(token))), String.valueOf(crit));
        }
    }

    @Test
    void badPoliciesAreStartUpErrors() {
        JwtPlugin plugin = new JwtPlugin();
        assertThrows(AuthPolicyException.class, () -> plugin.create(Map.of("audience", "a"), Map.of()));
        assertThrows(AuthPolicyException.class, () -> plugin.create(Map.of("secret", SECRET), Map.of()));
        assertThrows(AuthPolicyException.class, () -> plugin.create(Map.of("secret", "short", "audience", "a"), Map.of()));
        assertThrows(AuthPolicyException.class, () -> plugin.create(
                Map.of("secret", SECRET, "jwks_url", "https://x.test/jwks", "audience", "a"), Map.of()));
        assertThrows(AuthPolicyException.class, () -> plugin.create(
                Map.of("secret", SECRET, "audience", "a", "algorithm", "RS256"), Map.of()));
        assertThrows(AuthPolicyException.class, () -> plugin.create(Map.of("jwks_url", "ftp://x", "audience", "a"), Map.of()));
        assertThrows(AuthPolicyException.class, () -> plugin.create(
                Map.of("secret", SECRET, "audience", "a", "leeway", "soon"), Map.of()));
        AuthPolicyException unknown = assertThrows(AuthPolicyException.class, () -> plugin.create(
                Map.of("secret", SECRET, "audience", "a", "audiance", "b"), Map.of()));
        assertTrue(unknown.getMessage().contains("audiance"));
    }

    @Test
    void jwksKeysRotate() throws Exception {
        RsaKey first = RsaKey.generate("key-1");
        RsaKey second = RsaKey.generate("key-2");
        AtomicReference<JsonArray> published = new AtomicReference<>(new JsonArray().add(first.publicJwk()));
        AtomicInteger fetches = new AtomicInteger();
        HttpServer jwks = await(vertx.createHttpServer().requestHandler(req -> {
            fetches.incrementAndGet();
            req.response().putHeader("Content-Type", "application/json")
                    .end(new JsonObject().put("keys", published.get()).encode());
        }).listen(0, "127.0.0.1"));
        try {
            Map<String, Object> policy = Map.of("jwks_url", "http://127.0.0.1:" + jwks.actualPort() + "/jwks",
                    "audience", "mcp-test", "jwks_refresh", "0s");
            AuthCheck check = started(policy);
            assertEquals(1, fetches.get(), "keys are fetched at start-up");
            assertEquals("alice", await(check.authenticate(bearer(first.sign(claims())))).subject());

            published.set(new JsonArray().add(second.publicJwk()));
            assertEquals("alice", await(check.authenticate(bearer(second.sign(claims())))).subject(),
                    "a token signed by a new key makes the check fetch the keys again");
            assertEquals(2, fetches.get());
            assertEquals("token is signed by an unknown key", denial(check.authenticate(bearer(first.sign(claims())))),
                    "the retired key is no longer trusted");
            await(check.close());
        } finally {
            await(jwks.close());
        }
    }

    @Test
    void jwksRefreshesAreRateLimited() throws Exception {
        RsaKey first = RsaKey.generate("key-1");
        RsaKey stranger = RsaKey.generate("key-x");
        AtomicInteger fetches = new AtomicInteger();
        HttpServer jwks = await(vertx.createHttpServer().requestHandler(req -> {
            fetches.incrementAndGet();
            req.response().end(new JsonObject().put("keys", new JsonArray().add(first.publicJwk())).encode());
        }).listen(0, "127.0.0.1"));
        try {
            AuthCheck check = started(Map.of("jwks_url", "http://127.0.0.1:" + jwks.actualPort() + "/jwks",
                    "audience", "mcp-test", "jwks_refresh", "1h"));
            for (int i = 0; i < 5; i++) {
                assertEquals("token is signed by an unknown key", denial(check.authenticate(bearer(stranger.sign(claims())))));
            }
            assertEquals(1, fetches.get(), "unknown key ids do not hammer the identity provider");
            await(check.close());
        } finally {
            await(jwks.close());
        }
    }

    /**
     * A JWKS document with no key this server can verify with (none at all, only encryption keys,
     * or only kinds it does not support) must never leave the check without keys: such a check
     * would take an unsigned token ({@code alg: none}) as valid.
     */
    @Test
    void aJwksDocumentWithoutUsableKeysNeverAdmitsUnsignedTokens() throws Exception {
        RsaKey first = RsaKey.generate("key-1");
        JsonArray[] documents = {
                new JsonArray(),
                new JsonArray().add(first.publicJwk().put("use", "enc")),
                new JsonArray().add(new JsonObject().put("kty", "XYZ").put("kid", "odd"))};
        Base64.Encoder b64 = Base64.getUrlEncoder().withoutPadding();
        String unsigned = b64.encodeToString(new JsonObject().put("alg", "none").put("typ", "JWT").encode().getBytes())
                + "." + b64.encodeToString(claims().encode().getBytes());
        for (JsonArray keys : documents) {
            AtomicReference<JsonArray> published = new AtomicReference<>(keys);
            HttpServer jwks = await(vertx.createHttpServer().requestHandler(req -> req.response()
                    .end(new JsonObject().put("keys", published.get()).encode())).listen(0, "127.0.0.1"));
            try {
                AuthCheck check = started(Map.of("jwks_url", "http://127.0.0.1:" + jwks.actualPort() + "/jwks",
                        "audience", "mcp-test", "jwks_refresh", "0s"));
                for (String token : List.of(unsigned, unsigned + ".", unsigned + ".c2ln")) {
                    assertTrue(denial(check.authenticate(bearer(token))) != null,
                            "keys " + keys + ": an unsigned token '" + token + "' is refused");
                }
                // a document that loses its keys later keeps the keys the check had
                published.set(new JsonArray().add(first.publicJwk()));
                assertEquals("alice", await(check.authenticate(bearer(first.sign(claims())))).subject());
                published.set(keys);
                assertTrue(denial(check.authenticate(bearer(RsaKey.generate("key-2").sign(claims())))) != null);
                assertTrue(denial(check.authenticate(bearer(unsigned))) != null, "keys " + keys + " after a refresh");
                assertEquals("alice", await(check.authenticate(bearer(first.sign(claims())))).subject(),
                        "the keys the check had are kept when the document has none it can use");
                await(check.close());
            } finally {
                await(jwks.close());
            }
        }
    }

    /**
     * While the identity provider cannot give keys, tokens are refused without asking it again on
     * every call: a caller sending any bearer string must not make the server hammer it.
     */
    @Test
    void anUnavailableJwksIsNotFetchedOnEveryCall() throws Exception {
        RsaKey first = RsaKey.generate("key-1");
        AtomicInteger fetches = new AtomicInteger();
        HttpServer jwks = await(vertx.createHttpServer().requestHandler(req -> {
            fetches.incrementAndGet();
            req.response().setStatusCode(503).end();
        }).listen(0, "127.0.0.1"));
        try {
            AuthCheck check = started(Map.of("jwks_url", "http://127.0.0.1:" + jwks.actualPort() + "/jwks",
                    "audience", "mcp-test", "jwks_refresh", "1h"));
            for (int i = 0; i < 20; i++) {
                assertEquals("cannot verify tokens: signing keys are unavailable",
                        denial(check.authenticate(bearer(first.sign(claims())))));
            }
            assertTrue(fetches.get() <= 2, fetches.get() + " fetches for 20 calls while the keys are unavailable");
            await(check.close());
        } finally {
            await(jwks.close());
        }
    }

    /**
     * An identity provider that sends its headers and then stalls (or drips its body without end)
     * must not hold the fetch open: start-up goes on, and calls are answered, within the fetch's
     * time limit.
     */
    @Test
    void aStalledJwksBodyDoesNotHangStartUpOrCalls() throws Exception {
        RsaKey first = RsaKey.generate("key-1");
        HttpServer jwks = await(vertx.createHttpServer().requestHandler(req -> req.response()
                .setChunked(true).putHeader("Content-Type", "application/json").write("{\"keys\": ["))
                .listen(0, "127.0.0.1"));
        try {
            long began = System.nanoTime();
            AuthCheck check = new JwtPlugin().create(Map.of("jwks_url", "http://127.0.0.1:" + jwks.actualPort() + "/jwks",
                    "audience", "mcp-test", "jwks_refresh", "0s"), Map.of());
            check.start(vertx).toCompletionStage().toCompletableFuture().get(20, TimeUnit.SECONDS);
            assertEquals("cannot verify tokens: signing keys are unavailable",
                    denial(check.authenticate(bearer(first.sign(claims())))));
            assertTrue(System.nanoTime() - began < TimeUnit.SECONDS.toNanos(20));
            await(check.close());
        } finally {
            await(jwks.close());
        }
    }

    /**
     * A JWKS document is a few kilobytes; a URL that answers with far more (a wrong address, a
     * misbehaving provider) is a failed fetch, not memory the server holds while it reads it.
     */
    @Test
    void anOversizedJwksDocumentIsAFailedFetch() throws Exception {
        RsaKey first = RsaKey.generate("key-1");
        String padding = "x".repeat(2 * 1024 * 1024);
        HttpServer jwks = await(vertx.createHttpServer().requestHandler(req -> req.response()
                .end(new JsonObject().put("keys", new JsonArray().add(first.publicJwk())).put("padding", padding).encode()))
                .listen(0, "127.0.0.1"));
        try {
            AuthCheck check = started(Map.of("jwks_url", "http://127.0.0.1:" + jwks.actualPort() + "/jwks",
                    "audience", "mcp-test"));
            assertEquals("cannot verify tokens: signing keys are unavailable",
                    denial(check.authenticate(bearer(first.sign(claims())))));
            await(check.close());
        } finally {
            await(jwks.close());
        }
    }

    /** An RSA signing key with its public JWK, as an identity provider would publish it. */
    record RsaKey(String kid, KeyPair pair) {
        static RsaKey generate(String kid) throws Exception {
            KeyPairGenerator generator = KeyPairGenerator.getInstance("RSA");
            generator.initialize(2048);
            return new RsaKey(kid, generator.generateKeyPair());
        }

        JsonObject publicJwk() {
            RSAPublicKey pub = (RSAPublicKey) pair.getPublic();
            Base64.Encoder b64 = Base64.getUrlEncoder().withoutPadding();
            return new JsonObject().put("kty", "RSA").put("kid", kid).put("use", "sig").put("alg", "RS256")
                    .put("n", b64.encodeToString(unsigned(pub.getModulus().toByteArray())))
                    .put("e", b64.encodeToString(unsigned(pub.getPublicExponent().toByteArray())));
        }

        String sign(JsonObject claims) {
            String pem = "-----BEGIN PRIVATE KEY-----\n"
                    + Base64.getMimeEncoder().encodeToString(pair.getPrivate().getEncoded())
                    + "\n-----END PRIVATE KEY-----\n";
            JWTAuth signer = JWTAuth.create(vertx, new JWTAuthOptions()
                    .addPubSecKey(new PubSecKeyOptions().setAlgorithm("RS256").setBuffer(pem).setId(kid)));
            return signer.generateToken(claims, new JWTOptions().setAlgorithm("RS256").setNoTimestamp(true));
        }

        private static byte[] unsigned(byte[] bytes) {
            return bytes.length > 1 && bytes[0] == 0 ? java.util.Arrays.copyOfRange(bytes, 1, bytes.length) : bytes;
        }
    }
}

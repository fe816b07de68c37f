package dev.hyperterse.auth;

import dev.hyperterse.model.Counted;
import io.vertx.core.Future;
import io.vertx.core.Promise;
import io.vertx.core.Vertx;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import io.vertx.ext.auth.JWTOptions;
import io.vertx.ext.auth.NoSuchKeyIdException;
import io.vertx.ext.auth.PubSecKeyOptions;
import io.vertx.ext.auth.User;
import io.vertx.ext.auth.authentication.TokenCredentials;
import io.vertx.ext.auth.impl.jose.JWK;
import io.vertx.ext.auth.jwt.JWTAuth;
import io.vertx.ext.auth.jwt.JWTAuthOptions;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import java.util.concurrent.atomic.AtomicReference;

/**
 * Verifies bearer tokens for one jwt policy. With a JWKS URL, keys are fetched at start-up and
 * again when a token names a key id we do not have (key rotation), at most once per
 * {@code jwks_refresh}; concurrent refreshes share one request.
 */
final class JwtCheck implements AuthCheck {
    private static final Logger LOG = LoggerFactory.getLogger(JwtCheck.class);
    private static final long FETCH_TIMEOUT_MS = 5_000;
    /** A JWKS document is a few kilobytes; a far larger answer is not one. */
    static final int MAX_DOCUMENT_BYTES = 1 << 20;
    /** While no keys are held, how soon a failed fetch is tried again: soon, yet not once per call. */
    private static final long RETRY_WITHOUT_KEYS_NANOS = java.util.concurrent.TimeUnit.SECONDS.toNanos(5);

    private final JwtPlugin.Policy policy;
    private volatile JWTAuth provider;
    private Vertx vertx;
    private volatile java.net.http.HttpClient http;
    private volatile long lastFetchNanos;
    private final AtomicReference<Promise<Void>> inFlight = new AtomicReference<>();

    JwtCheck(JwtPlugin.Policy policy) {
        this.policy = policy;
    }

    @Override
    public java.util.Optional<ProtectedResource> protectedResource() {
        List<String> servers = !policy.authorizationServers().isEmpty() ? policy.authorizationServers()
                : policy.issuer() != null ? List.of(policy.issuer()) : List.of();
        return java.util.Optional.of(new ProtectedResource(policy.resource(), servers, policy.scopes()));
    }

    @Override
    public Future<Void> start(Vertx vertx) {
        this.vertx = vertx;
        if (policy.secret() != null) {
            provider = JWTAuth.create(vertx, new JWTAuthOptions()
                    .addPubSecKey(new PubSecKeyOptions().setAlgorithm(policy.algorithm()).setBuffer(policy.secret()))
                    .setJWTOptions(jwtOptions()));
            return Future.succeededFuture();
        }
        // Key fetches are rare and must never hang: the JDK client bounds the whole exchange, and
        // runs on its own threads, so no event loop waits for it.
        http = java.net.http.HttpClient.newBuilder()
                .connectTimeout(java.time.Duration.ofMillis(FETCH_TIMEOUT_MS))
                .followRedirects(java.net.http.HttpClient.Redirect.NORMAL)
                .build();
        return fetchKeys().recover(e -> {
            // the identity provider may come up after us: keys are fetched again on first use
            LOG.warn("cannot fetch signing keys from {} yet: {}", policy.jwksUrl(), e.getMessage());
            return Future.succeededFuture();
        });
    }

    @Override
    public Future<Void> close() {
        http = null;
        return Future.succeededFuture();
    }

    @Override
    public Future<Caller> authenticate(RequestHeaders headers) {
        String token = bearer(headers.get("Authorization"));
        if (token == null) {
            return Future.failedFuture(new AuthDeniedException("missing bearer token (send 'Authorization: Bearer <token>')"));
        }
        if (provider == null) {
            if (vertx == null) {
                return Future.failedFuture(new IllegalStateException("jwt check used before start"));
            }
            return refresh().transform(x -> provider == null
                    ? Future.failedFuture(new AuthDeniedException("cannot verify tokens: signing keys are unavailable"))
                    : verify(token, false));
        }
        return verify(token, policy.jwksUrl() != null);
    }

    private Future<Caller> verify(String token, boolean mayRefresh) {
        if (!signedCompact(token)) {
            return Future.failedFuture(new AuthDeniedException("invalid token"));
        }
        String unsupported = JwtHeader.problem(token);
        if (unsupported != null) {
            return Future.failedFuture(new AuthDeniedException("invalid token: " + unsupported));
        }
        String mistyped = JwtClaimTypes.problem(token);
        if (mistyped != null) {
            return Future.failedFuture(new AuthDeniedException("invalid token: " + mistyped));
        }
        Future<User> checked;
        try {
            checked = provider.authenticate(new TokenCredentials(token));
        } catch (RuntimeException e) {
            // the provider reads claims with casts and may throw instead of failing: whatever a
            // token makes it do, the token is refused, never the server's failure
            LOG.debug("token refused by the JWT provider", e);
            checked = Future.failedFuture(e);
        }
        return checked.transform(ar -> {
            if (ar.succeeded()) {
                return claimsOf(ar.result());
            }
            Throwable e = ar.cause();
            if (mayRefresh && e instanceof NoSuchKeyIdException) {
                return refresh().transform(x -> verify(token, false));
            }
            return Future.failedFuture(new AuthDeniedException(describe(e, token)));
        });
    }

    private Future<Caller> claimsOf(User user) {
        JsonObject claims = user.attributes().getJsonObject("accessToken", new JsonObject());
        if (claims.getValue("exp") == null) {
            return Future.failedFuture(new AuthDeniedException("token has no expiry (exp)"));
        }
        for (String claim : policy.requiredClaims()) {
            if (claims.getValue(claim) == null) {
                return Future.failedFuture(new AuthDeniedException("token lacks the required claim '" + claim + "'"));
            }
        }
        if (!policy.scopes().isEmpty()) {
            Set<String> granted = grantedScopes(claims);
            for (String scope : policy.scopes()) {
                if (!granted.contains(scope)) {
                    return Future.failedFuture(new AuthDeniedException("token lacks the required scope '" + scope + "'",
                            AuthDeniedException.Reason.INSUFFICIENT_SCOPE, policy.scopes()));
                }
            }
        }
        return Future.succeededFuture(new Caller(claims.getString("sub"), Caller.presentClaims(claims)));
    }

    /** OAuth puts scopes in a space-separated {@code scope}; some issuers use an {@code scp} array. */
    private static Set<String> grantedScopes(JsonObject claims) {
        Set<String> out = new HashSet<>();
        Object scope = claims.getValue("scope");
        if (scope instanceof String) {
            out.addAll(Arrays.asList(((String) scope).trim().split("\\s+")));
        }
        Object scp = claims.getValue("scp");
        if (scp instanceof JsonArray) {
            ((JsonArray) scp).forEach(s -> out.add(String.valueOf(s)));
        } else if (scp instanceof String) {
            out.addAll(Arrays.asList(((String) scp).trim().split("\\s+")));
        }
        return out;
    }

    /**
     * Fetches keys unless that happened within {@code jwks_refresh} (while no keys are held, within
     * {@link #RETRY_WITHOUT_KEYS_NANOS} if shorter); concurrent callers share one fetch.
     */
    private Future<Void> refresh() {
        Promise<Void> running = inFlight.get();
        if (running != null) {
            return running.future();
        }
        long interval = policy.jwksRefresh().toNanos();
        if (provider == null) {
            interval = Math.min(interval, RETRY_WITHOUT_KEYS_NANOS);
        }
        if (System.nanoTime() - lastFetchNanos < interval) {
            return Future.succeededFuture();
        }
        return fetchKeys();
    }

    /**
     * One fetch at a time, without holding a lock while Vert.x works: a callback on an event loop
     * must never wait for a thread that is itself waiting for Vert.x.
     */
    private Future<Void> fetchKeys() {
        Promise<Void> mine = Promise.promise();
        if (!inFlight.compareAndSet(null, mine)) {
            Promise<Void> other = inFlight.get();
            return other != null ? other.future() : refresh();
        }
        java.net.http.HttpClient client = http;
        if (client == null) {
            // closed by a reload while a request still held this check: the new version answers next time
            inFlight.set(null);
            mine.fail(new AuthDeniedException("cannot verify tokens right now (the server is reloading); try again"));
            return mine.future();
        }
        lastFetchNanos = System.nanoTime();
        java.net.http.HttpRequest request = java.net.http.HttpRequest.newBuilder(policy.jwksUrl())
                .timeout(java.time.Duration.ofMillis(FETCH_TIMEOUT_MS))
                .header("Accept", "application/json")
                .GET().build();
        java.util.concurrent.CompletableFuture<java.net.http.HttpResponse<String>> sending =
                client.sendAsync(request, info -> new BoundedBody(MAX_DOCUMENT_BYTES));
        // the client's own timeout ends at the response headers: a body that stalls after them
        // would hold this fetch, and every call and start-up waiting on it, for ever
        Promise<java.net.http.HttpResponse<String>> answered = Promise.promise();
        long deadline = vertx.setTimer(FETCH_TIMEOUT_MS, t -> {
            if (answered.tryFail("no complete answer within " + FETCH_TIMEOUT_MS + " ms")) {
                sending.cancel(true);
            }
        });
        Future.fromCompletionStage(sending, vertx.getOrCreateContext()).onComplete(ar -> {
            vertx.cancelTimer(deadline);
            if (ar.succeeded()) {
                answered.tryComplete(ar.result());
            } else {
                answered.tryFail(ar.cause());
            }
        });
        answered.future()
                .compose(resp -> resp.statusCode() == 200 ? Future.succeededFuture(resp.body())
                        : Future.<String>failedFuture("HTTP " + resp.statusCode()))
                .map(body -> {
                    JsonArray keys = new JsonObject(body).getJsonArray("keys");
                    if (keys == null) {
                        throw new IllegalArgumentException("the document has no 'keys'");
                    }
                    List<JsonObject> usable = usableKeys(keys);
                    if (usable.isEmpty()) {
                        // a provider without keys verifies nothing and takes unsigned tokens: keep the keys we had
                        throw new IllegalArgumentException("the document has no signing key this server can use");
                    }
                    provider = JWTAuth.create(vertx, new JWTAuthOptions().setJwks(usable).setJWTOptions(jwtOptions()));
                    LOG.debug("loaded {} from {}", Counted.of(usable.size(), "signing key"), policy.jwksUrl());
                    return (Void) null;
                })
                .onComplete(ar -> {
                    // cleared first, so whoever continues after this fetch may start the next one
                    inFlight.set(null);
                    mine.handle(ar);
                });
        return mine.future();
    }

    /**
     * The document's signing keys this server can verify with; an encryption key, an entry that
     * is not a key and a key of an unsupported kind or algorithm are left out, each named in the
     * log.
     */
    private List<JsonObject> usableKeys(JsonArray keys) {
        List<JsonObject> usable = new ArrayList<>();
        for (Object k : keys) {
            if (!(k instanceof JsonObject) || "enc".equals(((JsonObject) k).getValue("use"))) {
                continue;
            }
            JsonObject key = (JsonObject) k;
            JWK jwk;
            try {
                jwk = new JWK(key);
            } catch (RuntimeException unsupported) {
                jwk = null;
            }
            // what the provider itself keeps for verifying: a signing key with a public key or a secret
            if (jwk != null && (jwk.use() == null || "sig".equals(jwk.use()))
                    && (jwk.publicKey() != null || jwk.mac() != null)) {
                usable.add(key);
            } else {
                LOG.warn("ignoring key {} ({}) from {}: not a signing key this server supports",
                        key.getValue("kid"), key.getValue("kty"), policy.jwksUrl());
            }
        }
        return usable;
    }

    private JWTOptions jwtOptions() {
        JWTOptions options = new JWTOptions().setAudience(policy.audience()).setLeeway(policy.leewaySeconds());
        if (policy.issuer() != null) {
            options.setIssuer(policy.issuer());
        }
        return options;
    }

    /**
     * The provider calls a token expired also when its {@code nbf} or {@code iat} is still ahead
     * (beyond the leeway): a clock set wrong on either side reads differently from an old token.
     * The claims' types were checked before the provider read them.
     */
    private String notYetValid(String token) {
        JsonObject claims = JwtClaimTypes.payload(token);
        long now = System.currentTimeMillis() / 1000;
        int leeway = policy.leewaySeconds();
        if (claims == null || claims.getValue("exp") instanceof Number
                && now - leeway >= ((Number) claims.getValue("exp")).longValue()) {
            return "token expired";
        }
        for (String claim : List.of("nbf", "iat")) {
            if (claims.getValue(claim) instanceof Number && ((Number) claims.getValue(claim)).longValue() > now + leeway) {
                return "token is not valid yet (" + claim + ")";
            }
        }
        return "token expired";
    }

    /** Three non-empty dot-separated parts: a token without a signature is never a valid one. */
    private static boolean signedCompact(String token) {
        int first = token.indexOf('.');
        int second = first < 0 ? -1 : token.indexOf('.', first + 1);
        return first > 0 && second > first + 1 && second < token.length() - 1 && token.indexOf('.', second + 1) < 0;
    }

    static String bearer(String authorization) {
        if (authorization == null) {
            return null;
        }
        String a = authorization.trim();
        if (a.length() < 7 || !a.substring(0, 7).toLowerCase(Locale.ROOT).equals("bearer ")) {
            return null;
        }
        String token = a.substring(7).trim();
        return token.isEmpty() ? null : token;
    }

    /** A reason a caller may read: never the token, the key or the expected values. */
    private String describe(Throwable e, String token) {
        if (e instanceof NoSuchKeyIdException) {
            return "token is signed by an unknown key";
        }
        String m = String.valueOf(e.getMessage()).toLowerCase(Locale.ROOT);
        if (m.contains("expired")) {
            return notYetValid(token);
        }
        if (m.contains("audience")) {
            return "token was not issued for this server (audience)";
        }
        if (m.contains("issuer")) {
            return "token issuer is not trusted";
        }
        return "invalid token";
    }


    /** A response body as text, refused (and its download stopped) once it passes {@code max} bytes. */
    private static final class BoundedBody implements java.net.http.HttpResponse.BodySubscriber<String> {
        private final java.net.http.HttpResponse.BodySubscriber<String> text =
                java.net.http.HttpResponse.BodySubscribers.ofString(java.nio.charset.StandardCharsets.UTF_8);
        private final long max;
        private long received;
        private boolean refused;
        private java.util.concurrent.Flow.Subscription subscription;

        BoundedBody(long max) {
            this.max = max;
        }

        @Override
        public java.util.concurrent.CompletionStage<String> getBody() {
            return text.getBody();
        }

        @Override
        public void onSubscribe(java.util.concurrent.Flow.Subscription subscription) {
            this.subscription = subscription;
            text.onSubscribe(subscription);
        }

        @Override
        public void onNext(List<java.nio.ByteBuffer> items) {
            if (refused) {
                return;
            }
            for (java.nio.ByteBuffer item : items) {
                received += item.remaining();
            }
            if (received > max) {
                refused = true;
                // the reason first: cancelling may fail the exchange with the client's own words
                text.onError(new java.io.IOException("the document is larger than " + max / 1024 + " KiB"));
                subscription.cancel();
                return;
            }
            text.onNext(items);
        }

        @Override
        public void onError(Throwable failure) {
            if (!refused) {
                text.onError(failure);
            }
        }

        @Override
        public void onComplete() {
            if (!refused) {
                text.onComplete();
            }
        }
    }
}

package dev.hyperterse.mcp.stateless;

import io.vertx.core.Future;
import io.vertx.core.Vertx;

import java.security.SecureRandom;
import java.time.Clock;
import java.util.Base64;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * The confirmation states already used, so an accepted confirmation runs its call once: a state
 * carries a random nonce and the time it expires (as its seal does), and a nonce is remembered
 * until then, on this node (at most {@link #MAX_REMEMBERED}; past that the oldest, nearest to
 * expiring, is forgotten first) and, in a cluster, in the cluster's shared map with the state's
 * remaining lifetime, so a state spent on one node does not run again on another.
 */
public final class SpentStates {
    static final int MAX_REMEMBERED = 100_000;
    private static final SecureRandom RANDOM = new SecureRandom();

    private static final String MAP = "hyperterse.mcp.spent-confirmations";

    private final Clock clock;
    private final Vertx cluster;
    private final Map<String, Long> spent = new LinkedHashMap<>();

    /** @param vertx whose cluster-wide map also remembers spent states; a non-clustered one keeps them here only */
    public SpentStates(Clock clock, Vertx vertx) {
        this.clock = clock;
        this.cluster = vertx != null && vertx.isClustered() ? vertx : null;
    }

    /** Spends {@code nonce} here and, in a cluster, across it: true when no node spent it before. */
    Future<Boolean> spendOnce(String nonce, long until) {
        if (!spend(nonce, until)) {
            return Future.succeededFuture(false);
        }
        if (cluster == null) {
            return Future.succeededFuture(true);
        }
        long ttl = Math.max(1, until - clock.millis());
        return cluster.sharedData().<String, Boolean>getAsyncMap(MAP)
                .compose(map -> map.putIfAbsent(nonce, true, ttl))
                .map(before -> before == null);
    }

    static String nonce() {
        byte[] bytes = new byte[16];
        RANDOM.nextBytes(bytes);
        return Base64.getUrlEncoder().withoutPadding().encodeToString(bytes);
    }

    /** When a state sealed now expires, in epoch milliseconds. */
    long expiry() {
        return clock.millis() + RequestStateSeal.LIFETIME_MILLIS;
    }

    /** @return true the first time {@code nonce} is spent; false when it was spent before or is missing */
    synchronized boolean spend(String nonce, long until) {
        if (nonce == null) {
            return false;
        }
        long now = clock.millis();
        for (Iterator<Long> it = spent.values().iterator(); it.hasNext(); ) {
            if (it.next() > now) {
                break;
            }
            it.remove();
        }
        if (spent.containsKey(nonce)) {
            return false;
        }
        spent.put(nonce, Math.max(until, now));
        if (spent.size() > MAX_REMEMBERED) {
            Iterator<String> oldest = spent.keySet().iterator();
            oldest.next();
            oldest.remove();
        }
        return true;
    }
}

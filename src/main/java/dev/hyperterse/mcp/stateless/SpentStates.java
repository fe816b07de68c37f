package dev.hyperterse.mcp.stateless;

import java.security.SecureRandom;
import java.time.Clock;
import java.util.Base64;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * The confirmation states already used on this node, so an accepted confirmation runs its call
 * once: a state carries a random nonce and the time it expires (as its seal does), and a nonce is
 * remembered until then. At most {@link #MAX_REMEMBERED} are kept; past that the oldest is
 * forgotten first (it is also the nearest to expiring).
 */
final class SpentStates {
    static final int MAX_REMEMBERED = 100_000;
    private static final SecureRandom RANDOM = new SecureRandom();

    private final Clock clock;
    private final Map<String, Long> spent = new LinkedHashMap<>();

    SpentStates(Clock clock) {
        this.clock = clock;
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

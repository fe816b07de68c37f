package dev.hyperterse.mcp.session;

import dev.hyperterse.mcp.ClientCounts;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Predicate;

/**
 * Sessions in order of last use, overall and per client, so a full store finds the one to give up
 * without looking at every session: the least recently used first, and the client holding the
 * most. Every operation is O(1) (counting per client O(log) of the distinct counts), but for
 * {@link #leastRecentlyUsedIdle}, which looks at no more than {@link #SCAN} sessions. Not
 * thread-safe: its store locks around it.
 */
final class SessionLedger {
    /**
     * The most sessions one search for an idle session looks at. Sessions in use that it passes
     * count as used now and move to the back, so the next search starts past them; the periodic
     * sweep does the same for every session in use.
     */
    static final int SCAN = 32;

    private static final class Entry {
        final String id;
        final String client;
        Instant lastUsed;

        Entry(String id, String client, Instant lastUsed) {
            this.id = id;
            this.client = client;
            this.lastUsed = lastUsed;
        }
    }

    /** What a search for an idle session found: the session (null when none), and the ones in use it passed. */
    record Scan(String idle, List<String> inUse) {
    }

    // access order: a get moves an entry to the back, so the front is the least recently used
    private final LinkedHashMap<String, Entry> byUse = new LinkedHashMap<>(16, 0.75f, true);
    private final Map<String, LinkedHashMap<String, Entry>> byClient = new HashMap<>();
    private final ClientCounts counts = new ClientCounts();

    void add(String id, String client, Instant now) {
        Entry entry = new Entry(id, client, now);
        byUse.put(id, entry);
        if (byClient.computeIfAbsent(client, c -> new LinkedHashMap<>(4, 0.75f, true)).put(id, entry) == null) {
            counts.increment(client);
        }
    }

    /** Marks a session used now; false when the ledger does not hold it. */
    boolean touch(String id, Instant now) {
        Entry entry = byUse.get(id);
        if (entry == null) {
            return false;
        }
        byClient.get(entry.client).get(id);
        if (now.isAfter(entry.lastUsed)) {
            entry.lastUsed = now;
        }
        return true;
    }

    void remove(String id) {
        Entry entry = byUse.remove(id);
        if (entry == null) {
            return;
        }
        forget(entry);
    }

    private void forget(Entry entry) {
        LinkedHashMap<String, Entry> own = byClient.get(entry.client);
        own.remove(entry.id);
        counts.decrement(entry.client);
        if (own.isEmpty()) {
            byClient.remove(entry.client);
        }
    }

    int size() {
        return byUse.size();
    }

    int countOf(String client) {
        LinkedHashMap<String, Entry> own = byClient.get(client);
        return own == null ? 0 : own.size();
    }

    /**
     * The client a full store may take {@code client}'s new session from: the one holding the
     * most sessions, when it holds at least two more than {@code client} (see
     * {@link ClientCounts#donorFor}); null otherwise.
     */
    String donorFor(String client) {
        return counts.donorFor(countOf(client));
    }

    /** When a session was last used, or null when the ledger does not hold it. */
    Instant lastUsed(String id) {
        Entry entry = byUse.get(id);
        return entry == null ? null : entry.lastUsed;
    }

    /**
     * Removes the sessions unused since {@code cutoff}, least recently used first, and returns
     * their ids. Only those are looked at (and the first one used since), so this costs
     * O(sessions removed).
     */
    List<String> removeUnusedSince(Instant cutoff) {
        List<String> removed = new ArrayList<>();
        Iterator<Entry> oldest = byUse.values().iterator();
        while (oldest.hasNext()) {
            Entry entry = oldest.next();
            if (!entry.lastUsed.isBefore(cutoff)) {
                break;
            }
            oldest.remove();
            forget(entry);
            removed.add(entry.id);
        }
        return removed;
    }

    /**
     * The least recently used session not in use ({@code inUse} says which are), of one client or
     * (client null) of all, looking at no more than {@link #SCAN} sessions. The ones in use it
     * passes are marked used now.
     */
    Scan leastRecentlyUsedIdle(String client, Predicate<String> inUse, Instant now) {
        Map<String, Entry> order = client == null ? byUse : byClient.get(client);
        if (order == null) {
            return new Scan(null, List.of());
        }
        String idle = null;
        List<String> busy = new ArrayList<>();
        int looked = 0;
        for (Entry entry : order.values()) {
            if (looked++ == SCAN) {
                break;
            }
            if (!inUse.test(entry.id)) {
                idle = entry.id;
                break;
            }
            busy.add(entry.id);
        }
        // after the walk: moving an entry while walking its map would break the walk
        busy.forEach(id -> touch(id, now));
        return new Scan(idle, busy);
    }
}

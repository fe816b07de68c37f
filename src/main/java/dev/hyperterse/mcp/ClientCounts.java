package dev.hyperterse.mcp;

import java.util.HashMap;
import java.util.Iterator;
import java.util.LinkedHashSet;
import java.util.Map;
import java.util.TreeMap;

/**
 * How many places (sessions, listen streams) each client holds, and which client holds the most,
 * so a full table can take a newcomer's place from the client holding the most instead of
 * refusing it: places held open (streams) by a few clients then never lock every other client
 * out. Every operation is O(log distinct counts). Not thread-safe: its owner locks around it.
 */
public final class ClientCounts {
    private final Map<String, Integer> counts = new HashMap<>();
    /** Clients by how many places they hold; within a count, in the order they reached it. */
    private final TreeMap<Integer, LinkedHashSet<String>> byCount = new TreeMap<>();

    /** How many places {@code client} holds. */
    public int of(String client) {
        return counts.getOrDefault(client, 0);
    }

    public void increment(String client) {
        int held = of(client);
        move(client, held, held + 1);
    }

    /** One place fewer for {@code client}; nothing when it holds none. */
    public void decrement(String client) {
        int held = of(client);
        if (held > 0) {
            move(client, held, held - 1);
        }
    }

    /**
     * The client a newcomer now holding {@code held} places may take one from when the table is
     * full: the one holding the most (of several, the first to reach that many), if it holds at
     * least two more, so it is left with no fewer than the newcomer then holds. Null when no
     * client does: then every client holds about as many as the newcomer and taking from one
     * would only move the unfairness (and two clients would take the same place back and forth).
     */
    public String donorFor(int held) {
        Map.Entry<Integer, LinkedHashSet<String>> most = byCount.lastEntry();
        if (most == null || most.getKey() < held + 2) {
            return null;
        }
        Iterator<String> first = most.getValue().iterator();
        return first.next();
    }

    private void move(String client, int from, int to) {
        if (from > 0) {
            LinkedHashSet<String> at = byCount.get(from);
            at.remove(client);
            if (at.isEmpty()) {
                byCount.remove(from);
            }
        }
        if (to > 0) {
            counts.put(client, to);
            byCount.computeIfAbsent(to, n -> new LinkedHashSet<>()).add(client);
        } else {
            counts.remove(client);
        }
    }
}

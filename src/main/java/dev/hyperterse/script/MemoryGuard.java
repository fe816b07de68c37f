package dev.hyperterse.script;

import com.sun.management.GarbageCollectionNotificationInfo;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import javax.management.Notification;
import javax.management.NotificationEmitter;
import javax.management.openmbean.CompositeData;
import java.lang.management.GarbageCollectorMXBean;
import java.lang.management.ManagementFactory;
import java.lang.management.MemoryPoolMXBean;
import java.lang.management.MemoryType;
import java.lang.management.MemoryUsage;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;

/**
 * Stops running script calls when the heap stays nearly full after a garbage collection, so a
 * script that grows memory step by step (an array it keeps pushing to, a string it keeps
 * concatenating) fails alone instead of exhausting the heap the whole server shares: GraalJS (the
 * community edition) has no heap limit per context.
 *
 * <p>The signal is the JVM's notification after each collection ({@code com.sun.management}'s
 * garbage-collection notifications): when the old generation (the heap pool that holds what
 * survives young collections, the only pool of a single-generation collector) holds
 * {@link #THRESHOLD} of its maximum or more after a collection, every script call running at that
 * moment is cancelled: its context is closed, and its caller hears {@link #message}. One warning
 * is logged per event (until a collection finds the old generation under the threshold again),
 * naming the numbers only. The guard then asks for a full collection, so what the stopped calls
 * held is reclaimed at once rather than counted against the next calls. After a young collection
 * the old generation may still hold garbage no collection has reclaimed yet; a heap that full is
 * about to need a full collection anyway.
 *
 * <p>Collection-usage thresholds on the old pool ({@code MemoryPoolMXBean}) would be the portable
 * signal, but G1 updates that usage only when it collects the old generation itself, which for a
 * heap filling up with live data is the full collection just before the
 * {@code OutOfMemoryError}: too late to act on.
 *
 * <p>There is no accounting of heap per context, so the guard cannot tell which call grew: all
 * running calls are stopped. New calls are not refused; one that grows memory again is stopped
 * again. It cannot catch one allocation too large for the heap that is left (it fails at once,
 * before any collection reports), nor memory held by anything other than a running call.
 *
 * <p>The notification arrives on a JVM thread; the guard only looks at numbers there and hands the
 * cancelling (closing a context waits for its code to stop) and the collection to a thread of its
 * own.
 */
final class MemoryGuard {
    private static final Logger LOG = LoggerFactory.getLogger(MemoryGuard.class);
    /** The share of the old generation's maximum that, in use after a collection, stops running calls. */
    static final double THRESHOLD = 0.9;
    private static final long MB = 1024 * 1024;
    /**
     * How long the guard waits for stopped calls to leave their scripts before it collects what they
     * held. A stopped call leaves within milliseconds on a machine with CPU to spare; on a starved
     * one it took over 2 s, and a collection made before it left reclaimed nothing, so the next
     * call was stopped for the last one's garbage. Reports made while the guard waits are not acted
     * on (they count what the stopped calls still hold).
     */
    private static final Duration SETTLE = Duration.ofSeconds(10);

    /** Collections tried again, 100 ms apart, while the heap stays full after the first one. */
    private static final int RECOLLECTIONS = 5;

    private static final MemoryGuard SHARED = new MemoryGuard();

    /** An old-generation pool and its maximum size in bytes. */
    private record OldPool(MemoryPoolMXBean bean, long max) {
        /** Whether {@code usage} (null: unknown) holds {@link #THRESHOLD} of the maximum or more. */
        boolean full(MemoryUsage usage) {
            return usage != null && usage.getUsed() >= max * THRESHOLD;
        }
    }

    /** One running call: the context and the number {@link LoadedScript#begin} gave it. */
    record Call(LoadedScript loaded, long number) {
    }

    private final Set<Call> running = ConcurrentHashMap.newKeySet();
    /** The old-generation pools by name, with their maximum size. */
    private final Map<String, OldPool> oldPools = new ConcurrentHashMap<>();
    private final AtomicBoolean installed = new AtomicBoolean();
    /**
     * When the full collection after the last event ended ({@link System#nanoTime()}); written and
     * read by the stopper, whose thread may be a new one each time.
     */
    private volatile long collectedAt = System.nanoTime();
    /** True from a collection over the limit that stopped calls until one under it: one warning per event. */
    private volatile boolean exhausted;
    /** Cancels contexts off the JVM's notification thread; one task queued at a time is enough. */
    private final ExecutorService stopper = new ThreadPoolExecutor(0, 1, 30, TimeUnit.SECONDS,
            new LinkedBlockingQueue<>(1), r -> {
                Thread t = new Thread(r, "hyperterse-memory-guard");
                t.setDaemon(true);
                return t;
            }, new ThreadPoolExecutor.DiscardPolicy());

    private MemoryGuard() {
    }

    /** The guard of this JVM, watching the heap from the first call on. */
    static MemoryGuard shared() {
        SHARED.install();
        return SHARED;
    }

    private void install() {
        if (!installed.compareAndSet(false, true)) {
            return;
        }
        try {
            Class.forName("com.sun.management.GarbageCollectionNotificationInfo");
        } catch (ClassNotFoundException | LinkageError e) {
            LOG.warn("this Java runtime lacks the jdk.management module: script calls are not stopped when the heap"
                    + " runs nearly full");
            return;
        }
        for (MemoryPoolMXBean pool : ManagementFactory.getMemoryPoolMXBeans()) {
            long max = pool.getUsage() == null ? -1 : pool.getUsage().getMax();
            // pools that take a usage threshold are the ones that keep objects (eden and survivor spaces do not)
            if (pool.getType() == MemoryType.HEAP && pool.isUsageThresholdSupported() && max > 0) {
                oldPools.put(pool.getName(), new OldPool(pool, max));
            }
        }
        if (oldPools.isEmpty()) {
            LOG.debug("no heap pool with a maximum to watch: script calls are not stopped on a full heap");
            return;
        }
        for (GarbageCollectorMXBean collector : ManagementFactory.getGarbageCollectorMXBeans()) {
            if (collector instanceof NotificationEmitter emitter) {
                emitter.addNotificationListener((notification, handback) -> collected(notification), null, null);
            }
        }
    }

    /** Registers a call that has begun; {@link #ended} must follow. */
    Call began(LoadedScript loaded, long number) {
        Call call = new Call(loaded, number);
        running.add(call);
        return call;
    }

    void ended(Call call) {
        running.remove(call);
    }

    /** On the JVM's notification thread, after each collection. */
    private void collected(Notification notification) {
        if (!GarbageCollectionNotificationInfo.GARBAGE_COLLECTION_NOTIFICATION.equals(notification.getType())) {
            return;
        }
        Map<String, MemoryUsage> after = GarbageCollectionNotificationInfo
                .from((CompositeData) notification.getUserData()).getGcInfo().getMemoryUsageAfterGc();
        for (Map.Entry<String, OldPool> pool : oldPools.entrySet()) {
            MemoryUsage usage = after.get(pool.getKey());
            if (pool.getValue().full(usage)) {
                long max = pool.getValue().max();
                if (!running.isEmpty()) {
                    long used = usage.getUsed();
                    long reported = System.nanoTime();
                    stopper.execute(() -> stopAll(used, max, reported));
                }
                return;
            }
        }
        exhausted = false;
    }

    /** What a stopped call's caller hears. */
    static String message(long used, long max) {
        return "stopped: the server's memory was nearly exhausted (" + used / MB + " MB of " + max / MB
                + " MB in use after a collection) while scripts ran";
    }

    private void stopAll(long used, long max, long reported) {
        if (reported - collectedAt <= 0) {
            // reported before the full collection after the last event ended: what it counted as in
            // use was the stopped calls' garbage, and the calls running now never held it
            return;
        }
        String message = message(used, max);
        List<Call> stopped = new ArrayList<>();
        for (Call call : new ArrayList<>(running)) {
            if (call.loaded().stopCall(call.number(), message)) {
                stopped.add(call);
            }
        }
        if (stopped.isEmpty()) {
            return;
        }
        String calls = stopped.size() == 1 ? "1 running script call" : stopped.size() + " running script calls";
        if (!exhausted) {
            exhausted = true;
            LOG.warn("memory nearly exhausted ({} MB of {} MB in use after a collection): stopped {}",
                    used / MB, max / MB, calls);
        } else {
            LOG.debug("memory still nearly exhausted ({} MB of {} MB in use after a collection): stopped {}",
                    used / MB, max / MB, calls);
        }
        // What the stopped calls held is garbage once their threads have left the scripts, but a
        // collector reclaims the old generation only when it runs low: until then every young
        // collection would report the heap as full and stop the next calls too. A full
        // collection now makes the next reports true.
        long end = System.nanoTime() + SETTLE.toNanos();
        while (stopped.stream().anyMatch(running::contains) && System.nanoTime() - end < 0) {
            if (!pause(10)) {
                return;
            }
        }
        // A closed context may still be let go of by the engine a moment after its call left: a
        // collection that found the heap still full is tried again a few times, so no report of the
        // stopped calls' garbage stops the next call (a heap full of live data stays full: bounded).
        System.gc();
        for (int retry = 0; retry < RECOLLECTIONS && overThreshold() && pause(100); retry++) {
            System.gc();
        }
        collectedAt = System.nanoTime();
    }

    /** Whether an old-generation pool holds the threshold's share of its maximum or more now. */
    private boolean overThreshold() {
        return oldPools.values().stream().anyMatch(pool -> pool.full(pool.bean().getUsage()));
    }

    /** Waits {@code millis}; false when interrupted. */
    private static boolean pause(long millis) {
        try {
            Thread.sleep(millis);
            return true;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return false;
        }
    }
}

// What the web console's Live page costs a call when it is on, in-process (no HTTP): the events a
// cached tool call sends to LiveCalls (a cache lookup, the call's count and duration, and the call
// finished with its inputs as the pipeline hands them, traced text or a Supplier of it, whichever
// the jar's Metrics.callFinished takes; in jars whose callFinished also takes the cache lookup, the
// pipeline's per-call ConsoleCall too: made, told the lookup, ended) on THREADS threads at once,
// against metrics that count nothing beneath. Prints the threads' CPU time per call for each round and the median of the
// second half. Runs as a single-file program against a fat jar, so two builds compare directly:
//   java -cp target/hyperterse.jar bench/java/LiveCallsCost.java [THREADS]
// The cost of the whole server with the console on and off is bench/ab.sh's (BENCH_ARGS_B=--console).
import io.vertx.core.json.JsonObject;
import java.lang.invoke.*;
import java.lang.reflect.*;
import java.time.Clock;
import java.util.*;
import java.util.function.Supplier;

public class LiveCallsCost {
    // Static final handles: the JIT inlines through constant method handles, so the loop measures
    // LiveCalls (and the pipeline's per-call ConsoleCall), not the calls into it.
    static final Object LIVE;
    static final boolean LAZY, CARRIED;
    /** Where the pipeline-only mode leaves what it made, so that it is made. */
    static volatile Object SINK;
    static final MethodHandle INPUTS, MADE, LOOKED, ENDED, CACHE_OF, CALL, CACHE, FIN, SNAPSHOT;

    static {
        try {
            Class<?> metrics = Class.forName("dev.hyperterse.telemetry.Metrics");
            Object none = metrics.getField("NONE").get(null);
            LIVE = Class.forName("dev.hyperterse.telemetry.LiveCalls").getConstructor(metrics, Clock.class)
                    .newInstance(none, Clock.systemUTC());
            Class<?> traced = Class.forName("dev.hyperterse.pipeline.TracedInputs");
            Method finished = Arrays.stream(LIVE.getClass().getMethods()).filter(m -> m.getName().equals("callFinished"))
                    .findFirst().get();
            LAZY = finished.getParameterTypes()[2] == Supplier.class;
            // callFinished(tool, caller, inputs, outcome, error, cache, nanos): the call's ConsoleCall carries its lookup
            CARRIED = finished.getParameterCount() == 7;
            if (CARRIED) {
                Class<?> console = Class.forName("dev.hyperterse.pipeline.ConsoleCall");
                Constructor<?> make = console.getDeclaredConstructor(JsonObject.class);
                make.setAccessible(true);
                MADE = MethodHandles.lookup().unreflectConstructor(make);
                LOOKED = handle(console, "cacheLookup", boolean.class);
                ENDED = handle(console, "ended");
                CACHE_OF = handle(console, "cache");
                INPUTS = null;
            } else {
                INPUTS = handle(traced, LAZY ? "later" : "of", JsonObject.class);
                MADE = LOOKED = ENDED = CACHE_OF = null;
            }
            CALL = MethodHandles.lookup().unreflect(LIVE.getClass().getMethod("toolCall", String.class, String.class, long.class));
            CACHE = MethodHandles.lookup().unreflect(LIVE.getClass().getMethod("cacheLookup", String.class, boolean.class));
            FIN = MethodHandles.lookup().unreflect(finished);
            SNAPSHOT = MethodHandles.lookup().unreflect(LIVE.getClass().getMethod("snapshot"));
        } catch (ReflectiveOperationException e) {
            throw new ExceptionInInitializerError(e);
        }
    }

    public static void main(String[] args) throws Throwable {
        int threads = args.length > 0 ? Integer.parseInt(args[0]) : 1;
        int rounds = 15, calls = 2_000_000;
        System.out.println((CARRIED ? "one lookup, carried" : LAZY ? "lazy" : "eager (old)") + ", " + threads + " thread(s)");
        List<Double> perCall = new ArrayList<>();
        for (int r = 0; r < rounds; r++) {
            Thread[] ts = new Thread[threads];
            long[] cpu = new long[threads];
            for (int t = 0; t < threads; t++) {
                int id = t;
                ts[t] = new Thread(() -> {
                    try {
                        JsonObject in = new JsonObject().put("customer_id", 7);
                        long start = java.lang.management.ManagementFactory.getThreadMXBean().getCurrentThreadCpuTime();
                        for (int i = 0; i < calls; i++) {
                            oneCall(in, 20_000 + (i & 1023));
                        }
                        cpu[id] = java.lang.management.ManagementFactory.getThreadMXBean().getCurrentThreadCpuTime() - start;
                    } catch (Throwable e) {
                        throw new RuntimeException(e);
                    }
                });
                ts[t].start();
            }
            for (Thread t : ts) t.join();
            perCall.add((double) Arrays.stream(cpu).sum() / ((long) calls * threads));
            SNAPSHOT.invoke(LIVE);
        }
        List<Double> tail = new ArrayList<>(perCall.subList(rounds / 2, rounds));
        Collections.sort(tail);
        System.out.printf("CPU ns per call, rounds: %s%nmedian of the second half: %.0f%n",
                perCall.stream().map(d -> String.format("%.0f", d)).toList(), tail.get(tail.size() / 2));
    }

    /**
     * With LIVECALLS_PART=pipeline, only the pipeline's share of a call (the inputs' Supplier or the
     * ConsoleCall), not sent to LiveCalls: the whole less this is LiveCalls' share.
     */
    static final boolean PIPELINE_ONLY = "pipeline".equals(System.getenv("LIVECALLS_PART"));

    /** The events of one cached call, as the jar's pipeline sends them with the console on. */
    private static void oneCall(JsonObject in, long nanos) throws Throwable {
        if (PIPELINE_ONLY) {
            if (CARRIED) {
                Object record = MADE.invoke(in);
                LOOKED.invoke(record, true);
                SINK = ENDED.invoke(record);
                SINK = CACHE_OF.invoke(record);
            } else {
                SINK = INPUTS.invoke(in);
            }
            return;
        }
        if (CARRIED) {
            Object record = MADE.invoke(in);
            LOOKED.invoke(record, true);
            CACHE.invoke(LIVE, "get-customer-cached", true);
            CALL.invoke(LIVE, "get-customer-cached", "ok", nanos);
            Object kept = ENDED.invoke(record);
            FIN.invoke(LIVE, "get-customer-cached", (String) null, kept, "ok", (String) null,
                    (String) CACHE_OF.invoke(record), nanos);
            return;
        }
        CACHE.invoke(LIVE, "get-customer-cached", true);
        CALL.invoke(LIVE, "get-customer-cached", "ok", nanos);
        Object text = INPUTS.invoke(in);
        FIN.invoke(LIVE, "get-customer-cached", (String) null, text, "ok", (String) null, nanos);
    }

    private static MethodHandle handle(Class<?> owner, String name, Class<?>... parameters) throws ReflectiveOperationException {
        Method method = owner.getDeclaredMethod(name, parameters);
        method.setAccessible(true);
        return MethodHandles.lookup().unreflect(method);
    }
}

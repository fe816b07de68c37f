// What the web console's Live page costs a call when it is on, in-process (no HTTP): the events a
// cached tool call sends to LiveCalls (a cache lookup, the call's count and duration, and the call
// finished with its inputs as the pipeline hands them, traced text or a Supplier of it, whichever
// the jar's Metrics.callFinished takes) on THREADS threads at once, against metrics that count
// nothing beneath. Prints the threads' CPU time per call for each round and the median of the
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
    public static void main(String[] args) throws Throwable {
        int threads = args.length > 0 ? Integer.parseInt(args[0]) : 1;
        int rounds = 15, calls = 2_000_000;
        Class<?> metrics = Class.forName("dev.hyperterse.telemetry.Metrics");
        Object none = metrics.getField("NONE").get(null);
        Object live = Class.forName("dev.hyperterse.telemetry.LiveCalls").getConstructor(metrics, Clock.class)
                .newInstance(none, Clock.systemUTC());
        Class<?> traced = Class.forName("dev.hyperterse.pipeline.TracedInputs");
        Method finished = Arrays.stream(live.getClass().getMethods()).filter(m -> m.getName().equals("callFinished")).findFirst().get();
        boolean lazy = finished.getParameterTypes()[2] == Supplier.class;
        Method inputsOf = traced.getDeclaredMethod(lazy ? "later" : "of", JsonObject.class);
        inputsOf.setAccessible(true);
        MethodHandle inputs = MethodHandles.lookup().unreflect(inputsOf);
        MethodHandle call = MethodHandles.lookup().unreflect(live.getClass().getMethod("toolCall", String.class, String.class, long.class));
        MethodHandle cache = MethodHandles.lookup().unreflect(live.getClass().getMethod("cacheLookup", String.class, boolean.class));
        MethodHandle fin = MethodHandles.lookup().unreflect(finished);
        MethodHandle snapshot = MethodHandles.lookup().unreflect(live.getClass().getMethod("snapshot"));
        System.out.println((lazy ? "lazy (new)" : "eager (old)") + ", " + threads + " thread(s)");
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
                            long nanos = 20_000 + (i & 1023);
                            cache.invoke(live, "get-customer-cached", true);
                            call.invoke(live, "get-customer-cached", "ok", nanos);
                            Object text = inputs.invoke(in);
                            fin.invoke(live, "get-customer-cached", (String) null, text, "ok", (String) null, nanos);
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
            snapshot.invoke(live);
        }
        List<Double> tail = new ArrayList<>(perCall.subList(rounds / 2, rounds));
        Collections.sort(tail);
        System.out.printf("CPU ns per call, rounds: %s%nmedian of the second half: %.0f%n",
                perCall.stream().map(d -> String.format("%.0f", d)).toList(), tail.get(tail.size() / 2));
    }
}

package dev.hyperterse.script;

import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;

/**
 * Not a test: a main for bench/typescript-strip.sh. In a fresh JVM, strips the given TypeScript
 * files with one stripper: the first file (which loads swc's native library or the TypeScript
 * compiler), then rounds over all files, each round with the files' text changed by a comment so
 * the content cache never answers. Prints one line:
 * {@code stripper first-file wall/cpu ms, steady median per file wall/cpu ms, heap}.
 * CPU is the calling thread's (where both strippers do their work) and, for the first file, also
 * the whole process's (the JVM's JIT and GC threads working on the compiler's code); wall
 * includes time waiting for a core on a busy machine.
 *
 * <p>args: auto|swc|typescript, rounds, files...
 */
public final class TypeScriptStripBench {
    private TypeScriptStripBench() {
    }

    public static void main(String[] args) throws Exception {
        TypeScriptStripper.Choice choice = TypeScriptStripper.Choice.parse(args[0], "stripper");
        int rounds = Integer.parseInt(args[1]);
        List<Path> files = new ArrayList<>();
        List<String> texts = new ArrayList<>();
        for (int i = 2; i < args.length; i++) {
            Path file = Path.of(args[i]).toAbsolutePath();
            files.add(file);
            texts.add(Files.readString(file, StandardCharsets.UTF_8));
        }
        ThreadMXBean threads = ManagementFactory.getThreadMXBean();
        try (ScriptEngine engine = ScriptEngine.create(choice)) {
            TypeScriptStripper stripper = engine.typescript();
            long wall0 = System.nanoTime();
            long cpu0 = threads.getCurrentThreadCpuTime();
            long process0 = processCpu();
            stripper.strip(files.get(0), texts.get(0));
            double firstWall = (System.nanoTime() - wall0) / 1e6;
            double firstCpu = (threads.getCurrentThreadCpuTime() - cpu0) / 1e6;
            double firstProcess = (processCpu() - process0) / 1e6;

            List<Double> wallPerFile = new ArrayList<>();
            List<Double> cpuPerFile = new ArrayList<>();
            for (int round = 0; round < rounds; round++) {
                long w = System.nanoTime();
                long c = threads.getCurrentThreadCpuTime();
                for (int i = 0; i < files.size(); i++) {
                    stripper.strip(files.get(i), texts.get(i) + "\n// round " + round + "\n");
                }
                wallPerFile.add((System.nanoTime() - w) / 1e6 / files.size());
                cpuPerFile.add((threads.getCurrentThreadCpuTime() - c) / 1e6 / files.size());
            }
            // the median of the second half: after the JIT (on the optimizing runtime) has settled
            Runtime rt = Runtime.getRuntime();
            System.gc();
            long heapMb = (rt.totalMemory() - rt.freeMemory()) >> 20;
            System.out.printf("%-10s %-11s first %8.1f ms wall %8.1f ms cpu %8.1f ms process cpu | steady %7.2f ms "
                            + "wall %7.2f ms cpu per file (%d files x %d rounds) | heap %d MB | %s%n",
                    choice.word(), engine.mode(), firstWall, firstCpu, firstProcess, median(wallPerFile),
                    median(cpuPerFile),
                    files.size(), rounds, heapMb, stripper.plan());
        }
    }

    private static long processCpu() {
        return ((com.sun.management.OperatingSystemMXBean) ManagementFactory.getOperatingSystemMXBean())
                .getProcessCpuTime();
    }

    private static double median(List<Double> values) {
        List<Double> last = new ArrayList<>(values.subList(values.size() / 2, values.size()));
        Collections.sort(last);
        return last.get(last.size() / 2);
    }
}

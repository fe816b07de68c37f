// Teacher vectors for training the static table on sentences (bench/search/distill/train.py): runs
// all-MiniLM-L6-v2 (the same LangChain4j artifact as TokenVectors.java and the `semantic` ranking)
// on each line of a text file and writes, in the line order of the input:
//   ids.i32       per line: int count, then count WordPiece ids (no [CLS]/[SEP]; at most 126)
//   vectors.f32   per line: the model's sentence embedding (mean over the tokens, unit length), 384
//                 little-endian floats
//   java -cp JARS bench/search/distill/SentenceVectors.java TEXTS_FILE OUT_DIR [THREADS [MODEL [POOLING]]]
// MODEL names the artifact's files (default all-minilm-l6-v2-q: all-minilm-l6-v2-q.onnx and
// all-minilm-l6-v2-q-tokenizer.json on the class path); POOLING is mean (default) or cls (the
// first position's output, as bge-small-en-v1.5 pools).

import ai.djl.huggingface.tokenizers.Encoding;
import ai.djl.huggingface.tokenizers.HuggingFaceTokenizer;
import ai.onnxruntime.OnnxTensor;
import ai.onnxruntime.OrtEnvironment;
import ai.onnxruntime.OrtSession;

import java.io.BufferedOutputStream;
import java.io.DataOutputStream;
import java.io.InputStream;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.atomic.AtomicInteger;

public final class SentenceVectors {

    static final int MAX_TOKENS = 126;
    static final int BATCH = 64;

    public static void main(String[] args) throws Exception {
        List<String> lines = Files.readAllLines(Path.of(args[0]), StandardCharsets.UTF_8);
        Path out = Path.of(args[1]);
        int threads = args.length > 2 ? Integer.parseInt(args[2]) : 2;
        String name = args.length > 3 ? args[3] : "all-minilm-l6-v2-q";
        boolean cls = args.length > 4 && args[4].equals("cls");
        Files.createDirectories(out);
        ClassLoader loader = SentenceVectors.class.getClassLoader();
        byte[] tokenizerJson;
        byte[] model;
        try (InputStream t = loader.getResourceAsStream(name + "-tokenizer.json");
             InputStream m = loader.getResourceAsStream(name + ".onnx")) {
            tokenizerJson = t.readAllBytes();
            model = m.readAllBytes();
        }
        Path tokenizerFile = Files.createTempFile("tokenizer", ".json");
        Files.write(tokenizerFile, tokenizerJson);
        Map<String, String> options = new HashMap<>();
        options.put("addSpecialTokens", "false");
        options.put("padding", "false");
        options.put("truncation", "false");
        long[][] ids = new long[lines.size()][];
        try (HuggingFaceTokenizer tokenizer = HuggingFaceTokenizer.newInstance(tokenizerFile, options)) {
            for (int i = 0; i < lines.size(); i++) {
                Encoding e = tokenizer.encode(lines.get(i));
                long[] all = e.getIds();
                ids[i] = all.length > MAX_TOKENS ? Arrays.copyOf(all, MAX_TOKENS) : all;
            }
        }
        Files.delete(tokenizerFile);
        System.err.println("tokenized " + lines.size() + " lines");

        Integer[] order = new Integer[lines.size()];
        for (int i = 0; i < order.length; i++) {
            order[i] = i;
        }
        Arrays.sort(order, Comparator.comparingInt(i -> ids[i].length));
        float[][] vectors = new float[lines.size()][];
        OrtEnvironment env = OrtEnvironment.getEnvironment();
        OrtSession.SessionOptions sessionOptions = new OrtSession.SessionOptions();
        sessionOptions.setIntraOpNumThreads(1);
        ExecutorService pool = Executors.newFixedThreadPool(threads);
        AtomicInteger done = new AtomicInteger();
        long start = System.nanoTime();
        try (OrtSession session = env.createSession(model, sessionOptions)) {
            String output = session.getOutputNames().iterator().next();
            boolean types = session.getInputNames().contains("token_type_ids");
            List<Future<?>> futures = new ArrayList<>();
            for (int from = 0; from < order.length; from += BATCH) {
                int f = from;
                futures.add(pool.submit(() -> {
                    int n = Math.min(BATCH, order.length - f);
                    int len = 0;
                    for (int i = 0; i < n; i++) {
                        len = Math.max(len, ids[order[f + i]].length + 2);
                    }
                    long[][] in = new long[n][len];
                    long[][] mask = new long[n][len];
                    for (int i = 0; i < n; i++) {
                        long[] t = ids[order[f + i]];
                        in[i][0] = 101;
                        System.arraycopy(t, 0, in[i], 1, t.length);
                        in[i][t.length + 1] = 102;
                        Arrays.fill(mask[i], 0, t.length + 2, 1);
                    }
                    Map<String, OnnxTensor> inputs = new HashMap<>();
                    try {
                        inputs.put("input_ids", OnnxTensor.createTensor(env, in));
                        inputs.put("attention_mask", OnnxTensor.createTensor(env, mask));
                        if (types) {
                            inputs.put("token_type_ids", OnnxTensor.createTensor(env, new long[n][len]));
                        }
                        try (OrtSession.Result result = session.run(inputs)) {
                            float[][][] hidden = (float[][][]) result.get(output).get().getValue();
                            for (int i = 0; i < n; i++) {
                                int count = cls ? 1 : ids[order[f + i]].length + 2;
                                float[] v = new float[hidden[i][0].length];
                                for (int p = 0; p < count; p++) {
                                    for (int d = 0; d < v.length; d++) {
                                        v[d] += hidden[i][p][d];
                                    }
                                }
                                double norm = 0;
                                for (float x : v) {
                                    norm += x * x;
                                }
                                float inv = (float) (1 / Math.sqrt(norm));
                                for (int d = 0; d < v.length; d++) {
                                    v[d] *= inv;
                                }
                                vectors[order[f + i]] = v;
                            }
                        }
                    } catch (Exception e) {
                        throw new IllegalStateException(e);
                    } finally {
                        inputs.values().forEach(OnnxTensor::close);
                    }
                    int d = done.addAndGet(n);
                    if ((d / BATCH) % 500 == 0) {
                        System.err.printf("%d/%d lines, %.0f s%n", d, order.length, (System.nanoTime() - start) / 1e9);
                    }
                }));
            }
            for (Future<?> future : futures) {
                future.get();
            }
        }
        pool.shutdown();
        try (DataOutputStream idsOut = new DataOutputStream(new BufferedOutputStream(Files.newOutputStream(out.resolve("ids.i32")), 1 << 20));
             DataOutputStream vecOut = new DataOutputStream(new BufferedOutputStream(Files.newOutputStream(out.resolve("vectors.f32")), 1 << 20))) {
            ByteBuffer b = ByteBuffer.allocate(4 * 512).order(ByteOrder.LITTLE_ENDIAN);
            for (int i = 0; i < lines.size(); i++) {
                b.clear();
                b.putInt(ids[i].length);
                for (long id : ids[i]) {
                    b.putInt((int) id);
                }
                idsOut.write(b.array(), 0, b.position());
                b.clear();
                for (float x : vectors[i]) {
                    b.putFloat(x);
                }
                vecOut.write(b.array(), 0, b.position());
            }
        }
        System.err.printf("wrote %d vectors to %s in %.0f s%n", lines.size(), out, (System.nanoTime() - start) / 1e9);
    }
}

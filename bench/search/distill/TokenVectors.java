// Step 1 of bench/search/distill/distill.sh: runs all-MiniLM-L6-v2 (LangChain4j's quantized ONNX
// artifact, the same model as the `semantic` ranking's) once per WordPiece vocabulary token and
// writes what the static table is made from. Run as a single-file program with the artifact's jars
// (bench/search/semantic-pom.xml) on the class path:
//   java -cp JARS bench/search/distill/TokenVectors.java OUT_DIR SAMPLES_FILE [MODEL [POOLING]]
// MODEL and POOLING as in SentenceVectors.java (default all-minilm-l6-v2-q, mean; bge-small-en-v1.5-q
// pools by the first position, cls).
// Writes to OUT_DIR:
//   vocab.txt      the tokenizer's vocabulary, one token a line, in id order
//   vectors.f32    one 384-float vector per token (little-endian, id order): the model's output for
//                  [CLS] token [SEP], averaged over those three positions as the model's own mean
//                  pooling does (with cls pooling, the first position's); special and [unusedN]
//                  tokens get zeros
//   wordpiece.tsv  for each line of SAMPLES_FILE, the line and the ids the real tokenizer (Hugging
//                  Face tokenizers through DJL) gives it, without [CLS]/[SEP]: the expected output
//                  for the pure-Java tokenizer's tests

import ai.djl.huggingface.tokenizers.Encoding;
import ai.djl.huggingface.tokenizers.HuggingFaceTokenizer;
import ai.onnxruntime.OnnxTensor;
import ai.onnxruntime.OrtEnvironment;
import ai.onnxruntime.OrtSession;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;

import java.io.BufferedOutputStream;
import java.io.DataOutputStream;
import java.io.InputStream;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.Iterator;
import java.util.Map;
import java.util.StringJoiner;

public final class TokenVectors {

    static final int BATCH = 256;

    public static void main(String[] args) throws Exception {
        Path out = Path.of(args[0]);
        Files.createDirectories(out);
        String name = args.length > 2 ? args[2] : "all-minilm-l6-v2-q";
        boolean clsPooling = args.length > 3 && args[3].equals("cls");
        ClassLoader loader = TokenVectors.class.getClassLoader();
        byte[] tokenizerJson;
        byte[] model;
        try (InputStream t = loader.getResourceAsStream(name + "-tokenizer.json");
             InputStream m = loader.getResourceAsStream(name + ".onnx")) {
            tokenizerJson = t.readAllBytes();
            model = m.readAllBytes();
        }

        JsonNode vocabJson = new ObjectMapper().readTree(tokenizerJson).path("model").path("vocab");
        String[] vocab = new String[vocabJson.size()];
        for (Iterator<Map.Entry<String, JsonNode>> it = vocabJson.fields(); it.hasNext(); ) {
            Map.Entry<String, JsonNode> e = it.next();
            vocab[e.getValue().asInt()] = e.getKey();
        }
        Files.write(out.resolve("vocab.txt"), String.join("\n", vocab).concat("\n").getBytes(StandardCharsets.UTF_8));

        // the real tokenizer's ids for the sample strings
        Path tokenizerFile = Files.createTempFile("tokenizer", ".json");
        Files.write(tokenizerFile, tokenizerJson);
        Map<String, String> options = new HashMap<>();
        options.put("addSpecialTokens", "false");
        options.put("padding", "false");
        options.put("truncation", "false");
        StringBuilder tsv = new StringBuilder();
        try (HuggingFaceTokenizer tokenizer = HuggingFaceTokenizer.newInstance(tokenizerFile, options)) {
            for (String line : Files.readAllLines(Path.of(args[1]), StandardCharsets.UTF_8)) {
                if (line.isEmpty() || line.startsWith("#")) {
                    continue;
                }
                Encoding encoding = tokenizer.encode(line);
                StringJoiner ids = new StringJoiner(" ");
                for (long id : encoding.getIds()) {
                    ids.add(Long.toString(id));
                }
                tsv.append(line).append('\t').append(ids).append('\n');
            }
        }
        Files.delete(tokenizerFile);
        Files.writeString(out.resolve("wordpiece.tsv"), tsv, StandardCharsets.UTF_8);

        OrtEnvironment env = OrtEnvironment.getEnvironment();
        OrtSession.SessionOptions sessionOptions = new OrtSession.SessionOptions();
        sessionOptions.setIntraOpNumThreads(1);
        int dims = 0;
        int cls = vocabJson.get("[CLS]").asInt();
        int sep = vocabJson.get("[SEP]").asInt();
        try (OrtSession session = env.createSession(model, sessionOptions);
             DataOutputStream vectors = new DataOutputStream(new BufferedOutputStream(
                     Files.newOutputStream(out.resolve("vectors.f32")), 1 << 20))) {
            System.err.println("inputs " + session.getInputNames() + ", outputs " + session.getOutputNames());
            String output = session.getOutputNames().iterator().next();
            long start = System.nanoTime();
            for (int from = 0; from < vocab.length; from += BATCH) {
                int n = Math.min(BATCH, vocab.length - from);
                long[][] ids = new long[n][];
                long[][] mask = new long[n][];
                long[][] types = new long[n][];
                for (int i = 0; i < n; i++) {
                    ids[i] = new long[] {cls, from + i, sep};
                    mask[i] = new long[] {1, 1, 1};
                    types[i] = new long[3];
                }
                Map<String, OnnxTensor> inputs = new HashMap<>();
                inputs.put("input_ids", OnnxTensor.createTensor(env, ids));
                inputs.put("attention_mask", OnnxTensor.createTensor(env, mask));
                if (session.getInputNames().contains("token_type_ids")) {
                    inputs.put("token_type_ids", OnnxTensor.createTensor(env, types));
                }
                try (OrtSession.Result result = session.run(inputs)) {
                    float[][][] hidden = (float[][][]) result.get(output).get().getValue();
                    dims = hidden[0][0].length;
                    ByteBuffer row = ByteBuffer.allocate(dims * 4).order(ByteOrder.LITTLE_ENDIAN);
                    for (int i = 0; i < n; i++) {
                        row.clear();
                        boolean skip = special(vocab[from + i]);
                        for (int d = 0; d < dims; d++) {
                            float pooled = clsPooling ? hidden[i][0][d]
                                    : (hidden[i][0][d] + hidden[i][1][d] + hidden[i][2][d]) / 3f;
                            row.putFloat(skip ? 0f : pooled);
                        }
                        vectors.write(row.array());
                    }
                } finally {
                    inputs.values().forEach(OnnxTensor::close);
                }
                if ((from / BATCH) % 20 == 0) {
                    System.err.printf("%d/%d tokens, %.0f s%n", from + n, vocab.length, (System.nanoTime() - start) / 1e9);
                }
            }
        }
        System.err.println("wrote " + vocab.length + " vectors of " + dims + " to " + out);
    }

    /** [PAD], [UNK], [CLS], [SEP], [MASK] and [unusedN]: never looked up, or nothing to learn from. */
    static boolean special(String token) {
        return token.startsWith("[") && token.endsWith("]") && token.length() > 2;
    }
}

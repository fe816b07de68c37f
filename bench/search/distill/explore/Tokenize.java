// WordPiece ids of texts, as the server's static ranking reads them (the bundled table's tokenizer),
// for contrastive.py: reads pairs.py's lines (source TAB query TAB document) and writes
//   query.i32, document.i32   per line: int count, then count ids (little-endian; no [CLS]/[SEP];
//                             unknown tokens left out, as the ranking leaves them out)
//   java -cp target/hyperterse.jar bench/search/distill/explore/Tokenize.java PAIRS_FILE OUT_DIR

import dev.hyperterse.search.StaticEmbedder;

import java.io.BufferedOutputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.lang.reflect.Method;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

public final class Tokenize {

    public static void main(String[] args) throws Exception {
        List<String> lines = Files.readAllLines(Path.of(args[0]), StandardCharsets.UTF_8);
        Path out = Path.of(args[1]);
        Files.createDirectories(out);
        StaticEmbedder table = StaticEmbedder.bundled();
        Method tokenIds = StaticEmbedder.class.getDeclaredMethod("tokenIds", String.class);
        tokenIds.setAccessible(true);
        // the unknown token's id: what a text of one unknown character reads as
        int unknown = ((int[]) tokenIds.invoke(table, "\u2603"))[0];
        try (DataOutputStream query = open(out.resolve("query.i32"));
             DataOutputStream document = open(out.resolve("document.i32"))) {
            for (String line : lines) {
                String[] parts = line.split("\t", 3);
                write(query, (int[]) tokenIds.invoke(table, parts[1]), unknown);
                write(document, (int[]) tokenIds.invoke(table, parts[2]), unknown);
            }
        }
        System.err.println("tokenized " + lines.size() + " pairs into " + out);
    }

    private static DataOutputStream open(Path file) throws IOException {
        OutputStream stream = Files.newOutputStream(file);
        return new DataOutputStream(new BufferedOutputStream(stream, 1 << 16));
    }

    private static void write(DataOutputStream out, int[] ids, int unknown) throws IOException {
        int count = 0;
        for (int id : ids) {
            if (id != unknown) {
                count++;
            }
        }
        out.writeInt(Integer.reverseBytes(count));
        for (int id : ids) {
            if (id != unknown) {
                out.writeInt(Integer.reverseBytes(id));
            }
        }
    }
}

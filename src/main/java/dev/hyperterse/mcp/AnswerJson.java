package dev.hyperterse.mcp;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonGenerator;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.json.EncodeException;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import io.vertx.core.json.jackson.JacksonCodec;

import java.io.IOException;
import java.io.OutputStream;
import java.util.List;
import java.util.Map;

/**
 * The bytes of a JSON answer, exactly as {@code Json.CODEC.toBuffer(value, false)} writes them,
 * written once into the buffer that goes on the wire (the codec writes into a builder of its own,
 * copies that into an array, and the array into the buffer), and with each
 * {@link EncodedJsonArray} copied from its text instead of encoded again: a tool's rows are
 * encoded once for the text block of its answer, and {@code structuredContent} reuses them.
 */
final class AnswerJson {
    /** Jackson's defaults for writing, as Vert.x's codec has them (it changes only how it reads). */
    private static final JsonFactory FACTORY = new JsonFactory();
    private static final int FIRST_SIZE = 512;

    private AnswerJson() {
    }

    static Buffer encode(Object json) {
        Buffer out = Buffer.buffer(FIRST_SIZE);
        try (JsonGenerator generator = FACTORY.createGenerator(new Appending(out))) {
            write(json, generator);
        } catch (IOException e) {
            throw new EncodeException(e.getMessage(), e);
        }
        return out;
    }

    @SuppressWarnings("unchecked")
    private static void write(Object json, JsonGenerator generator) throws IOException {
        if (json instanceof EncodedJsonArray) {
            generator.writeRawValue(((EncodedJsonArray) json).json());
            return;
        }
        Object value = json;
        if (value instanceof JsonObject) {
            value = ((JsonObject) value).getMap();
        } else if (value instanceof JsonArray) {
            value = ((JsonArray) value).getList();
        }
        if (value instanceof Map) {
            generator.writeStartObject();
            for (Map.Entry<String, ?> e : ((Map<String, ?>) value).entrySet()) {
                generator.writeFieldName(e.getKey());
                write(e.getValue(), generator);
            }
            generator.writeEndObject();
        } else if (value instanceof List) {
            generator.writeStartArray();
            for (Object item : (List<?>) value) {
                write(item, generator);
            }
            generator.writeEndArray();
        } else {
            // a scalar, written as the codec writes it
            JacksonCodec.encodeJson(value, generator);
        }
    }

    /** What the generator flushes, appended to the buffer. */
    private static final class Appending extends OutputStream {
        private final Buffer out;

        Appending(Buffer out) {
            this.out = out;
        }

        @Override
        public void write(int b) {
            out.appendByte((byte) b);
        }

        @Override
        public void write(byte[] bytes, int offset, int length) {
            out.appendBytes(bytes, offset, length);
        }
    }
}

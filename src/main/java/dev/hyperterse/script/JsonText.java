package dev.hyperterse.script;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonLocation;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonProcessingException;

import java.io.IOException;

/**
 * Checks that a JSON module is one JSON value before a script parses it, and says where it is
 * not without quoting it: a parser's own message quotes the text it stumbled on, which for a
 * file a script should never see would be the leak itself.
 */
final class JsonText {
    private static final JsonFactory FACTORY = new JsonFactory();

    private JsonText() {
    }

    /** @throws IOException "{@code name} is not valid JSON (line L, column C)" */
    static void check(String text, String name) throws IOException {
        try (JsonParser parser = FACTORY.createParser(text)) {
            if (parser.nextToken() == null) {
                throw new IOException(name + " is not valid JSON (it is empty)");
            }
            parser.skipChildren();
            if (parser.nextToken() != null) {
                throw invalid(name, parser.currentLocation());
            }
        } catch (JsonProcessingException e) {
            throw invalid(name, e.getLocation());
        }
    }

    private static IOException invalid(String name, JsonLocation at) {
        return new IOException(name + " is not valid JSON" + (at == null ? ""
                : " (line " + at.getLineNr() + ", column " + at.getColumnNr() + ")"));
    }
}

package dev.hyperterse.mcp;

import dev.hyperterse.model.InputDef;
import dev.hyperterse.model.InputType;
import dev.hyperterse.model.SourceLocation;
import dev.hyperterse.model.ToolDef;
import io.vertx.core.json.JsonObject;
import org.junit.jupiter.api.Test;

import java.nio.file.Path;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The confirmation question shows every input, key inputs first, each shortened on its own. */
class ConfirmQuestionTest {
    private static final SourceLocation AT = new SourceLocation(Path.of("config.terse"), 1);
    private static final ToolDef DELETE = ToolDef.builder("delete-note").description("d").statement("db", "DELETE ...")
            .inputs(List.of(new InputDef("reason", InputType.STRING, null, true, false, null, AT),
                    new InputDef("id", InputType.INT, null, false, false, null, AT)))
            .location(AT).build();

    @Test
    void aLongValueSentFirstCannotHideTheOneThatDecidesTheCall() {
        // the model sent a long reason before the id: the old question, a prefix of the JSON, hid the id
        JsonObject inputs = new JsonObject().put("reason", "x".repeat(500)).put("id", 5);
        String question = ConfirmQuestion.of(DELETE, inputs);
        assertEquals("Run 'delete-note' with these inputs?\n- id: 5\n- reason: \"" + "x".repeat(79) + "… (502 characters)",
                question);
    }

    @Test
    void undeclaredInputsFollowByNameAndManyAreCounted() {
        JsonObject inputs = new JsonObject().put("zeta", true).put("id", 1).put("alpha", List.of(1, 2));
        assertEquals("Run 'delete-note' with these inputs?\n- id: 1\n- alpha: [1,2]\n- zeta: true",
                ConfirmQuestion.of(DELETE, inputs));
        JsonObject many = new JsonObject().put("id", 1);
        for (int i = 0; i < 40; i++) {
            many.put("k" + (100 + i), i);
        }
        String question = ConfirmQuestion.of(DELETE, many);
        assertTrue(question.endsWith("\n- and 11 more inputs"), question);
        assertEquals(ConfirmQuestion.MAX_LINES + 2, question.split("\n").length);
        assertEquals("Run 'delete-note' with no inputs?", ConfirmQuestion.of(DELETE, new JsonObject()));
    }
}

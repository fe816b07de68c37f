package dev.hyperterse.project;

import org.junit.jupiter.api.Test;

import java.nio.file.Path;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;

class SuggestionsTest {

    @Test
    void closestWithinTwoEdits() {
        List<String> keys = List.of("name", "statement", "use", "inputs");
        assertEquals(" (did you mean 'statement'?)", Suggestions.didYouMean("statment", keys));
        assertEquals(" (did you mean 'inputs'?)", Suggestions.didYouMean("Inptus", keys));
        assertEquals("", Suggestions.didYouMean("something", keys));
        assertEquals("", Suggestions.didYouMean("name", keys));
        assertEquals(3, Suggestions.distance("kitten", "sitting"));
    }

    @Test
    void displayPathsAreRelativeOnlyInsideTheWorkingDirectory() {
        DisplayPaths paths = new DisplayPaths(Path.of("/work/project"));
        assertEquals(Path.of("app/tools/x/config.terse"), paths.show(Path.of("/work/project/app/tools/x/config.terse")));
        assertEquals(Path.of("/work/other/.hyperterse"), paths.show(Path.of("/work/other/.hyperterse")),
                "a sibling folder is shown absolute, not as ../other");
        assertEquals(Path.of("/tmp/p/.hyperterse"), paths.show(Path.of("/tmp/p/.hyperterse")));
    }
}

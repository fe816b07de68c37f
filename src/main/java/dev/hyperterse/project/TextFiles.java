package dev.hyperterse.project;

import java.io.IOException;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;

/** Reads project files as UTF-8, reporting unreadable or mis-encoded files as problems. */
final class TextFiles {
    private TextFiles() {
    }

    /** @return the file's text, or null when it cannot be read (reported at the shown path) */
    static String read(Path file, Path shown, Problems problems) {
        try {
            return Files.readString(file, StandardCharsets.UTF_8);
        } catch (CharacterCodingException e) {
            problems.error(shown, 0, "the file is not valid UTF-8 text");
        } catch (IOException e) {
            problems.error(shown, 0, "cannot read the file: " + e);
        }
        return null;
    }
}

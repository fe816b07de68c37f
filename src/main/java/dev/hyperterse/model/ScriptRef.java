package dev.hyperterse.model;

import java.nio.file.Path;

/** A script module and the export to call in it ({@code ./handler.ts#name}; default export {@code default}). */
public record ScriptRef(Path file, String exportName, SourceLocation declaredAt) {

    @Override
    public String toString() {
        return file + "#" + exportName;
    }
}

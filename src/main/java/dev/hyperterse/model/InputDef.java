package dev.hyperterse.model;

/**
 * One declared tool input. {@code defaultValue} is already coerced to {@code type}; it is
 * meaningful only when {@code hasDefault} is true (a YAML {@code default: ""} means no default).
 */
public record InputDef(String name, InputType type, String description, boolean optional,
                       boolean hasDefault, Object defaultValue, SourceLocation location) {
}

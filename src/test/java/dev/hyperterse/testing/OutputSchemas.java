package dev.hyperterse.testing;

import com.networknt.schema.InputFormat;
import com.networknt.schema.SchemaRegistry;
import com.networknt.schema.SchemaRegistryConfig;
import com.networknt.schema.SpecificationVersion;
import dev.hyperterse.connector.ResultColumns;
import io.vertx.core.json.JsonObject;

import java.util.List;
import java.util.stream.Collectors;

/** Structured results checked against their outputSchema by a real JSON Schema (2020-12) validator. */
public final class OutputSchemas {
    /** Formats asserted (2020-12 only annotates them), as a client validating with formats would. */
    private static final SchemaRegistry REGISTRY = SchemaRegistry.withDefaultDialect(SpecificationVersion.DRAFT_2020_12,
            b -> b.schemaRegistryConfig(SchemaRegistryConfig.builder().formatAssertionsEnabled(true).build()));

    private OutputSchemas() {
    }

    /** What the validator finds wrong with {@code content}; empty when it conforms to {@code schema}. */
    public static List<String> problems(JsonObject schema, JsonObject content) {
        return REGISTRY.getSchema(schema.encode(), InputFormat.JSON).validate(content.encode(), InputFormat.JSON)
                .stream().map(Object::toString).toList();
    }

    /** Columns as {@code name=type|type} (any JSON value: {@code name=*}), space-separated, in order. */
    public static String types(ResultColumns columns) {
        return columns.columns().stream()
                .map(c -> c.name() + "=" + (c.jsonTypes().isEmpty() ? "*" : String.join("|", c.jsonTypes()))
                        + (c.format() == null ? "" : "(" + c.format() + ")"))
                .collect(Collectors.joining(" "));
    }
}

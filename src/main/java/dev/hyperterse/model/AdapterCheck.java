package dev.hyperterse.model;

import java.util.List;

/**
 * Reads an adapter's connection string and options the way its connector will when it connects,
 * without connecting, so {@code validate} and {@code start} judge an adapter by one code path.
 */
@FunctionalInterface
public interface AdapterCheck {
    /** Accepts every adapter: the connector alone judges it, when it connects. */
    AdapterCheck NONE = (adapter, projectDir) -> List.of();

    /**
     * @return warnings (an option the connector does not use, named as written), empty when none
     * @throws IllegalArgumentException with a message naming the adapter, when it cannot be used
     */
    List<String> check(AdapterDef adapter, java.nio.file.Path projectDir);
}

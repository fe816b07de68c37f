package dev.hyperterse.cache;

import java.util.List;

/**
 * What identifies a cached result: the tool, its statement template (so an edited statement
 * never serves old rows) and the bound values in order. Values are the coerced inputs (String,
 * Long, Double, Boolean, null) and claims, so equal calls give equal keys. {@code caller} is set
 * when the result depends on who called (a handler that sees the caller's claims).
 */
public record CacheKey(String tool, String statement, List<Object> values, String caller) {
    public CacheKey {
        values = java.util.Collections.unmodifiableList(new java.util.ArrayList<>(values));
    }
}

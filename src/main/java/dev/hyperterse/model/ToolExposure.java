package dev.hyperterse.model;

import java.util.Locale;

/**
 * How a project's tools reach MCP clients ({@code tools.exposure}): through the {@code search}
 * and {@code execute} meta-tools, each directly in {@code tools/list} as Hyperterse 2.1 and
 * earlier, MCP Toolbox and SDK servers list them, or both.
 */
public enum ToolExposure {
    META, DIRECT, BOTH;

    public String keyword() {
        return name().toLowerCase(Locale.ROOT);
    }

    /** @return the exposure a keyword names, or null */
    public static ToolExposure of(String keyword) {
        for (ToolExposure e : values()) {
            if (e.keyword().equals(keyword)) {
                return e;
            }
        }
        return null;
    }

    public boolean listsMetaTools() {
        return this != DIRECT;
    }

    public boolean listsProjectTools() {
        return this != META;
    }
}

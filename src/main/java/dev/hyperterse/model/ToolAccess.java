package dev.hyperterse.model;

/**
 * How clients reach the project's tools.
 *
 * @param exposure       {@code tools.exposure}: the meta-tools, each tool by name, or both
 * @param runUnconfirmed {@code tools.confirm_without_elicitation: run}: a tool marked
 *                       {@code confirm: true} runs unasked for a client that cannot be asked (it did
 *                       not declare elicitation); false (the default, {@code refuse}) answers such a
 *                       call with an error result and runs nothing
 * @param executeToolHeader {@code tools.execute_tool_header}: {@code execute}'s {@code tool} argument is
 *                       declared a header parameter ({@code x-mcp-header: Tool}) for 2026-07-28
 *                       clients, which must then send it in {@code Mcp-Param-Tool} too; off by
 *                       default, as a client that calls {@code execute} before listing the tools
 *                       cannot know to send it
 * @param parseJsonStrings {@code tools.parse_json_strings}: a string sent for an input declared
 *                       {@code object} or {@code array} is read as the JSON text it holds (models
 *                       often send such values stringified); off by default
 */
public record ToolAccess(ToolExposure exposure, boolean runUnconfirmed, boolean executeToolHeader,
                         boolean parseJsonStrings) {
    public static final ToolAccess DEFAULTS = new ToolAccess(ToolExposure.META, false, false, false);
}

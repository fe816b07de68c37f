package dev.hyperterse.model;

/**
 * How clients reach the project's tools.
 *
 * @param exposure       {@code tools.exposure}: the meta-tools, each tool by name, or both
 * @param runUnconfirmed {@code tools.confirm_without_elicitation: run}: a tool marked
 *                       {@code confirm: true} runs unasked for a client that cannot be asked (it did
 *                       not declare elicitation); false (the default, {@code refuse}) answers such a
 *                       call with an error result and runs nothing
 */
public record ToolAccess(ToolExposure exposure, boolean runUnconfirmed) {
    public static final ToolAccess DEFAULTS = new ToolAccess(ToolExposure.META, false);
}

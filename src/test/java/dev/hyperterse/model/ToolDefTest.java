package dev.hyperterse.model;

import org.junit.jupiter.api.Test;

import java.nio.file.Path;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** A tool's parts by concern, and the builder that makes and copies them. */
class ToolDefTest {

    @Test
    void aDatabaseToolHasAStatementBodyAndNoHandler() {
        ToolDef tool = ToolDef.builder("get-order").statement("shop", "SELECT 1").build();
        ToolDef.Statement body = assertInstanceOf(ToolDef.Statement.class, tool.body());
        assertEquals("shop", body.adapter());
        assertEquals("SELECT 1", tool.statement());
        assertTrue(tool.isDatabaseTool());
        assertNull(tool.handler());
    }

    @Test
    void aHandlerToolKeepsTheStatementItCarriesWithoutAnAdapter() {
        ScriptRef script = new ScriptRef(Path.of("app/tools/x/handler.ts"), "default", null);
        ToolDef tool = ToolDef.builder("x").handler(script).statementText("SELECT 1").build();
        ToolDef.Handler body = assertInstanceOf(ToolDef.Handler.class, tool.body());
        assertSame(script, body.script());
        assertEquals("SELECT 1", tool.statement(), "carried, as Hyperterse projects write it");
        assertNull(tool.use());
        assertFalse(tool.isDatabaseTool());
    }

    @Test
    void everyValueSurvivesACopyAndACopyChangesOnlyWhatItSets() {
        SourceLocation at = new SourceLocation(Path.of("app/tools/t/config.terse"), 1);
        SourceLocation statementAt = new SourceLocation(Path.of("app/tools/t/config.terse"), 4);
        ToolDef tool = ToolDef.builder("t").path("group/t").description("d").statement("db", "SELECT 2")
                .inputs(List.of()).mappers(null, null).cache(CachePolicy.OFF).invalidates(List.of("u"))
                .limits(Limits.DEFAULTS).location(at, statementAt).scriptEnv(List.of("KEY")).openInputs(true)
                .title("T").tags(List.of("a")).exposeScriptErrors(false).confirm(true).outputContent(true)
                .examples(List.of("which t")).build();
        assertEquals(tool, tool.toBuilder().build());
        ToolDef retitled = tool.toBuilder().title("U").build();
        assertEquals("U", retitled.title());
        assertEquals(tool.policy(), retitled.policy());
        assertEquals(tool.body(), retitled.body());
        assertEquals(statementAt, tool.statementLocation());
        assertTrue(tool.confirm() && tool.openInputs() && tool.outputContent() && !tool.exposeScriptErrors());
        assertEquals(List.of("KEY"), tool.scriptEnv());
    }

    @Test
    void aToolWithNoStatementOfItsOwnIsLocatedWhereItIsDeclared() {
        SourceLocation at = new SourceLocation(Path.of("app/tools/t/config.terse"), 1);
        assertEquals(at, ToolDef.builder("t").location(at, null).build().statementLocation());
    }
}

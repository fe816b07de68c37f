package dev.hyperterse.connector.redis;

import dev.hyperterse.connector.CompiledStatement;
import dev.hyperterse.connector.CompiledStatement.Parameter;
import dev.hyperterse.connector.CompiledStatement.Source;
import dev.hyperterse.connector.ConnectorException;
import dev.hyperterse.connector.StatementException;
import org.junit.jupiter.api.Test;

import java.util.Arrays;
import java.util.List;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

class RedisCommandTemplateTest {
    private static final Map<String, String> ENV = Map.of("PREFIX", "app", "TTL", "EX 60", "BAD", "{{ inputs.x }}");

    private static CompiledStatement compile(String template) throws StatementException {
        return RedisCommandTemplate.compile(template, ENV);
    }

    private static List<String> args(String template, Object... values) throws StatementException {
        CompiledStatement s = compile(template);
        return RedisCommand.of(s).arguments(s, Arrays.asList(values));
    }

    @Test
    void wordsAreSplitBeforeValuesArePasted() throws Exception {
        assertEquals(List.of("user:42", "name"), args("HGET user:{{ inputs.id }} name", 42L));
        // a value with spaces, quotes or line breaks stays one argument
        assertEquals(List.of("k", "a b\r\nFLUSHALL \"x\" 'y'"), args("SET k {{ inputs.v }}", "a b\r\nFLUSHALL \"x\" 'y'"));
        assertEquals(List.of("app:1:2.5:true", "x"), args("  GET\t{{ env.PREFIX }}:{{ inputs.a }}:{{ inputs.b }}:{{inputs.c}}\n x ",
                1L, 2.5, true));
        // env values are operator text and may add words
        assertEquals(List.of("k", "v", "EX", "60"), args("SET k v {{ env.TTL }}"));
        CompiledStatement s = compile("SET {{ inputs.k }} {{ auth.claims.sub }}");
        assertEquals(List.of(new Parameter(Source.INPUT, "k"), new Parameter(Source.CLAIM, "sub")), s.parameters());
        assertEquals("SET {{inputs.k}} {{auth.claims.sub}}", s.text());
        assertEquals(List.of(4, 17), s.markerOffsets());
        assertEquals("SET", RedisCommand.of(compile("set k v")).name());
    }

    @Test
    void badTemplatesAreRefused() {
        assertTrue(assertThrows(StatementException.class, () -> compile("   ")).getMessage().contains("empty"));
        assertTrue(assertThrows(StatementException.class, () -> compile("{{ inputs.cmd }} k")).getMessage()
                .contains("the command name cannot be a placeholder"));
        assertTrue(assertThrows(StatementException.class, () -> compile("GET {{ input.k }}")).getMessage()
                .contains("malformed placeholder"));
        assertTrue(assertThrows(StatementException.class, () -> compile("GET {{ env.MISSING }}")).getMessage()
                .contains("environment variable 'MISSING' is not set"));
        assertTrue(assertThrows(StatementException.class, () -> compile("GET {{ env.BAD }}")).getMessage()
                .contains("not expanded again"));
        StatementException at = assertThrows(StatementException.class, () -> compile("GET a\nSET {{ input.k }} v"));
        assertEquals(2, at.line());
    }

    @Test
    void aMissingValueIsAnError() throws Exception {
        ConnectorException e = assertThrows(ConnectorException.class, () -> args("GET {{ inputs.k }}", (Object) null));
        assertTrue(e.getMessage().startsWith("input 'k' has no value"), e.getMessage());
    }
}

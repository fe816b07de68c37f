package dev.hyperterse.script;

import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

import java.nio.file.Path;
import java.util.EnumMap;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The two TypeScript strippers, swc (native) and the TypeScript compiler in GraalJS (portable),
 * give handlers and mappers that behave the same: types, interfaces, enums, generics, namespaces,
 * type-only imports, parameter properties with field initializers, standard decorators,
 * CommonJS TypeScript in a package, and syntax errors with the same file, line and column. Each runs on the real script
 * runtime with an engine forced to that stripper.
 */
class TypeScriptStrippersTest {
    private static final Map<TypeScriptStripper.Choice, ScriptEngine> ENGINES =
            new EnumMap<>(TypeScriptStripper.Choice.class);

    @TempDir
    Path dir;

    /**
     * One engine per stripper for the whole class: the compiler loads once, as in a server, where
     * the project check before serving loads it (here on the test thread too, so no call's time
     * bound covers the tens of seconds it takes on a busy machine).
     */
    private static synchronized ScriptEngine engine(TypeScriptStripper.Choice choice) {
        ScriptEngine engine = ENGINES.get(choice);
        if (engine == null) {
            engine = ScriptEngine.create(choice);
            try {
                engine.typescript().strip(Path.of("warm-up.ts"), "export const ready: boolean = true;");
            } catch (ScriptLoadException e) {
                throw new AssertionError(e.getMessage(), e);
            }
            ENGINES.put(choice, engine);
        }
        return engine;
    }

    @AfterAll
    static void close() {
        ENGINES.values().forEach(ScriptEngine::close);
    }

    private ScriptFixture fixture(TypeScriptStripper.Choice choice) {
        return new ScriptFixture(dir, engine(choice));
    }

    @ParameterizedTest
    @EnumSource(names = {"SWC", "TYPESCRIPT"})
    void typesAreStrippedAndTheHandlerRuns(TypeScriptStripper.Choice choice) throws Exception {
        try (ScriptFixture p = fixture(choice)) {
            p.write("app/lib/types.ts", "export interface Shape { kind: string }", "export type Id = number;");
            p.write("app/lib/math.ts",
                    "export enum Unit { One = 1, Two }",
                    "export const enum Flag { A = 4 }",
                    "export function pick<T>(items: T[], i: number): T { return items[i]; }",
                    "export namespace Geometry { export const sides: number = 4; }");
            p.write("app/tools/t/handler.ts",
                    "import type { Id } from '../../lib/types';",
                    // names only a type: dropped, or the import would fail (types.ts exports nothing)
                    "import { Shape } from '../../lib/types.js';",
                    "import { Unit, Flag, pick, Geometry } from '../../lib/math';",
                    "abstract class Base<T> { abstract value(): T; }",
                    "class Box extends Base<number> {",
                    "  label: string = this.name + '!';",
                    "  declare hidden: string;",
                    "  constructor(private readonly n: Id, public name: string) { super(); }",
                    "  value(): number { return this.n; }",
                    "}",
                    "function over(a: string): string;",
                    "function over(a: number): number;",
                    "function over(a: any) { return a; }",
                    "export default async ({ inputs }: { inputs: { n: number } }): Promise<object> => {",
                    "  const s = <Shape>{ kind: 'square' };",
                    "  const box = new Box(inputs.n! satisfies number, 'box');",
                    "  return { kind: (s as Shape).kind, unit: Unit.Two, flag: Flag.A, picked: pick<string>(['a', 'b'], 1),",
                    "    sides: Geometry.sides, value: box.value(), label: box.label, over: over('x') };",
                    "};");
            assertEquals(new JsonObject().put("kind", "square").put("unit", 2).put("flag", 4).put("picked", "b")
                            .put("sides", 4).put("value", 3).put("label", "box!").put("over", "x"),
                    p.callOnce(p.ref("app/tools/t/handler.ts"), payload()));
        }
    }

    @ParameterizedTest
    @EnumSource(names = {"SWC", "TYPESCRIPT"})
    void standardDecoratorsRun(TypeScriptStripper.Choice choice) throws Exception {
        try (ScriptFixture p = fixture(choice)) {
            p.write("h.ts",
                    "const seen: string[] = [];",
                    "function doubled(method: (this: Price) => number, context: ClassMethodDecoratorContext) {",
                    "  seen.push(String(context.name));",
                    "  return function (this: Price): number { return method.call(this) * 2; };",
                    "}",
                    "class Price {",
                    "  constructor(private readonly amount: number) {}",
                    "  @doubled total(): number { return this.amount; }",
                    "}",
                    "export default () => ({ total: new Price(21).total(), seen });");
            assertEquals(new JsonObject().put("total", 42).put("seen", new JsonArray().add("total")),
                    p.callOnce(p.ref("h.ts"), payload()));
        }
    }

    @ParameterizedTest
    @EnumSource(names = {"SWC", "TYPESCRIPT"})
    void anOutputMapperInTypeScriptShapesTheRows(TypeScriptStripper.Choice choice) throws Exception {
        try (ScriptFixture p = fixture(choice)) {
            p.write("app/tools/t/output.ts",
                    "type Row = { n: number };",
                    "export default ({ results }: { results: Row[] }): Array<{ doubled: number }> =>",
                    "  results.map((r: Row) => ({ doubled: r.n * 2 }));");
            JsonObject payload = new JsonObject().put("results", new JsonArray()
                    .add(new JsonObject().put("n", 1)).add(new JsonObject().put("n", 5))).put("tool", "t");
            assertEquals(new JsonArray().add(new JsonObject().put("doubled", 2)).add(new JsonObject().put("doubled", 10)),
                    p.callOnce(p.ref("app/tools/t/output.ts"), payload));
        }
    }

    @ParameterizedTest
    @EnumSource(names = {"SWC", "TYPESCRIPT"})
    void aCommonJsPackageWrittenInTypeScriptLoads(TypeScriptStripper.Choice choice) throws Exception {
        try (ScriptFixture p = fixture(choice)) {
            p.write("node_modules/weights/package.json", "{\"name\": \"weights\", \"main\": \"lib/main.cts\"}");
            p.write("node_modules/weights/lib/main.cts",
                    "import helper = require('./helper.cts');",
                    "const unit: string = 'kg';",
                    "export = { weigh: (n: number): string => helper.fmt(n) + ' ' + unit };");
            p.write("node_modules/weights/lib/helper.cts", "export = { fmt: (n: number): string => n.toFixed(1) };");
            p.write("h.ts", "import weights from 'weights';",
                    "export default (): string => weights.weigh(2);");
            assertEquals("2.0 kg", p.callOnce(p.ref("h.ts"), payload()));
        }
    }

    @ParameterizedTest
    @EnumSource(names = {"SWC", "TYPESCRIPT"})
    void aSyntaxErrorNamesTheFileLineAndColumn(TypeScriptStripper.Choice choice) throws Exception {
        try (ScriptFixture p = fixture(choice)) {
            p.write("app/tools/t/handler.ts",
                    "const x: number = 1;",
                    "export default function () {",
                    "  return x +;",
                    "}");
            ScriptLoadException e = assertThrows(ScriptLoadException.class,
                    () -> p.start(1, p.ref("app/tools/t/handler.ts")));
            assertEquals(p.dir.resolve("app/tools/t/handler.ts").toAbsolutePath().normalize(), e.file());
            assertEquals(3, e.line());
            assertEquals(13, e.column());
            assertEquals("SyntaxError: Expression expected", e.getMessage());
        }
    }

    @ParameterizedTest
    @EnumSource(names = {"SWC", "TYPESCRIPT"})
    void aSyntaxErrorInAnImportedFileNamesThatFile(TypeScriptStripper.Choice choice) throws Exception {
        try (ScriptFixture p = fixture(choice)) {
            p.write("app/tools/t/util.ts", "export const f = (p: {a: number) => p.a;");
            p.write("app/tools/t/handler.ts", "import { f } from './util';", "export default () => f({ a: 1 });");
            ScriptLoadException e = assertThrows(ScriptLoadException.class,
                    () -> p.start(1, p.ref("app/tools/t/handler.ts")));
            assertTrue(e.getMessage().contains("util.ts:1:32: SyntaxError: "), e.getMessage());
        }
    }

    @Test
    void theChoiceComesFromTheVariableThenThePropertyElseAuto() {
        assertEquals(TypeScriptStripper.Choice.AUTO, TypeScriptStripper.Choice.from(Map.of(), Map.of()));
        assertEquals(TypeScriptStripper.Choice.TYPESCRIPT, TypeScriptStripper.Choice.from(Map.of(),
                Map.of("hyperterse.typescript", "typescript")));
        assertEquals(TypeScriptStripper.Choice.SWC, TypeScriptStripper.Choice.from(
                Map.of("HYPERTERSE_TYPESCRIPT", " SWC "), Map.of("hyperterse.typescript", "typescript")));
        IllegalArgumentException wrong = assertThrows(IllegalArgumentException.class,
                () -> TypeScriptStripper.Choice.from(Map.of("HYPERTERSE_TYPESCRIPT", "tsc"), Map.of()));
        assertEquals("HYPERTERSE_TYPESCRIPT must be auto, swc or typescript, not 'tsc'", wrong.getMessage());
    }

    @Test
    void autoUsesSwcWhereTheJarHoldsItsLibrary() throws Exception {
        TypeScriptStripper auto = new TypeScriptStripper(TypeScriptStripper.Choice.AUTO, engine(
                TypeScriptStripper.Choice.TYPESCRIPT).engine());
        boolean swcHere = TypeScriptPlatform.current().unavailableReason(getClass().getClassLoader()) == null;
        assertTrue(auto.plan().startsWith(swcHere ? "swc" : "the TypeScript compiler"), auto.plan());
        auto.strip(dir.resolve("x.ts"), "export const x: number = 1;");
        assertTrue(auto.plan().startsWith(swcHere ? "swc" : "the TypeScript compiler"), auto.plan());
    }

    /** Scripts are checked in parallel at start-up: each stripper serves several threads at once. */
    @ParameterizedTest
    @EnumSource(names = {"SWC", "TYPESCRIPT"})
    void stripsForSeveralThreadsAtOnce(TypeScriptStripper.Choice choice) throws Exception {
        TypeScriptStripper stripper = engine(choice).typescript();
        java.util.concurrent.ExecutorService pool = java.util.concurrent.Executors.newFixedThreadPool(4);
        try {
            java.util.List<java.util.concurrent.Future<String>> results = new java.util.ArrayList<>();
            for (int i = 0; i < 40; i++) {
                int n = i;
                results.add(pool.submit(() -> stripper.strip(Path.of("f" + n + ".ts"),
                        "export const value" + n + ": number = " + n + ";")));
            }
            for (int i = 0; i < results.size(); i++) {
                String js = results.get(i).get(120, java.util.concurrent.TimeUnit.SECONDS);
                assertTrue(js.contains("value" + i + " = " + i) && !js.contains(": number"), js);
            }
        } finally {
            pool.shutdownNow();
        }
    }

    private static JsonObject payload() {
        return new JsonObject().put("inputs", new JsonObject().put("n", 3)).put("tool", "t");
    }
}

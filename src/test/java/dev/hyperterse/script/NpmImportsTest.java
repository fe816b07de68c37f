package dev.hyperterse.script;

import io.vertx.core.json.JsonObject;
import org.junit.jupiter.api.Test;


import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** Bare imports from a node_modules folder the test writes: ES module and CommonJS packages. */
class NpmImportsTest extends ScriptTestBase {
    static JsonObject payload() {
        return new JsonObject().put("inputs", new JsonObject()).put("tool", "t");
    }

    @Test
    void anEsModulePackageThroughExportsConditionsAndSubpaths() throws Exception {
        p.write("node_modules/esm-pkg/package.json", "{\"name\": \"esm-pkg\", \"type\": \"module\",",
                " \"exports\": {",
                "   \".\": { \"types\": \"./index.d.ts\", \"node\": \"./node.js\", \"import\": \"./index.js\", \"require\": \"./index.cjs\" },",
                "   \"./feature/*\": \"./features/*.js\",",
                "   \"./package.json\": \"./package.json\" } }");
        p.write("node_modules/esm-pkg/index.js", "import { helper } from './lib/helper.js';",
                "export default function greet(n) { return helper('hello ' + n); }",
                "export const version = '1.0.0';");
        p.write("node_modules/esm-pkg/lib/helper.js", "export const helper = (s) => s + '!';");
        p.write("node_modules/esm-pkg/node.js", "export default () => 'the node build, not chosen';");
        p.write("node_modules/esm-pkg/features/upper.js", "export const upper = (s) => s.toUpperCase();");
        p.write("h.ts", "import greet, { version } from 'esm-pkg';",
                "import { upper } from 'esm-pkg/feature/upper';",
                "export default () => ({ text: upper(greet('ada')), version });");
        assertEquals(new JsonObject().put("text", "HELLO ADA!").put("version", "1.0.0"),
                p.callOnce(p.ref("h.ts"), payload()));
    }

    @Test
    void aModuleFieldAndAScopedPackage() throws Exception {
        p.write("node_modules/@acme/dates/package.json",
                "{\"name\": \"@acme/dates\", \"main\": \"dist/index.cjs\", \"module\": \"dist/index.mjs\"}");
        p.write("node_modules/@acme/dates/dist/index.mjs", "export function isoDay(y, m, d) {",
                "  return new Date(Date.UTC(y, m - 1, d)).toISOString().slice(0, 10);", "}");
        p.write("node_modules/@acme/dates/dist/index.cjs", "exports.isoDay = () => 'the CommonJS build, not chosen';");
        p.write("h.js", "import { isoDay } from '@acme/dates';", "export default () => isoDay(2024, 2, 29);");
        assertEquals("2024-02-29", p.callOnce(p.ref("h.js"), payload()));
    }

    @Test
    void aCommonJsPackageWithNestedRequiresJsonAndNamedExports() throws Exception {
        p.write("node_modules/cjs-pkg/package.json", "{\"name\": \"cjs-pkg\", \"main\": \"lib/main\"}");
        p.write("node_modules/cjs-pkg/lib/main.js",
                "'use strict';",
                "const pad = require('left-pad-ish');",
                "const { suffix } = require('./suffix');",
                "const data = require('../data.json');",
                "Object.defineProperty(exports, '__esModule', { value: true });",
                "exports.format = function (n) { return pad(String(n), 5) + suffix + data.unit; };",
                "exports['version'] = require('../package.json').name;",
                "module.exports.filename = typeof __filename;");
        p.write("node_modules/cjs-pkg/lib/suffix.js", "module.exports = { suffix: '!' };");
        p.write("node_modules/cjs-pkg/data.json", "{\"unit\": \"kg\"}");
        p.write("node_modules/left-pad-ish/package.json", "{\"name\": \"left-pad-ish\"}");
        p.write("node_modules/left-pad-ish/index.js",
                "module.exports = function pad(s, n) { while (s.length < n) s = '0' + s; return s; };");
        p.write("h.ts", "import cjs, { format, version } from 'cjs-pkg';",
                "import pad from 'left-pad-ish';",
                "export default () => ({ formatted: format(42), version, viaDefault: cjs.format(7), pad: pad('1', 3),",
                "  filename: cjs.filename });");
        assertEquals(new JsonObject().put("formatted", "00042!kg").put("version", "cjs-pkg")
                        .put("viaDefault", "00007!kg").put("pad", "001").put("filename", "string"),
                p.callOnce(p.ref("h.ts"), payload()));
    }

    @Test
    void aCommonJsModuleExportsObjectLiteralGivesNamedExports() throws Exception {
        p.write("node_modules/obj/index.js",
                "function add(a, b) { return a + b; }",
                "const PI = 3;",
                "module.exports = { add, PI, times: function (a, b) { return a * b; }, 'quoted': 1, nested: { no: 1 } };");
        p.write("h.js", "import { add, PI, times, nested } from 'obj';",
                "export default () => [add(1, 2), PI, times(2, 3), nested.no];");
        assertEquals(new io.vertx.core.json.JsonArray("[3,3,6,1]"), p.callOnce(p.ref("h.js"), payload()));
    }

    @Test
    void aMissingPackageOrNodeBuiltInFailsAtLoadWithItsName() {
        p.write("h.js", "import x from 'not-installed';", "export default () => x;");
        ScriptLoadException e = assertThrows(ScriptLoadException.class, () -> p.start(1, p.ref("h.js")));
        // named as the package, with the fix, not as a path under the project folder
        assertTrue(e.getMessage().contains("Cannot find package 'not-installed' (it is not in "), e.getMessage());
        assertTrue(e.getMessage().contains("run npm install in "), e.getMessage());
        // at the import that names it, like a syntax error: the importing file, line and column
        assertTrue(e.file().endsWith("h.js") && e.line() == 1 && e.column() == 15,
                e.file() + ":" + e.line() + ":" + e.column());
        assertFalse(e.getMessage().contains("imported from"), "the place says it: " + e.getMessage());

        p.write("lib/dates.js", "// dates", "import {", "  format,", "} from \"date-fns\";", "export const f = format;");
        p.write("k.js", "import { f } from './lib/dates.js';", "export default () => f;");
        ScriptLoadException nested = assertThrows(ScriptLoadException.class, () -> p.start(1, p.ref("k.js")));
        assertTrue(nested.getMessage().contains("Cannot find package 'date-fns'"), nested.getMessage());
        assertTrue(nested.file().endsWith("lib/dates.js") && nested.line() == 4,
                "the file that imports it, not the entry: " + nested.file() + ":" + nested.line());

        p.write("node_modules/uses-fs/index.js", "const fs = require('fs');", "exports.read = () => fs;");
        p.write("g.js", "import { read } from 'uses-fs';", "export default () => 1;");
        ScriptLoadException fs = assertThrows(ScriptLoadException.class, () -> p.start(1, p.ref("g.js")));
        assertTrue(fs.getMessage().contains("Cannot find package 'fs'"), fs.getMessage());
        assertTrue(fs.getMessage().contains("built-in"), fs.getMessage());
    }

    @Test
    void exportNamesOfCommonJsSourcesAreScannedLikeNode() {
        assertEquals(java.util.Set.of("a", "b", "c", "d"), CommonJsFacade.exportNames(String.join("\n",
                "exports.a = 1; module.exports.b = 2; exports['c'] = 3;",
                "Object.defineProperty(exports, 'd', { get() { return 4; } });",
                "exports.__esModule = true; exports.default = 5; if (exports.a == 1) {}")));
        assertEquals(java.util.Set.of("x", "y", "z"), CommonJsFacade.exportNames(
                "module.exports = { x, y: f(1, 2), z() { return { w: 1 }; }, };"));
    }
}

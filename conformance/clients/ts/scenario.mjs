// The client scenario (see conformance/clients/run.sh) with the official TypeScript SDK.
//   node scenario.mjs URL
// The SDK speaks the session generation (its latest version is 2025-11-25): initialize, then a
// session. Prints one line per check (PASS, FAIL or N/A, the client and the check's name) and
// exits 1 if any check failed. The checks and their names are the same for every client of run.sh.
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { EmptyResultSchema, LoggingMessageNotificationSchema, McpError } from '@modelcontextprotocol/sdk/types.js';

const NAME = 'typescript-sdk';
const PROJECT_TOOLS = ['get-customer', 'list-orders', 'order-stats', 'search-products'];
const url = process.argv[2];
if (!url) {
  console.error('usage: node scenario.mjs URL');
  process.exit(2);
}

class NotApplicable extends Error {}
let passed = 0, failed = 0, notApplicable = 0;

async function check(name, fn) {
  try {
    const detail = await fn();
    passed++;
    console.log(`PASS ${NAME} ${name}${detail ? ` (${detail})` : ''}`);
  } catch (e) {
    if (e instanceof NotApplicable) {
      notApplicable++;
      console.log(`N/A  ${NAME} ${name}: ${e.message}`);
    } else {
      failed++;
      console.log(`FAIL ${NAME} ${name}: ${e?.message ?? e}`);
      if (process.argv.includes('-v')) console.error(e);
    }
  }
}

function assert(condition, message) {
  if (!condition) throw new Error(message);
}

const json = (value) => JSON.stringify(value);
const textOf = (result) => {
  assert(result.content?.[0]?.type === 'text', `first content block is ${result.content?.[0]?.type}`);
  return result.content[0].text;
};

async function expectRpcError(code, promise) {
  let result;
  try {
    result = await promise;
  } catch (e) {
    assert(e instanceof McpError, `${e?.name}: ${e?.message}, not a JSON-RPC error`);
    assert(e.code === code, `JSON-RPC error ${e.code} (${e.message}), expected ${code}`);
    return `${e.code} ${e.message.replace(/^MCP error -?\d+: /, '')}`;
  }
  throw new Error(`no JSON-RPC error, got ${json(result).slice(0, 200)}`);
}

const logs = [];
const transport = new StreamableHTTPClientTransport(new URL(url));
const client = new Client({ name: 'hyperterse-client-scenario', version: '1.0.0' });
client.setNotificationHandler(LoggingMessageNotificationSchema, (n) => { logs.push(n.params); });
const call = (name, args) => client.callTool({ name, arguments: args }, undefined, { timeout: 30_000 });

await check('connect', async () => {
  await client.connect(transport);
  assert(transport.protocolVersion === '2025-11-25', `negotiated ${transport.protocolVersion}`);
  const info = client.getServerVersion();
  assert(info?.name, `no server info: ${json(info)}`);
  return `initialize: protocol ${transport.protocolVersion}, server ${info.name} ${info.version}`;
});

if (failed === 0) {
  await check('capabilities', async () => {
    const caps = client.getServerCapabilities();
    const missing = ['tools', 'prompts', 'resources', 'completions', 'logging'].filter((n) => !caps?.[n]);
    assert(missing.length === 0, `capabilities lack ${missing}: ${json(caps)}`);
    return 'tools, prompts, resources, completions, logging';
  });

  await check('tools-list', async () => {
    const tools = [];
    let cursor, pages = 0;
    do {
      const page = await client.listTools(cursor ? { cursor } : undefined);
      pages++;
      tools.push(...page.tools);
      cursor = page.nextCursor;
    } while (cursor);
    const names = tools.map((t) => t.name);
    assert(json(names.slice(0, 2)) === json(['search', 'execute']), `tools start ${names.slice(0, 2)}`);
    assert(json(names.slice(2).sort()) === json(PROJECT_TOOLS), `tools ${names}`);
    assert(pages === 2, `${pages} pages of at most 3 tools, expected 2`);
    assert(tools.find((t) => t.name === 'get-customer').outputSchema, 'get-customer lists no outputSchema');
    return `${names.length} tools in ${pages} pages`;
  });

  await check('search', async () => {
    // the SDK keeps the output schemas of the last tools/list page only: list the first page
    // again so that search's outputSchema is the one it checks structuredContent against
    await client.listTools();
    assert(client.getToolOutputValidator('search'), 'the SDK holds no validator for search');
    const result = await call('search', { query: 'customer by id' });
    assert(!result.isError, textOf(result));
    const hits = JSON.parse(textOf(result)).tools;
    assert(hits.length && hits[0].name === 'get-customer', `hits ${hits.map((h) => h.name)}`);
    assert(json(result.structuredContent) === json({ tools: hits }), 'structuredContent differs from the text');
    return `${hits.length} hits, first get-customer; structuredContent checked against search's outputSchema`;
  });

  await check('execute', async () => {
    const result = await call('execute', { tool: 'list-orders', inputs: { status: 'pending' } });
    assert(!result.isError, textOf(result));
    const rows = JSON.parse(textOf(result));
    assert(json(rows.map((r) => r.id)) === json([9, 6, 3]), `rows ${json(rows)}`);
    assert(json(result.structuredContent) === json({ rows }), `structuredContent ${json(result.structuredContent)}`);
    return `list-orders: ${rows.length} rows`;
  });

  await check('typed-output', async () => {
    await client.listTools();
    assert(client.getToolOutputValidator('get-customer'), 'the SDK holds no validator for get-customer');
    // callTool validates structuredContent against the listed outputSchema (and throws if it does not fit)
    const result = await call('get-customer', { customer_id: 2 });
    assert(!result.isError, textOf(result));
    const rows = result.structuredContent.rows;
    assert(rows[0].name === 'Grace Hopper', `rows ${json(rows)}`);
    return "get-customer's structuredContent validated against its outputSchema";
  });

  await check('tool-error', async () => {
    const result = await call('execute', { tool: 'get-customer', inputs: { customer_id: 'abc' } });
    assert(result.isError === true, `not an isError result: ${json(result).slice(0, 200)}`);
    const error = JSON.parse(textOf(result));
    assert(error.stage === 'input_validation' && error.code === -32000, `error ${json(error)}`);
    const missing = await call('execute', { tool: 'get-customers', inputs: {} });
    assert(missing.isError && JSON.parse(textOf(missing)).stage === 'resolution', textOf(missing));
    // execute's own arguments are its input validation: a result too, coded -32602
    const noInputs = await call('execute', { tool: 'get-customer' });
    const bad = JSON.parse(textOf(noInputs));
    assert(noInputs.isError && bad.stage === 'input_validation' && bad.code === -32602, textOf(noInputs));
    return `isError: ${error.error}`;
  });

  await check('protocol-error', async () => {
    const unknown = await expectRpcError(-32602, call('no-such-tool', {}));
    return `unknown tool name: ${unknown}`;
  });

  await check('unknown-method', async () =>
    expectRpcError(-32601, client.request({ method: 'no/such_method', params: {} }, EmptyResultSchema)));

  await check('prompts', async () => {
    const { prompts } = await client.listPrompts();
    const prompt = prompts.find((p) => p.name === 'order-update');
    assert(prompt, `prompts ${prompts.map((p) => p.name)}`);
    const args = Object.fromEntries(prompt.arguments.map((a) => [a.name, a.required ?? false]));
    assert(json(args) === json({ order_id: true, tone: false }), `arguments ${json(prompt.arguments)}`);
    const got = await client.getPrompt({ name: 'order-update', arguments: { order_id: '3', tone: 'formal' } });
    const texts = got.messages.map((m) => m.content.text);
    assert(texts.includes('Tell the customer where order 3 is, in a formal tone.'), `texts ${json(texts)}`);
    return `order-update: ${got.messages.length} messages`;
  });

  await check('resources', async () => {
    const { resources } = await client.listResources();
    const { resourceTemplates } = await client.listResourceTemplates();
    const uris = resourceTemplates.map((t) => t.uriTemplate);
    assert(uris.includes('shop://orders/{id}'), `templates ${uris}`);
    const { contents } = await client.readResource({ uri: 'shop://orders/3' });
    const rows = JSON.parse(contents[0].text);
    assert(rows[0].customer === 'Grace Hopper' && rows[0].id === 3, `contents ${contents[0].text.slice(0, 200)}`);
    return `${resources.length} resources, templates ${uris}, read shop://orders/3`;
  });

  await check('completion', async () => {
    const tone = (await client.complete({ ref: { type: 'ref/prompt', name: 'order-update' },
      argument: { name: 'tone', value: 'f' } })).completion.values;
    assert(json([...tone].sort()) === json(['formal', 'friendly']), `tone values ${tone}`);
    const ids = (await client.complete({ ref: { type: 'ref/resource', uri: 'shop://orders/{id}' },
      argument: { name: 'id', value: '1' } })).completion.values;
    assert(json(ids) === json(['1', '10']), `id values ${ids}`);
    return `prompt argument tone: ${json(tone)}; template argument id: ${json(ids)}`;
  });

  await check('logging', async () => {
    logs.length = 0;
    await client.setLoggingLevel('debug');
    const result = await call('execute', { tool: 'get-customer', inputs: { customer_id: 1 } });
    assert(!result.isError, textOf(result));
    for (let i = 0; i < 100 && logs.length < 2; i++) await new Promise((r) => setTimeout(r, 50));
    const levels = logs.map((l) => l.level);
    assert(levels.includes('debug') && levels.includes('info'), `logs ${json(logs)}`);
    assert(logs.every((l) => l.logger === 'hyperterse'), `loggers ${logs.map((l) => l.logger)}`);
    await client.setLoggingLevel('emergency');
    return `logging/setLevel debug, then ${logs.length} notifications/message during execute: ${json(levels)}`;
  });

  await transport.terminateSession().catch(() => {});
  await client.close();

  await check('execute-cold', async () => {
    // a fresh client whose first call after initialize is execute, before any tools/list
    const coldTransport = new StreamableHTTPClientTransport(new URL(url));
    const cold = new Client({ name: 'hyperterse-client-scenario-cold', version: '1.0.0' });
    await cold.connect(coldTransport);
    try {
      const result = await cold.callTool({ name: 'execute', arguments: { tool: 'get-customer', inputs: { customer_id: 3 } } });
      assert(!result.isError, textOf(result));
      const rows = JSON.parse(textOf(result));
      assert(rows[0].name === 'Alan Turing', `rows ${json(rows)}`);
    } finally {
      await coldTransport.terminateSession().catch(() => {});
      await cold.close();
    }
    return 'get-customer through execute before tools/list';
  });
}

console.log(`${NAME}: ${passed} passed, ${failed} failed, ${notApplicable} n/a`);
process.exit(failed ? 1 : 0);

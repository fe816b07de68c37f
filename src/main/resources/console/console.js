// The Hyperterse web console: an MCP client of this server's own /mcp (the session generation,
// protocol 2025-11-25), plus the Live page, which reads /console/live. The key or token the user
// pastes lives in this closure only: never in storage, a cookie or the URL.
'use strict';
(function () {
  const PROTOCOL = '2025-11-25';
  const state = { credential: '', kind: 'x-api-key', metricsToken: '' };
  const mcp = { session: null, seq: 0, info: null };

  // ---- small DOM helpers (no innerHTML: every text is a text node) ----
  function $(id) { return document.getElementById(id); }
  function el(tag, attrs, ...children) {
    const node = document.createElement(tag);
    for (const [key, value] of Object.entries(attrs || {})) {
      if (value === null || value === undefined || value === false) continue;
      if (key === 'class') node.className = value;
      else if (key === 'text') node.textContent = value;
      else if (key.startsWith('on')) node.addEventListener(key.slice(2), value);
      else node.setAttribute(key, value === true ? '' : String(value));
    }
    for (const child of children.flat(Infinity)) {
      if (child === null || child === undefined || child === false) continue;
      node.append(child instanceof Node ? child : document.createTextNode(String(child)));
    }
    return node;
  }
  // Appends children as el does: nested arrays flattened, null and false left out.
  function add(node, ...children) {
    for (const child of children.flat(Infinity)) {
      if (child === null || child === undefined || child === false) continue;
      node.append(child instanceof Node ? child : document.createTextNode(String(child)));
    }
    return node;
  }
  function clear(node) { while (node.firstChild) node.removeChild(node.firstChild); return node; }
  function pretty(value) { return JSON.stringify(value, null, 2); }
  let uid = 0;
  function nextId(prefix) { uid += 1; return prefix + '-' + uid; }

  // ---- the MCP client ----
  class Refusal extends Error {
    constructor(status, text, challenge) {
      super('the server refused the request (HTTP ' + status + ')' + (text ? ': ' + text : ''));
      this.status = status;
      this.challenge = challenge;
    }
  }

  function credentialHeaders() {
    const headers = {};
    if (state.credential && state.kind === 'x-api-key') headers['X-API-Key'] = state.credential;
    if (state.credential && state.kind === 'bearer') headers['Authorization'] = 'Bearer ' + state.credential;
    return headers;
  }

  function post(message, withSession) {
    const headers = Object.assign({
      'Content-Type': 'application/json',
      'Accept': 'application/json, text/event-stream',
      'MCP-Protocol-Version': PROTOCOL,
    }, credentialHeaders());
    if (withSession && mcp.session) headers['Mcp-Session-Id'] = mcp.session;
    return fetch('/mcp', { method: 'POST', headers, body: JSON.stringify(message), credentials: 'omit',
      cache: 'no-store', redirect: 'error' });
  }

  // One JSON-RPC answer: a JSON body, or the message with our id on an SSE stream.
  async function answer(response, id) {
    const type = response.headers.get('content-type') || '';
    const text = await response.text();
    if (response.status === 401 || response.status === 403) {
      throw new Refusal(response.status, text.trim().slice(0, 500), response.headers.get('www-authenticate'));
    }
    if (type.includes('text/event-stream')) {
      for (const event of text.split(/\r?\n\r?\n/)) {
        const data = event.split(/\r?\n/).filter((l) => l.startsWith('data:')).map((l) => l.slice(5).replace(/^ /, ''));
        if (!data.length) continue;
        let message;
        try { message = JSON.parse(data.join('\n')); } catch (e) { continue; }
        if (message.id === id && ('result' in message || 'error' in message)) return message;
      }
      throw new Error('the server\'s stream ended without an answer');
    }
    if (type.includes('json')) return JSON.parse(text);
    throw new Refusal(response.status, text.trim().slice(0, 500), null);
  }

  async function initialize() {
    const id = ++mcp.seq;
    const response = await post({ jsonrpc: '2.0', id, method: 'initialize', params: {
      protocolVersion: PROTOCOL, capabilities: {}, clientInfo: { name: 'hyperterse-console', version: '1' } } }, false);
    const message = await answer(response, id);
    if (message.error) throw new Error('initialize: ' + message.error.message);
    mcp.session = response.headers.get('mcp-session-id');
    mcp.info = message.result;
    await post({ jsonrpc: '2.0', method: 'notifications/initialized' }, true);
  }

  function endSession() {
    if (!mcp.session) return;
    const headers = Object.assign({ 'Mcp-Session-Id': mcp.session, 'MCP-Protocol-Version': PROTOCOL },
      credentialHeaders());
    mcp.session = null;
    fetch('/mcp', { method: 'DELETE', headers, credentials: 'omit', keepalive: true }).catch(() => {});
  }

  // Sends one request; resolves to { message, ms } (the JSON-RPC message as received).
  async function rpc(method, params) {
    if (!mcp.session) await initialize();
    const id = ++mcp.seq;
    const started = performance.now();
    let response = await post({ jsonrpc: '2.0', id, method, params }, true);
    if (response.status === 404 && mcp.session) {
      // the session idled out: start another, as a client would
      mcp.session = null;
      await initialize();
      response = await post({ jsonrpc: '2.0', id, method, params }, true);
    }
    const message = await answer(response, id);
    return { message, ms: performance.now() - started };
  }

  async function listAll(method, key) {
    const items = [];
    let cursor;
    for (let page = 0; page < 100; page++) {
      const { message } = await rpc(method, cursor ? { cursor } : {});
      if (message.error) throw new Error(method + ': ' + message.error.message);
      items.push(...(message.result[key] || []));
      cursor = message.result.nextCursor;
      if (!cursor) break;
    }
    return items;
  }

  function capability(name) {
    return !!(mcp.info && mcp.info.capabilities && mcp.info.capabilities[name]);
  }

  // ---- connecting ----
  function say(node, text, bad) {
    node.textContent = text;
    node.classList.toggle('bad', !!bad);
  }

  async function connect(event) {
    event.preventDefault();
    endSession();
    state.credential = $('credential').value;
    state.kind = $('credential-kind').value;
    const status = $('connection');
    say(status, 'Connecting…');
    try {
      await initialize();
      const info = mcp.info.serverInfo || {};
      $('server-name').textContent = '— ' + (info.title || info.name || '') + (info.version ? ' ' + info.version : '');
      say(status, 'Connected to ' + (info.name || 'the server') + ' (MCP ' + mcp.info.protocolVersion + ', '
        + (state.credential && state.kind !== 'none' ? 'sending the key you gave' : 'without a key') + ').');
      await Promise.all([loadCatalog(), loadPromptsAndResources()]);
    } catch (e) {
      mcp.session = null;
      say(status, 'Not connected: ' + e.message, true);
    }
  }

  // ---- Tools ----
  let catalog = [];

  async function loadCatalog() {
    const listed = await listAll('tools/list', 'tools');
    catalog = listed.map((t) => ({
      name: t.name, title: t.title || (t.annotations && t.annotations.title), description: t.description,
      inputSchema: t.inputSchema, outputSchema: t.outputSchema, annotations: t.annotations, via: 'direct',
    }));
    const metaOnly = listed.every((t) => t.name === 'search' || t.name === 'execute');
    $('catalog-note').textContent = metaOnly
      ? 'This server lists only search and execute; its tools are found through search (tools.exposure: meta). '
        + 'Find tools above to add them here.'
      : 'The tools tools/list gives this key.';
    renderCatalog();
  }

  function fromHit(hit) {
    return {
      name: hit.name, title: hit.title, description: hit.description, inputSchema: hit.input_schema,
      outputSchema: hit.output_schema, annotations: hit.annotations, tags: hit.tags, statement: hit.statement,
      via: 'execute', score: hit.relevance_score,
    };
  }

  function renderCatalog() {
    const list = clear($('catalog'));
    for (const tool of catalog) {
      list.append(el('li', {},
        el('button', { type: 'button', class: 'link', onclick: () => showTool(tool) }, tool.name),
        el('span', { class: 'sub' }, tool.via === 'execute' ? 'through execute' : 'called by name',
          tool.title ? ' · ' + tool.title : '')));
    }
  }

  async function searchTools(query) {
    const { message, ms } = await rpc('tools/call', { name: 'search', arguments: { query } });
    if (message.error) throw new Error(message.error.message);
    const text = (message.result.content || []).filter((c) => c.type === 'text').map((c) => c.text).join('');
    if (message.result.isError) throw new Error(text);
    return { hits: JSON.parse(text), ms };
  }

  async function findTools(event) {
    event.preventDefault();
    const note = $('catalog-note');
    say(note, 'Searching…');
    try {
      const { hits } = await searchTools($('find-query').value);
      for (const hit of hits) {
        if (!catalog.some((t) => t.name === hit.name && t.via === 'execute')) catalog.push(fromHit(hit));
      }
      renderCatalog();
      say(note, hits.length ? 'search found ' + hits.length + (hits.length === 1 ? ' tool.' : ' tools.')
        : 'search found no tool for this (a key that may not run a tool does not see it).');
    } catch (e) {
      say(note, 'search failed: ' + e.message, true);
    }
  }

  function showTool(tool) {
    selectTab('tools');
    const detail = clear($('tool-detail'));
    const annotations = tool.annotations || {};
    add(detail, 
      el('h3', {}, tool.title || tool.name),
      el('p', {}, el('code', {}, tool.name), tool.via === 'execute' ? ' (run through execute)' : ''),
      tool.description ? el('p', {}, tool.description) : null,
      tool.tags && tool.tags.length ? el('p', { class: 'tags' }, 'Tags: ', tool.tags.map((t) => el('span', {}, t))) : null,
      Object.keys(annotations).length ? el('p', { class: 'tags' }, 'Annotations: ',
        Object.entries(annotations).map(([k, v]) => el('span', {}, k + ': ' + v))) : null,
      tool.statement ? el('details', {}, el('summary', {}, 'Statement'), el('pre', {}, tool.statement)) : null,
      el('details', {}, el('summary', {}, 'Input schema'), el('pre', {}, pretty(tool.inputSchema || {}))),
      tool.outputSchema ? el('details', {}, el('summary', {}, 'Output schema'), el('pre', {}, pretty(tool.outputSchema))) : null);
    const form = schemaForm(tool.inputSchema || { type: 'object', properties: {} }, 'in');
    const result = el('div', { class: 'result', 'aria-live': 'polite' });
    const run = el('button', { type: 'submit' }, 'Run');
    const formNode = el('form', { novalidate: true, 'aria-label': 'Inputs of ' + tool.name }, el('h3', {}, 'Inputs'),
      form.node, run);
    formNode.addEventListener('submit', async (event) => {
      event.preventDefault();
      const read = form.read();
      if (!read.ok) {
        clear(result).append(el('p', { class: 'outcome bad', role: 'alert' },
          'Not sent: ' + read.problems + (read.problems === 1 ? ' input needs' : ' inputs need') + ' fixing.'));
        return;
      }
      run.disabled = true;
      clear(result).append(el('p', {}, 'Running…'));
      try {
        const params = tool.via === 'execute'
          ? { name: 'execute', arguments: { tool: tool.name, inputs: read.value } }
          : { name: tool.name, arguments: read.value };
        const { message, ms } = await rpc('tools/call', params);
        showResult(result, message, ms);
      } catch (e) {
        clear(result).append(el('p', { class: 'outcome bad', role: 'alert' }, e.message));
      } finally {
        run.disabled = false;
      }
    });
    add(detail, formNode, el('h3', {}, 'Result'), result);
  }

  function textOf(result) {
    return (result.content || []).filter((c) => c.type === 'text').map((c) => c.text).join('\n');
  }

  // An image or audio block as the browser shows it, from a data: URL (the page's policy allows
  // data: for images and media, nothing else): only a media type of the block's own family and
  // base64 data make one, so a block that is anything else stays JSON only.
  const MEDIA_TYPE = /^[A-Za-z0-9][A-Za-z0-9!#$&^_.+-]*\/[A-Za-z0-9][A-Za-z0-9!#$&^_.+-]*$/;
  const BASE64 = /^(?:[A-Za-z0-9+/]{4})*(?:[A-Za-z0-9+/]{2}==|[A-Za-z0-9+/]{3}=)?$/;
  function mediaOf(block, where) {
    if (!block || (block.type !== 'image' && block.type !== 'audio')) return null;
    const type = String(block.mimeType || '');
    if (!MEDIA_TYPE.test(type) || !type.toLowerCase().startsWith(block.type + '/')
      || typeof block.data !== 'string' || !BASE64.test(block.data)) return null;
    const url = 'data:' + type + ';base64,' + block.data;
    const label = (block.type === 'image' ? 'Image' : 'Audio') + ' from ' + where + ' (' + type + ')';
    const media = block.type === 'image'
      ? el('img', { src: url, alt: label, class: 'media' })
      : el('audio', { src: url, controls: true, preload: 'metadata', 'aria-label': label, class: 'media' });
    return el('figure', { class: 'content-media' }, media, el('figcaption', {}, label));
  }

  function mediaOfResult(result) {
    return (result.content || []).map((block, i) => mediaOf(block, 'content[' + i + ']')).filter((m) => m !== null);
  }

  function rowsOf(result) {
    if (result.structuredContent && Array.isArray(result.structuredContent.rows)) return result.structuredContent.rows;
    try {
      const parsed = JSON.parse(textOf(result));
      if (Array.isArray(parsed) && parsed.every((r) => r && typeof r === 'object' && !Array.isArray(r))) return parsed;
    } catch (e) { /* not rows */ }
    return null;
  }

  function table(rows, limit) {
    const columns = [];
    for (const row of rows.slice(0, limit)) for (const key of Object.keys(row)) if (!columns.includes(key)) columns.push(key);
    const cell = (v) => (v === null || v === undefined ? '' : typeof v === 'object' ? JSON.stringify(v) : String(v));
    return el('table', {},
      el('thead', {}, el('tr', {}, columns.map((c) => el('th', { scope: 'col' }, c)))),
      el('tbody', {}, rows.slice(0, limit).map((row) => el('tr', {}, columns.map((c) => el('td', {}, cell(row[c])))))));
  }

  function showResult(container, message, ms) {
    clear(container);
    const timing = ' in ' + ms.toFixed(1) + ' ms';
    if (message.error) {
      add(container, 
        el('p', { class: 'outcome bad', role: 'alert' }, 'JSON-RPC error ' + message.error.code + timing),
        el('h4', {}, 'Error message, as an agent gets it'),
        el('pre', { class: 'error-text' }, message.error.message),
        el('details', {}, el('summary', {}, 'JSON'), el('pre', {}, pretty(message))));
      return;
    }
    const result = message.result || {};
    if (result.isError) {
      add(container, 
        el('p', { class: 'outcome bad', role: 'alert' }, 'Tool error (isError: true)' + timing),
        el('h4', {}, 'Error text, as an agent gets it'),
        el('pre', { class: 'error-text' }, textOf(result)),
        el('details', {}, el('summary', {}, 'JSON'), el('pre', {}, pretty(result))));
      return;
    }
    const rows = rowsOf(result);
    add(container, el('p', { class: 'outcome good' }, 'OK' + timing
      + (rows ? ' · ' + rows.length + (rows.length === 1 ? ' row' : ' rows') : '')));
    if (rows && rows.length) {
      add(container, el('h4', {}, 'Rows'), table(rows, 500),
        rows.length > 500 ? el('p', { class: 'help' }, 'The first 500 rows are shown; JSON has all.') : null);
    }
    const media = mediaOfResult(result);
    if (media.length) add(container, el('h4', {}, media.length === 1 ? 'Media' : 'Media (' + media.length + ')'), media);
    add(container, 
      el('details', { open: !rows }, el('summary', {}, 'Text content'), el('pre', {}, textOf(result))),
      el('details', {}, el('summary', {}, 'structuredContent'),
        el('pre', {}, result.structuredContent === undefined ? '(none)' : pretty(result.structuredContent))),
      el('details', {}, el('summary', {}, 'JSON'), el('pre', {}, pretty(result))));
  }

  // ---- a form from a JSON Schema object: fields, hints, checks before sending ----
  function typeOf(schema) {
    let type = schema.type;
    if (Array.isArray(type)) type = type.find((t) => t !== 'null') || 'string';
    if (!type && schema.enum) type = typeof schema.enum[0] === 'number' ? 'number' : 'string';
    return type || 'any';
  }

  function hint(schema, type) {
    const parts = [type === 'any' ? 'any JSON' : type + (schema.format ? ' (' + schema.format + ')' : '')];
    if (type === 'array') parts.push('one item per line' + (schema.items ? ', each ' + typeOf(schema.items) : ''));
    if (type === 'object' || type === 'any') parts.push('written as JSON');
    if (schema.minimum !== undefined) parts.push('at least ' + schema.minimum);
    if (schema.exclusiveMinimum !== undefined) parts.push('more than ' + schema.exclusiveMinimum);
    if (schema.maximum !== undefined) parts.push('at most ' + schema.maximum);
    if (schema.exclusiveMaximum !== undefined) parts.push('less than ' + schema.exclusiveMaximum);
    if (schema.minLength !== undefined) parts.push('at least ' + schema.minLength + ' characters');
    if (schema.maxLength !== undefined) parts.push('at most ' + schema.maxLength + ' characters');
    if (schema.pattern !== undefined) parts.push('matching ' + schema.pattern);
    if (schema.minItems !== undefined) parts.push('at least ' + schema.minItems + ' items');
    if (schema.maxItems !== undefined) parts.push('at most ' + schema.maxItems + ' items');
    if (schema.default !== undefined) parts.push('default ' + JSON.stringify(schema.default));
    return parts.join('; ');
  }

  // The problem with one value against its schema, or null.
  function problemWith(value, schema) {
    const type = typeOf(schema);
    if (schema.enum && !schema.enum.some((e) => JSON.stringify(e) === JSON.stringify(value))) {
      return 'must be one of ' + schema.enum.map((e) => JSON.stringify(e)).join(', ');
    }
    if (type === 'integer' && !Number.isInteger(value)) return 'must be a whole number';
    if (type === 'number' && (typeof value !== 'number' || !Number.isFinite(value))) return 'must be a number';
    if (typeof value === 'number') {
      if (schema.minimum !== undefined && value < schema.minimum) return 'must be at least ' + schema.minimum;
      if (schema.maximum !== undefined && value > schema.maximum) return 'must be at most ' + schema.maximum;
      if (schema.exclusiveMinimum !== undefined && value <= schema.exclusiveMinimum) return 'must be more than ' + schema.exclusiveMinimum;
      if (schema.exclusiveMaximum !== undefined && value >= schema.exclusiveMaximum) return 'must be less than ' + schema.exclusiveMaximum;
    }
    if (typeof value === 'string') {
      const length = [...value].length;
      if (schema.minLength !== undefined && length < schema.minLength) return 'must have at least ' + schema.minLength + ' characters';
      if (schema.maxLength !== undefined && length > schema.maxLength) return 'must have at most ' + schema.maxLength + ' characters';
      if (schema.pattern !== undefined) {
        let pattern;
        try { pattern = new RegExp(schema.pattern, 'u'); } catch (e) { pattern = null; }
        if (pattern && !pattern.test(value)) return 'must match ' + schema.pattern;
      }
      if (schema.format === 'date' && !/^\d{4}-\d{2}-\d{2}$/.test(value)) return 'must be a date, YYYY-MM-DD';
    }
    if (Array.isArray(value)) {
      if (schema.minItems !== undefined && value.length < schema.minItems) return 'must have at least ' + schema.minItems + ' items';
      if (schema.maxItems !== undefined && value.length > schema.maxItems) return 'must have at most ' + schema.maxItems + ' items';
      if (schema.items) {
        for (let i = 0; i < value.length; i++) {
          const problem = problemWith(value[i], schema.items);
          if (problem) return 'item ' + (i + 1) + ' ' + problem;
        }
      }
    }
    return null;
  }

  // Text the user typed, as the value of its type; throws with what is wrong.
  function parse(text, schema) {
    const type = typeOf(schema);
    if (schema.enum) {
      // a choice's value is JSON; an item typed on a line of an array may be a bare word
      try { return JSON.parse(text); } catch (e) { return text; }
    }
    switch (type) {
      case 'integer':
      case 'number': {
        const n = Number(text.trim());
        if (text.trim() === '' || Number.isNaN(n)) throw new Error('must be a ' + (type === 'integer' ? 'whole number' : 'number'));
        return n;
      }
      case 'boolean': return text === 'true';
      case 'string': return text;
      case 'array': {
        const items = text.split(/\r?\n/).map((l) => l.trim()).filter((l) => l !== '');
        return items.map((item, i) => {
          try { return parse(item, schema.items || {}); } catch (e) { throw new Error('item ' + (i + 1) + ' ' + e.message); }
        });
      }
      default:
        try { return JSON.parse(text); } catch (e) { throw new Error('must be JSON (' + e.message + ')'); }
    }
  }

  function control(id, schema, type, describedBy) {
    const common = { id, name: id, 'aria-describedby': describedBy };
    if (schema.enum || type === 'boolean') {
      const values = schema.enum || [true, false];
      return el('select', common, el('option', { value: '' }, '(not set)'),
        values.map((v) => el('option', { value: JSON.stringify(v) }, String(v))));
    }
    if (type === 'integer' || type === 'number') {
      return el('input', Object.assign({ type: 'number', step: type === 'integer' ? '1' : 'any',
        placeholder: schema.default !== undefined ? String(schema.default) : null }, common));
    }
    if (type === 'string') {
      return el('input', Object.assign({ type: schema.format === 'date' ? 'date' : 'text', autocomplete: 'off',
        placeholder: schema.default !== undefined ? String(schema.default)
          : schema.format === 'date-time' ? 'YYYY-MM-DDThh:mm:ssZ' : null }, common));
    }
    return el('textarea', Object.assign({ rows: type === 'array' ? 3 : 4, spellcheck: 'false',
      placeholder: schema.default !== undefined ? (type === 'array' ? schema.default.join('\n') : JSON.stringify(schema.default)) : null },
    common));
  }

  function schemaForm(schema, prefix) {
    const properties = schema.properties || {};
    const required = schema.required || [];
    const fields = [];
    const node = el('div', {});
    if (!Object.keys(properties).length) node.append(el('p', { class: 'help' }, 'This tool takes no inputs.'));
    for (const [name, property] of Object.entries(properties)) {
      const type = typeOf(property);
      const id = nextId(prefix + '-' + name.replace(/[^A-Za-z0-9_-]/g, '_'));
      const helpId = id + '-help';
      const problemId = id + '-problem';
      const input = control(id, property, type, helpId);
      const problem = el('span', { id: problemId, class: 'problem' });
      const isRequired = required.includes(name);
      node.append(el('div', { class: 'field' },
        el('label', { for: id }, name, isRequired ? ' (required)' : ''),
        input,
        el('span', { class: 'help', id: helpId }, (property.description ? property.description + ' — ' : '') + hint(property, type)),
        problem));
      fields.push({ name, property, input, problem, problemId, helpId, isRequired });
    }
    function read() {
      const value = {};
      let problems = 0;
      let first = null;
      for (const f of fields) {
        let message = null;
        const text = f.input.value;
        if (text.trim() === '') {
          if (f.isRequired) message = 'is required';
        } else {
          try {
            const v = parse(text, f.property);
            message = problemWith(v, f.property);
            if (!message) value[f.name] = v;
          } catch (e) {
            message = e.message;
          }
        }
        f.problem.textContent = message ? f.name + ' ' + message : '';
        if (message) {
          f.input.setAttribute('aria-invalid', 'true');
          f.input.setAttribute('aria-describedby', f.helpId + ' ' + f.problemId);
          problems++;
          first = first || f.input;
        } else {
          f.input.removeAttribute('aria-invalid');
          f.input.setAttribute('aria-describedby', f.helpId);
        }
      }
      if (first) first.focus();
      return { ok: problems === 0, value, problems };
    }
    return { node, read };
  }

  // ---- Search ----
  const STOP = new Set(['a', 'an', 'the', 'of', 'to', 'in', 'on', 'for', 'by', 'and', 'or', 'is', 'are', 'with',
    'what', 'which', 'who', 'how', 'me', 'my', 'i', 'it', 'at', 'from', 'be', 'do', 'does', 'all', 'show', 'get', 'find']);
  function stem(word) {
    if (word.length > 4 && word.endsWith('ies')) return word.slice(0, -3) + 'y';
    if (word.length > 4 && word.endsWith('ing')) return word.slice(0, -3);
    if (word.length > 3 && word.endsWith('ed')) return word.slice(0, -2);
    if (word.length > 3 && word.endsWith('es')) return word.slice(0, -2);
    if (word.length > 2 && word.endsWith('s')) return word.slice(0, -1);
    return word;
  }
  function words(text) {
    return (String(text || '').toLowerCase().match(/[\p{L}\p{N}]+/gu) || []);
  }

  // Which fields of a hit hold which words of the request (compared by a light English stem).
  function explain(query, hit) {
    const wanted = [...new Set(words(query).filter((w) => !STOP.has(w)))];
    const inputs = (hit.inputs || []).map((i) => i.name + ' ' + (i.description || '')).join(' ');
    const fields = { name: hit.name, title: hit.title, description: hit.description, tags: (hit.tags || []).join(' '),
      inputs, statement: hit.statement };
    const found = [];
    for (const [field, text] of Object.entries(fields)) {
      const stems = new Set(words(text).map(stem));
      const matched = wanted.filter((w) => stems.has(stem(w)));
      if (matched.length) found.push({ field, matched });
    }
    return { wanted, found };
  }

  async function runSearch(event) {
    event.preventDefault();
    const out = clear($('search-results'));
    const query = $('search-query').value;
    out.append(el('p', {}, 'Searching…'));
    try {
      const { hits, ms } = await searchTools(query);
      clear(out).append(el('p', { class: 'outcome' }, hits.length + (hits.length === 1 ? ' hit' : ' hits')
        + ' in ' + ms.toFixed(1) + ' ms'));
      const list = el('ol', { class: 'hits' });
      for (const hit of hits) {
        const why = explain(query, hit);
        const bar = el('span', { class: 'score', 'aria-hidden': 'true' });
        bar.style.width = Math.max(2, hit.relevance_score) * 1.5 + 'px';
        list.append(el('li', { class: 'hit' },
          el('p', {}, el('button', { type: 'button', class: 'link', onclick: () => showTool(fromHit(hit)) }, hit.name),
            hit.title ? ' — ' + hit.title : ''),
          el('p', {}, bar, el('span', { class: 'relevance' }, 'relevance ' + hit.relevance_score + ' of 100')),
          el('p', { class: 'help' }, hit.description || ''),
          el('p', { class: 'why' }, why.found.length
            ? ['Words of your request in: ', why.found.map((f, i) => [i ? '; ' : '', el('strong', {}, f.field),
              ' (' + f.matched.join(', ') + ')'])]
            : 'No word of your request is in this tool\'s text: it was ranked by meaning.')));
      }
      out.append(list);
    } catch (e) {
      clear(out).append(el('p', { class: 'outcome bad', role: 'alert' }, 'search failed: ' + e.message));
    }
  }

  // ---- Prompts and resources ----
  async function loadPromptsAndResources() {
    const prompts = capability('prompts') ? await listAll('prompts/list', 'prompts') : [];
    const resources = capability('resources') ? await listAll('resources/list', 'resources') : [];
    const templates = capability('resources') ? await listAll('resources/templates/list', 'resourceTemplates') : [];
    const fill = (list, items, label, open, none) => {
      clear(list);
      if (!items.length) list.append(el('li', { class: 'help' }, none));
      for (const item of items) {
        list.append(el('li', {}, el('button', { type: 'button', class: 'link', onclick: () => open(item) }, label(item)),
          item.title ? el('span', { class: 'sub' }, item.title) : null));
      }
    };
    fill($('prompt-list'), prompts, (p) => p.name, showPrompt, 'none for this key');
    fill($('resource-list'), resources, (r) => r.uri, showResource, 'none for this key');
    fill($('template-list'), templates, (t) => t.uriTemplate, showTemplate, 'none for this key');
  }

  function suggester(ref, argumentName, input, others) {
    const out = el('span', { class: 'suggestions', 'aria-live': 'polite' });
    const button = el('button', { type: 'button', class: 'link', 'aria-label': 'Suggest values for ' + argumentName },
      'Suggest values');
    button.addEventListener('click', async () => {
      clear(out).append('…');
      try {
        const params = { ref, argument: { name: argumentName, value: input.value } };
        const context = others();
        if (Object.keys(context).length) params.context = { arguments: context };
        const { message } = await rpc('completion/complete', params);
        clear(out);
        if (message.error) { out.append(el('span', { class: 'bad' }, message.error.message)); return; }
        const values = (message.result.completion && message.result.completion.values) || [];
        if (!values.length) out.append('no suggestion');
        for (const v of values) {
          out.append(' ', el('button', { type: 'button', class: 'link', onclick: () => { input.value = v; input.focus(); } }, v));
        }
      } catch (e) {
        clear(out).append(el('span', { class: 'bad' }, e.message));
      }
    });
    return [' ', button, ' ', out];
  }

  function textFields(names, prefix, ref, requiredOf, describe) {
    const inputs = {};
    const nodes = names.map((name) => {
      const id = nextId(prefix);
      const input = el('input', { id, type: 'text', autocomplete: 'off' });
      inputs[name] = input;
      const others = () => Object.fromEntries(Object.entries(inputs).filter(([n, i]) => n !== name && i.value !== '')
        .map(([n, i]) => [n, i.value]));
      return el('div', { class: 'field' }, el('label', { for: id }, name, requiredOf(name) ? ' (required)' : ''),
        input, capability('completions') ? suggester(ref, name, input, others) : null,
        describe(name) ? el('span', { class: 'help' }, describe(name)) : null);
    });
    return { inputs, nodes };
  }

  function showPrompt(prompt) {
    const detail = clear($('prompt-detail'));
    const args = prompt.arguments || [];
    const byName = Object.fromEntries(args.map((a) => [a.name, a]));
    const fields = textFields(args.map((a) => a.name), 'prompt-arg', { type: 'ref/prompt', name: prompt.name },
      (n) => byName[n].required, (n) => byName[n].description);
    const result = el('div', { 'aria-live': 'polite' });
    const form = el('form', { novalidate: true, 'aria-label': 'Arguments of ' + prompt.name }, fields.nodes,
      el('button', { type: 'submit' }, 'Render'));
    form.addEventListener('submit', async (event) => {
      event.preventDefault();
      const missing = args.filter((a) => a.required && fields.inputs[a.name].value === '').map((a) => a.name);
      if (missing.length) {
        clear(result).append(el('p', { class: 'outcome bad', role: 'alert' }, 'Not sent: ' + missing.join(', ') + ' required.'));
        fields.inputs[missing[0]].focus();
        return;
      }
      const values = Object.fromEntries(Object.entries(fields.inputs).filter(([, i]) => i.value !== '').map(([n, i]) => [n, i.value]));
      try {
        const { message, ms } = await rpc('prompts/get', { name: prompt.name, arguments: values });
        clear(result);
        if (message.error) {
          result.append(el('p', { class: 'outcome bad', role: 'alert' }, 'JSON-RPC error ' + message.error.code),
            el('pre', { class: 'error-text' }, message.error.message));
          return;
        }
        result.append(el('p', { class: 'outcome good' }, 'Rendered in ' + ms.toFixed(1) + ' ms'));
        for (const m of message.result.messages || []) {
          const content = m.content || {};
          // an image or a sound is shown as one, anything else as its text or JSON
          result.append(el('h4', {}, m.role), mediaOf(content, 'the ' + m.role + ' message')
            || el('pre', { class: 'prompt-message' }, content.type === 'text' ? content.text
              : content.type === 'resource' ? pretty(content.resource) : pretty(content)));
        }
        result.append(el('details', {}, el('summary', {}, 'JSON'), el('pre', {}, pretty(message.result))));
      } catch (e) {
        clear(result).append(el('p', { class: 'outcome bad', role: 'alert' }, e.message));
      }
    });
    add(detail, el('h3', {}, prompt.title || prompt.name), el('p', {}, el('code', {}, prompt.name)),
      prompt.description ? el('p', {}, prompt.description) : null, form, el('h3', {}, 'Messages'), result);
  }

  async function readResource(uri, result) {
    try {
      const { message, ms } = await rpc('resources/read', { uri });
      clear(result);
      if (message.error) {
        result.append(el('p', { class: 'outcome bad', role: 'alert' }, 'JSON-RPC error ' + message.error.code),
          el('pre', { class: 'error-text' }, message.error.message));
        return;
      }
      result.append(el('p', { class: 'outcome good' }, 'Read in ' + ms.toFixed(1) + ' ms'));
      for (const c of message.result.contents || []) {
        let text = c.text !== undefined ? c.text : '(' + (c.blob ? c.blob.length + ' base64 characters' : 'no text') + ')';
        if (c.mimeType === 'application/json') { try { text = pretty(JSON.parse(text)); } catch (e) { /* as sent */ } }
        result.append(el('h4', {}, c.uri + (c.mimeType ? ' (' + c.mimeType + ')' : '')), el('pre', {}, text));
      }
    } catch (e) {
      clear(result).append(el('p', { class: 'outcome bad', role: 'alert' }, e.message));
    }
  }

  function showResource(resource) {
    const detail = clear($('prompt-detail'));
    const result = el('div', { 'aria-live': 'polite' });
    add(detail, el('h3', {}, resource.title || resource.name || resource.uri), el('p', {}, el('code', {}, resource.uri)),
      resource.description ? el('p', {}, resource.description) : null,
      el('button', { type: 'button', onclick: () => readResource(resource.uri, result) }, 'Read'), result);
  }

  function showTemplate(template) {
    const detail = clear($('prompt-detail'));
    const names = [...new Set((template.uriTemplate.match(/\{[^}]+\}/g) || []).map((v) => v.slice(1, -1).replace(/^[+#./;?&]/, '')))];
    const fields = textFields(names, 'template-var', { type: 'ref/resource', uri: template.uriTemplate }, () => true, () => null);
    const result = el('div', { 'aria-live': 'polite' });
    const form = el('form', { novalidate: true, 'aria-label': 'Variables of ' + template.uriTemplate }, fields.nodes,
      el('button', { type: 'submit' }, 'Read'));
    form.addEventListener('submit', (event) => {
      event.preventDefault();
      const uri = template.uriTemplate.replace(/\{([+#./;?&]?)([^}]+)\}/g, (m, op, name) =>
        encodeURIComponent(fields.inputs[name] ? fields.inputs[name].value : ''));
      readResource(uri, result);
    });
    add(detail, el('h3', {}, template.title || template.name), el('p', {}, el('code', {}, template.uriTemplate)),
      template.description ? el('p', {}, template.description) : null, form, result);
  }

  // ---- Live ----
  const live = { timer: null, history: [], charts: {} };
  const COLORS = ['#0b4f8a', '#b34700', '#0b5d1e', '#6a1b9a', '#8a0b0b', '#00695c'];
  const HISTORY = 90;

  async function liveTick() {
    const headers = state.metricsToken ? { Authorization: 'Bearer ' + state.metricsToken } : {};
    const status = $('live-status');
    try {
      const response = await fetch('/console/live', { headers, credentials: 'omit', cache: 'no-store' });
      if (!response.ok) {
        stopLive();
        say(status, 'Refused (HTTP ' + response.status + '): ' + (await response.text()).trim(), true);
        return;
      }
      const snapshot = await response.json();
      live.history.push(snapshot);
      if (live.history.length > HISTORY) live.history.shift();
      say(status, 'Updated ' + new Date(snapshot.at).toLocaleTimeString() + '.');
      renderLive(snapshot);
    } catch (e) {
      say(status, 'Cannot read the live counts: ' + e.message, true);
    }
  }

  function startLive(event) {
    event.preventDefault();
    state.metricsToken = $('metrics-token').value;
    stopLive();
    live.history = [];
    $('live-start').disabled = true;
    $('live-stop').disabled = false;
    liveTick();
    live.timer = setInterval(liveTick, 2000);
  }

  function stopLive() {
    if (live.timer) clearInterval(live.timer);
    live.timer = null;
    $('live-start').disabled = false;
    $('live-stop').disabled = true;
  }

  function ratio(a, b) { return b > 0 ? a / b : null; }

  // Per tool and sample: the value each chart plots (between two samples, or as read).
  function series(tools) {
    const h = live.history;
    const x = h.slice(1).map((s) => s.at / 1000);
    const charts = { 'Calls per second': {}, 'Errors (% of calls)': {}, 'p50 latency (ms)': {}, 'p99 latency (ms)': {},
      'Cache hits (% of lookups)': {} };
    for (const tool of tools) {
      const pick = (s) => s.tools.find((t) => t.tool === tool) || { calls: 0, errors: 0, cache_hits: 0, cache_misses: 0 };
      const rows = h.map(pick);
      const d = (i, key) => rows[i][key] - rows[i - 1][key];
      const seconds = (i) => (h[i].at - h[i - 1].at) / 1000;
      const at = [...Array(h.length).keys()].slice(1);
      charts['Calls per second'][tool] = at.map((i) => d(i, 'calls') / Math.max(0.001, seconds(i)));
      charts['Errors (% of calls)'][tool] = at.map((i) => { const r = ratio(d(i, 'errors'), d(i, 'calls')); return r === null ? null : 100 * r; });
      charts['p50 latency (ms)'][tool] = at.map((i) => (rows[i].p50_ms === undefined ? null : rows[i].p50_ms));
      charts['p99 latency (ms)'][tool] = at.map((i) => (rows[i].p99_ms === undefined ? null : rows[i].p99_ms));
      charts['Cache hits (% of lookups)'][tool] = at.map((i) => {
        const r = ratio(d(i, 'cache_hits'), d(i, 'cache_hits') + d(i, 'cache_misses'));
        return r === null ? null : 100 * r;
      });
    }
    return { x, charts };
  }

  function renderCharts(snapshot) {
    const holder = $('charts');
    if (typeof window.uPlot !== 'function' || live.history.length < 2) return;
    const tools = snapshot.tools.slice().sort((a, b) => b.calls - a.calls).slice(0, COLORS.length).map((t) => t.tool).sort();
    const { x, charts } = series(tools);
    const key = tools.join('\n');
    for (const [title, byTool] of Object.entries(charts)) {
      const data = [x, ...tools.map((t) => byTool[t])];
      const known = live.charts[title];
      if (known && known.key === key) {
        known.plot.setData(data);
        continue;
      }
      if (known) { known.plot.destroy(); known.box.remove(); }
      const box = el('figure', { class: 'chart', role: 'group', 'aria-label': title }, el('h3', {}, title));
      holder.append(box);
      const plot = new window.uPlot({
        width: 380, height: 170, legend: { show: true, live: false },
        scales: { x: { time: true } },
        series: [{}, ...tools.map((t, i) => ({ label: t, stroke: COLORS[i], width: 2, spanGaps: true }))],
        axes: [{}, { size: 50 }],
      }, data, box);
      live.charts[title] = { plot, key, box };
    }
  }

  function renderLive(snapshot) {
    renderCharts(snapshot);
    const tools = snapshot.tools.map((t) => ({
      tool: t.tool, calls: t.calls, errors: t.errors,
      'error rate': t.calls ? (100 * t.errors / t.calls).toFixed(1) + '%' : '',
      'p50 ms': t.p50_ms, 'p99 ms': t.p99_ms,
      'cache hit ratio': t.cache_hits + t.cache_misses ? (100 * t.cache_hits / (t.cache_hits + t.cache_misses)).toFixed(1) + '%' : '',
    }));
    clear($('live-tools')).append(tools.length ? table(tools, 1000) : el('p', { class: 'help' }, 'No calls yet.'));
    const recent = snapshot.recent.map((c) => ({
      time: new Date(c.at).toLocaleTimeString(), tool: c.tool, caller: c.caller || '', 'duration ms': c.duration_ms,
      outcome: c.outcome, inputs: c.inputs || '', error: c.error || '',
    }));
    clear($('live-recent')).append(recent.length ? table(recent, 1000) : el('p', { class: 'help' }, 'No calls yet.'));
  }

  // ---- tabs (the ARIA tabs pattern: arrows move between them) ----
  const TABS = ['tools', 'search', 'prompts', 'live'];
  function selectTab(name, focus) {
    for (const tab of TABS) {
      const on = tab === name;
      const button = $('tab-' + tab);
      button.setAttribute('aria-selected', String(on));
      button.tabIndex = on ? 0 : -1;
      $('page-' + tab).hidden = !on;
      if (on && focus) button.focus();
    }
  }

  function start() {
    $('connect').addEventListener('submit', connect);
    $('find-tools').addEventListener('submit', findTools);
    $('search-form').addEventListener('submit', runSearch);
    $('live-form').addEventListener('submit', startLive);
    $('live-stop').addEventListener('click', stopLive);
    for (const tab of TABS) {
      const button = $('tab-' + tab);
      button.addEventListener('click', () => selectTab(tab));
      button.addEventListener('keydown', (event) => {
        const at = TABS.indexOf(tab);
        if (event.key === 'ArrowRight') selectTab(TABS[(at + 1) % TABS.length], true);
        else if (event.key === 'ArrowLeft') selectTab(TABS[(at + TABS.length - 1) % TABS.length], true);
        else return;
        event.preventDefault();
      });
    }
    window.addEventListener('pagehide', endSession);
  }

  start();
}());

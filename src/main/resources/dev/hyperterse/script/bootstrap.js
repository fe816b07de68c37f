// Runs once in every script context before the script's module loads. It receives the host
// functions as arguments and keeps them in this closure, so scripts can call console and fetch
// but can never reach the host functions themselves.
(function (hostLog, hostFetch, envJson, hostResolve, hostLoad, lineChars, hostWait, hostBase64, hostClient) {
  'use strict';

  // The intrinsics this closure relies on, taken before any script code runs: a script that
  // replaces JSON.parse, String.prototype methods or Function.prototype.call later changes only
  // its own world, never what the loader or the host helpers do.
  const parse = JSON.parse;
  const stringify = JSON.stringify;
  const apply = Reflect.apply;
  const defineProperty = Object.defineProperty;
  const freeze = Object.freeze;
  const create = Object.create;
  const StringOf = String;
  const ErrorOf = Error;
  const uncurry = (f) => (self, ...args) => apply(f, self, args);
  const substring = uncurry(String.prototype.substring);
  const lastIndexOf = uncurry(String.prototype.lastIndexOf);

  // CommonJS, for packages that are not ES modules: Node's module object, require and cache.
  // The host decides everything (which file, JSON or code, parsing, compiling: see
  // CommonJsLoader); this part only calls what it compiled.
  const modules = create(null);
  function host(result) {
    if (typeof result === 'string' && result[0] === '!') {
      throw new ErrorOf(substring(result, 1));
    }
    return result;
  }
  function load(file) {
    const cached = modules[file];
    if (cached !== undefined) {
      return cached.exports;
    }
    const compiled = host(hostLoad(file));
    const module = { exports: {}, id: file, filename: file, loaded: false, children: [] };
    modules[file] = module;
    try {
      const dirname = substring(file, 0, lastIndexOf(file, '/')) || '/';
      apply(compiled, module.exports, [module.exports, requireFrom(file), module, file, dirname, parse]);
    } catch (e) {
      delete modules[file];
      throw e;
    }
    module.loaded = true;
    return module.exports;
  }
  function requireFrom(parent) {
    const resolve = (specifier) => host(hostResolve(StringOf(specifier), parent));
    const require = (specifier) => load(resolve(specifier));
    require.resolve = resolve;
    require.cache = create(null);
    return require;
  }

  function text(value) {
    if (typeof value === 'string') {
      return value;
    }
    if (value instanceof Error) {
      return String(value);
    }
    try {
      const json = stringify(value);
      return json === undefined ? String(value) : json;
    } catch (e) {
      return String(value);
    }
  }
  // The host writes at most lineChars of a line: reading more of a long argument, or formatting
  // arguments past that, would only cost time.
  function logger(level) {
    return function (...args) {
      let line = '';
      for (let i = 0; i < args.length && line.length <= lineChars; i++) {
        const part = StringOf(text(args[i]));
        line += (i === 0 ? '' : ' ') + (part.length > lineChars ? substring(part, 0, lineChars + 1) : part);
      }
      hostLog(level, line);
    };
  }
  const console = freeze({
    log: logger('info'), info: logger('info'), debug: logger('debug'), trace: logger('debug'),
    warn: logger('warn'), error: logger('error'),
  });

  function headerObject(json) {
    const headers = parse(json);
    defineProperty(headers, 'get', {
      value: (name) => {
        const v = headers[String(name).toLowerCase()];
        return v === undefined ? null : v;
      },
    });
    defineProperty(headers, 'has', {
      value: (name) => Object.prototype.hasOwnProperty.call(headers, String(name).toLowerCase()),
    });
    return freeze(headers);
  }
  function requestHeaders(given) {
    const out = {};
    if (given == null) {
      return out;
    }
    const entries = typeof given.entries === 'function' && Object.getPrototypeOf(given) !== Object.prototype
      ? Array.from(given.entries()) : Object.entries(given);
    for (const [name, value] of entries) {
      out[String(name)] = String(value);
    }
    return out;
  }
  // fetch works both ways: Hyperterse's handlers use it synchronously (const r = fetch(u);
  // if (!r.ok) …; r.json()), the web's way awaits it (await fetch(u), fetch(u).then(…)). The
  // request starts at once either way, so awaited requests still run side by side; reading a
  // property of the result before it arrived waits for it on this call's worker thread (never an
  // event loop) while the call's other work (other responses) goes on, within the call's time.
  const promiseThen = uncurry(Promise.prototype.then);
  const promiseCatch = uncurry(Promise.prototype.catch);
  const promiseFinally = uncurry(Promise.prototype.finally);
  const PromiseOf = Promise;
  const TypeErrorOf = TypeError;
  function response(status, statusText, headersJson, responseText, finalUrl, readsReturnPromises) {
    let used = false;
    const read = () => {
      if (readsReturnPromises && used) {
        return PromiseOf.reject(new TypeErrorOf('fetch: the response body was already read'));
      }
      used = true;
      return readsReturnPromises ? PromiseOf.resolve(responseText) : responseText;
    };
    return freeze({
      url: finalUrl, status, statusText, ok: status >= 200 && status < 300,
      headers: headerObject(headersJson),
      get bodyUsed() { return used; },
      text: read,
      json: readsReturnPromises ? () => promiseThen(read(), (t) => parse(t)) : () => parse(read()),
    });
  }
  function fetch(resource, init) {
    const options = init == null ? {} : init;
    const url = typeof resource === 'object' && resource !== null && 'url' in resource ? resource.url : resource;
    const method = String(options.method == null ? 'GET' : options.method).toUpperCase();
    let body = options.body;
    if (body != null && typeof body !== 'string') {
      body = stringify(body);
    }
    // the answer as received; the synchronous view of it is built only if the script reads one
    const state = { done: false, failed: false, answer: null, sync: null, error: null };
    let settle;
    const promise = new PromiseOf((resolve, reject) => {
      settle = { resolve, reject };
    });
    // a caller using the result synchronously never attaches a handler: no unhandled rejection then
    promiseCatch(promise, () => {});
    hostFetch(String(url), method, stringify(requestHeaders(options.headers)), body == null ? null : body,
      (status, statusText, headersJson, responseText, finalUrl) => {
        state.done = true;
        state.answer = [status, statusText, headersJson, responseText, finalUrl];
        settle.resolve(response(status, statusText, headersJson, responseText, finalUrl, true));
      },
      (message) => {
        state.done = true;
        state.failed = true;
        state.error = new TypeErrorOf('fetch failed: ' + message);
        settle.reject(state.error);
      });
    const arrived = () => {
      if (!state.done && !hostWait(() => state.done)) {
        throw new TypeErrorOf('fetch failed: the script\'s time is up');
      }
      if (state.failed) {
        throw state.error;
      }
      if (state.sync === null) {
        const a = state.answer;
        state.sync = response(a[0], a[1], a[2], a[3], a[4], false);
      }
      return state.sync;
    };
    return freeze({
      get url() { return arrived().url; },
      get status() { return arrived().status; },
      get statusText() { return arrived().statusText; },
      get ok() { return arrived().ok; },
      get headers() { return arrived().headers; },
      get bodyUsed() { return arrived().bodyUsed; },
      text: () => arrived().text(),
      json: () => arrived().json(),
      then: (onFulfilled, onRejected) => promiseThen(promise, onFulfilled, onRejected),
      catch: (onRejected) => promiseCatch(promise, onRejected),
      finally: (onFinally) => promiseFinally(promise, onFinally),
    });
  }

  const define = (name, value) => defineProperty(globalThis, name,
    { value, writable: true, configurable: true, enumerable: false });
  // What a script throws to have its message shown to the caller as it is, whatever
  // tools.expose_script_errors says: the tool's own words about why it cannot answer.
  class ToolError extends ErrorOf {
    constructor(message, options) {
      super(message, options);
      this.name = 'ToolError';
    }
  }
  define('ToolError', ToolError);
  define('console', console);
  define('fetch', fetch);
  define('process', freeze({ env: freeze(parse(envJson)) }));
  // What CommonJS facades (ES modules standing in for CommonJS packages) load their file with: a
  // require of an absolute path, which the host resolves and checks like any other. Fixed in
  // place (not writable, not configurable), so no script can swap it under a facade.
  defineProperty(globalThis, '__hyperterse_require', { value: requireFrom(null) });
  // Java.type is refused anyway (no host access); removing the object makes the refusal plain.
  delete globalThis.Java;

  // ---- what a tool may return besides rows: MCP content (docs/scripts.md#results) ----
  // Only values these helpers made count as content: a genuine value is in this set, which no
  // script can reach, so data a handler passes on (a fetched JSON body) can never pose as content.
  const genuine = new WeakSet();
  const isGenuine = uncurry(WeakSet.prototype.has);
  const markGenuine = uncurry(WeakSet.prototype.add);
  const isArray = Array.isArray;
  const isView = ArrayBuffer.isView;
  const ArrayBufferOf = ArrayBuffer;
  const test = uncurry(RegExp.prototype.test);
  const toLowerCase = uncurry(String.prototype.toLowerCase);
  const encodeComponent = encodeURIComponent;
  const MEDIA_TYPE = /^[A-Za-z0-9][A-Za-z0-9!#$&^_.+-]*\/[A-Za-z0-9][A-Za-z0-9!#$&^_.+-]*$/;
  function shownValue(value) {
    return typeof value === 'string' ? stringify(substring(value, 0, 40)) : StringOf(typeof value);
  }
  function mediaType(given, family, helper) {
    if (typeof given !== 'string' || !test(MEDIA_TYPE, given)) {
      throw new TypeErrorOf(helper + ': mimeType must be a media type such as '
        + (family || 'application') + '/' + (family === 'audio' ? 'wav' : 'png') + ', not ' + shownValue(given));
    }
    if (family !== null && substring(toLowerCase(given), 0, family.length + 1) !== family + '/') {
      throw new TypeErrorOf(helper + ': mimeType must be an ' + family + '/… type, not ' + shownValue(given));
    }
    return given;
  }
  // bytes go to the host in one piece and come back as base64: no per-byte work in the script
  function base64Of(data, helper) {
    if (typeof data === 'string') {
      return data; // already base64: the server checks it
    }
    if (data instanceof ArrayBufferOf) {
      return hostBase64(data, 0, data.byteLength);
    }
    if (isView(data)) {
      return hostBase64(data.buffer, data.byteOffset, data.byteLength);
    }
    throw new TypeErrorOf(helper + ': data must be a Uint8Array, an ArrayBuffer or a base64 string, not '
      + shownValue(data));
  }
  function content(block) {
    const value = freeze(block);
    markGenuine(genuine, value);
    return value;
  }
  function optionText(options, key, out) {
    if (options[key] != null) {
      out[key] = StringOf(options[key]);
    }
  }
  function Image(data, mimeType) {
    return content({ type: 'image', data: base64Of(data, 'Image'), mimeType: mediaType(mimeType, 'image', 'Image') });
  }
  function Audio(data, mimeType) {
    return content({ type: 'audio', data: base64Of(data, 'Audio'), mimeType: mediaType(mimeType, 'audio', 'Audio') });
  }
  function Text(text) {
    return content({ type: 'text', text: StringOf(text) });
  }
  // a file-like result embedded in the answer; its uri names it (attachment:<name> unless given)
  function BlobResource(data, mimeType, nameOrOptions) {
    const options = typeof nameOrOptions === 'string' ? { name: nameOrOptions } : (nameOrOptions == null ? {} : nameOrOptions);
    const uri = options.uri != null ? StringOf(options.uri)
      : 'attachment:' + encodeComponent(options.name != null ? StringOf(options.name) : 'blob');
    return content({ type: 'resource', resource: freeze({ uri, mimeType: mediaType(mimeType, null, 'BlobResource'),
      blob: base64Of(data, 'BlobResource') }) });
  }
  // a text document in the answer (an embedded text resource)
  function TextResource(text, mimeType, nameOrOptions) {
    const options = typeof nameOrOptions === 'string' ? { name: nameOrOptions } : (nameOrOptions == null ? {} : nameOrOptions);
    const uri = options.uri != null ? StringOf(options.uri)
      : 'attachment:' + encodeComponent(options.name != null ? StringOf(options.name) : 'text');
    return content({ type: 'resource', resource: freeze({ uri,
      mimeType: mimeType == null ? 'text/plain' : mediaType(mimeType, null, 'TextResource'), text: StringOf(text) }) });
  }
  function ResourceLink(uri, options) {
    const given = options == null ? {} : options;
    const link = { type: 'resource_link', uri: StringOf(uri), name: given.name != null ? StringOf(given.name) : StringOf(uri) };
    optionText(given, 'title', link);
    optionText(given, 'description', link);
    if (given.mimeType != null) {
      link.mimeType = mediaType(given.mimeType, null, 'ResourceLink');
    }
    if (given.size != null) {
      if (typeof given.size !== 'number' || !(given.size >= 0) || given.size % 1 !== 0) {
        throw new TypeErrorOf('ResourceLink: size must be a whole number of bytes, not ' + shownValue(given.size));
      }
      link.size = given.size;
    }
    return content(link);
  }
  define('Image', Image);
  define('Audio', Audio);
  define('Text', Text);
  define('BlobResource', BlobResource);
  define('TextResource', TextResource);
  define('ResourceLink', ResourceLink);

  // ---- ctx: the call's way back to the client (docs/scripts.md#context) ----
  const LOG_LEVELS = freeze(['debug', 'info', 'notice', 'warning', 'error', 'critical', 'alert', 'emergency']);
  const includes = uncurry(Array.prototype.includes);
  function hostCall(kind, params, onAnswer, onFailure, key) {
    return host(hostClient(kind, stringify(params), onAnswer, onFailure, key == null ? null : StringOf(key)));
  }
  function ask(kind, params, key) {
    let settle;
    const promise = new PromiseOf((resolve, reject) => {
      settle = { resolve, reject };
    });
    hostCall(kind, params, (json) => settle.resolve(parse(json)), (message) => settle.reject(new ErrorOf(message)), key);
    return promise;
  }
  function finite(value, what) {
    if (typeof value !== 'number' || !(value === value) || value === Infinity || value === -Infinity) {
      throw new TypeErrorOf('ctx.progress: ' + what + ' must be a finite number, not ' + shownValue(value));
    }
    return value;
  }
  const ctx = freeze({
    log(level, message, data) {
      const name = StringOf(level);
      if (!includes(LOG_LEVELS, name)) {
        throw new TypeErrorOf('ctx.log: level must be one of ' + LOG_LEVELS.join(', ') + ', not ' + shownValue(level));
      }
      const params = { level: name, message: StringOf(message) };
      if (data !== undefined) {
        params.data = data;
      }
      hostCall('log', params, null, null);
    },
    progress(done, total, message) {
      const params = { progress: finite(done, 'done') };
      if (total != null) {
        params.total = finite(total, 'total');
      }
      if (message != null) {
        params.message = StringOf(message);
      }
      hostCall('progress', params, null, null);
    },
    readResource(uri) {
      return ask('readResource', { uri: StringOf(uri) });
    },
    elicit(message, requestedSchema, options) {
      return ask('elicit', { message: StringOf(message), requestedSchema: requestedSchema == null ? {} : requestedSchema },
        options == null ? null : options.key);
    },
    sample(messages, options) {
      const given = options == null ? {} : options;
      const params = {};
      for (const name of Object.keys(given)) {
        if (name !== 'key') {
          params[name] = given[name];
        }
      }
      params.messages = typeof messages === 'string'
        ? [{ role: 'user', content: { type: 'text', text: messages } }] : messages;
      return ask('sample', params, given.key);
    },
  });

  // The host's own helpers, made before any script code runs, so a script that replaces
  // JSON.parse or Promise.prototype.then changes only its own world.
  const toJson = (value) => {
    const json = stringify(value);
    return json === undefined ? null : json;
  };
  const isContent = (value) => value !== null && typeof value === 'object' && isGenuine(genuine, value);
  // A result with content in it (a helper's value, or an array holding one) goes back as the
  // content blocks, marked by a first character no JSON text starts with; anything else as JSON.
  const CONTENT_MARK = '\u0001';
  const resultOf = (value) => {
    if (isContent(value)) {
      return CONTENT_MARK + stringify([value]);
    }
    if (isArray(value)) {
      let mixed = false;
      for (let i = 0; i < value.length && !mixed; i++) {
        mixed = isContent(value[i]);
      }
      if (mixed) {
        const blocks = [];
        for (let i = 0; i < value.length; i++) {
          const item = value[i];
          blocks[i] = isContent(item) ? item : { type: 'text', text: typeof item === 'string' ? item
            : StringOf(toJson(item)) };
        }
        return CONTENT_MARK + stringify(blocks);
      }
    }
    return toJson(value);
  };
  const isThenable = (value) => value !== null && (typeof value === 'object' || typeof value === 'function')
    && typeof value.then === 'function';
  return freeze({
    // One host call per script call: the payload goes in as JSON text, with ctx beside it (not
    // enumerable: code that copies or serializes its argument sees the payload only), and the
    // result comes back as JSON text (or null), or as the promise to await.
    invoke: (fn, payloadJson) => {
      const argument = parse(payloadJson);
      defineProperty(argument, 'ctx', { value: ctx });
      const result = fn(argument);
      return isThenable(result) ? result : resultOf(result);
    },
    toJson: resultOf,
    toolErrorMessage: (error) => error instanceof ToolError ? StringOf(error.message) : null,
    describe: (error) => error instanceof Error ? String(error.name || 'Error') + ': ' + String(error.message)
      : text(error),
  });
})

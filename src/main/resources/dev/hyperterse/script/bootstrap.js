// Runs once in every script context before the script's module loads. It receives the host
// functions as arguments and keeps them in this closure, so scripts can call console and fetch
// but can never reach the host functions themselves.
(function (hostLog, hostFetch, envJson, hostResolve, hostLoad, lineChars, hostWait) {
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

  // The host's own helpers, made before any script code runs, so a script that replaces
  // JSON.parse or Promise.prototype.then changes only its own world.
  const toJson = (value) => {
    const json = stringify(value);
    return json === undefined ? null : json;
  };
  const isThenable = (value) => value !== null && (typeof value === 'object' || typeof value === 'function')
    && typeof value.then === 'function';
  return freeze({
    // One host call per script call: the payload goes in as JSON text, and the result comes back
    // as JSON text (or null), or as the promise to await.
    invoke: (fn, payloadJson) => {
      const result = fn(parse(payloadJson));
      return isThenable(result) ? result : toJson(result);
    },
    toJson,
    toolErrorMessage: (error) => error instanceof ToolError ? StringOf(error.message) : null,
    describe: (error) => error instanceof Error ? String(error.name || 'Error') + ': ' + String(error.message)
      : text(error),
  });
})

// Runs once in every script context before the script's module loads. It receives the host
// functions as arguments and keeps them in this closure, so scripts can call console and fetch
// but can never reach the host functions themselves.
(function (hostLog, hostFetch, envJson, hostResolve, hostCompile, hostReadJson) {
  'use strict';

  // CommonJS, for packages that are not ES modules: Node's module object, require and cache.
  // The host resolves (relative files, node_modules) and compiles, only inside the project.
  const modules = new Map();
  function host(result) {
    if (typeof result === 'string' && result.startsWith('!')) {
      throw new Error(result.substring(1));
    }
    return result;
  }
  function load(file) {
    const cached = modules.get(file);
    if (cached !== undefined) {
      return cached.exports;
    }
    const module = { exports: {}, id: file, filename: file, loaded: false, children: [] };
    modules.set(file, module);
    try {
      if (file.endsWith('.json')) {
        module.exports = JSON.parse(host(hostReadJson(file)));
      } else {
        const dirname = file.substring(0, file.lastIndexOf('/')) || '/';
        host(hostCompile(file)).call(module.exports, module.exports, requireFrom(file), module, file, dirname);
      }
    } catch (e) {
      modules.delete(file);
      throw e;
    }
    module.loaded = true;
    return module.exports;
  }
  function requireFrom(parent) {
    const require = (specifier) => load(host(hostResolve(String(specifier), parent)));
    require.resolve = (specifier) => host(hostResolve(String(specifier), parent));
    require.cache = Object.create(null);
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
      const json = JSON.stringify(value);
      return json === undefined ? String(value) : json;
    } catch (e) {
      return String(value);
    }
  }
  function logger(level) {
    return function (...args) {
      hostLog(level, args.map(text).join(' '));
    };
  }
  const console = Object.freeze({
    log: logger('info'), info: logger('info'), debug: logger('debug'), trace: logger('debug'),
    warn: logger('warn'), error: logger('error'),
  });

  function headerObject(json) {
    const headers = JSON.parse(json);
    Object.defineProperty(headers, 'get', {
      value: (name) => {
        const v = headers[String(name).toLowerCase()];
        return v === undefined ? null : v;
      },
    });
    Object.defineProperty(headers, 'has', {
      value: (name) => Object.prototype.hasOwnProperty.call(headers, String(name).toLowerCase()),
    });
    return Object.freeze(headers);
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
  function fetch(resource, init) {
    const options = init == null ? {} : init;
    const url = typeof resource === 'object' && resource !== null && 'url' in resource ? resource.url : resource;
    const method = String(options.method == null ? 'GET' : options.method).toUpperCase();
    let body = options.body;
    if (body != null && typeof body !== 'string') {
      body = JSON.stringify(body);
    }
    return new Promise((resolve, reject) => {
      hostFetch(String(url), method, JSON.stringify(requestHeaders(options.headers)), body == null ? null : body,
        (status, statusText, headersJson, responseText, finalUrl) => {
          let used = false;
          const read = () => {
            if (used) {
              return Promise.reject(new TypeError('fetch: the response body was already read'));
            }
            used = true;
            return Promise.resolve(responseText);
          };
          resolve(Object.freeze({
            url: finalUrl, status, statusText, ok: status >= 200 && status < 300,
            headers: headerObject(headersJson),
            get bodyUsed() { return used; },
            text: read,
            json: () => read().then((t) => JSON.parse(t)),
          }));
        },
        (message) => reject(new TypeError('fetch failed: ' + message)));
    });
  }

  const define = (name, value) => Object.defineProperty(globalThis, name,
    { value, writable: true, configurable: true, enumerable: false });
  define('console', console);
  define('fetch', fetch);
  define('process', Object.freeze({ env: Object.freeze(JSON.parse(envJson)) }));
  // What CommonJS facades (ES modules standing in for CommonJS packages) load their file with.
  Object.defineProperty(globalThis, '__hyperterse_require', { value: load });
  // Java.type is refused anyway (no host access); removing the object makes the refusal plain.
  delete globalThis.Java;

  // The host's own helpers, taken before any script code runs, so a script that replaces
  // JSON.parse or Promise.prototype.then changes only its own world.
  const parse = JSON.parse;
  const stringify = JSON.stringify;
  const toJson = (value) => {
    const json = stringify(value);
    return json === undefined ? null : json;
  };
  const isThenable = (value) => value !== null && (typeof value === 'object' || typeof value === 'function')
    && typeof value.then === 'function';
  return Object.freeze({
    // One host call per script call: the payload goes in as JSON text, and the result comes back
    // as JSON text (or null), or as the promise to await.
    invoke: (fn, payloadJson) => {
      const result = fn(parse(payloadJson));
      return isThenable(result) ? result : toJson(result);
    },
    toJson,
    describe: (error) => error instanceof Error ? String(error.name || 'Error') + ': ' + String(error.message)
      : text(error),
  });
})

// The web platform globals npm packages assume (uuid, nanoid, jose, date libraries…), defined once
// in every script context after the bootstrap and before the script's module loads. Randomness
// and digests come from the JDK (SecureRandom, MessageDigest) through the host functions this
// closure keeps; the rest is plain JavaScript. Intrinsics are taken before any script code runs.
(function (hostRandomBytes, hostDigest, hostSetTimer, hostClearTimer, maxPendingTimers) {
  'use strict';
  const defineProperty = Object.defineProperty;
  const freeze = Object.freeze;
  const fromCharCode = String.fromCharCode;
  const apply = Reflect.apply;
  const uncurry = (f) => (self, ...args) => apply(f, self, args);
  const charCodeAt = uncurry(String.prototype.charCodeAt);
  const codePointAt = uncurry(String.prototype.codePointAt);
  const PromiseOf = Promise;
  const TypeErrorOf = TypeError;
  const ErrorOf = Error;
  const Uint8ArrayOf = Uint8Array;
  const ArrayBufferOf = ArrayBuffer;
  const isView = ArrayBuffer.isView;

  const define = (name, value) => defineProperty(globalThis, name,
    { value, writable: true, configurable: true, enumerable: false });

  // ---- bytes ----
  /** A Uint8Array over the bytes of an ArrayBuffer, a typed array or a DataView (no copy). */
  function bytesOf(data, what) {
    if (data instanceof ArrayBufferOf) {
      return new Uint8ArrayOf(data);
    }
    if (isView(data)) {
      return new Uint8ArrayOf(data.buffer, data.byteOffset, data.byteLength);
    }
    throw new TypeErrorOf(what + ': expected an ArrayBuffer, a typed array or a DataView');
  }

  // ---- crypto ----
  const integerArrays = [Int8Array, Uint8Array, Uint8ClampedArray, Int16Array, Uint16Array, Int32Array,
    Uint32Array, BigInt64Array, BigUint64Array];
  function getRandomValues(array) {
    if (!integerArrays.some((type) => array instanceof type)) {
      throw new TypeErrorOf('crypto.getRandomValues: expected an integer typed array');
    }
    if (array.byteLength > 65536) {
      const e = new ErrorOf('crypto.getRandomValues: at most 65536 bytes at a time, got ' + array.byteLength);
      e.name = 'QuotaExceededError';
      throw e;
    }
    const target = new Uint8ArrayOf(array.buffer, array.byteOffset, array.byteLength);
    const random = hostRandomBytes(array.byteLength);
    for (let i = 0; i < target.length; i++) {
      target[i] = random[i];
    }
    return array;
  }
  const hex = [];
  for (let i = 0; i < 256; i++) {
    hex.push((i + 0x100).toString(16).substring(1));
  }
  function randomUUID() {
    const b = getRandomValues(new Uint8ArrayOf(16));
    b[6] = (b[6] & 0x0f) | 0x40;
    b[8] = (b[8] & 0x3f) | 0x80;
    let s = '';
    for (let i = 0; i < 16; i++) {
      s += hex[b[i]];
      if (i === 3 || i === 5 || i === 7 || i === 9) {
        s += '-';
      }
    }
    return s;
  }
  const DIGESTS = { 'SHA-1': 'SHA-1', 'SHA-256': 'SHA-256', 'SHA-384': 'SHA-384', 'SHA-512': 'SHA-512' };
  function digest(algorithm, data) {
    try {
      const name = typeof algorithm === 'string' ? algorithm : algorithm && algorithm.name;
      const java = DIGESTS[String(name).toUpperCase()];
      if (java === undefined) {
        const e = new ErrorOf('crypto.subtle.digest: unsupported algorithm ' + String(name)
          + ' (SHA-1, SHA-256, SHA-384 and SHA-512 are)');
        e.name = 'NotSupportedError';
        throw e;
      }
      const input = bytesOf(data, 'crypto.subtle.digest');
      const plain = new Array(input.length);
      for (let i = 0; i < input.length; i++) {
        plain[i] = input[i];
      }
      const out = hostDigest(java, plain);
      const result = new Uint8ArrayOf(out.length);
      for (let i = 0; i < out.length; i++) {
        result[i] = out[i];
      }
      return PromiseOf.resolve(result.buffer);
    } catch (e) {
      return PromiseOf.reject(e);
    }
  }
  define('crypto', freeze({ getRandomValues, randomUUID, subtle: freeze({ digest }) }));

  // ---- text ----
  class TextEncoder {
    get encoding() { return 'utf-8'; }
    encode(input = '') {
      const s = String(input);
      const out = [];
      for (let i = 0; i < s.length; i++) {
        let c = codePointAt(s, i);
        if (c >= 0xd800 && c <= 0xdfff) {
          c = 0xfffd; // a lone surrogate
        } else if (c > 0xffff) {
          i++;
        }
        if (c < 0x80) {
          out.push(c);
        } else if (c < 0x800) {
          out.push(0xc0 | (c >> 6), 0x80 | (c & 0x3f));
        } else if (c < 0x10000) {
          out.push(0xe0 | (c >> 12), 0x80 | ((c >> 6) & 0x3f), 0x80 | (c & 0x3f));
        } else {
          out.push(0xf0 | (c >> 18), 0x80 | ((c >> 12) & 0x3f), 0x80 | ((c >> 6) & 0x3f), 0x80 | (c & 0x3f));
        }
      }
      return new Uint8ArrayOf(out);
    }
  }
  class TextDecoder {
    constructor(label = 'utf-8', options = {}) {
      const name = String(label).toLowerCase();
      if (name !== 'utf-8' && name !== 'utf8' && name !== 'unicode-1-1-utf-8') {
        throw new RangeError('TextDecoder: only utf-8 is supported, got ' + label);
      }
      this.fatal = Boolean(options && options.fatal);
    }
    get encoding() { return 'utf-8'; }
    decode(input) {
      if (input === undefined) {
        return '';
      }
      const b = bytesOf(input, 'TextDecoder.decode');
      let out = '';
      let i = b.length >= 3 && b[0] === 0xef && b[1] === 0xbb && b[2] === 0xbf ? 3 : 0;
      const bad = () => {
        if (this.fatal) {
          throw new TypeErrorOf('TextDecoder: the data is not valid UTF-8');
        }
        return 0xfffd;
      };
      const cont = (k) => k < b.length && (b[k] & 0xc0) === 0x80;
      while (i < b.length) {
        const x = b[i];
        let c;
        if (x < 0x80) {
          c = x;
          i += 1;
        } else if (x >= 0xc2 && x < 0xe0 && cont(i + 1)) {
          c = ((x & 0x1f) << 6) | (b[i + 1] & 0x3f);
          i += 2;
        } else if (x >= 0xe0 && x < 0xf0 && cont(i + 1) && cont(i + 2)) {
          c = ((x & 0x0f) << 12) | ((b[i + 1] & 0x3f) << 6) | (b[i + 2] & 0x3f);
          c = c < 0x800 || (c >= 0xd800 && c <= 0xdfff) ? bad() : c;
          i += 3;
        } else if (x >= 0xf0 && x < 0xf5 && cont(i + 1) && cont(i + 2) && cont(i + 3)) {
          c = ((x & 0x07) << 18) | ((b[i + 1] & 0x3f) << 12) | ((b[i + 2] & 0x3f) << 6) | (b[i + 3] & 0x3f);
          c = c < 0x10000 || c > 0x10ffff ? bad() : c;
          i += 4;
        } else {
          c = bad();
          i += 1;
        }
        if (c > 0xffff) {
          c -= 0x10000;
          out += fromCharCode(0xd800 + (c >> 10), 0xdc00 + (c & 0x3ff));
        } else {
          out += fromCharCode(c);
        }
      }
      return out;
    }
  }
  define('TextEncoder', TextEncoder);
  define('TextDecoder', TextDecoder);

  // ---- base64 (atob/btoa: strings of bytes, as in browsers) ----
  const ALPHABET = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/';
  const invalidCharacter = (what) => {
    const e = new ErrorOf(what);
    e.name = 'InvalidCharacterError';
    return e;
  };
  function btoa(data) {
    const s = String(data);
    let out = '';
    for (let i = 0; i < s.length; i += 3) {
      const a = charCodeAt(s, i);
      const b = i + 1 < s.length ? charCodeAt(s, i + 1) : 0;
      const c = i + 2 < s.length ? charCodeAt(s, i + 2) : 0;
      if (a > 255 || b > 255 || c > 255) {
        throw invalidCharacter('btoa: the string has characters outside Latin-1');
      }
      out += ALPHABET[a >> 2] + ALPHABET[((a & 3) << 4) | (b >> 4)]
        + (i + 1 < s.length ? ALPHABET[((b & 15) << 2) | (c >> 6)] : '=')
        + (i + 2 < s.length ? ALPHABET[c & 63] : '=');
    }
    return out;
  }
  function atob(data) {
    let s = String(data).replace(/[\t\n\f\r ]/g, '');
    if (s.length % 4 === 0) {
      s = s.replace(/==?$/, '');
    }
    if (s.length % 4 === 1 || /[^A-Za-z0-9+/]/.test(s)) {
      throw invalidCharacter('atob: the string is not valid base64');
    }
    let out = '';
    let bits = 0;
    let value = 0;
    for (let i = 0; i < s.length; i++) {
      value = (value << 6) | ALPHABET.indexOf(s[i]);
      bits += 6;
      if (bits >= 8) {
        bits -= 8;
        out += fromCharCode((value >> bits) & 0xff);
      }
    }
    return out;
  }
  define('btoa', btoa);
  define('atob', atob);

  // ---- URLSearchParams and URL ----
  const decodeForm = (s) => {
    try {
      return decodeURIComponent(s.replace(/\+/g, ' '));
    } catch (e) {
      return s;
    }
  };
  const encodeForm = (s) => encodeURIComponent(s).replace(/%20/g, '+')
    .replace(/[!'()~]/g, (c) => '%' + charCodeAt(c, 0).toString(16).toUpperCase());
  class URLSearchParams {
    constructor(init = '') {
      defineProperty(this, '_list', { value: [], writable: true });
      defineProperty(this, '_url', { value: null, writable: true });
      if (init instanceof URLSearchParams) {
        this._list = init._list.map((pair) => [pair[0], pair[1]]);
      } else if (typeof init === 'object' && init !== null) {
        const pairs = typeof init[Symbol.iterator] === 'function' ? Array.from(init) : Object.entries(init);
        for (const pair of pairs) {
          if (pair.length !== 2) {
            throw new TypeErrorOf('URLSearchParams: each pair must have a name and a value');
          }
          this._list.push([String(pair[0]), String(pair[1])]);
        }
      } else {
        this._parse(String(init));
      }
    }
    _parse(text) {
      this._list = [];
      const s = text[0] === '?' ? text.substring(1) : text;
      for (const part of s.split('&')) {
        if (part === '') {
          continue;
        }
        const eq = part.indexOf('=');
        this._list.push(eq < 0 ? [decodeForm(part), ''] : [decodeForm(part.substring(0, eq)),
          decodeForm(part.substring(eq + 1))]);
      }
    }
    _changed() {
      if (this._url !== null) {
        const query = this.toString();
        this._url._query = query === '' ? '' : '?' + query;
      }
    }
    get size() { return this._list.length; }
    append(name, value) { this._list.push([String(name), String(value)]); this._changed(); }
    delete(name) { this._list = this._list.filter((p) => p[0] !== String(name)); this._changed(); }
    get(name) { const p = this._list.find((q) => q[0] === String(name)); return p === undefined ? null : p[1]; }
    getAll(name) { return this._list.filter((p) => p[0] === String(name)).map((p) => p[1]); }
    has(name) { return this._list.some((p) => p[0] === String(name)); }
    set(name, value) {
      const n = String(name);
      const i = this._list.findIndex((p) => p[0] === n);
      if (i < 0) {
        this._list.push([n, String(value)]);
      } else {
        this._list[i][1] = String(value);
        this._list = this._list.filter((p, k) => k <= i || p[0] !== n);
      }
      this._changed();
    }
    sort() { this._list.sort((a, b) => (a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : 0)); this._changed(); }
    forEach(fn, self) { for (const [k, v] of this._list) { apply(fn, self, [v, k, this]); } }
    keys() { return this._list.map((p) => p[0])[Symbol.iterator](); }
    values() { return this._list.map((p) => p[1])[Symbol.iterator](); }
    entries() { return this._list.map((p) => [p[0], p[1]])[Symbol.iterator](); }
    [Symbol.iterator]() { return this.entries(); }
    toString() { return this._list.map((p) => encodeForm(p[0]) + '=' + encodeForm(p[1])).join('&'); }
  }

  const SPECIAL_PORTS = { 'http:': '80', 'https:': '443', 'ws:': '80', 'wss:': '443', 'ftp:': '21' };
  const ABSOLUTE = /^([A-Za-z][A-Za-z0-9+.-]*:)(\/\/([^/?#]*))?([^?#]*)(\?[^#]*)?(#.*)?$/;
  function removeDots(path) {
    const out = [];
    const segments = path.split('/');
    for (let i = 0; i < segments.length; i++) {
      const seg = segments[i];
      if (seg === '..') {
        if (out.length > 1) {
          out.pop();
        }
        if (i === segments.length - 1) {
          out.push('');
        }
      } else if (seg === '.') {
        if (i === segments.length - 1) {
          out.push('');
        }
      } else {
        out.push(seg);
      }
    }
    return out.join('/');
  }
  class URL {
    constructor(input, base) {
      let text = String(input).trim();
      if (base !== undefined && !/^[A-Za-z][A-Za-z0-9+.-]*:/.test(text)) {
        const b = new URL(base);
        if (text.startsWith('//')) {
          text = b.protocol + text;
        } else if (text.startsWith('/')) {
          text = b.origin + text;
        } else if (text.startsWith('?')) {
          text = b.origin + b.pathname + text;
        } else if (text.startsWith('#')) {
          text = b.origin + b.pathname + b.search + text;
        } else if (text === '') {
          text = b.origin + b.pathname + b.search;
        } else {
          text = b.origin + b.pathname.substring(0, b.pathname.lastIndexOf('/') + 1) + text;
        }
      }
      const m = ABSOLUTE.exec(text);
      if (m === null) {
        throw new TypeErrorOf('Invalid URL: ' + String(input));
      }
      const protocol = m[1].toLowerCase();
      let username = '';
      let password = '';
      let host = '';
      if (m[2] !== undefined) {
        let authority = m[3];
        const at = authority.lastIndexOf('@');
        if (at >= 0) {
          const info = authority.substring(0, at);
          authority = authority.substring(at + 1);
          const colon = info.indexOf(':');
          username = colon < 0 ? info : info.substring(0, colon);
          password = colon < 0 ? '' : info.substring(colon + 1);
        }
        host = authority.toLowerCase();
        if (host === '' && SPECIAL_PORTS[protocol] !== undefined) {
          throw new TypeErrorOf('Invalid URL: ' + String(input));
        }
      }
      const portMatch = /^(\[[^\]]*\]|[^:]*)(?::(\d*))?$/.exec(host);
      if (portMatch === null) {
        throw new TypeErrorOf('Invalid URL: ' + String(input));
      }
      let port = portMatch[2] === undefined ? '' : portMatch[2];
      if (port === SPECIAL_PORTS[protocol]) {
        port = '';
      }
      defineProperty(this, '_protocol', { value: protocol, writable: true });
      defineProperty(this, '_username', { value: username, writable: true });
      defineProperty(this, '_password', { value: password, writable: true });
      defineProperty(this, '_hostname', { value: portMatch[1], writable: true });
      defineProperty(this, '_port', { value: port, writable: true });
      defineProperty(this, '_special', { value: m[2] !== undefined });
      let path = m[4];
      if (m[2] !== undefined) {
        path = removeDots(path === '' ? '/' : path);
      }
      defineProperty(this, '_path', { value: path, writable: true });
      defineProperty(this, '_query', { value: m[5] === undefined || m[5] === '?' ? '' : m[5], writable: true });
      defineProperty(this, '_fragment', { value: m[6] === undefined || m[6] === '#' ? '' : m[6], writable: true });
      const params = new URLSearchParams(this._query);
      params._url = this;
      defineProperty(this, '_params', { value: params });
    }
    get protocol() { return this._protocol; }
    get username() { return this._username; }
    get password() { return this._password; }
    get hostname() { return this._hostname; }
    set hostname(v) { this._hostname = String(v).toLowerCase(); }
    get port() { return this._port; }
    set port(v) { const p = String(v); this._port = p === SPECIAL_PORTS[this._protocol] ? '' : p; }
    get host() { return this._hostname + (this._port === '' ? '' : ':' + this._port); }
    get origin() {
      return this._special ? this._protocol + '//' + this.host : 'null';
    }
    get pathname() { return this._path; }
    set pathname(v) { const p = String(v); this._path = p.startsWith('/') ? p : '/' + p; }
    get search() { return this._query; }
    set search(v) {
      const s = String(v);
      this._query = s === '' || s === '?' ? '' : s.startsWith('?') ? s : '?' + s;
      this._params._parse(this._query);
    }
    get searchParams() { return this._params; }
    get hash() { return this._fragment; }
    set hash(v) { const h = String(v); this._fragment = h === '' || h === '#' ? '' : h.startsWith('#') ? h : '#' + h; }
    get href() {
      const credentials = this._username === '' && this._password === '' ? ''
        : this._username + (this._password === '' ? '' : ':' + this._password) + '@';
      return this._protocol + (this._special ? '//' + credentials + this.host : '') + this._path
        + this._query + this._fragment;
    }
    toString() { return this.href; }
    toJSON() { return this.href; }
    static canParse(input, base) {
      try {
        new URL(input, base);
        return true;
      } catch (e) {
        return false;
      }
    }
  }
  define('URLSearchParams', URLSearchParams);
  define('URL', URL);

  // ---- structuredClone ----
  function structuredClone(value) {
    const seen = new Map();
    const clone = (v) => {
      if (v === null || typeof v !== 'object') {
        if (typeof v === 'function' || typeof v === 'symbol') {
          const e = new ErrorOf('structuredClone: ' + typeof v + ' values cannot be cloned');
          e.name = 'DataCloneError';
          throw e;
        }
        return v;
      }
      if (seen.has(v)) {
        return seen.get(v);
      }
      let out;
      if (v instanceof Date) {
        out = new Date(v.getTime());
      } else if (v instanceof RegExp) {
        out = new RegExp(v.source, v.flags);
      } else if (v instanceof ArrayBufferOf) {
        out = v.slice(0);
      } else if (isView(v)) {
        out = new v.constructor(v.buffer.slice(v.byteOffset, v.byteOffset + v.byteLength));
      } else if (v instanceof Map) {
        out = new Map();
        seen.set(v, out);
        v.forEach((val, key) => out.set(clone(key), clone(val)));
        return out;
      } else if (v instanceof Set) {
        out = new Set();
        seen.set(v, out);
        v.forEach((val) => out.add(clone(val)));
        return out;
      } else if (v instanceof ErrorOf) {
        out = new ErrorOf(v.message);
        out.name = v.name;
      } else if (Array.isArray(v)) {
        out = [];
        seen.set(v, out);
        for (let i = 0; i < v.length; i++) {
          out[i] = clone(v[i]);
        }
        return out;
      } else {
        out = {};
        seen.set(v, out);
        for (const key of Object.keys(v)) {
          out[key] = clone(v[key]);
        }
        return out;
      }
      seen.set(v, out);
      return out;
    };
    return clone(value);
  }
  define('structuredClone', structuredClone);

  // ---- timers, within a call ----
  // A timer runs on the thread running the call, while the call awaits something; timers still
  // pending when the call ends never run (a call is all a script lives for). A call may have at
  // most maxPendingTimers pending at once.
  const RangeErrorOf = RangeError;
  function setTimeout(fn, delay, ...args) {
    if (typeof fn !== 'function') {
      throw new TypeErrorOf('setTimeout: the callback must be a function');
    }
    const ms = Math.max(0, Math.min(Number(delay) || 0, 2147483647));
    const id = hostSetTimer(ms, () => apply(fn, undefined, args));
    if (id === -2) {
      throw new RangeErrorOf('setTimeout: this call already has ' + maxPendingTimers
        + ' timers pending, the most a call may have (clear the ones it no longer needs with clearTimeout)');
    }
    return id;
  }
  function clearTimeout(id) {
    if (typeof id === 'number') {
      hostClearTimer(id);
    }
  }
  define('setTimeout', setTimeout);
  define('clearTimeout', clearTimeout);
  define('queueMicrotask', (fn) => {
    if (typeof fn !== 'function') {
      throw new TypeErrorOf('queueMicrotask: the callback must be a function');
    }
    PromiseOf.resolve().then(() => fn());
  });
})

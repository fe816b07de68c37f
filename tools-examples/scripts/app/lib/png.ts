// A small PNG encoder: an 8-bit palette image, stored without compression (a chart of a few
// colours is small anyway), so no library is needed. Shared by tools: '../../lib/png.js'.

const CRC_TABLE = (() => {
  const table = new Uint32Array(256);
  for (let n = 0; n < 256; n++) {
    let c = n;
    for (let k = 0; k < 8; k++) {
      c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
    }
    table[n] = c >>> 0;
  }
  return table;
})();

function crc32(bytes: Uint8Array, start: number, end: number): number {
  let c = 0xffffffff;
  for (let i = start; i < end; i++) {
    c = CRC_TABLE[(c ^ bytes[i]) & 0xff] ^ (c >>> 8);
  }
  return (c ^ 0xffffffff) >>> 0;
}

function adler32(bytes: Uint8Array): number {
  let a = 1;
  let b = 0;
  for (let i = 0; i < bytes.length; i++) {
    a = (a + bytes[i]) % 65521;
    b = (b + a) % 65521;
  }
  return ((b << 16) | a) >>> 0;
}

class Writer {
  readonly bytes: Uint8Array;
  at = 0;
  constructor(size: number) {
    this.bytes = new Uint8Array(size);
  }
  u8(v: number) {
    this.bytes[this.at++] = v & 0xff;
  }
  u16le(v: number) {
    this.u8(v);
    this.u8(v >>> 8);
  }
  u32(v: number) {
    this.u8(v >>> 24);
    this.u8(v >>> 16);
    this.u8(v >>> 8);
    this.u8(v);
  }
  ascii(s: string) {
    for (let i = 0; i < s.length; i++) {
      this.u8(s.charCodeAt(i));
    }
  }
  chunk(type: string, write: (w: Writer) => void, length: number) {
    this.u32(length);
    const start = this.at;
    this.ascii(type);
    write(this);
    this.u32(crc32(this.bytes, start, this.at));
  }
}

/** A width × height image of palette indices, encoded as PNG. */
export function encodePng(width: number, height: number, palette: Array<[number, number, number]>,
                          pixels: Uint8Array): Uint8Array {
  const raw = new Uint8Array((width + 1) * height);
  for (let y = 0; y < height; y++) {
    raw[y * (width + 1)] = 0; // filter: none
    raw.set(pixels.subarray(y * width, (y + 1) * width), y * (width + 1) + 1);
  }
  const blocks = Math.max(1, Math.ceil(raw.length / 65535));
  const idatLength = 2 + raw.length + blocks * 5 + 4;
  const w = new Writer(8 + 25 + 12 + palette.length * 3 + 12 + idatLength + 12);
  [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a].forEach((b) => w.u8(b));
  w.chunk('IHDR', (c) => {
    c.u32(width);
    c.u32(height);
    c.u8(8); // bit depth
    c.u8(3); // colour type: palette
    c.u8(0);
    c.u8(0);
    c.u8(0);
  }, 13);
  w.chunk('PLTE', (c) => palette.forEach(([r, g, b]) => {
    c.u8(r);
    c.u8(g);
    c.u8(b);
  }), palette.length * 3);
  w.chunk('IDAT', (c) => {
    c.u8(0x78); // zlib: deflate, 32K window
    c.u8(0x01);
    for (let i = 0; i < blocks; i++) {
      const from = i * 65535;
      const size = Math.min(65535, raw.length - from);
      c.u8(i === blocks - 1 ? 1 : 0); // stored block, final flag on the last
      c.u16le(size);
      c.u16le(~size & 0xffff);
      c.bytes.set(raw.subarray(from, from + size), c.at);
      c.at += size;
    }
    c.u32(adler32(raw));
  }, idatLength);
  w.chunk('IEND', () => {}, 0);
  return w.bytes;
}

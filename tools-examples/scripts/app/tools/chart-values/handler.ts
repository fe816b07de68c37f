import { encodePng } from '../../lib/png.js';

interface Inputs {
  values: number[];
  width: number;
  height: number;
}

// palette indices
const BACKGROUND = 0;
const BAR = 1;
const AXIS = 2;

/** Charts larger than this many pixels are drawn only when the user agrees. */
const LARGE = 1920 * 1080;

export default async function chart({ inputs, ctx }: HyperterseCall<Inputs>) {
  let { width, height } = inputs;
  if (width * height > LARGE) {
    const answer = await ctx.elicit(`Draw a ${width}×${height} chart? That is larger than a screen.`, {
      type: 'object',
      properties: { draw_large: { type: 'boolean', description: 'true: draw it that large; false: 320×160' } },
      required: ['draw_large'],
    });
    if (answer.action !== 'accept') {
      throw new ToolError('not drawn: the user did not confirm the size');
    }
    if (answer.content?.draw_large !== true) {
      width = 320;
      height = 160;
    }
  }
  const values = inputs.values;
  const max = Math.max(...values.map(Math.abs), 1e-9);
  const pixels = new Uint8Array(width * height); // all BACKGROUND
  const base = height - 1;
  for (let x = 0; x < width; x++) {
    pixels[base * width + x] = AXIS;
  }
  const slot = width / values.length;
  for (let i = 0; i < values.length; i++) {
    const barHeight = Math.round((Math.abs(values[i]) / max) * (height - 2));
    const from = Math.floor(i * slot + slot * 0.15);
    const to = Math.max(from + 1, Math.floor((i + 1) * slot - slot * 0.15));
    for (let y = base - barHeight; y < base; y++) {
      pixels.fill(BAR, y * width + from, y * width + to);
    }
    ctx.progress(i + 1, values.length, `bar ${i + 1} of ${values.length}`);
  }
  const png = encodePng(width, height, [[255, 255, 255], [46, 108, 181], [40, 40, 40]], pixels);
  ctx.log('info', `drew ${values.length} bars, ${png.length} bytes`);
  return [
    `A ${width}×${height} bar chart of ${values.length} values (largest ${max}).`,
    Image(png, 'image/png'),
  ];
}

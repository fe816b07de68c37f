import { pause } from '../../lib/media.js';

export default async ({ ctx }: HyperterseCall) => {
  ctx.progress(0, 100);
  await pause(50);
  ctx.progress(50, 100);
  await pause(50);
  ctx.progress(100, 100);
  return 'Progress test completed';
};

import { pause } from '../../lib/media.js';

export default async ({ ctx }: HyperterseCall) => {
  ctx.log('info', 'Tool execution started');
  await pause(50);
  ctx.log('info', 'Tool processing data');
  await pause(50);
  ctx.log('info', 'Tool execution completed');
  return 'Logging test completed';
};

export default async ({ ctx }: HyperterseCall) => {
  const answer = await ctx.elicit('What is your name?', {
    type: 'object', properties: { name: { type: 'string' } }, required: ['name'],
  }, { key: 'user_name' });
  return answer.action === 'accept' ? `Hello, ${answer.content?.name}!` : 'No name given.';
};

export default async ({ ctx }: HyperterseCall) => {
  const answer = await ctx.sample('What is the capital of France?', { maxTokens: 100, key: 'capital_question' });
  return 'Sampling result: ' + (answer.content.text ?? '(no text)');
};

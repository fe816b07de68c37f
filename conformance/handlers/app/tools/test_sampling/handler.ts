export default async ({ inputs, ctx }: HyperterseCall<{ prompt: string }>) => {
  const answer = await ctx.sample(inputs.prompt, { maxTokens: 100 });
  return 'LLM response: ' + (answer.content.text ?? '(no text)');
};

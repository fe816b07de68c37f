export default async ({ inputs, ctx }: HyperterseCall<{ message: string }>) => {
  const answer = await ctx.elicit(inputs.message, {
    type: 'object',
    properties: {
      username: { type: 'string', description: "User's response" },
      email: { type: 'string', description: "User's email address" },
    },
    required: ['username', 'email'],
  });
  return 'User response: action=' + answer.action + (answer.content ? ', content=' + JSON.stringify(answer.content) : '');
};

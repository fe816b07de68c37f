// Input mapper: gets {inputs, tool}, returns the inputs the statement is bound with.
export default function normalize({ inputs }: { inputs: Record<string, unknown>; tool: string }) {
  const email = typeof inputs.email === 'string' ? inputs.email.trim().toLowerCase() : inputs.email;
  return { ...inputs, email };
}

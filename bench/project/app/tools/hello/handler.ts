interface Payload {
  inputs: { customer_id: number };
  tool: string;
}

export default function hello({ inputs, tool }: Payload) {
  return { id: inputs.customer_id, greeting: `hello ${inputs.customer_id}`, tool };
}

export default ({ inputs }: { inputs: { customer_id: number } }) => ({ customer_id: inputs.customer_id });

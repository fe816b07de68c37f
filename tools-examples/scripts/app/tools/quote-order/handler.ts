import { round2, vatRate } from '../../lib/money.js';

interface Payload {
  inputs: { unit_price?: number; quantity: number; country: string };
  tool: string;
}

interface Quote {
  net: number;
  vat_rate: number;
  vat: number;
  gross: number;
  country: string;
}

// Async on purpose: a handler may await (fetch, for instance); the server awaits the promise.
export default async function quote({ inputs }: Payload): Promise<Quote> {
  // declared inputs arrive checked and coerced; a missing required one is the handler's to judge
  if (inputs.unit_price === undefined) {
    throw new Error('unit_price is required');
  }
  if (inputs.unit_price < 0) {
    throw new Error('unit_price must not be negative');
  }
  const net = round2(inputs.unit_price * inputs.quantity);
  const rate = vatRate(inputs.country);
  const vat = round2(net * rate);
  console.info(`quote for ${inputs.quantity} x ${inputs.unit_price} in ${inputs.country}`);
  return { net, vat_rate: rate, vat, gross: round2(net + vat), country: inputs.country.toUpperCase() };
}

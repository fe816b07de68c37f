// Shared by tools: a relative import from a tool folder ('../../lib/money.js' names this file).
export type Currency = 'EUR' | 'USD' | 'GBP';

const VAT: Record<string, number> = { GB: 0.2, NL: 0.21, US: 0 };

export function vatRate(country: string): number {
  return VAT[country.toUpperCase()] ?? 0;
}

export function round2(value: number): number {
  return Math.round(value * 100) / 100;
}

interface Payload {
  inputs: { n: number };
}

export default function crunch({ inputs }: Payload) {
  const values: number[] = [];
  for (let i = 0; i < inputs.n; i++) {
    values.push((i * 7919) % 1009);
  }
  const even = values.filter((v) => v % 2 === 0);
  const sorted = [...even].sort((a, b) => a - b);
  const sum = sorted.reduce((a, b) => a + b, 0);
  const buckets: Record<string, number> = {};
  for (const v of values) {
    const key = `b${Math.floor(v / 100)}`;
    buckets[key] = (buckets[key] ?? 0) + 1;
  }
  return { count: values.length, even: even.length, median: sorted[sorted.length >> 1], sum, buckets };
}

export default ({ results }: { results: Array<{ id: number; name: string; email: string }> }) =>
  results.map((r) => ({ id: r.id, label: `${r.name} <${r.email}>` }));

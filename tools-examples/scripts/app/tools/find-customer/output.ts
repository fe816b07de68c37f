// Output mapper: gets {results, tool} (the rows), returns what the caller sees.
interface Row {
  id: number;
  name: string;
  email: string;
  country: string;
  created_at: string;
}

export default function card({ results }: { results: Row[]; tool: string }) {
  return results.map((row) => ({
    id: row.id,
    display_name: `${row.name} <${row.email}>`,
    country: row.country,
    customer_since: row.created_at.slice(0, 10),
  }));
}

// How the CLI prints: tables and key-value lines for people, JSON for
// scripts. Times go out as the API writes them (milliseconds) in JSON, and as
// ISO 8601 in UTC for people.

/** Dates as their milliseconds, at any depth, as the API writes them. */
function plain(value: unknown): unknown {
  if (value instanceof Date) return value.getTime();
  if (Array.isArray(value)) return value.map(plain);
  if (typeof value !== "object" || value === null) return value;
  return Object.fromEntries(Object.entries(value).map(([name, inner]) => [name, plain(inner)]));
}

export const jsonOf = (value: unknown) => JSON.stringify(plain(value), null, 2);

function cell(value: unknown): string {
  if (value === null || value === undefined) return "-";
  if (value instanceof Date) return value.toISOString().replace(/\.\d{3}Z$/, "Z");
  if (typeof value === "object") return JSON.stringify(value);
  return String(value);
}

/** Rows under their column names, each column as wide as its widest cell. */
export function table<Row extends object>(rows: Row[], columns: (keyof Row & string)[]): string {
  const cells = [
    columns.map((column) => column.toUpperCase()),
    ...rows.map((row) => columns.map((column) => cell(row[column]))),
  ];
  const widths = columns.map((_, i) => Math.max(...cells.map((line) => (line[i] as string).length)));
  return cells
    .map((line) =>
      line
        .map((text, i) => text.padEnd(widths[i] as number))
        .join("  ")
        .trimEnd(),
    )
    .join("\n");
}

/** One `name: value` line per field. */
export function fields(record: Record<string, unknown>): string {
  const width = Math.max(...Object.keys(record).map((name) => name.length));
  return Object.entries(record)
    .map(([name, value]) => `${`${name}:`.padEnd(width + 1)} ${cell(value)}`)
    .join("\n");
}

import type pg from "pg";

/** The floors' PostgreSQL pool, in the schema `?schema=` names, as many connections as the service's. */
export async function floorPool(connection: string): Promise<pg.Pool> {
  const { default: pgModule } = await import("pg");
  const parsed = new URL(connection);
  const schema = parsed.searchParams.get("schema") ?? "public";
  parsed.searchParams.delete("schema");
  return new pgModule.Pool({ connectionString: parsed.toString(), options: `-c search_path="${schema}"`, max: 10 });
}

/** One structured line per event. */
export type Logger = (level: "info" | "warn" | "error", event: string, fields?: Record<string, unknown>) => void;

export const jsonLogger: Logger = (level, event, fields = {}) => {
  const line = JSON.stringify({ time: new Date().toISOString(), level, event, ...fields });
  (level === "info" ? process.stdout : process.stderr).write(`${line}\n`);
};

/** A fault for a log line: its kind and gist, never a stack, a source path or a statement. */
export function describeFault(error: unknown): string {
  if (!(error instanceof Error)) return `a thrown ${typeof error}`;
  const code = (error as { code?: unknown }).code;
  // Prisma puts the call site and the query first; the last line says what happened.
  const gist =
    error.message
      .split("\n")
      .map((line) => line.trim())
      .filter(Boolean)
      .at(-1) ?? "";
  const kind = typeof code === "string" ? `${error.name} ${code}` : error.name;
  return `${kind}: ${gist.replace(/(?:[A-Za-z]:)?(?:[\\/][\w.@-]+){2,}/g, "<path>")}`.slice(0, 300);
}

/** How a fault behind a request is reported: one line in the log, nothing of it to the client. */
export const requestFault = (log: Logger) => (fault: unknown) =>
  log("error", "request_failed", { error: describeFault(fault) });

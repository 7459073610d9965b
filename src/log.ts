/** One structured line per event. */
export type Logger = (level: "info" | "warn" | "error", event: string, fields?: Record<string, unknown>) => void;

export const jsonLogger: Logger = (level, event, fields = {}) => {
  const line = JSON.stringify({ time: new Date().toISOString(), level, event, ...fields });
  (level === "info" ? process.stdout : process.stderr).write(`${line}\n`);
};

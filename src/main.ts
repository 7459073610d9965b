import { systemClock } from "./clock.ts";
import { ConfigError, loadConfig } from "./config.ts";
import { jsonLogger } from "./log.ts";
import { startService } from "./server/service.ts";

try {
  const service = await startService(loadConfig(process.env), systemClock, jsonLogger);
  for (const signal of ["SIGINT", "SIGTERM"] as const) {
    process.once(signal, () => void service.stop().then(() => process.exit(0)));
  }
} catch (error) {
  if (!(error instanceof ConfigError)) throw error;
  console.error(`Configuration error: ${error.message}`);
  process.exit(1);
}

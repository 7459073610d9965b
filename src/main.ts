import { systemClock } from "./clock.ts";
import { ConfigError, loadConfig } from "./config.ts";
import { jsonLogger } from "./log.ts";
import { startService } from "./server/service.ts";

try {
  const config = loadConfig(process.env);
  const log = jsonLogger(config.logLevel);
  const service = await startService(config, systemClock, log);
  for (const signal of ["SIGINT", "SIGTERM"] as const) {
    // A second signal ends the process at once, as a signal does by default.
    process.once(signal, () => {
      log("info", "stopping", { signal });
      void service.stop().then(() => process.exit(0));
    });
  }
} catch (error) {
  if (!(error instanceof ConfigError)) throw error;
  console.error(`Configuration error: ${error.message}`);
  process.exit(1);
}

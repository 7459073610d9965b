import { type ChildProcess, spawn } from "node:child_process";
import { resolve } from "node:path";

// The service as its own process, for what an in-process instance cannot
// show: being killed outright.

export interface ServiceProcess {
  url: string;
  output: () => string;
  kill(): Promise<void>;
}

export async function spawnService(env: Record<string, string>): Promise<ServiceProcess> {
  // One process, as npm start runs it, so that a kill reaches the service itself.
  const child: ChildProcess = spawn(process.execPath, ["--import", "tsx", resolve("src/main.ts")], {
    env: { PATH: process.env.PATH ?? "", PORT: "0", HOST: "127.0.0.1", ...env },
    stdio: ["ignore", "pipe", "pipe"],
  });
  let output = "";
  const port = await new Promise<number>((done, fail) => {
    const read = (chunk: Buffer) => {
      output += chunk;
      const line = output.split("\n").find((l) => l.includes('"event":"listening"'));
      if (line) done(JSON.parse(line).port);
    };
    child.stdout?.on("data", read);
    child.stderr?.on("data", read);
    child.once("exit", (code) => fail(new Error(`service exited (${code}): ${output}`)));
  });
  const exited = new Promise((done) => child.once("exit", done));
  return {
    url: `http://127.0.0.1:${port}`,
    output: () => output,
    async kill() {
      child.kill("SIGKILL");
      await exited;
    },
  };
}

import { rmSync, mkdirSync } from "node:fs";
import { SMTPServer } from "smtp-server";
import { spawn } from "node:child_process";
import { resolve } from "node:path";
import { runLoad, seedIn } from "./scripts/bench/processes.ts";
const which = process.argv[2]!; const checkout = process.argv[3]!; const scenario = process.argv[4]!;
const sink = new SMTPServer({ authOptional: true, disabledCommands: ["STARTTLS"], onData(s, _x, cb) { s.resume(); s.on("end", () => cb()); } });
await new Promise<void>((r) => sink.listen(0, "127.0.0.1", () => r()));
const smtp = `smtp://127.0.0.1:${(sink.server.address() as { port: number }).port}`;
const url = `file:/tmp/prof-${which}.db`; rmSync(`/tmp/prof-${which}.db`, { force: true });
const seeded = await seedIn(checkout, url, { agents: 20, mailboxes: 1, emailsPerMailbox: 2000, domain: "bench.example" });
const dir = `/tmp/prof-${which}-${scenario}`; rmSync(dir, { recursive: true, force: true }); mkdirSync(dir);
const child = spawn(process.execPath, ["--cpu-prof", `--cpu-prof-dir=${dir}`, resolve(checkout, "dist/main.js")], { env: { PATH: process.env.PATH ?? "", HOST: "127.0.0.1", PORT: "0", RATE_LIMIT_REQUESTS_PER_SECOND: "0", RATE_LIMIT_REGISTRATIONS_PER_HOUR: "0", DATABASE_URL: url, MAIL_DOMAIN: "bench.example", STORAGE_LIMIT_BYTES: "2147483647", SMTP_URL: smtp, DAILY_SEND_LIMIT: "1000000" }, stdio: ["ignore", "pipe", "inherit"] });
const port: number = await new Promise((res) => { let buf = ""; child.stdout!.on("data", (d) => { buf += d; for (const line of buf.split("\n")) { try { const e = JSON.parse(line); if (e.event === "listening") res(e.port); } catch {} } }); });
const service = { url: `http://127.0.0.1:${port}`, stop: () => new Promise((r) => { child.once("exit", r); child.kill("SIGTERM"); }) };
const { agent } = seeded as unknown as { agent: { id: string; apiKey: string } };
const auth = { authorization: `Bearer ${agent.apiKey}` };
const load = scenario === "send"
  ? { method: "POST", path: `/agents/${agent.id}/send`, headers: { ...auth, "content-type": "application/json" }, body: JSON.stringify({ to: "sink@example.com", subject: "Benchmark", text: "A short note." }) }
  : { method: "GET", path: `/agents/${agent.id}/emails?limit=50`, headers: auth };
await runLoad(service.url, load as never, 16, 3);
const r = await runLoad(service.url, load as never, 16, 10);
console.log(which, scenario, r);
await service.stop(); sink.close(); process.exit(0);

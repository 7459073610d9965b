import { spawn } from "node:child_process";
import { rmSync } from "node:fs";
import { resolve } from "node:path";
import { SMTPServer } from "smtp-server";
import { seedIn } from "./scripts/bench/processes.ts";
const sink = new SMTPServer({ authOptional: true, disabledCommands: ["STARTTLS"], onData(s, _x, cb) { s.resume(); s.on("end", () => cb()); } });
await new Promise<void>((r) => sink.listen(0, "127.0.0.1", () => r()));
const smtp = `smtp://127.0.0.1:${(sink.server.address() as { port: number }).port}`;
for (const [which, checkout] of [["base", "/tmp/base"], ["main", "."]]) {
  const url = `file:/tmp/cnt-${which}.db`; rmSync(`/tmp/cnt-${which}.db`, { force: true });
  const seeded = (await seedIn(checkout, url, { agents: 3, mailboxes: 1, emailsPerMailbox: 100, domain: "bench.example" })) as unknown as { agent: { id: string; apiKey: string }; emailId?: string };
  const child = spawn(process.execPath, [resolve(checkout, "dist/main.js")], { env: { PATH: process.env.PATH ?? "", LOG_LEVEL: "debug", HOST: "127.0.0.1", PORT: "0", RATE_LIMIT_REQUESTS_PER_SECOND: "0", DATABASE_URL: url, MAIL_DOMAIN: "bench.example", SMTP_URL: smtp }, stdio: ["ignore", "pipe", "pipe"] });
  const lines: string[] = [];
  const port: number = await new Promise((res) => { let buf = ""; child.stdout!.on("data", (d) => { buf += d; const parts = buf.split("\n"); buf = parts.pop()!; for (const line of parts) { lines.push(line); try { const e = JSON.parse(line); if (e.event === "listening") res(e.port); } catch {} } }); });
  const { agent } = seeded; const auth = { authorization: `Bearer ${agent.apiKey}` };
  const base = `http://127.0.0.1:${port}`;
  for (let i = 0; i < 3; i++) await fetch(`${base}/agents/${agent.id}/send`, { method: "POST", headers: { ...auth, "content-type": "application/json" }, body: JSON.stringify({ to: "sink@example.com", subject: "B", text: "A short note." }) }).then((r) => r.text());
  const list = await (await fetch(`${base}/agents/${agent.id}/emails?limit=50`, { headers: auth })).json() as { data: { id: string }[] };
  await fetch(`${base}/agents/${agent.id}/emails/${list.data[0]!.id}`, { headers: auth }).then((r) => r.text());
  await fetch(`${base}/agents/${agent.id}`, { headers: auth }).then((r) => r.text());
  await new Promise((r) => setTimeout(r, 300));
  for (const l of lines) { try { const e = JSON.parse(l); if (e.statements !== undefined) console.log(which, e.method, e.path?.replace(agent.id, ":a"), e.statements); } catch {} }
  child.kill("SIGTERM");
}
sink.close(); process.exit(0);

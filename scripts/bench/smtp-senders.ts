// The SMTP scenario's load, in a process of its own: nodemailer clients, each
// on a connection of its own, sending one short message after another for
// the given seconds, and a raw-socket probe timing DATA's end to the 250
// meanwhile. The clients take the ports in turn.
//   node --import tsx scripts/bench/smtp-senders.ts <seconds> <clients> <port,port…> <to,to…>
// Prints {messages, errors, ms, dataEndTo250} as one JSON line.
import nodemailer from "nodemailer";
import { benchMessage } from "./mail.ts";
import { timedDelivery } from "./smtp-probe.ts";

const [seconds = "5", clients = "16", portList = "", toList = ""] = process.argv.slice(2);
const ports = portList.split(",").map(Number);
const recipients = toList.split(",");
const FROM = "jordan@sender.example";
const started = performance.now();
const deadline = started + Number(seconds) * 1000;
let messages = 0;
let errors = 0;

async function client(n: number): Promise<void> {
  const transport = nodemailer.createTransport({
    host: "127.0.0.1",
    port: ports[n % ports.length],
    pool: true,
    maxConnections: 1,
    ignoreTLS: true,
  });
  for (let i = 0; performance.now() < deadline; i++) {
    const to = recipients[(n + i * Number(clients)) % recipients.length] as string;
    try {
      await transport.sendMail({ envelope: { from: FROM, to: [to] }, raw: benchMessage(to, n * 1_000_000 + i) });
      messages++;
    } catch {
      errors++;
    }
  }
  transport.close();
}

async function probe(): Promise<number[]> {
  const latencies: number[] = [];
  for (let i = 0; performance.now() < deadline; i++) {
    const to = recipients[i % recipients.length] as string;
    const timed = await timedDelivery(ports[i % ports.length] as number, FROM, to, benchMessage(to, 900_000_000 + i));
    if (timed.reply.startsWith("250")) latencies.push(timed.answered - timed.dataEnd);
  }
  return latencies;
}

const [dataEndTo250] = await Promise.all([probe(), ...Array.from({ length: Number(clients) }, (_, n) => client(n))]);
process.stdout.write(`${JSON.stringify({ messages, errors, ms: performance.now() - started, dataEndTo250 })}\n`);

import { connect } from "node:net";

// One message over a raw SMTP connection, timed from the end of its DATA (the
// final dot written) to the server's answer: what nodemailer cannot tell.

export interface Timed {
  /** performance.now() when the final dot was written, and when the answer came. */
  dataEnd: number;
  answered: number;
  reply: string;
}

export async function timedDelivery(port: number, from: string, to: string, message: string): Promise<Timed> {
  const socket = connect(port, "127.0.0.1");
  let buffered = "";
  const waiting: ((reply: string) => void)[] = [];
  socket.on("data", (chunk) => {
    buffered += chunk.toString();
    // A reply ends with a line whose code is followed by a space.
    for (let match = /^\d{3} .*\r\n/m.exec(buffered); match; match = /^\d{3} .*\r\n/m.exec(buffered)) {
      const end = match.index + match[0].length;
      waiting.shift()?.(buffered.slice(0, end));
      buffered = buffered.slice(end);
    }
  });
  const next = () => new Promise<string>((resolve) => waiting.push(resolve));
  const say = (command: string) => {
    const reply = next();
    socket.write(`${command}\r\n`);
    return reply;
  };
  await next();
  for (const command of ["EHLO probe.example", `MAIL FROM:<${from}>`, `RCPT TO:<${to}>`, "DATA"]) await say(command);
  const answer = say(`${message}\r\n.`);
  const dataEnd = performance.now();
  const reply = await answer;
  const answered = performance.now();
  socket.end("QUIT\r\n");
  return { dataEnd, answered, reply };
}

import { isIP } from "node:net";
import type { Context as HonoContext } from "hono";
import { ServiceError } from "../errors.ts";
import type { DirectIntake, Received } from "../inbound/direct.ts";
import { Unreadable } from "../inbound/readers.ts";
import { filedReply, type Reply, recipientRefusal } from "../mailbox/intake.ts";
import { sameSecret } from "../mailbox/keys.ts";
import type { Services } from "../mailbox/services.ts";
import { keyOf } from "../schema/context.ts";

// POST /inbound/raw: a provider (an Email Worker, SES through a Lambda, an
// MTA's pipe) hands over a raw message and its envelope recipients, and it is
// filed exactly as the SMTP door files it. Bearer INBOUND_TOKEN; without the
// setting the route is not there (404).

interface RecipientAnswer {
  address: string;
  outcome: "filed" | "refused";
  code: number;
  message: string;
}

const answer = (address: string, { code, status, message }: Reply): RecipientAnswer => ({
  address,
  outcome: code === 250 ? "filed" : "refused",
  code,
  message: `${status} ${message}`,
});

/** The envelope recipients: each X-Envelope-To header (a comma list too), and each ?to=. */
function envelopeRecipients(c: HonoContext): string[] {
  const headers = (c.req.header("x-envelope-to") ?? "").split(",");
  const given = [...headers, ...(c.req.queries("to") ?? [])].map((address) => address.trim().toLowerCase());
  return [...new Set(given.filter((address) => address !== ""))];
}

async function readRaw(c: HonoContext, limit: number): Promise<Buffer> {
  if (!/^message\/rfc822\s*(;|$)/i.test(c.req.header("content-type") ?? "")) {
    throw new ServiceError("UNSUPPORTED_MEDIA_TYPE", "Content-Type must be message/rfc822");
  }
  const tooLarge = () =>
    new ServiceError("PAYLOAD_TOO_LARGE", `The message exceeds INBOUND_MAX_BYTES (${limit} bytes)`);
  // The declared length refuses it unread; the length read, when none was declared.
  if (Number(c.req.header("content-length") ?? 0) > limit) throw tooLarge();
  const raw = Buffer.from(await c.req.arrayBuffer());
  if (raw.length > limit) throw tooLarge();
  return raw;
}

export async function receiveRaw(c: HonoContext, services: Services, intake: DirectIntake): Promise<Response> {
  const token = services.config.inboundToken;
  if (token === null) throw new ServiceError("NOT_FOUND", `No route for ${c.req.method} ${c.req.path}`);
  const given = keyOf(c.req.header("authorization") ?? null);
  if (!given || !sameSecret(given, token))
    throw new ServiceError("UNAUTHORIZED", "Authorization: Bearer <INBOUND_TOKEN> is required");
  const raw = await readRaw(c, services.config.inboundMaxBytes);
  const recipients = envelopeRecipients(c);
  if (recipients.length === 0)
    throw new ServiceError("BAD_REQUEST", "Name the recipients: X-Envelope-To headers or ?to=");
  // The reverse path: empty or <> for a bounce; unknown without the header, and then no report is believed.
  const from =
    c.req
      .header("x-envelope-from")
      ?.trim()
      .replace(/^<(.*)>$/, "$1") ?? null;
  const ip = c.req.header("x-client-ip");
  if (ip && isIP(ip) === 0) throw new ServiceError("BAD_REQUEST", "X-Client-Ip must be an IP address");
  const answers: RecipientAnswer[] = [];
  const taken: string[] = [];
  for (const address of recipients) {
    const refused = await recipientRefusal(services, address, from);
    if (refused) answers.push(answer(address, refused));
    else taken.push(address);
  }
  if (taken.length > 0) {
    // The token holder speaks for the client; without one no SPF is checked.
    const client = ip ? { ip, helo: ip, hostname: ip } : null;
    let filed: Received["filed"];
    try {
      ({ filed } = await intake.receive(raw, {
        from,
        recipients: taken,
        client,
        relayed: false,
        via: "HTTP",
        refusable: false,
      }));
    } catch (error) {
      if (error instanceof Unreadable)
        throw new ServiceError("BAD_REQUEST", "The body cannot be read as a mail message");
      throw error;
    }
    for (const { recipient, outcome } of filed) answers.push(answer(recipient, filedReply(outcome)));
  }
  return c.json({ recipients: answers });
}

import * as z from "zod";
import { MAX_WAIT_SECONDS } from "../mailbox/events.ts";
import { DEFAULT_PAGE_SIZE, MAX_PAGE_SIZE } from "../mailbox/pages.ts";
import type { RestRequest, Route } from "../rest/routes.ts";
import { routes } from "../rest/routes.ts";

// The tools an agent's model sees: one table, each row a REST route on the
// agent's own mailbox, its arguments named as the route's path, query and
// body name them, and its answer the route's answer. The descriptions are
// written for the model: what the tool does, when to use it, what it returns.

/** A REST route as the table names it: its method and path. */
type RouteName = `${Route["method"]} ${string}`;

export interface Tool<Shape extends z.ZodRawShape = z.ZodRawShape> {
  name: string;
  title: string;
  description: string;
  /** The REST route it runs, whose answer it gives. */
  route: RouteName;
  input: Shape;
  /** Only reads: the client may call it without asking. */
  readOnly?: true;
  /** The fields of the route's answer it gives, when not all of them. */
  keeps?: readonly string[];
  /** Another route, or other arguments, picked by the arguments. */
  via?: (args: z.infer<z.ZodObject<Shape>>) => { route: RouteName; args: Record<string, unknown> };
}

/** One call of a route: the request made of it, as REST would read it. */
export interface RouteCall {
  route: Route;
  request: RestRequest;
}

const tool = <Shape extends z.ZodRawShape>(definition: Tool<Shape>) => definition as unknown as Tool;

const ROUTES = new Map(routes.map((route) => [`${route.method} ${route.path}`, route]));

function routeNamed(name: RouteName): Route {
  const found = ROUTES.get(name);
  if (!found) throw new Error(`No route ${name}`);
  return found;
}

/**
 * The request REST would get for these arguments: the path's names from
 * them (the agent's id from the key), a send's key as its header, the rest
 * in the query of a read or the body of a write.
 */
function requestOf(route: Route, args: Record<string, unknown>, agentId: string): RestRequest {
  const inPath = [...route.path.matchAll(/:(\w+)/g)].map(([, name]) => name as string);
  const params = Object.fromEntries(inPath.map((name) => [name, name === "agentId" ? agentId : String(args[name])]));
  const { idempotencyKey, ...rest } = args;
  const fields = Object.entries(rest).filter(([name, value]) => value !== undefined && !inPath.includes(name));
  const inQuery = route.method === "GET" || route.method === "DELETE";
  return {
    params,
    query: inQuery ? Object.fromEntries(fields.map(([name, value]) => [name, String(value)])) : {},
    body: inQuery ? {} : Object.fromEntries(fields),
    headers: idempotencyKey === undefined ? {} : { "idempotency-key": String(idempotencyKey) },
  };
}

/** The route a tool runs for these (checked) arguments, and the request made of them. */
export function routeCallOf(tool: Tool, args: Record<string, unknown>, agentId: string): RouteCall {
  const call = tool.via ? tool.via(args as never) : { route: tool.route, args };
  const route = routeNamed(call.route);
  return { route, request: requestOf(route, call.args, agentId) };
}

/** A tool's answer from its route's: the route's, or the fields the tool keeps of it. */
export function answerOf(tool: Tool, body: unknown): unknown {
  if (!tool.keeps || typeof body !== "object" || body === null) return body;
  return Object.fromEntries(tool.keeps.map((name) => [name, (body as Record<string, unknown>)[name]]));
}

const NOT_A_TIME = { error: "expected a time: ISO 8601 (2026-05-01T09:00:00Z) or milliseconds since 1970" };
/** A time as REST's routes take it (milliseconds since 1970), given that or as ISO 8601. */
const time = z
  .union(
    [z.number(NOT_A_TIME).int(NOT_A_TIME).min(0, NOT_A_TIME), z.iso.datetime({ offset: true, ...NOT_A_TIME })],
    NOT_A_TIME,
  )
  .transform((value) => (typeof value === "string" ? Date.parse(value) : value));
const A_TIME = "ISO 8601 (e.g. 2026-05-01T09:00:00Z) or ms since 1970; each answer ends with the current time";

const emailId = z.string().describe("The email's id, from list_emails, search_emails or wait_for_email");
const folder = z.string().describe('A folder: "inbox", "archive", "trash" or one of your own');
/** A whole number in bounds, refused in one sentence whatever is wrong with it (a string, 1.5, out of bounds). */
function wholeNumber(min: number, max?: number) {
  const problem = {
    error: `expected an integer ${max === undefined ? `of at least ${min}` : `from ${min} to ${max}`}`,
  };
  const bounded = z.number(problem).int(problem).min(min, problem);
  return max === undefined ? bounded : bounded.max(max, problem);
}

const limit = wholeNumber(1, MAX_PAGE_SIZE).optional().describe(`At most this many (default ${DEFAULT_PAGE_SIZE})`);
const offset = wholeNumber(0).optional().describe("Skip this many first (default 0)");
const page = { limit, offset };
/** One address or a list, as REST takes them. */
const addresses = z.union([z.string(), z.array(z.string()).min(1)]);
const recipients = addresses.describe("An email address, or a list of them");
const idempotencyKey = z
  .string()
  .optional()
  .describe("Any unique string: calling again with the same key never sends twice (use it when you retry)");
const attachments = z
  .array(
    z.object({
      filename: z.string(),
      content: z.string().describe("The bytes, in base64"),
      contentType: z.string().optional(),
    }),
  )
  .optional()
  .describe("Files to attach");

const sendAt = time.optional().describe(`Send it later, at this time (at most 30 days ahead): ${A_TIME}`);
/** Said of every send: what it answers when the message waits. */
const WAITS =
  ' With sendAt, or when your operator has a person approve your mail first, nothing is sent yet: it answers {id, status: "scheduled" or "pending_approval", to, subject, sendAt}. A pending_approval message waits for a person, who is sent its review link: you are told the outcome (email.approved or email.rejected), and you can withdraw it with delete_draft.';

const EMAIL = "/agents/:agentId/emails/:emailId";
const DRAFT = "/agents/:agentId/drafts/:draftId";
const draftId = z.string().describe("The draft's id, from create_draft, list_drafts or a send that waits");
/** A draft's fields: each optional; in update_draft, null clears one. */
const draftFields = {
  to: recipients.nullable().optional(),
  cc: addresses.nullable().optional().describe("Copies: an address, or a list of them"),
  bcc: addresses.nullable().optional().describe("Blind copies: an address, or a list of them"),
  subject: z.string().nullable().optional(),
  text: z.string().nullable().optional().describe("Plain text body"),
  html: z.string().nullable().optional().describe("HTML body"),
  replyTo: z.string().nullable().optional().describe("Where answers should go, if not to you"),
  attachments: attachments.nullable(),
  sendAt: time
    .nullable()
    .optional()
    .describe(`Send it at this time (at most 30 days ahead; null keeps it as a plain draft): ${A_TIME}`),
};

/** The filters list_emails and search_emails share, named as REST's query names them. */
const emailFilters = {
  folder: folder.optional(),
  isRead: z.boolean().optional().describe("false: only unread mail; true: only read mail"),
  autoSubmitted: z
    .boolean()
    .optional()
    .describe("false: only mail from people; true: only what machines sent (auto-replies, notifications, lists)"),
  hasAttachments: z.boolean().optional().describe("Only mail with (true) or without (false) attachments"),
};

export const tools: Tool[] = [
  tool({
    name: "get_agent",
    title: "Your mailbox",
    description:
      "Shows your own mailbox: your email address, name, when a human verified you, and storage used and allowed. Call it first to learn your address. Until a human has verified you it answers NOT_VERIFIED: see get_verification_status.",
    route: "GET /agents/:agentId",
    input: {},
    readOnly: true,
  }),
  tool({
    name: "get_verification_status",
    title: "Verification status",
    description:
      "Tells whether a human has verified you yet (mail can be read and sent only then) and whether a verification code is waiting to be posted. Use it while you wait for your human to open your verification link.",
    route: "GET /verify/status",
    input: {},
    readOnly: true,
  }),
  tool({
    name: "list_emails",
    title: "List emails",
    description:
      "Lists received emails, newest first, each as read_email gives it (sender, subject, a preview, text, whether read, attachments, authentication, autoSubmitted: null for a person, else auto-replied, auto-generated or list). Use it to see what has arrived. Returns {data, total, limit, offset}.",
    route: "GET /agents/:agentId/emails",
    input: { ...emailFilters, ...page },
    readOnly: true,
  }),
  tool({
    name: "search_emails",
    title: "Search emails",
    description:
      'Finds received emails by words in the subject, sender or text, best match first. Words match by prefix without regard to case or accents; "an exact phrase" in quotes; -word excludes. Narrow by sender, recipient, folder or time. Returns {data, total, limit, offset} like list_emails.',
    route: "GET /agents/:agentId/emails",
    input: {
      q: z.string().optional().describe('Words to find, e.g. invoice march or "reset your password"'),
      from: z.string().optional().describe("Only from this address, or @domain"),
      to: z.string().optional().describe("Only to this address"),
      after: time.optional().describe(`Only mail received after this time: ${A_TIME}`),
      before: time.optional().describe(`Only mail received before this time: ${A_TIME}`),
      ...emailFilters,
      ...page,
    },
    readOnly: true,
  }),
  tool({
    name: "read_email",
    title: "Read an email",
    description:
      "Reads one email whole: sender, recipient, subject, its text, replyText (only what the sender newly wrote, without quoted history), codes (likely one-time codes, best first), links, attachments and the sender's authentication. Marks it read unless markAsRead is false.",
    route: `PATCH ${EMAIL}`,
    input: { emailId, markAsRead: z.boolean().optional().describe("Default true") },
    via: ({ emailId, markAsRead }) =>
      markAsRead === false
        ? { route: `GET ${EMAIL}`, args: { emailId } }
        : { route: `PATCH ${EMAIL}`, args: { emailId, isRead: true } },
  }),
  tool({
    name: "get_codes_and_links",
    title: "Codes and links of an email",
    description:
      "Gives just the one-time codes (best first) and the links of an email, for sign-up, login and verification mails. Does not mark it read.",
    route: `GET ${EMAIL}`,
    input: { emailId },
    readOnly: true,
    keeps: ["id", "from", "subject", "codes", "links"],
  }),
  tool({
    name: "wait_for_email",
    title: "Wait for an email",
    description: `Waits until a matching email is filed (up to timeout seconds, at most ${MAX_WAIT_SECONDS}) and returns it whole, or null when none came in time: call it again to keep waiting. With after, mail filed since then is answered at once: note the time before an action that sends you mail (such as signing up somewhere), then wait with after set to it.`,
    route: "GET /agents/:agentId/emails/wait",
    input: {
      from: z.string().optional().describe("Only from this address, or @domain"),
      subject: z.string().optional().describe("Only with this in the subject"),
      folder: folder.optional(),
      after: time.optional().describe(`Mail filed after this time; by default, from now: ${A_TIME}`),
      timeout: wholeNumber(0, MAX_WAIT_SECONDS).optional().describe(`Seconds to wait (default ${MAX_WAIT_SECONDS})`),
    },
    readOnly: true,
  }),
  tool({
    name: "get_attachment",
    title: "Get an attachment",
    description:
      "Fetches the bytes of one attachment of an email (its id from read_email's attachments). Returns the file as an embedded resource: text for text files, base64 otherwise.",
    route: `GET ${EMAIL}/attachments/:attachmentId`,
    input: { emailId, attachmentId: z.string().describe("The attachment's id") },
    readOnly: true,
  }),
  tool({
    name: "move_email",
    title: "Move an email",
    description:
      'Moves an email to another folder, e.g. "archive" when handled or a folder of your own (created on first use). Returns the email.',
    route: `PATCH ${EMAIL}`,
    input: { emailId, folder },
  }),
  tool({
    name: "delete_email",
    title: "Delete an email",
    description:
      "Moves an email to the trash, or deletes it for good with permanent: true (frees its storage; cannot be undone).",
    route: `DELETE ${EMAIL}`,
    input: { emailId, permanent: z.boolean().optional().describe("Delete for good rather than to the trash") },
  }),
  tool({
    name: "list_threads",
    title: "List conversations",
    description:
      "Lists your conversations (threads: received and sent mail that belong together), newest activity first, each with its subject, participants, message and unread counts. Read one whole with read_thread. Returns {data, total, limit, offset}.",
    route: "GET /agents/:agentId/threads",
    input: { folder: folder.optional().describe("Only threads with received mail in this folder"), ...page },
    readOnly: true,
  }),
  tool({
    name: "read_thread",
    title: "Read a conversation",
    description:
      'Reads one thread whole: its messages oldest first, received and sent, each with direction "received" or "sent". Does not mark them read.',
    route: "GET /agents/:agentId/threads/:threadId",
    input: { threadId: z.string().describe("The thread's id, from list_threads or an email's threadId") },
    readOnly: true,
  }),
  tool({
    name: "send_email",
    title: "Send an email",
    description:
      "Sends a new email from your address. Give text, html or both. Counts against your daily send limit. Returns the sent email's id and thread. To answer a received email, use reply_to_email instead." +
      WAITS,
    route: "POST /agents/:agentId/send",
    input: {
      to: recipients,
      cc: addresses.optional().describe("Copies: an address, or a list of them"),
      bcc: addresses.optional().describe("Blind copies: an address, or a list of them"),
      subject: z.string(),
      text: z.string().optional().describe("Plain text body"),
      html: z.string().optional().describe("HTML body"),
      replyTo: z.string().optional().describe("Where answers should go, if not to you"),
      attachments,
      sendAt,
      idempotencyKey,
    },
  }),
  tool({
    name: "reply_to_email",
    title: "Reply to an email",
    description:
      "Answers a received email: to its sender (and with replyAll to everyone on it), with Re: subject, quoting and threading done for you. Returns the sent email's id and thread." +
      WAITS,
    route: `POST ${EMAIL}/reply`,
    input: {
      emailId,
      text: z.string().optional().describe("What you write; the original is quoted below it"),
      html: z.string().optional(),
      replyAll: z.boolean().optional(),
      attachments,
      sendAt,
      idempotencyKey,
    },
  }),
  tool({
    name: "forward_email",
    title: "Forward an email",
    description:
      "Forwards a received email, with its attachments, to other addresses, with your note above it. Returns the sent email's id." +
      WAITS,
    route: `POST ${EMAIL}/forward`,
    input: {
      emailId,
      to: recipients,
      text: z.string().optional().describe("Your note above it"),
      sendAt,
      idempotencyKey,
    },
  }),
  tool({
    name: "list_sent",
    title: "List sent emails",
    description: "Lists the emails you have sent, newest first. Returns {data, total, limit, offset}.",
    route: "GET /agents/:agentId/sent",
    input: page,
    readOnly: true,
  }),
  tool({
    name: "create_draft",
    title: "Write a draft",
    description:
      "Writes an email to send later, for you or your human to look over first; nothing is sent. Every field is optional. With inReplyTo (a received email's id) it is a reply to that email: its recipients and Re: subject are filled in. Send it with send_draft. Returns the draft.",
    route: "POST /agents/:agentId/drafts",
    input: {
      ...draftFields,
      inReplyTo: z.string().optional().describe("A received email's id, from list_emails: the draft answers it"),
    },
  }),
  tool({
    name: "update_draft",
    title: "Change a draft",
    description: "Changes the fields you give of a draft; null clears one. Returns the draft.",
    route: `PATCH ${DRAFT}`,
    input: { draftId, ...draftFields },
  }),
  tool({
    name: "send_draft",
    title: "Send a draft",
    description:
      "Sends a draft as send_email sends a message (it needs to, a subject and text or html; the same limits apply). The draft is gone after; returns the sent email's id and thread." +
      WAITS,
    route: `POST ${DRAFT}/send`,
    input: { draftId },
  }),
  tool({
    name: "list_drafts",
    title: "List drafts",
    description:
      "Lists your drafts, newest first, with each one's sendStatus and sendAt: scheduled and pending_approval sends are drafts until they go. Returns {data, total, limit, offset}.",
    route: "GET /agents/:agentId/drafts",
    input: page,
    readOnly: true,
  }),
  tool({
    name: "delete_draft",
    title: "Delete a draft",
    description:
      "Deletes a draft and frees its storage. A scheduled or pending_approval send is a draft until it goes: deleting it withdraws the message, and nothing is sent.",
    route: `DELETE ${DRAFT}`,
    input: { draftId },
  }),
  tool({
    name: "list_suppressions",
    title: "List suppressed addresses",
    description:
      "Lists the addresses your mail no longer goes to, newest first: each bounced hard (the address does not exist) or reported your mail as spam. Sending to one is refused with RECIPIENT_SUPPRESSED. Returns {data, total, limit, offset}.",
    route: "GET /agents/:agentId/suppressions",
    input: page,
    readOnly: true,
  }),
];

// Every route named above exists, checked as the module loads rather than at a call.
for (const { route } of tools) routeNamed(route);

import * as z from "zod";
import { DEFAULT_PAGE_SIZE, MAX_PAGE_SIZE } from "../mailbox/pages.ts";
import { splitAddresses } from "../mailbox/records.ts";
import type { RestRequest, Route } from "../rest/routes.ts";
import { routes } from "../rest/routes.ts";

// The tools an agent's model sees, each a call of a REST route on the
// agent's own mailbox: the same checks, operations and errors as REST. The
// descriptions are written for the model: what the tool does, when to use
// it, what it returns.

/** One call of a route: the request made of it, as REST would read it. */
export interface RouteCall {
  route: Route;
  request: RestRequest;
}

export interface Tool<Shape extends z.ZodRawShape = z.ZodRawShape> {
  name: string;
  title: string;
  description: string;
  input: Shape;
  /** Only reads: the client may call it without asking. */
  readOnly?: true;
  /** The route it calls for the agent, and how. */
  call: (args: z.infer<z.ZodObject<Shape>>, agentId: string) => RouteCall;
  /** The answer in the shape the model reads, from the route's body. */
  answer?: (body: unknown, args: z.infer<z.ZodObject<Shape>>) => unknown;
}

const tool = <Shape extends z.ZodRawShape>(definition: Tool<Shape>) => definition as unknown as Tool;

function routeOf(method: Route["method"], path: string): Route {
  const found = routes.find((route) => route.method === method && route.path === path);
  if (!found) throw new Error(`No route ${method} ${path}`);
  return found;
}

/** A call of a route, with the agent's id among its path parameters and only the query values given. */
function routeCall(
  method: Route["method"],
  path: string,
  parts: { params?: Record<string, string>; query?: Record<string, unknown>; body?: object; headers?: object },
): RouteCall {
  const query = Object.entries(parts.query ?? {}).filter(([, value]) => value !== undefined);
  return {
    route: routeOf(method, path),
    request: {
      params: parts.params ?? {},
      query: Object.fromEntries(query.map(([name, value]) => [name, String(value)])),
      body: { ...parts.body },
      headers: { ...(parts.headers as Record<string, string>) },
    },
  };
}

/** The Idempotency-Key header a send carries when the model gave one. */
const retrySafely = (key: string | undefined) => (key === undefined ? {} : { "idempotency-key": key });

interface EmailBody {
  id: string;
  from: unknown;
  to: unknown;
  subject: string;
  preview: string;
  receivedAt: unknown;
  isRead: boolean;
  folder: string;
  threadId: string;
  attachments: unknown[];
  authentication: { verdict: string };
  autoSubmitted: string | null;
  bodyText?: unknown;
  bodyHtml?: unknown;
  codes: string[];
  links: unknown[];
}

/** What a list shows of an email: enough to choose which to read. */
function summary(email: EmailBody) {
  const {
    id,
    from,
    subject,
    preview,
    receivedAt,
    isRead,
    folder,
    threadId,
    attachments,
    authentication,
    autoSubmitted,
  } = email;
  return {
    id,
    from,
    subject,
    preview,
    receivedAt,
    isRead,
    folder,
    threadId,
    attachments: attachments.length,
    authenticated: authentication.verdict,
    autoSubmitted,
  };
}

const summaries = (body: unknown) => {
  const page = body as { data: EmailBody[] };
  return { ...page, data: page.data.map(summary) };
};

/** An email to read: `text` stands for both bodies, as a model reads it. */
function reading(body: unknown) {
  const { bodyText: _text, bodyHtml: _html, ...email } = body as EmailBody;
  return email;
}

/**
 * Recipients as a list, as a model always reads them: REST answers a send's
 * `to` as the client gave it and the sent list's joined (the spec's shapes).
 */
const recipientList = (to: unknown) => (typeof to === "string" ? splitAddresses(to) : to);

function withRecipientList(body: unknown) {
  const sent = body as { to: unknown };
  return { ...sent, to: recipientList(sent.to) };
}

const emailId = z.string().describe("The email's id, from list_emails, search_emails or wait_for_email");
const folder = z.string().describe('A folder: "inbox", "archive", "trash" or one of your own');
// More than the page maximum is not refused: the route gives the maximum, as REST does.
const limit = z
  .number()
  .int()
  .min(1)
  .optional()
  .describe(`At most this many (default ${DEFAULT_PAGE_SIZE}, at most ${MAX_PAGE_SIZE})`);
const offset = z.number().int().min(0).optional().describe("Skip this many first (default 0)");
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

const sendAt = z
  .number()
  .int()
  .optional()
  .describe("Send it later, at this time (ms since 1970, at most 30 days ahead); left out: now");
/** Said of every send: what it answers when the message waits. */
const WAITS =
  ' With sendAt, or when your operator has a person approve your mail first, nothing is sent yet: it answers {id, status: "scheduled" or "pending_approval", to, subject, sendAt}. A pending_approval message waits for a person, who is sent its review link: you are told the outcome (email.approved or email.rejected), and you can delete the draft to withdraw it.';

/** A call of a route that answers a page of the agent's items. */
const pageOf = (path: string) => (args: { limit?: number; offset?: number }, agentId: string) =>
  routeCall("GET", path, { params: { agentId }, query: { limit: args.limit, offset: args.offset } });

const EMAIL = "/agents/:agentId/emails/:emailId";
const DRAFT = "/agents/:agentId/drafts/:draftId";
const draftId = z.string().describe("The draft's id, from create_draft or list_drafts");
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
  sendAt: z
    .number()
    .int()
    .nullable()
    .optional()
    .describe("Send it at this time (ms since 1970, at most 30 days ahead); null keeps it as a plain draft"),
};

export const tools: Tool[] = [
  tool({
    name: "get_agent",
    title: "Your mailbox",
    description:
      "Shows your own mailbox: your email address, name, when a human verified you, and storage used and allowed. Call it first to learn your address. Until a human has verified you it answers NOT_VERIFIED: see get_verification_status.",
    input: {},
    readOnly: true,
    call: (_, agentId) => routeCall("GET", "/agents/:agentId", { params: { agentId } }),
  }),
  tool({
    name: "get_verification_status",
    title: "Verification status",
    description:
      "Tells whether a human has verified you yet (mail can be read and sent only then) and whether a verification code is waiting to be posted. Use it while you wait for your human to open your verification link.",
    input: {},
    readOnly: true,
    call: () => routeCall("GET", "/verify/status", {}),
  }),
  tool({
    name: "list_emails",
    title: "List emails",
    description:
      "Lists received emails, newest first, as short summaries (sender, subject, a preview, whether read, autoSubmitted: null for a person, else auto-replied, auto-generated or list). Use it to see what has arrived; then read_email for the whole message. Returns {data, total, limit, offset}.",
    input: {
      folder: folder.optional(),
      unreadOnly: z.boolean().optional().describe("Only unread mail"),
      peopleOnly: z.boolean().optional().describe("Leave out mail machines sent: auto-replies, notifications, lists"),
      limit,
      offset,
    },
    readOnly: true,
    call: (args, agentId) =>
      routeCall("GET", "/agents/:agentId/emails", {
        params: { agentId },
        query: {
          folder: args.folder,
          isRead: args.unreadOnly ? false : undefined,
          autoSubmitted: args.peopleOnly ? false : undefined,
          limit: args.limit,
          offset: args.offset,
        },
      }),
    answer: summaries,
  }),
  tool({
    name: "search_emails",
    title: "Search emails",
    description:
      'Finds received emails by words in the subject, sender or text, best match first. Words match by prefix without regard to case or accents; "an exact phrase" in quotes; -word excludes. Narrow by sender, recipient, folder or time. Returns summaries like list_emails.',
    input: {
      query: z.string().optional().describe('Words to find, e.g. invoice march or "reset your password"'),
      from: z.string().optional().describe("Only from this address, or @domain"),
      to: z.string().optional().describe("Only to this address"),
      folder: folder.optional(),
      receivedAfter: z.number().int().optional().describe("Only mail received after this time (ms since 1970)"),
      receivedBefore: z.number().int().optional().describe("Only mail received before this time (ms since 1970)"),
      limit,
      offset,
    },
    readOnly: true,
    call: (args, agentId) =>
      routeCall("GET", "/agents/:agentId/emails", {
        params: { agentId },
        query: {
          q: args.query,
          from: args.from,
          to: args.to,
          folder: args.folder,
          after: args.receivedAfter,
          before: args.receivedBefore,
          limit: args.limit,
          offset: args.offset,
        },
      }),
    answer: summaries,
  }),
  tool({
    name: "read_email",
    title: "Read an email",
    description:
      "Reads one email whole: sender, recipients, subject, its text, replyText (only what the sender newly wrote, without quoted history), codes (likely one-time codes, best first), links, attachments and whether the sender is authenticated. Marks it read unless markAsRead is false.",
    input: { emailId, markAsRead: z.boolean().optional().describe("Default true") },
    call: ({ emailId, markAsRead }, agentId) =>
      markAsRead === false
        ? routeCall("GET", EMAIL, { params: { agentId, emailId } })
        : routeCall("PATCH", EMAIL, { params: { agentId, emailId }, body: { isRead: true } }),
    answer: reading,
  }),
  tool({
    name: "get_codes_and_links",
    title: "Codes and links of an email",
    description:
      "Gives just the one-time codes (best first) and the links of an email, for sign-up, login and verification mails. Does not mark it read.",
    input: { emailId },
    readOnly: true,
    call: ({ emailId }, agentId) => routeCall("GET", EMAIL, { params: { agentId, emailId } }),
    answer: (body) => {
      const { id, from, subject, codes, links } = body as EmailBody;
      return { id, from, subject, codes, links };
    },
  }),
  tool({
    name: "wait_for_email",
    title: "Wait for an email",
    description:
      "Waits until a matching email arrives (up to timeoutSeconds, at most 25) and returns it whole, or null when none came in time: call it again to keep waiting. Use it right after an action that sends you mail, such as signing up somewhere.",
    input: {
      from: z.string().optional().describe("Only from this address, or @domain"),
      subject: z.string().optional().describe("Only with this in the subject"),
      folder: folder.optional(),
      timeoutSeconds: z.number().int().min(0).max(25).optional().describe("Default 25"),
    },
    readOnly: true,
    call: (args, agentId) =>
      routeCall("GET", "/agents/:agentId/emails/wait", {
        params: { agentId },
        query: { from: args.from, subject: args.subject, folder: args.folder, timeout: args.timeoutSeconds },
      }),
    answer: (body) => (body === null ? null : reading(body)),
  }),
  tool({
    name: "get_attachment",
    title: "Get an attachment",
    description:
      "Fetches the bytes of one attachment of an email (its id from read_email's attachments). Returns the file as an embedded resource: text for text files, base64 otherwise.",
    input: { emailId, attachmentId: z.string().describe("The attachment's id") },
    readOnly: true,
    call: ({ emailId, attachmentId }, agentId) =>
      routeCall("GET", `${EMAIL}/attachments/:attachmentId`, { params: { agentId, emailId, attachmentId } }),
  }),
  tool({
    name: "move_email",
    title: "Move an email",
    description:
      'Moves an email to another folder, e.g. "archive" when handled or a folder of your own (created on first use). Returns the email.',
    input: { emailId, folder },
    call: ({ emailId, folder }, agentId) =>
      routeCall("PATCH", EMAIL, { params: { agentId, emailId }, body: { folder } }),
    answer: summary as (body: unknown) => unknown,
  }),
  tool({
    name: "delete_email",
    title: "Delete an email",
    description:
      "Moves an email to the trash, or deletes it for good with permanent: true (frees its storage; cannot be undone).",
    input: { emailId, permanent: z.boolean().optional().describe("Delete for good rather than to the trash") },
    call: ({ emailId, permanent }, agentId) =>
      routeCall("DELETE", EMAIL, { params: { agentId, emailId }, query: { permanent } }),
  }),
  tool({
    name: "send_email",
    title: "Send an email",
    description:
      "Sends a new email from your address. Give text, html or both. Counts against your daily send limit. Returns the sent email's id and thread. To answer a received email, use reply_to_email instead." +
      WAITS,
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
    call: ({ idempotencyKey, ...body }, agentId) =>
      routeCall("POST", "/agents/:agentId/send", { params: { agentId }, body, headers: retrySafely(idempotencyKey) }),
    answer: withRecipientList,
  }),
  tool({
    name: "reply_to_email",
    title: "Reply to an email",
    description:
      "Answers a received email: to its sender (and with replyAll to everyone on it), with Re: subject, quoting and threading done for you. Returns the sent email's id and thread." +
      WAITS,
    input: {
      emailId,
      text: z.string().optional().describe("What you write; the original is quoted below it"),
      html: z.string().optional(),
      replyAll: z.boolean().optional(),
      attachments,
      sendAt,
      idempotencyKey,
    },
    call: ({ emailId, idempotencyKey, ...body }, agentId) =>
      routeCall("POST", `${EMAIL}/reply`, { params: { agentId, emailId }, body, headers: retrySafely(idempotencyKey) }),
  }),
  tool({
    name: "forward_email",
    title: "Forward an email",
    description:
      "Forwards a received email, with its attachments, to other addresses, with your note above it. Returns the sent email's id." +
      WAITS,
    input: {
      emailId,
      to: recipients,
      text: z.string().optional().describe("Your note above it"),
      sendAt,
      idempotencyKey,
    },
    call: ({ emailId, idempotencyKey, ...body }, agentId) =>
      routeCall("POST", `${EMAIL}/forward`, {
        params: { agentId, emailId },
        body,
        headers: retrySafely(idempotencyKey),
      }),
  }),
  tool({
    name: "list_sent",
    title: "List sent emails",
    description: "Lists the emails you have sent, newest first. Returns {data, total, limit, offset}.",
    input: { limit, offset },
    readOnly: true,
    call: pageOf("/agents/:agentId/sent"),
    answer: (body) => {
      const page = body as { data: unknown[] };
      return { ...page, data: page.data.map(withRecipientList) };
    },
  }),
  tool({
    name: "create_draft",
    title: "Write a draft",
    description:
      "Writes an email to send later, for you or your human to look over first; nothing is sent. Every field is optional. With inReplyTo (a received email's id) it is a reply to that email: its recipients and Re: subject are filled in. Send it with send_draft. Returns the draft.",
    input: {
      ...draftFields,
      inReplyTo: z.string().optional().describe("A received email's id, from list_emails: the draft answers it"),
    },
    call: (body, agentId) => routeCall("POST", "/agents/:agentId/drafts", { params: { agentId }, body }),
    answer: withRecipientList,
  }),
  tool({
    name: "update_draft",
    title: "Change a draft",
    description: "Changes the fields you give of a draft; null clears one. Returns the draft.",
    input: { draftId, ...draftFields },
    call: ({ draftId, ...body }, agentId) => routeCall("PATCH", DRAFT, { params: { agentId, draftId }, body }),
    answer: withRecipientList,
  }),
  tool({
    name: "send_draft",
    title: "Send a draft",
    description:
      "Sends a draft as send_email sends a message (it needs to, a subject and text or html; the same limits apply). The draft is gone after; returns the sent email's id and thread." +
      WAITS,
    input: { draftId },
    call: ({ draftId }, agentId) => routeCall("POST", `${DRAFT}/send`, { params: { agentId, draftId } }),
    answer: withRecipientList,
  }),
  tool({
    name: "list_drafts",
    title: "List drafts",
    description: "Lists your drafts, newest first. Returns {data, total, limit, offset}.",
    input: { limit, offset },
    readOnly: true,
    call: pageOf("/agents/:agentId/drafts"),
  }),
  tool({
    name: "list_suppressions",
    title: "List suppressed addresses",
    description:
      "Lists the addresses your mail no longer goes to, newest first: each bounced hard (the address does not exist) or reported your mail as spam. Sending to one is refused with RECIPIENT_SUPPRESSED. Returns {data, total, limit, offset}.",
    input: { limit, offset },
    readOnly: true,
    call: pageOf("/agents/:agentId/suppressions"),
  }),
];

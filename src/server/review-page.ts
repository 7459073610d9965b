import { ServiceError } from "../errors.ts";
import { openQuarantineReview, type QuarantineReview } from "../mailbox/quarantine.ts";
import { htmlTargets } from "../mailbox/reading/index.ts";
import { addressesOf, keptAttachmentsOf } from "../mailbox/records.ts";
import { laterSendAt, openLink, openReview, type Review } from "../mailbox/review.ts";
import type { Services } from "../mailbox/services.ts";
import { escaped, newNonce, notice, pageDocument, pagePolicy } from "./html.ts";

// The page a person opens from a held message's review link: the message as
// it would go (every address it names, every link target and remote resource
// of its HTML, each attachment to open), and Approve and Reject, which call
// POST /review/<token>/approve and /reject. Self-contained like the
// verification page (inline script and style under a nonce, nothing from
// elsewhere, no cookies). The HTML body is shown only in a sandboxed frame:
// no scripts run there, and the page's policy, which the frame inherits, lets
// nothing load from anywhere. Opened again once decided, it says what was
// decided and when.
// A quarantined message's link opens its own page: who sent it, why it is
// held, and its text (escaped; its HTML is never shown, not even framed),
// with Release and Delete, which call POST /review/<token>/release and
// /delete.

export interface ReviewPage {
  status: 200 | 404 | 410;
  html: string;
  headers: Record<string, string>;
}

const SCRIPT = `
const $ = (id) => document.getElementById(id);
function show(title, text, ok) {
  $("decide").hidden = true;
  const result = $("result");
  result.className = ok ? "ok" : "problem";
  $("result-title").textContent = title;
  $("result-text").textContent = text;
  result.hidden = false;
  $("result-title").focus();
}
function outcome(decision) {
  if (decision.status === "rejected") return ["Rejected", "The message will not be sent. The agent is told" + (decision.reason ? ": " + decision.reason : ".")];
  if (decision.sendAt > Date.now() + 5000) return ["Approved", "It goes out at " + new Date(decision.sendAt).toLocaleString() + ". You can close this page."];
  return ["Approved", "It goes out now. You can close this page."];
}
async function decide(step, body) {
  for (const id of ["approve", "reject"]) $(id).disabled = true;
  try {
    const init = { method: "POST" };
    if (body) init.headers = { "Content-Type": "application/json" }, init.body = JSON.stringify(body);
    // The link's own path, whatever prefix PUBLIC_URL puts before it.
    const response = await fetch(location.pathname + "/" + step, init);
    const answer = await response.json().catch(() => ({}));
    if (!response.ok) return show("Not decided", answer.message || "Something went wrong.", false);
    const [title, text] = outcome(answer);
    show(title, text, true);
  } catch {
    show("Not decided", "The service could not be reached. Check your connection and try again.", false);
  } finally {
    for (const id of ["approve", "reject"]) $(id).disabled = false;
  }
}
$("approve").addEventListener("click", () => decide("approve"));
$("reject").addEventListener("click", () => decide("reject", { reason: $("reason").value }));
`;

const list = (addresses: string[]) => escaped(addresses.join(", ")) || "—";

function size(bytes: number): string {
  if (bytes < 1024) return `${bytes} bytes`;
  return bytes < 1024 * 1024 ? `${(bytes / 1024).toFixed(1)} KB` : `${(bytes / 1024 / 1024).toFixed(1)} MB`;
}

/** Each attachment, to open: a link relative to the page's own address, whatever prefix PUBLIC_URL gives it. */
function attachmentsOf(review: Review, token: string): string {
  const files = keptAttachmentsOf(review.draft.attachments);
  if (files.length === 0) return "";
  const items = files.map(
    (file, index) =>
      `<li><a href="${escaped(token)}/attachments/${index}" download>${escaped(file.filename)}</a> (${size(Buffer.byteLength(file.content, "base64"))})</li>`,
  );
  return `<section aria-labelledby="files-title"><h2 id="files-title">Attachments</h2><ul>${items.join("")}</ul></section>`;
}

/** What the HTML links to and would load, as text to read (never followed from here). */
function targetsOf({ draft }: Review): string {
  if (!draft.bodyHtml) return "";
  const { links, loads } = htmlTargets(draft.bodyHtml);
  const listed = (targets: string[]) =>
    targets.length === 0
      ? "<p>None.</p>"
      : `<ul class="targets">${targets.map((t) => `<li>${escaped(t)}</li>`).join("")}</ul>`;
  return `<section aria-labelledby="targets-title"><h2 id="targets-title">Where the HTML points</h2>
<h3>Link targets</h3>${listed(links)}
<h3>Remote images and other content it would load</h3>${listed(loads)}</section>`;
}

function bodiesOf({ draft }: Review): string {
  const text = draft.bodyText
    ? `<pre class="body">${escaped(draft.bodyText)}</pre>`
    : "<p>This message has no plain text: see its HTML below.</p>";
  const html = draft.bodyHtml
    ? `<details><summary>Show the HTML as it would arrive (scripts and remote content blocked)</summary>
<iframe sandbox="" referrerpolicy="no-referrer" title="The message's HTML" srcdoc="${escaped(draft.bodyHtml)}"></iframe></details>`
    : "";
  return `<section aria-labelledby="text-title"><h2 id="text-title">Text</h2>${text}${html}</section>`;
}

function openPage(review: Review, token: string, now: Date, nonce: string): string {
  const { draft, agent, from } = review;
  const when = laterSendAt(draft, now)?.toUTCString() ?? "As soon as you approve";
  const body = `<p>Pigeonhole · a message waits for your decision</p>
<h1>Review a message from ${escaped(agent.name)}</h1>
<section aria-labelledby="message-title">
<h2 id="message-title">The message</h2>
<dl>
<dt>Agent</dt><dd>${escaped(agent.name)} (${escaped(agent.id)})</dd>
<dt>From</dt><dd class="address">${escaped(from)}</dd>
<dt>To</dt><dd class="address">${list(addressesOf(draft.toList))}</dd>
<dt>Cc</dt><dd class="address">${list(addressesOf(draft.ccList))}</dd>
<dt>Bcc</dt><dd class="address">${list(addressesOf(draft.bccList))}</dd>
<dt>Reply-To</dt><dd class="address">${list(draft.replyTo ? [draft.replyTo] : [])}</dd>
<dt>Subject</dt><dd>${escaped(draft.subject ?? "")}</dd>
<dt>Sends</dt><dd>${escaped(when)}</dd>
<dt>Decide by</dt><dd>${escaped(draft.reviewExpiresAt?.toUTCString() ?? "")}</dd>
</dl>
</section>
${bodiesOf(review)}
${targetsOf(review)}
${attachmentsOf(review, token)}
${decisionSections(`<label for="reason">Reason, if you reject it (the agent is told)</label>
<textarea id="reason" name="reason" maxlength="1000"></textarea>
<div class="row"><button id="approve" type="button">Approve and send</button><button id="reject" type="button" class="danger">Reject</button></div>`)}
<script nonce="${nonce}">${SCRIPT}</script>`;
  return pageDocument(`Review: ${draft.subject ?? ""}`, body, nonce);
}

const QUARANTINE_SCRIPT = `
const $ = (id) => document.getElementById(id);
async function decide(step, title, text) {
  for (const id of ["release", "delete"]) $(id).disabled = true;
  let ok = false;
  let message = "The service could not be reached. Check your connection and try again.";
  try {
    // The link's own path, whatever prefix PUBLIC_URL puts before it.
    const response = await fetch(location.pathname + "/" + step, { method: "POST" });
    const answer = await response.json().catch(() => ({}));
    ok = response.ok;
    message = answer.message || "Something went wrong.";
  } catch {}
  if (!ok) for (const id of ["release", "delete"]) $(id).disabled = false;
  $("decide").hidden = ok;
  $("result").className = ok ? "ok" : "problem";
  $("result-title").textContent = ok ? title : "Not done";
  $("result-text").textContent = ok ? text : message;
  $("result").hidden = false;
  $("result-title").focus();
}
$("release").addEventListener("click", () => decide("release", "Released", "The message is in the agent's inbox now. You can close this page."));
$("delete").addEventListener("click", () => decide("delete", "Deleted", "The message is gone for good. You can close this page."));
`;

/** Where a person decides (its controls given), and where the outcome is told; the page's script fills them. */
function decisionSections(controls: string): string {
  return `<section id="decide" aria-labelledby="decide-title">
<h2 id="decide-title">Your decision</h2>
<noscript><p>This page needs JavaScript to send your decision.</p></noscript>
${controls}
</section>
<section id="result" aria-live="polite" hidden>
<h2 id="result-title" tabindex="-1"></h2>
<p id="result-text"></p>
</section>`;
}

const WHY: Record<string, string> = {
  spam: "The spam filter rejected it",
  malware: "The virus scanner found malware in it",
  injection: "It reads as an attempt to instruct the agent",
};

/** A quarantined message, to read and release or delete: its text only, escaped; its HTML never shown. */
function quarantinePage({ held, agent, text }: QuarantineReview, nonce: string): string {
  const body = `<p>Pigeonhole · a message to an agent is held in quarantine</p>
<h1>Quarantined mail for ${escaped(agent.name)}</h1>
<section aria-labelledby="message-title">
<h2 id="message-title">The message</h2>
<dl>
<dt>Agent</dt><dd>${escaped(agent.name)} (${escaped(agent.id)})</dd>
<dt>To</dt><dd class="address">${escaped(held.recipient)}</dd>
<dt>From</dt><dd class="address">${escaped(held.fromAddress)}</dd>
<dt>Subject</dt><dd>${escaped(held.subject ?? "")}</dd>
<dt>Received</dt><dd>${escaped(held.receivedAt.toUTCString())}</dd>
<dt>Why it is held</dt><dd>${escaped(WHY[held.reason] ?? held.reason)}: ${escaped(held.detail)}</dd>
<dt>Size</dt><dd>${escaped(size(held.size))}</dd>
</dl>
</section>
<section aria-labelledby="text-title"><h2 id="text-title">Text</h2>
${text ? `<pre class="body">${escaped(text)}</pre>` : "<p>This message has no text to show.</p>"}
</section>
${decisionSections(`<p>Released, it is filed into the agent's inbox, and the agent reads it. Deleted, it is gone for good.</p>
<div class="row"><button id="release" type="button">Release to the inbox</button><button id="delete" type="button" class="danger">Delete</button></div>`)}
<script nonce="${nonce}">${QUARANTINE_SCRIPT}</script>`;
  return pageDocument(`Quarantined: ${held.subject ?? ""}`, body, nonce);
}

/** The page for a review link, a fresh nonce each time: the message, or why the link no longer decides anything. */
export async function reviewPage(services: Services, token: string): Promise<ReviewPage> {
  const nonce = newNonce();
  const headers = pagePolicy(nonce);
  try {
    const link = await openLink(services, token);
    const html =
      link.quarantinedId !== null
        ? quarantinePage(await openQuarantineReview(services, token), nonce)
        : openPage(await openReview(services, token), token, services.clock.now(), nonce);
    return { status: 200, html, headers };
  } catch (error) {
    if (!(error instanceof ServiceError) || (error.kind !== "NOT_FOUND" && error.kind !== "GONE")) throw error;
    const title = error.kind === "GONE" ? "Already decided" : "Link not found";
    return { status: error.status as 404 | 410, html: notice(title, error.message, nonce), headers };
  }
}

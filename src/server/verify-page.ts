import type { Config } from "../config.ts";
import type { Services } from "../mailbox/services.ts";
import { type Claim, claimOf } from "../mailbox/verification.ts";
import { newNonce, pageHeaders } from "./html.ts";

// The page a person opens from an agent's verifyUrl: one self-contained
// document (its style and script inline under a nonce, nothing fetched from
// elsewhere, no cookies) that calls POST /verify/<token>/start and /complete,
// the same operations as the key's /verify/start and /verify/complete.

export interface VerifyPage {
  status: 200 | 404 | 410;
  html: string;
  headers: Record<string, string>;
}

const escaped = (text: string) =>
  text.replace(/[&<>"']/g, (c) => ({ "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" })[c] ?? c);

const STYLE = `
:root { color-scheme: light; font: 1.0625rem/1.5 system-ui, -apple-system, "Segoe UI", sans-serif; color: #1b1b1b; background: #f4f5f7; }
body { margin: 0; }
main { max-width: 36rem; margin: 0 auto; padding: 1.5rem 1rem 3rem; }
section { background: #fff; border: 1px solid #d0d4db; border-radius: .5rem; padding: 1rem 1.25rem; margin: 1rem 0; }
h1 { font-size: 1.5rem; margin: .5rem 0 0; } h2 { font-size: 1.15rem; margin: 0 0 .5rem; }
.address { font-family: ui-monospace, monospace; word-break: break-all; }
button, .button { display: inline-block; font: inherit; font-weight: 600; padding: .6rem 1rem; border-radius: .4rem; border: 2px solid #0b57d0; background: #0b57d0; color: #fff; text-decoration: none; cursor: pointer; }
button.secondary { background: #fff; color: #0b57d0; }
button:focus-visible, .button:focus-visible, input:focus-visible { outline: 3px solid #ffb300; outline-offset: 2px; }
label { display: block; font-weight: 600; margin-bottom: .25rem; }
input { font: inherit; width: 100%; box-sizing: border-box; padding: .55rem; border: 1px solid #5c6370; border-radius: .4rem; }
.code { font: 700 1.4rem ui-monospace, monospace; letter-spacing: .08em; }
blockquote { margin: .5rem 0; padding: .5rem .75rem; background: #f4f5f7; border-left: 4px solid #5c6370; white-space: pre-wrap; }
.row { display: flex; flex-wrap: wrap; gap: .5rem; align-items: center; margin: .5rem 0; }
.ok { border-color: #137333; } .ok h2 { color: #137333; }
.problem { border-color: #b3261e; } .problem h2 { color: #b3261e; }
[hidden] { display: none !important; }
`;

/** What a person reads for each refusal of the spec, by its code (or status), before the service's own words. */
const PROBLEMS = {
  INVALID_TWEET: "That post did not do it.",
  VERIFICATION_EXPIRED: "The code has expired. Get a new code, post it again, and paste the new post's address.",
  SOCIAL_ALREADY_USED:
    "That X account has already verified another agent: each account verifies one. Post from another account.",
  NOT_FOUND: "This link no longer works: the agent was deleted.",
  SERVICE_UNAVAILABLE: "X could not be reached just now. Wait a minute and try again.",
} as const;

const SCRIPT = `
const token = location.pathname.split("/")[2];
const $ = (id) => document.getElementById(id);
const PROBLEMS = ${JSON.stringify(PROBLEMS)};
async function call(step, body) {
  const init = { method: "POST" };
  if (body) init.headers = { "Content-Type": "application/json" }, init.body = JSON.stringify(body);
  let response;
  try { response = await fetch("/verify/" + token + "/" + step, init); }
  catch { throw { message: "The service could not be reached. Check your connection and try again." }; }
  const answer = await response.json().catch(() => ({}));
  if (!response.ok) throw answer;
  return answer;
}
function show(id, focus) { const el = $(id); el.hidden = false; if (focus) el.querySelector("h2").focus(); }
function problem(error) {
  const lead = PROBLEMS[error.code] || PROBLEMS[error.statusCode === 404 ? "NOT_FOUND" : error.statusCode === 503 ? "SERVICE_UNAVAILABLE" : ""] || "";
  // The API names its field; a person reads what the field is.
  const words = (error.message || "").replace(/^tweetUrl /, "The post's address ").replaceAll("tweetUrl", "the post's address");
  $("problem-text").textContent = [lead, words].filter(Boolean).join(" ");
  $("result").hidden = true;
  show("problem", true);
}
$("start").addEventListener("click", async () => {
  $("start").disabled = true;
  try {
    const challenge = await call("start");
    $("code").textContent = challenge.verificationCode;
    $("post-text").textContent = challenge.tweetText;
    $("post-link").href = challenge.socialIntentUrl;
    $("expires").textContent = new Date(challenge.expiresAt).toLocaleTimeString([], { hour: "2-digit", minute: "2-digit" });
    $("problem").hidden = true;
    show("post", true);
    show("check");
  } catch (error) { problem(error); }
  $("start").disabled = false;
});
$("copy").addEventListener("click", async () => {
  try { await navigator.clipboard.writeText($("post-text").textContent); $("copied").textContent = "Copied."; }
  catch { getSelection().selectAllChildren($("post-text")); $("copied").textContent = "Selected: copy it with your keyboard."; }
});
$("check-form").addEventListener("submit", async (event) => {
  event.preventDefault();
  $("verify").disabled = true;
  try {
    const result = await call("complete", { tweetUrl: $("tweet-url").value.trim() });
    $("who").textContent = "@" + result.socialUsername;
    $("problem").hidden = true;
    for (const id of ["intro", "post", "check"]) $(id).hidden = true;
    show("result", true);
  } catch (error) { problem(error); }
  $("verify").disabled = false;
});
`;

function document(title: string, body: string, nonce: string): string {
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="referrer" content="no-referrer">
<title>${escaped(title)}</title>
<style nonce="${nonce}">${STYLE}</style>
</head>
<body><main>
${body}
</main></body>
</html>`;
}

function openPage(agent: { name: string }, address: string, config: Config, nonce: string): string {
  const body = `<p>Pigeonhole · ${escaped(config.publicUrl.replace(/^https?:\/\//, ""))}</p>
<h1>Verify ${escaped(agent.name)}</h1>
<section id="intro" aria-labelledby="intro-title">
<h2 id="intro-title" tabindex="-1">An AI agent asks you to vouch for it</h2>
<p>The agent <strong>${escaped(agent.name)}</strong> wants the mailbox <span class="address">${escaped(address)}</span>. To prove that a person stands behind it, post a short message on X from your account. Each X account can verify one agent.</p>
<noscript><p>This page needs JavaScript to check your post.</p></noscript>
<button id="start" type="button">Get my code</button>
</section>
<section id="post" aria-labelledby="post-title" hidden>
<h2 id="post-title" tabindex="-1">1. Post this on X</h2>
<p>Your code: <span id="code" class="code"></span> (valid until <span id="expires"></span>)</p>
<blockquote id="post-text"></blockquote>
<div class="row">
<a id="post-link" class="button" href="#" target="_blank" rel="noopener noreferrer">Post on X</a>
<button id="copy" type="button" class="secondary">Copy the text</button>
<span id="copied" role="status"></span>
</div>
<p>Keep the post public: it must mention @${escaped(config.socialHandle)} and contain the code.</p>
</section>
<section id="check" aria-labelledby="check-title" hidden>
<h2 id="check-title" tabindex="-1">2. Paste your post's address</h2>
<form id="check-form">
<label for="tweet-url">Address of your post</label>
<input id="tweet-url" name="tweetUrl" type="url" inputmode="url" autocomplete="off" required placeholder="https://x.com/you/status/1234567890">
<div class="row"><button id="verify" type="submit">Verify</button></div>
</form>
</section>
<section id="problem" class="problem" aria-labelledby="problem-title" role="alert" hidden>
<h2 id="problem-title" tabindex="-1">Not verified yet</h2>
<p id="problem-text"></p>
</section>
<section id="result" class="ok" aria-labelledby="result-title" hidden>
<h2 id="result-title" tabindex="-1">Verified</h2>
<p><strong>${escaped(agent.name)}</strong> (<span class="address">${escaped(address)}</span>) is verified by <strong id="who"></strong>. It can now receive and send mail; you can close this page.</p>
</section>
<script nonce="${nonce}">${SCRIPT}</script>`;
  return document(`Verify ${agent.name}`, body, nonce);
}

function notice(title: string, text: string, nonce: string): string {
  return document(title, `<h1>${escaped(title)}</h1>\n<section><p>${escaped(text)}</p></section>`, nonce);
}

function pageFor(claim: Claim, config: Config, nonce: string): Pick<VerifyPage, "status" | "html"> {
  switch (claim.state) {
    case "open":
      if (config.verificationMode === "admin") {
        return {
          status: 200,
          html: notice(
            "The operator verifies agents here",
            `${claim.agent.name} (${claim.address}) waits to be verified. On this service its operator verifies agents, not a post on X: ask them to verify this agent within 24 hours of its registering.`,
            nonce,
          ),
        };
      }
      return { status: 200, html: openPage(claim.agent, claim.address, config, nonce) };
    case "verified":
      return {
        status: 410,
        html: notice(
          "Already verified",
          `${claim.agent.name} (${claim.address}) is already verified${claim.agent.socialUsername ? ` by @${claim.agent.socialUsername}` : ""}. This link has done its work; there is nothing more to do.`,
          nonce,
        ),
      };
    case "expired":
      return {
        status: 410,
        html: notice(
          "This link has expired",
          "Agents must be verified within 24 hours of registering, and this one was not. Ask the agent to register again and send you its new link.",
          nonce,
        ),
      };
    case "unknown":
      return {
        status: 404,
        html: notice(
          "Link not found",
          "This verification link is not valid: it may be mistyped, or its agent was deleted. Ask the agent for its link again.",
          nonce,
        ),
      };
  }
}

/** The page for a claim token, a fresh nonce each time. */
export async function verifyPage(services: Services, claimToken: string): Promise<VerifyPage> {
  const nonce = newNonce();
  const { status, html } = pageFor(await claimOf(services, claimToken), services.config, nonce);
  const headers = pageHeaders([
    "default-src 'none'",
    `script-src 'nonce-${nonce}'`,
    `style-src 'nonce-${nonce}'`,
    "connect-src 'self'",
  ]);
  return { status, html, headers };
}

import type { Config } from "../config.ts";
import { UNVERIFIED_LIFETIME_HOURS } from "../mailbox/lifetimes.ts";
import type { Services } from "../mailbox/services.ts";
import { type Claim, claimOf } from "../mailbox/verification.ts";
import { escaped, newNonce, notice, pageDocument, pagePolicy } from "./html.ts";

// The page a person opens from an agent's or a pod's verifyUrl: one self-contained
// document (its style and script inline under a nonce, nothing fetched from
// elsewhere, no cookies) that calls POST /verify/<token>/start and /complete,
// the same operations as the key's /verify/start and /verify/complete.

type OpenClaim = Extract<Claim, { owner: unknown }>;

export interface VerifyPage {
  status: 200 | 404 | 410;
  html: string;
  headers: Record<string, string>;
}

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

/** Who asks a person to vouch for it, in the page's words: an agent, or a pod of agents. */
function introOf({ owner, shown }: OpenClaim): { title: string; text: string } {
  const name = `<strong>${escaped(owner.record.name)}</strong>`;
  const at = `<span class="address">${escaped(shown)}</span>`;
  if (owner.kind === "pod") {
    return {
      title: "A pod of AI agents asks you to vouch for it",
      text: `The pod ${name} (${at}) holds AI agents with mailboxes here. To prove that a person stands behind it, post a short message on X from your account: its agents are verified with it, and those it makes from now on. Each X account can verify one pod (and one agent).`,
    };
  }
  return {
    title: "An AI agent asks you to vouch for it",
    text: `The agent ${name} wants the mailbox ${at}. To prove that a person stands behind it, post a short message on X from your account. Each X account can verify one agent.`,
  };
}

function openPage(claim: OpenClaim, config: Config, nonce: string): string {
  const { name } = claim.owner.record;
  const intro = introOf(claim);
  const body = `<p>Pigeonhole · ${escaped(config.publicUrl.replace(/^https?:\/\//, ""))}</p>
<h1>Verify ${escaped(name)}</h1>
<section id="intro" aria-labelledby="intro-title">
<h2 id="intro-title" tabindex="-1">${intro.title}</h2>
<p>${intro.text}</p>
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
<p><strong>${escaped(name)}</strong> (<span class="address">${escaped(claim.shown)}</span>) is verified by <strong id="who"></strong>. ${claim.owner.kind === "pod" ? "Its agents" : "It"} can now receive and send mail; you can close this page.</p>
</section>
<script nonce="${nonce}">${SCRIPT}</script>`;
  return pageDocument(`Verify ${name}`, body, nonce);
}

function pageFor(claim: Claim, config: Config, nonce: string): Pick<VerifyPage, "status" | "html"> {
  switch (claim.state) {
    case "open":
      if (config.verificationMode === "admin") {
        const { kind, record } = claim.owner;
        const within = kind === "agent" ? ` within ${UNVERIFIED_LIFETIME_HOURS} hours of its registering` : "";
        return {
          status: 200,
          html: notice(
            "The operator verifies agents here",
            `${record.name} (${claim.shown}) waits to be verified. On this service its operator verifies agents and pods, not a post on X: ask them to verify this ${kind}${within}.`,
            nonce,
          ),
        };
      }
      return { status: 200, html: openPage(claim, config, nonce) };
    case "verified":
      return {
        status: 410,
        html: notice(
          "Already verified",
          `${claim.owner.record.name} (${claim.shown}) is already verified${claim.owner.record.socialUsername ? ` by @${claim.owner.record.socialUsername}` : ""}. This link has done its work; there is nothing more to do.`,
          nonce,
        ),
      };
    case "expired":
      return {
        status: 410,
        html: notice(
          "This link has expired",
          `Agents must be verified within ${UNVERIFIED_LIFETIME_HOURS} hours of registering, and this one was not. Ask the agent to register again and send you its new link.`,
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
  return { status, html, headers: pagePolicy(nonce) };
}

import { request } from "./graphql.ts";
import { CreateAgent, Mailbox, SendEmail, VerificationStatus } from "./operations.ts";

// A typed GraphQL client of a Pigeonhole instance: registers an agent, hands
// its verification link to its human, waits until the human has verified it,
// then lists its folders and mail and sends one email.
//
//   npx tsx examples/typed-client/main.ts http://localhost:3000 someone@example.com
//
// Each step prints one JSON line.

const [url = "http://localhost:3000", to = "someone@example.com"] = process.argv.slice(2);

const say = (step: string, value: unknown) => console.log(JSON.stringify({ step, ...(value as object) }));

async function waitUntilVerified(apiKey: string): Promise<number> {
  for (;;) {
    const { verificationStatus } = await request(url, VerificationStatus, {}, apiKey);
    if (verificationStatus.verifiedAt !== null && verificationStatus.verifiedAt !== undefined) {
      return verificationStatus.verifiedAt;
    }
    await new Promise((resolve) => setTimeout(resolve, 500));
  }
}

const id = `typed-${Date.now().toString(36)}`;
const { createAgent } = await request(url, CreateAgent, { input: { id, name: "Typed client" } });
say("registered", { email: createAgent.agent.email, verifyUrl: createAgent.verifyUrl });
const { apiKey } = createAgent;

say("verified", { verifiedAt: await waitUntilVerified(apiKey) });

const { me } = await request(url, Mailbox, {}, apiKey);
say("mailbox", { folders: me?.folders, inbox: me?.emails.total });

const { sendEmail } = await request(
  url,
  SendEmail,
  { agentId: id, input: { to: [to], subject: "Hello from a typed client", text: "Sent with gql.tada." } },
  apiKey,
);
say("sent", sendEmail);

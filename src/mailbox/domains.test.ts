import { beforeAll, describe, expect, test } from "vitest";
import { memoryOfFile } from "../testing/memory.ts";
import { createAgent, deleteAgent } from "./agents.ts";
import {
  addDomain,
  deleteDomain,
  getDomain,
  listDomains,
  openDomains,
  rotateDkim,
  servedDomains,
  setDomainOpen,
  zoneOf,
} from "./domains.ts";
import { sendEmail } from "./outbox.ts";

// The domains an instance serves: MAIL_DOMAINS', always open to
// registration, and the operator's, closed until opened; each with its DKIM
// key and the records to publish. (verify asks DNS: the tests of the running
// service cover it.)

const memory = memoryOfFile();
beforeAll(async () => {
  await addDomain(memory.services, "Other.Example.", false);
});

const register = (id: string, domain: string, by: "self" | "operator" = "self") =>
  createAgent(memory.services, { id, name: id, domain }, by);

describe("serving", () => {
  test("MAIL_DOMAINS' domain first, then the operator's, named in lower case without the final dot", async () => {
    expect(await servedDomains(memory.services)).toEqual(["agents.example", "other.example"]);
    expect(await openDomains(memory.services)).toEqual(["agents.example"]);
    expect((await listDomains(memory.services)).map((d) => [d.name, d.source, d.open])).toEqual([
      ["agents.example", "config", true],
      ["other.example", "operator", false],
    ]);
  });

  test("a closed domain takes the operator's agents only, until it is opened", async () => {
    await expect(register("early", "other.example")).rejects.toThrow(/closed to registration/);
    expect((await register("placed", "OTHER.example", "operator")).agent.domain).toBe("other.example");
    await setDomainOpen(memory.services, "other.example", true);
    expect((await register("opener", "other.example")).agent.domain).toBe("other.example");
    await setDomainOpen(memory.services, "other.example", false);
    await expect(register("unserved", "nowhere.example")).rejects.toThrow(/is not served here/);
  });

  test("names are checked, and a domain is added once", async () => {
    await expect(addDomain(memory.services, "not a domain", false)).rejects.toThrow(/is not a domain name/);
    await expect(addDomain(memory.services, "other.example", false)).rejects.toMatchObject({ kind: "CONFLICT" });
    await expect(getDomain(memory.services, "nowhere.example")).rejects.toMatchObject({ kind: "NOT_FOUND" });
  });

  test("MAIL_DOMAINS' domains are the environment's to change", async () => {
    await expect(setDomainOpen(memory.services, "agents.example", false)).rejects.toThrow(/MAIL_DOMAINS/);
    await expect(deleteDomain(memory.services, "agents.example")).rejects.toThrow(/MAIL_DOMAINS/);
  });

  test("a domain where agents have addresses is kept; without them it can go", async () => {
    const gone = await addDomain(memory.services, "gone.example", false);
    const { agent } = await register("tenant", gone.name, "operator");
    await expect(deleteDomain(memory.services, gone.name)).rejects.toThrow(
      "1 agents have their address at gone.example",
    );
    await deleteAgent(memory.services, agent);
    expect((await deleteDomain(memory.services, gone.name)).success).toBe(true);
    expect(await servedDomains(memory.services)).not.toContain("gone.example");
  });
});

describe("DKIM and DNS", () => {
  test("the zone names MX, SPF, the signing key and DMARC", async () => {
    const zone = await zoneOf(memory.services, "agents.example");
    const { selector } = await getDomain(memory.services, "agents.example");
    expect(zone).toContain("agents.example. 3600 IN MX 10 mail.agents.example.");
    expect(zone).toMatch(/agents\.example\. 3600 IN TXT "v=spf1 a:mail\.agents\.example/);
    expect(zone).toContain(`${selector}._domainkey.agents.example. 3600 IN TXT "v=DKIM1; k=rsa; p=`);
    expect(zone).toContain("_dmarc.agents.example. 3600 IN TXT");
  });

  test("sent mail is signed with the domain's key; a rotation now moves signing to a new selector", async () => {
    const agent = await memory.agent("signer");
    const before = (await getDomain(memory.services, "agents.example")).selector;
    const send = () => sendEmail(memory.services, agent, { to: ["pat@elsewhere.example"], subject: "S", text: "." });
    await send();
    expect(memory.mailer.handed.at(-1)?.raw).toMatch(
      new RegExp(`DKIM-Signature:[^]*d=agents\\.example;[^]*s=${before};`),
    );
    const rotated = await rotateDkim(memory.services, "agents.example", true);
    expect(rotated.selector).not.toBe(before);
    expect(rotated.removable.map((record) => record.name)).toEqual([`${before}._domainkey.agents.example`]);
    await send();
    expect(memory.mailer.handed.at(-1)?.raw).toMatch(new RegExp(`s=${rotated.selector};`));
  });
});

import { describe, expect, test } from "vitest";
import { deleteExpiredAgents } from "../src/mailbox/cleanup.ts";
import { createAgent, createVerifiedAgent } from "./support/api.ts";
import { served } from "./support/served.ts";

const { svc, api, x } = served();

const HOUR = 60 * 60 * 1000;

async function alive(key: string): Promise<boolean> {
  const status = (await api.get("/verify/status", { key })).status;
  expect([200, 401]).toContain(status);
  return status === 200;
}

describe("the cleanup job", () => {
  test("deletes unverified agents 24 hours after creation and keeps verified ones", async () => {
    const unverified = await createAgent(api);
    const verified = await createVerifiedAgent(api, x);
    svc.clock.advance(24 * HOUR - 60_000);
    expect(await deleteExpiredAgents(svc.service.services)).toBe(0);
    expect(await alive(unverified.apiKey)).toBe(true);
    svc.clock.advance(60_000);
    expect(await deleteExpiredAgents(svc.service.services)).toBe(1);
    expect(await alive(unverified.apiKey)).toBe(false);
    expect((await api.get(`/agents/${verified.id}`, { key: verified.apiKey })).status).toBe(200);
    expect(svc.logs).toContainEqual({
      level: "info",
      event: "expired_agents_deleted",
      fields: { count: 1 },
      instance: 0,
    });
  });

  test("is safe when several instances run it at once", async () => {
    const agents = await Promise.all(Array.from({ length: 12 }, () => createAgent(api)));
    const instances = [svc.service, await svc.startAnother(), await svc.startAnother()];
    svc.clock.advance(25 * HOUR);
    const counts = await Promise.all(instances.map((instance) => deleteExpiredAgents(instance.services)));
    expect(counts.reduce((a, b) => a + b, 0)).toBe(12);
    for (const agent of agents) expect(await alive(agent.apiKey)).toBe(false);
  });

  test("the scheduled job runs every minute and deletes what is due", async () => {
    const agent = await createAgent(api);
    const job = svc.service.cleanup;
    expect(job.getPattern()).toBe("* * * * *");
    expect((job.nextRun()?.getTime() ?? Infinity) - Date.now()).toBeLessThanOrEqual(60_000);
    svc.clock.advance(25 * HOUR);
    await job.trigger();
    expect(await alive(agent.apiKey)).toBe(false);
  });

  test("send counters of past days go, today's stay", async () => {
    const agent = await createVerifiedAgent(api, x);
    const { prisma } = svc.service.services;
    const today = svc.clock.now().toISOString().slice(0, 10);
    await prisma.sendCounter.createMany({
      data: [
        { agentId: agent.id, day: "2020-01-01", count: 3 },
        { agentId: agent.id, day: today, count: 1 },
      ],
    });
    await svc.service.cleanup.trigger();
    expect((await prisma.sendCounter.findMany({ where: { agentId: agent.id } })).map((c) => c.day)).toEqual([today]);
  });

  test("an expired agent the job has not reached yet no longer holds its id", async () => {
    const old = await createAgent(api);
    svc.clock.advance(24 * HOUR);
    const again = await api.post("/agents", { body: { id: old.id, name: "new owner" } });
    expect(again.status).toBe(201);
    expect(await alive(old.apiKey)).toBe(false);
    expect(await alive(again.body.apiKey)).toBe(true);
  });
});

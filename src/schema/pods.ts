import type { PodView } from "../mailbox/pods.ts";
import { builder } from "./builder.ts";

// The pods area in GraphQL: a pod as every door shows it. The operator's
// acts on pods are fields of `admin` (admin.ts).

export const PodType = builder.objectRef<PodView>("Pod").implement({
  description: "A group of agents under one owner, made by the operator",
  fields: (t) => ({
    id: t.exposeID("id", { description: "1-64 lower-case letters, digits, dashes and underscores" }),
    name: t.exposeString("name"),
    domains: t.exposeStringList("domains", {
      description: "Served domains it holds: its agents have their address there, and nobody else registers there",
    }),
    agents: t.exposeInt("agents", { description: "How many agents it holds" }),
    createdAt: t.expose("createdAt", { type: "Timestamp" }),
  }),
});

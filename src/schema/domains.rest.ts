import { graphql } from "../rest/graphql.ts";
import { declare } from "./declare.ts";

// The domains area's operations as REST and MCP see them (see declare.ts);
// the operator's are in admin.rest.ts.

export const domainOperations = [
  declare({
    method: "GET",
    path: "/domains",
    access: "open",
    tag: "agents",
    summary: "The domains an agent may register on (createAgent's domain), the default first. No key needed.",
    operation: graphql("query Domains { domains }"),
    respond: ({ domains }) => ({ domains }),
  }),
];

import type { HttpBindings } from "@hono/node-server";

/** What the app is served with: @hono/node-server hands each request Node's own response beside it. */
export type Env = { Bindings: HttpBindings };

import { connect } from "node:net";
import { describe, expect, test } from "vitest";
import { Api, createAgent, createVerifiedAgent, uniqueId } from "./support/api.ts";
import { served } from "./support/served.ts";
import { withService } from "./support/service.ts";
import { waitFor } from "./support/wait.ts";

const { svc, api, x } = served();

/** Sends bytes as they are (fetch would refuse to send a malformed request) and reads the answer to the end. */
function rawExchange(host: string, port: number, request: string): Promise<string> {
  return new Promise((resolve, reject) => {
    const socket = connect(port, host, () => socket.end(request));
    const chunks: Buffer[] = [];
    socket.on("data", (chunk: Buffer) => chunks.push(chunk));
    socket.on("end", () => resolve(Buffer.concat(chunks).toString("utf8")));
    socket.on("error", reject);
  });
}

describe("request bodies", () => {
  test.each([
    ["malformed JSON", "{", "application/json", "not valid JSON"],
    ["an empty body", "", "application/json", "not valid JSON"],
    ["an array", "[]", "application/json", "must be a JSON object"],
    ["null", "null", "application/json", "must be a JSON object"],
    ["a number", "5", "application/json", "must be a JSON object"],
    ["a wrong Content-Type", '{"id":"a","name":"b"}', "text/plain", "Content-Type must be application/json"],
    ["no Content-Type", '{"id":"a","name":"b"}', "", "Content-Type must be application/json"],
  ])("400 for %s", async (_, body, type, message) => {
    const reply = await api.post("/agents", { body, headers: { "content-type": type } });
    expect(reply.status).toBe(400);
    expect(reply.body).toEqual({ error: "Bad Request", statusCode: 400, message: expect.stringContaining(message) });
  });

  test("a JSON Content-Type with a charset is fine, and unknown fields are ignored", async () => {
    const reply = await api.post("/agents", {
      body: JSON.stringify({ id: uniqueId(), name: "n", extra: true }),
      headers: { "content-type": "application/json; charset=utf-8" },
    });
    expect(reply.status).toBe(201);
  });

  test("endpoints without a body take a bare request, whatever is sent along", async () => {
    const agent = await createAgent(api);
    const bare = await fetch(`${svc.url}/verify/start`, {
      method: "POST",
      headers: { authorization: `Bearer ${agent.apiKey}` },
    });
    expect(bare.status).toBe(200);
    const withJson = await api.post("/verify/start", { key: agent.apiKey, body: "{}" });
    expect(withJson.status).toBe(200);
    const rotated = await api.post(`/agents/${agent.id}/rotate-key`, { key: agent.apiKey, body: "not json" });
    expect(rotated.status).toBe(200);
  });

  test("413 in the spec's shape for a body over 1 MiB", async () => {
    const reply = await api.post("/agents", { body: { id: "big", name: "x".repeat(1024 * 1024) } });
    expect(reply.status).toBe(413);
    expect(reply.body).toEqual({ error: "Payload Too Large", statusCode: 413, message: expect.any(String) });
  });
});

describe("routes", () => {
  test.each(["/no/such/thing", "/verify/status/", "/agents/"])("404 JSON for the unknown path %s", async (path) => {
    const reply = await api.get(path);
    expect(reply.status).toBe(404);
    expect(reply.body).toEqual({ error: "Not Found", statusCode: 404, message: expect.any(String) });
  });

  test.each(["ph_abc", "Token abc", "Bearer", "Bearer a b", "Basic dXNlcjpwYXNz"])(
    "an Authorization header of another form (%s) is an invalid key, and the answer gives the scheme",
    async (authorization) => {
      const reply = await api.get("/verify/status", { headers: { authorization } });
      expect(reply.status).toBe(401);
      expect(reply.body).toEqual({
        error: "Unauthorized",
        statusCode: 401,
        message: "API key is invalid: send it as Authorization: Bearer <API key>",
      });
    },
  );

  test.each([
    ["PUT", "/agents/someone", "GET, DELETE"],
    ["GET", "/agents", "POST"],
    ["PATCH", "/verify/start", "POST"],
    ["POST", "/verify/status", "GET"],
    ["GET", "/agents/someone/rotate-key", "POST"],
    ["PUT", "/graphql", "GET, POST"],
    ["POST", "/healthz", "GET"],
  ])("405 JSON for %s %s, naming what is allowed", async (method, path, allow) => {
    const reply = await api.call(method, path);
    expect(reply.status).toBe(405);
    expect(reply.headers.get("allow")).toBe(allow);
    expect(reply.body).toEqual({ error: "Method Not Allowed", statusCode: 405, message: expect.any(String) });
  });

  test("431 in the spec's shape for a URL over Node's 16 KiB of headers", async () => {
    const reply = await api.get(`/agents/someone/emails?folder=${"y".repeat(17 * 1024)}`);
    expect(reply.status).toBe(431);
    expect(reply.body).toEqual({
      error: "Request Header Fields Too Large",
      statusCode: 431,
      message: expect.any(String),
    });
  });

  test("400 in the spec's shape for a request that is not HTTP", async () => {
    const { hostname, port } = new URL(svc.url);
    const answer = await rawExchange(hostname, Number(port), "GET / HTTP/1.1\r\nHost: x\r\nno colon here\r\n\r\n");
    const [head = "", body = ""] = answer.split("\r\n\r\n");
    expect(head).toMatch(/^HTTP\/1\.1 400 Bad Request\r\n/);
    expect(head).toContain("Content-Type: application/json");
    expect(JSON.parse(body)).toEqual({ error: "Bad Request", statusCode: 400, message: expect.any(String) });
  });

  test.each(["OPTIONS", "GET", "POST"])("400 in the spec's shape for %s * (no path to route)", async (method) => {
    const { hostname, port } = new URL(svc.url);
    const answer = await rawExchange(
      hostname,
      Number(port),
      `${method} * HTTP/1.1\r\nHost: x\r\nContent-Length: 0\r\nConnection: close\r\n\r\n`,
    );
    const [head = "", body = ""] = answer.split("\r\n\r\n");
    expect(head).toMatch(/^HTTP\/1\.1 400 Bad Request\r\n/);
    expect(head.toLowerCase()).toContain("content-type: application/json");
    expect(JSON.parse(body)).toEqual({ error: "Bad Request", statusCode: 400, message: expect.any(String) });
  });

  test("an idle keep-alive connection outlasts Node's 5 s, so a request sent on it is never reset", async () => {
    const { hostname, port } = new URL(svc.url);
    const socket = connect(Number(port), hostname);
    const answers: string[] = [];
    socket.on("data", (chunk: Buffer) => answers.push(chunk.toString()));
    const ask = () => socket.write("GET /healthz HTTP/1.1\r\nHost: x\r\n\r\n");
    ask();
    await waitFor(() => answers.join("").includes('"reachable"'));
    await new Promise((resolve) => setTimeout(resolve, 6_000));
    expect(socket.destroyed || socket.readableEnded).toBe(false);
    ask();
    await waitFor(() => answers.join("").split("HTTP/1.1 200").length === 3);
    expect(answers.join("")).toMatch(/Keep-Alive: timeout=65/);
    socket.destroy();
  }, 15_000);

  test("GET /healthz reports the database reachable", async () => {
    const reply = await api.get("/healthz");
    expect(reply.status).toBe(200);
    expect(reply.body).toEqual({ status: "ok", database: "reachable" });
  });
});

describe("GraphQL", () => {
  test("the same operations as REST, with the same answers", async () => {
    const id = uniqueId();
    const created = await api.graphql(
      `mutation($input: CreateAgentInput!) { createAgent(input: $input) { agent { id email verified metadata } apiKey } }`,
      { input: { id, name: "Graph", metadata: { a: [1] } } },
    );
    expect(created.status).toBe(200);
    expect(created.body.data.createAgent.agent).toEqual({
      id,
      email: `${id}@mail.example`,
      verified: false,
      metadata: { a: [1] },
    });
    const key = created.body.data.createAgent.apiKey;
    const status = await api.graphql("{ verificationStatus { verified hasActiveCode codeExpiresAt } }", {}, key);
    expect(status.body.data.verificationStatus).toEqual({ verified: false, hasActiveCode: false, codeExpiresAt: null });
    const agent = await createVerifiedAgent(api, x);
    const viaGraphql = await api.graphql(
      `query($id: ID!) { agent(id: $id) { id email name createdAt verified verifiedAt storageUsed storageLimit } }`,
      { id: agent.id },
      agent.apiKey,
    );
    const viaRest = await api.get(`/agents/${agent.id}`, { key: agent.apiKey });
    expect(viaGraphql.body.data.agent).toEqual(viaRest.body);
  });

  test.each([
    ["no key", "{ verificationStatus { verified } }", undefined, "UNAUTHORIZED", 401],
    ["a wrong key", "{ verificationStatus { verified } }", "ph_wrong", "UNAUTHORIZED", 401],
  ])("errors carry the code and status in extensions: %s", async (_, query, key, code, status) => {
    const reply = await api.graphql(query, {}, key);
    expect(reply.body.errors[0].extensions).toEqual({ code, status });
  });

  test("spec codes take the place of the generic ones", async () => {
    const agent = await createAgent(api);
    const reply = await api.graphql(`query($id: ID!) { agent(id: $id) { id } }`, { id: agent.id }, agent.apiKey);
    expect(reply.body.data).toEqual({ agent: null });
    expect(reply.body.errors[0].extensions).toEqual({ code: "NOT_VERIFIED", status: 403 });
    const taken = await api.graphql(`mutation($i: CreateAgentInput!) { createAgent(input: $i) { apiKey } }`, {
      i: { id: agent.id, name: "again" },
    });
    expect(taken.body.errors[0].extensions).toEqual({ code: "CONFLICT", status: 409 });
    const bad = await api.graphql(`mutation($i: CreateAgentInput!) { createAgent(input: $i) { apiKey } }`, {
      i: { id: "no spaces", name: "n" },
    });
    expect(bad.body.errors[0].extensions).toEqual({ code: "BAD_REQUEST", status: 400 });
  });

  test.each([
    ["a missing field", `mutation { createAgent(input: { id: "x" }) { apiKey } }`],
    ["a wrong type", `mutation { createAgent(input: { id: 5, name: "n" }) { apiKey } }`],
    ["an unknown field", `{ nothing }`],
    ["a syntax error", `{ agent(`],
  ])("input errors are BAD_REQUEST: %s", async (_, query) => {
    const reply = await api.graphql(query);
    expect(reply.body.errors[0].extensions).toEqual({ code: "BAD_REQUEST", status: 400 });
  });

  test("a variable of the wrong type is BAD_REQUEST too", async () => {
    const reply = await api.graphql(`mutation($i: CreateAgentInput!) { createAgent(input: $i) { apiKey } }`, {
      i: { id: "x" },
    });
    expect(reply.body.errors[0].extensions).toEqual({ code: "BAD_REQUEST", status: 400 });
  });

  test("the key hash is not in the schema", async () => {
    const agent = await createVerifiedAgent(api, x);
    const reply = await api.graphql(
      `query($id: ID!) { agent(id: $id) { apiKeyHash } }`,
      { id: agent.id },
      agent.apiKey,
    );
    expect(reply.body.errors[0].message).toContain('Cannot query field "apiKeyHash"');
  });

  test("GraphiQL answers a browser", async () => {
    const response = await fetch(`${svc.url}/graphql`, { headers: { accept: "text/html" } });
    expect(response.status).toBe(200);
    expect(await response.text()).toContain("GraphiQL");
  });
});

describe("/graphql over HTTP", () => {
  // A plain JSON POST is answered straight from the pipeline, anything else by
  // Yoga; a weighted Accept header sends the same request the other way.
  test.each([
    ["a query", { query: "{ __typename }" }],
    ["a syntax error", { query: "{ agent(" }],
    ["a validation error", { query: "{ nothing }" }],
    ["a refused key", { query: "{ verificationStatus { verified } }" }],
    ["a NUL in variables", { query: "query($s: String) { __typename }", variables: { s: "a\u0000" } }],
    ["an aliases limit", { query: `{ ${Array.from({ length: 31 }, (_, i) => `a${i}: __typename`).join(" ")} }` }],
    ["a body that is not an object", [1]],
  ])("%s: the direct path answers as Yoga does", async (_, body) => {
    for (const accept of ["application/json", "application/graphql-response+json"]) {
      const direct = await api.post("/graphql", { body, headers: { accept, authorization: "Bearer ph_wrong" } });
      const viaYoga = await api.post("/graphql", {
        body,
        headers: { accept: `${accept};q=0.9`, authorization: "Bearer ph_wrong" },
      });
      expect(direct.status).toBe(viaYoga.status);
      expect(direct.headers.get("content-type")).toBe(viaYoga.headers.get("content-type"));
      expect(direct.body).toEqual(viaYoga.body);
    }
  });

  test("media types compare without case: APPLICATION/JSON is JSON on either path", async () => {
    for (const accept of ["application/json", "APPLICATION/JSON;q=0.9"]) {
      for (const body of [{ query: "{ __typename }" }, '{"query":"{ __typename }","variables":1e308}']) {
        const reply = await api.post("/graphql", { body, headers: { "content-type": "APPLICATION/JSON", accept } });
        expect(reply.status, `${accept} ${JSON.stringify(body)}`).toBe(200);
        expect(reply.body.data ?? reply.body.errors[0].extensions.code).toBeTruthy();
      }
    }
    const refused = await api.post("/graphql", {
      body: '{"query":"{ __typename }","variables":1e308}',
      headers: { "content-type": "APPLICATION/JSON" },
    });
    expect(refused.body.errors[0].extensions).toMatchObject({ code: "BAD_REQUEST", status: 400 });
  });

  test.each([1_500, 1_999, 10_000])("a value nested %i deep is a bad request, never a 500", async (depth) => {
    const query = `{ __typename(a: ${"[".repeat(depth)}${"]".repeat(depth)}) }`;
    const reply = await api.post("/graphql", { body: { query } });
    expect(reply.status).toBe(200);
    expect(reply.body.errors[0]).toMatchObject({
      message: expect.stringMatching(/^Syntax Error: /),
      extensions: { code: "BAD_REQUEST", status: 400 },
    });
  });

  test.each([
    ["{ __typename }", "x"],
    ["query A { domains }", "B"],
    ["query A { __typename } query B { __typename }", "C"],
    ["query A { __typename } query B { __typename }", undefined],
  ])("%j with operationName %j is a bad request on either path, never a 500", async (query, operationName) => {
    const before = svc.logs.length;
    for (const accept of ["application/json", "application/json;q=0.9"]) {
      const reply = await api.post("/graphql", { body: { query, operationName }, headers: { accept } });
      expect(reply.status, accept).toBe(200);
      expect(reply.body.errors[0].extensions, accept).toEqual({ code: "BAD_REQUEST", status: 400 });
    }
    expect(svc.logs.slice(before).filter((line) => line.level === "error")).toEqual([]);
  });

  test("a document of several operations runs the one operationName names, on either path", async () => {
    for (const accept of ["application/json", "application/json;q=0.9"]) {
      const body = { query: "query A { __typename } query B { domains }", operationName: "B" };
      const reply = await api.post("/graphql", { body, headers: { accept } });
      expect(reply.body, accept).toEqual({ data: { domains: ["mail.example"] } });
    }
  });

  test("HEAD answers like GET without a body, never 500, and logs nothing", async () => {
    const before = svc.logs.length;
    const response = await fetch(`${svc.url}/graphql`, { method: "HEAD" });
    expect(response.status).toBeLessThan(500);
    expect(svc.logs.slice(before).filter((line) => line.level === "error")).toEqual([]);
  });

  test("415 with a JSON body for a Content-Type GraphQL does not read", async () => {
    const reply = await api.post("/graphql", {
      body: JSON.stringify({ query: "{ __typename }" }),
      headers: { "content-type": "text/plain" },
    });
    expect(reply.status).toBe(415);
    expect(reply.body).toEqual({
      error: "Unsupported Media Type",
      statusCode: 415,
      message: expect.stringMatching(/application\/json/),
    });
  });

  test("406 with a JSON body when the client accepts nothing GraphQL can answer with", async () => {
    const reply = await api.post("/graphql", {
      body: [{ query: "{ __typename }" }],
      headers: { accept: "text/html" },
    });
    expect(reply.status).toBe(406);
    expect(reply.body).toEqual({
      error: "Not Acceptable",
      statusCode: 406,
      message: expect.stringMatching(/application\/json/),
    });
  });

  test("no CORS headers for any origin, on /graphql and REST, preflight included", async () => {
    const origin = { origin: "https://evil.example" };
    const graphql = await api.post("/graphql", { body: { query: "{ __typename }" }, headers: origin });
    const rest = await api.get("/verify/status", { headers: origin });
    const preflight = await api.call("OPTIONS", "/graphql", {
      headers: {
        ...origin,
        "access-control-request-method": "POST",
        "access-control-request-headers": "authorization",
      },
    });
    for (const reply of [graphql, rest, preflight]) {
      expect(reply.headers.get("access-control-allow-origin")).toBeNull();
      expect(reply.headers.get("access-control-allow-credentials")).toBeNull();
    }
  });
});

describe("a server failure", () => {
  test("answers 500 without stack, SQL or internals, over REST and GraphQL, and is logged", async () => {
    await withService({ SOCIAL_OEMBED_URL: x.url }, async (broken) => {
      const brokenApi = new Api(broken.url);
      const agent = await createAgent(brokenApi);
      for (const table of [
        "Attachment",
        "EmailSearch",
        "EmailSource",
        "EmailLabel",
        "Email",
        "Delivery",
        "RecipientReport",
        "SentEmail",
        "SendCounter",
        "Event",
        "WebhookAttempt",
        "WebhookDelivery",
        "Webhook",
        "ThreadMessageId",
        "ThreadLabel",
        "Thread",
        "IdempotencyKey",
        "Suppression",
        "ReviewNotice",
        "Quarantined",
        "Draft",
        "ApprovedRecipient",
        "ReviewLink",
        "ListEntry",
        "Key",
        "Agent",
      ])
        await broken.service.services.prisma.$executeRawUnsafe(`DROP TABLE "${table}"`);
      const rest = await brokenApi.get("/verify/status", { key: agent.apiKey });
      expect(rest.status).toBe(500);
      expect(rest.body).toEqual({ error: "Internal Server Error", statusCode: 500, message: "Internal server error" });
      const graphql = await brokenApi.graphql("{ verificationStatus { verified } }", {}, agent.apiKey);
      expect(graphql.body.errors).toEqual([
        expect.objectContaining({
          message: "Internal server error",
          extensions: { code: "INTERNAL_SERVER_ERROR", status: 500 },
        }),
      ]);
      for (const text of [rest.text, graphql.text]) expect(text).not.toMatch(/SELECT|Agent"|prisma|\bat \/|\.ts:/i);
      const failures = broken.logs.filter((line) => line.event === "request_failed");
      expect(failures).toHaveLength(2);
      // The log says what failed, without a stack, a source path or a statement.
      expect(JSON.stringify(failures)).not.toMatch(/SELECT|\.ts:\d|\n\s*at |\/src\//);
    });
  });
});

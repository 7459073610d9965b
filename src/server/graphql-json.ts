import type { ExecutionResult, GraphQLError } from "graphql";
import type { Context as HonoContext } from "hono";
import { requestFacts } from "../schema/context.ts";
import { jsonProblem } from "../schema/input.ts";
import { badRequest, type Graphql, type GraphqlParams, runOperation, yogaAnswer } from "../schema/pipeline.ts";

// POST /graphql with a JSON body, as nearly every client sends it, answered
// straight from the pipeline: the same plugins, limits, masking and errors as
// Yoga's own handling, without building web Request and Response objects
// (which cost more than the query). Anything else, and anything unusual about
// such a request, is Yoga's to answer.

type AnswerType = "application/json" | "application/graphql-response+json";

/** The JSON type to answer a plain JSON POST with, or null when Yoga should take the request. */
export function plainJsonAnswer(c: HonoContext): AnswerType | null {
  if (c.req.method !== "POST" || !/^application\/json\s*(;|$)/i.test(c.req.header("content-type") ?? "")) return null;
  const accept = (c.req.header("accept") ?? "*/*").toLowerCase();
  // Weighted choices and streams are Yoga's to negotiate.
  if (/;\s*q=|text\/event-stream|multipart\/mixed/.test(accept)) return null;
  const strict = accept.indexOf("application/graphql-response+json");
  const json = accept.indexOf("application/json");
  if (strict >= 0 && (json < 0 || strict < json)) return "application/graphql-response+json";
  return json >= 0 || accept.includes("*/*") || accept.includes("application/*") ? "application/json" : null;
}

/** The body as GraphQL params, or null when it is anything but a plain request. */
function paramsOf(text: string): GraphqlParams | null {
  let body: unknown;
  try {
    body = JSON.parse(text);
  } catch {
    return null;
  }
  if (typeof body !== "object" || body === null || Array.isArray(body)) return null;
  const { query, variables, operationName, extensions } = body as Record<string, unknown>;
  const objectOrNull = (value: unknown) => value == null || (typeof value === "object" && !Array.isArray(value));
  if (typeof query !== "string" || !objectOrNull(variables) || !objectOrNull(extensions)) return null;
  if (operationName != null && typeof operationName !== "string") return null;
  return { query, variables: variables as GraphqlParams["variables"], operationName: operationName as string | null };
}

/** As GraphQL over HTTP has it: a refusal before execution is 200 over application/json, its own status otherwise. */
function statusOf(result: ExecutionResult, type: AnswerType): number {
  let status = 0;
  for (const error of result.errors ?? []) {
    const http = error.extensions?.http as { status?: number; spec?: boolean } | undefined;
    if (!http?.status || (type === "application/json" && http.spec)) continue;
    status = Math.max(status, http.status);
  }
  return status || 200;
}

/** The result as sent: errors without the extensions that only steer the HTTP answer. */
function serialize(result: ExecutionResult & { stringify?: (result: ExecutionResult) => string }): string {
  const stringify = result.stringify ?? JSON.stringify;
  if (!result.errors?.length) return stringify(result);
  const errors = result.errors.map((error: GraphQLError) => {
    const { http: _, ...extensions } = error.extensions ?? {};
    return { ...error.toJSON(), extensions };
  });
  return stringify({ ...result, errors } as unknown as ExecutionResult);
}

export async function answerPlainJson(c: HonoContext, graphql: Graphql, type: AnswerType): Promise<Response> {
  const text = await c.req.text();
  const params = paramsOf(text);
  if (!params) {
    return yogaAnswer(graphql, new Request(c.req.url, { method: "POST", headers: c.req.raw.headers, body: text }));
  }
  const problem = jsonProblem(params.variables ?? {}, "variables");
  const result = problem
    ? { errors: [badRequest(problem)] }
    : await runOperation(
        graphql,
        params,
        requestFacts(c.req.header("authorization") ?? null, () => c.req.raw.signal),
      );
  return c.body(serialize(result), statusOf(result, type) as 200, { "content-type": `${type}; charset=utf-8` });
}

import { createClient } from "graphql-ws";
import WebSocket from "ws";

// Clients for GraphQL subscriptions, as an agent's program would run them:
// Server-Sent Events over fetch, and graphql-ws over a WebSocket.

export interface Stream<T> {
  /** The next item, or fails after the timeout. */
  next(timeoutMs?: number): Promise<T>;
  /** Items that arrived and were not taken yet. */
  readonly pending: T[];
  close(): void;
}

function queue<T>() {
  const pending: T[] = [];
  const waiters: ((value: T) => void)[] = [];
  let failure: Error | null = null;
  const failed: ((error: Error) => void)[] = [];
  return {
    pending,
    push(value: T) {
      const waiter = waiters.shift();
      failed.shift();
      if (waiter) waiter(value);
      else pending.push(value);
    },
    fail(error: Error) {
      failure = error;
      for (const reject of failed.splice(0)) reject(error);
      waiters.splice(0);
    },
    next(timeoutMs = 10_000): Promise<T> {
      const ready = pending.shift();
      if (ready !== undefined) return Promise.resolve(ready);
      if (failure) return Promise.reject(failure);
      return new Promise<T>((resolve, reject) => {
        const timer = setTimeout(() => reject(new Error(`nothing within ${timeoutMs} ms`)), timeoutMs);
        waiters.push((value) => {
          clearTimeout(timer);
          resolve(value);
        });
        failed.push((error) => {
          clearTimeout(timer);
          reject(error);
        });
      });
    },
  };
}

// biome-ignore lint/suspicious/noExplicitAny: whatever the server sent
export type Result = { data?: any; errors?: { message: string; extensions?: Record<string, unknown> }[] };

/** A subscription over SSE: the answer's status, and each `next` event's payload, in order. */
export async function sseSubscription(
  url: string,
  query: string,
  variables: object,
  key: string | null,
): Promise<Stream<Result> & { status: number }> {
  const abort = new AbortController();
  const authorization: Record<string, string> = key === null ? {} : { authorization: `Bearer ${key}` };
  const response = await fetch(`${url}/graphql`, {
    method: "POST",
    headers: { accept: "text/event-stream", "content-type": "application/json", ...authorization },
    body: JSON.stringify({ query, variables }),
    signal: abort.signal,
  });
  const items = queue<Result>();
  void (async () => {
    const decoder = new TextDecoder();
    let buffer = "";
    try {
      for await (const chunk of response.body as unknown as AsyncIterable<Uint8Array>) {
        buffer += decoder.decode(chunk, { stream: true });
        for (let end = buffer.indexOf("\n\n"); end >= 0; end = buffer.indexOf("\n\n")) {
          const frame = buffer.slice(0, end);
          buffer = buffer.slice(end + 2);
          const data = frame
            .split("\n")
            .filter((line) => line.startsWith("data:"))
            .map((line) => line.slice(5).trim())
            .join("\n");
          if (/^event: next/m.test(frame) && data) items.push(JSON.parse(data));
        }
      }
      items.fail(new Error("the stream ended"));
    } catch (error) {
      items.fail(error as Error);
    }
  })();
  return { status: response.status, next: items.next, pending: items.pending, close: () => abort.abort() };
}

/** A subscription over graphql-ws: each result, in order. */
export function wsSubscription(url: string, query: string, variables: object, key: string): Stream<Result> {
  const client = createClient({
    url: `${url.replace(/^http/, "ws")}/graphql`,
    webSocketImpl: WebSocket,
    connectionParams: { authorization: `Bearer ${key}` },
    retryAttempts: 0,
  });
  const items = queue<Result>();
  const unsubscribe = client.subscribe(
    { query, variables: variables as Record<string, unknown> },
    {
      next: (value) => items.push(value as Result),
      error: (error) => items.fail(error instanceof Error ? error : new Error(JSON.stringify(error))),
      complete: () => items.fail(new Error("the stream ended")),
    },
  );
  return {
    next: items.next,
    pending: items.pending,
    close: () => {
      unsubscribe();
      void client.dispose();
    },
  };
}

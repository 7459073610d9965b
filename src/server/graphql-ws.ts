import type { IncomingMessage, Server } from "node:http";
import type { Duplex } from "node:stream";
import type { DocumentNode, ExecutionArgs, GraphQLError } from "graphql";
import type { OperationResult } from "graphql-ws";
import { useServer } from "graphql-ws/use/ws";
import { WebSocketServer } from "ws";
import { requestFacts } from "../schema/context.ts";
import type { Graphql } from "../schema/pipeline.ts";

// GraphQL over WebSocket (the graphql-ws protocol, as Apollo and urql speak
// it) on the same /graphql path, through the same envelop pipeline. The key
// comes in the connection's params: { authorization: "Bearer <key>" }.

type Run = (args: ExecutionArgs) => OperationResult;

/** The pipeline's own execute and subscribe, handed from onSubscribe to the server as the root value. */
interface Pipeline {
  execute: Run;
  subscribe: Run;
}

export function serveGraphqlOverWebSocket(server: Server, graphql: Graphql): { close(): Promise<void> } {
  const sockets = new WebSocketServer({ noServer: true });
  const onUpgrade = (request: IncomingMessage, socket: Duplex, head: Buffer) => {
    if (new URL(request.url ?? "/", "http://host").pathname !== "/graphql") return socket.destroy();
    sockets.handleUpgrade(request, socket, head, (ws) => sockets.emit("connection", ws, request));
  };
  server.on("upgrade", onUpgrade);
  const done = useServer(
    {
      execute: (args) => (args.rootValue as Pipeline).execute(args),
      subscribe: (args) => (args.rootValue as Pipeline).subscribe(args),
      onSubscribe: async (ctx, _id, params) => {
        const closed = new AbortController();
        ctx.extra.socket.once("close", () => closed.abort());
        const authorization = ctx.connectionParams?.authorization;
        const request = requestFacts(typeof authorization === "string" ? authorization : null, () => closed.signal);
        const { schema, execute, subscribe, contextFactory, parse, validate } = graphql.getEnveloped({
          request,
          params: { query: params.query, operationName: params.operationName },
        });
        let document: DocumentNode;
        try {
          document = parse(params.query);
        } catch (error) {
          return [error as GraphQLError];
        }
        const errors = validate(schema, document);
        if (errors.length > 0) return errors;
        return {
          schema,
          document,
          operationName: params.operationName,
          variableValues: params.variables,
          contextValue: await contextFactory(),
          rootValue: { execute, subscribe } as Pipeline,
        };
      },
    },
    sockets,
  );
  return {
    async close() {
      server.off("upgrade", onUpgrade);
      await done.dispose();
    },
  };
}

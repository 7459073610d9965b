import { maxAliasesRule } from "@escape.tech/graphql-armor-max-aliases";
import { maxDepthRule } from "@escape.tech/graphql-armor-max-depth";
import { maxDirectivesRule } from "@escape.tech/graphql-armor-max-directives";
import { maxTokensPlugin } from "@escape.tech/graphql-armor-max-tokens";
import {
  type FragmentDefinitionNode,
  GraphQLError,
  Kind,
  NoSchemaIntrospectionCustomRule,
  type SelectionSetNode,
  type ValidationContext,
  type ValidationRule,
} from "graphql";
import type { Plugin } from "graphql-yoga";
import { ServiceError } from "../errors.ts";

// What one GraphQL request may ask for. The document limits are checked while
// it is parsed and validated, before anything runs, on /graphql and on the
// REST routes alike; the cost is checked before the first resolver; the
// answer's size while it is loaded. Each refusal names its limit.

export const LIMITS = {
  /** Lexical tokens in a document: bounds every other check's work. */
  tokens: 2000,
  aliases: 30,
  depth: 10,
  directives: 10,
  /** Sum over the selection, each list counting as many times as its limit. */
  cost: 5000,
  /** Mail bodies one answer may carry. */
  answerBytes: 32 * 1024 * 1024,
};

/** Cost of one selected field; a mail body weighs more. */
export const FIELD_COST = 1;
export const BODY_COST = 5;

/** Root fields of an operation, looking through fragments. */
function rootFieldNames(
  selectionSet: SelectionSetNode,
  fragment: (name: string) => FragmentDefinitionNode | undefined | null,
  seen = new Set<string>(),
): string[] {
  return selectionSet.selections.flatMap((selection) => {
    if (selection.kind === Kind.FIELD) return [selection.name.value];
    if (selection.kind === Kind.INLINE_FRAGMENT) return rootFieldNames(selection.selectionSet, fragment, seen);
    if (seen.has(selection.name.value)) return [];
    seen.add(selection.name.value);
    const definition = fragment(selection.name.value);
    return definition ? rootFieldNames(definition.selectionSet, fragment, seen) : [];
  });
}

/** One agent per request: createAgent stands alone in its mutation. */
const createAgentAlone: ValidationRule = (context) => ({
  OperationDefinition(node) {
    if (node.operation !== "mutation") return;
    const fields = rootFieldNames(node.selectionSet, (name) => context.getFragment(name));
    if (fields.includes("createAgent") && fields.length > 1) {
      context.reportError(
        new GraphQLError("createAgent must be the only field of its mutation: one agent per request", {
          nodes: node,
        }),
      );
    }
  },
});

/** Armor's validation rules report like any other rule instead of throwing out of validation. */
const reported = {
  propagateOnRejection: false,
  onReject: [(context: ValidationContext | null, error: GraphQLError) => context?.reportError(error)],
};

/** The limits armor checks as validation rules: aliases, depth and directives (the tokens are counted as it parses). */
export const LIMIT_RULES: ValidationRule[] = [
  maxAliasesRule({ n: LIMITS.aliases, allowList: [], ...reported }),
  maxDepthRule({ n: LIMITS.depth, ignoreIntrospection: true, flattenFragments: true, ...reported }),
  maxDirectivesRule({ n: LIMITS.directives, ...reported }),
];

/** The envelop plugins that hold every document to the limits. */
export function documentLimits({ introspection }: { introspection: boolean }): Plugin[] {
  return [
    maxTokensPlugin({ n: LIMITS.tokens }),
    {
      onValidate: ({ addValidationRule }) => {
        for (const rule of LIMIT_RULES) addValidationRule(rule);
        addValidationRule(createAgentAlone);
        if (!introspection) addValidationRule(NoSchemaIntrospectionCustomRule);
      },
    },
  ];
}

export function costOverLimit(cost: number): ServiceError {
  return new ServiceError(
    "BAD_REQUEST",
    `Query cost ${cost} is over the limit of ${LIMITS.cost}: ask for fewer items (limit, first, last) or fewer fields`,
  );
}

/**
 * Counts the mail bodies an answer carries and refuses it once they pass the
 * limit. Loads that may carry bodies run one at a time, so a request with
 * many aliases holds at most one load beyond the limit in memory.
 */
export class AnswerBudget {
  #bytes = 0;
  #turn: Promise<unknown> = Promise.resolve();

  load<T>(work: () => Promise<T>, bytesOf: (result: T) => number): Promise<T> {
    const next = this.#turn.then(async () => {
      this.#assertWithin();
      const result = await work();
      this.#bytes += bytesOf(result);
      this.#assertWithin();
      return result;
    });
    this.#turn = next.catch(() => {});
    return next;
  }

  #assertWithin(): void {
    if (this.#bytes <= LIMITS.answerBytes) return;
    throw new ServiceError(
      "PAYLOAD_TOO_LARGE",
      `The answer would pass ${LIMITS.answerBytes / 2 ** 20} MiB of mail bodies: ask for fewer items or fewer fields`,
    );
  }
}

/** The long text fields of a mail row: its bodies and what is derived from them for reading. */
const BODIES = new Set(["bodyText", "bodyHtml", "text", "replyText"]);

/**
 * Characters of the bodies in what a read loaded: its rows, and the rows
 * loaded beneath them (a thread's messages, a page's data), however deep.
 * Every read's answer passes through here: plain loops, no copies.
 */
export function bodyBytes(loaded: unknown): number {
  let bytes = 0;
  if (Array.isArray(loaded)) {
    for (const item of loaded) bytes += bodyBytes(item);
    return bytes;
  }
  if (typeof loaded !== "object" || loaded === null || loaded instanceof Date || ArrayBuffer.isView(loaded)) return 0;
  const row = loaded as Record<string, unknown>;
  for (const name in row) {
    const value = row[name];
    if (typeof value === "string") {
      if (BODIES.has(name)) bytes += value.length;
    } else if (typeof value === "object" && value !== null) bytes += bodyBytes(value);
  }
  return bytes;
}

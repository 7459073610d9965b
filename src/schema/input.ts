import { type ASTVisitor, GraphQLError, type ValidationContext } from "graphql";
import { excerpt, ServiceError } from "../errors.ts";

// Text a client sends must be text every database can store: no NUL
// characters, no unpaired UTF-16 surrogates. And JSON may nest only so deep,
// so no later step recurses without end. Checked once where input enters,
// REST and GraphQL alike, without recursion of its own.

/** The deepest nesting of arrays and objects a request may send. */
export const MAX_INPUT_DEPTH = 32;

export function textProblem(text: string): string | null {
  if (text.includes("\0")) return "must not contain NUL characters";
  if (!text.isWellFormed()) return "must not contain unpaired UTF-16 surrogates";
  return null;
}

/** The first problem in a JSON value, naming where it is, or null. */
export function jsonProblem(value: unknown, name: string): string | null {
  const stack: { value: unknown; at: string; depth: number }[] = [{ value, at: name, depth: 0 }];
  for (let item = stack.pop(); item; item = stack.pop()) {
    if (typeof item.value === "string") {
      const problem = textProblem(item.value);
      if (problem) return `${item.at} ${problem}`;
    }
    if (typeof item.value !== "object" || item.value === null) continue;
    if (item.depth >= MAX_INPUT_DEPTH) return `${name} nests deeper than ${MAX_INPUT_DEPTH} levels`;
    for (const [key, child] of Object.entries(item.value)) {
      const at = `${item.at}.${excerpt(key, 40)}`;
      const problem = textProblem(key);
      if (problem) return `a key in ${item.at} ${problem}`;
      stack.push({ value: child, at, depth: item.depth + 1 });
    }
  }
  return null;
}

/** Refuses a JSON value with a problem: 400 in the spec's shape. */
export function assertCleanInput(value: unknown, name: string): void {
  const problem = jsonProblem(value, name);
  if (problem) throw new ServiceError("BAD_REQUEST", problem);
}

/** The same rule for string literals written into a GraphQL document. */
export function cleanLiterals(context: ValidationContext): ASTVisitor {
  return {
    StringValue(node) {
      const problem = textProblem(node.value);
      if (problem) context.reportError(new GraphQLError(`A string ${problem}`, { nodes: node }));
    },
  };
}

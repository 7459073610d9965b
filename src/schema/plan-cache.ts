import { isThenable } from "@pothos/core";
import { Plan } from "@pothos/selection-mapper";
import { type FieldNode, type GraphQLResolveInfo, type SelectionSetNode, visit } from "graphql";
import { hiddenFolder } from "../mailbox/permissions.ts";
import type { Context } from "./context.ts";

// The Prisma plugin plans each field's query from the document afresh at every
// request (Plan.fromInfo walks the selection, with its fragments, and folds it
// into a query): for one email that is a sixth of the request. The plan
// depends only on the document, the field it is made for and the values of the
// variables its selection reads (@include, @skip, a relation's arguments); the
// select functions of our types read no context but the folder the request's
// key is barred from (a thread's messages leave its mail out). So a plan is
// kept per field node of a parsed document (Yoga's parse cache hands back the
// same nodes for the same text), per those values and that folder, and each
// request plays it with its own context and info: its loader mappings land on
// its own context.
//
// A patch over the pinned versions below: Plan's fields and `query` are read
// as they are in them (plan-cache.test.ts fails when a version changes).

/** The versions this patch was written against (package.json pins them). */
export const PATCHED = { "@pothos/plugin-prisma": "4.17.0", "@pothos/selection-mapper": "0.1.0" };

/** At most this many plans per field node: one per set of values of the variables its selection reads. */
const PLANS_PER_FIELD = 16;

type Options = Parameters<typeof Plan.fromInfo>[1];
type AnyPlan = NonNullable<ReturnType<typeof Plan.fromInfo>>;

/** The plugin's own Plan.fromInfo, which plans afresh. */
export const freshPlan = Plan.fromInfo.bind(Plan);
/** Per first field node: the variables its selection reads, and its plans by their values and the call's options. */
const byField = new WeakMap<FieldNode, { variables: string[]; plans: Map<string, AnyPlan | null> }>();

/** The variables the fields' selections read, in arguments and directives, through their fragments. */
function variablesIn(info: GraphQLResolveInfo): string[] {
  const variables = new Set<string>();
  const fragments = new Set<string>();
  const walk = (selections: SelectionSetNode) =>
    visit(selections, {
      Variable: (node) => {
        variables.add(node.name.value);
      },
      FragmentSpread: (node) => {
        const fragment = info.fragments[node.name.value];
        if (!fragment || fragments.has(node.name.value)) return;
        fragments.add(node.name.value);
        walk(fragment.selectionSet);
      },
    });
  for (const node of info.fieldNodes) if (node.selectionSet) walk(node.selectionSet);
  return [...variables].sort();
}

function fieldEntry(info: GraphQLResolveInfo) {
  const [first] = info.fieldNodes;
  if (!first) return undefined;
  let entry = byField.get(first);
  if (!entry) {
    entry = { variables: variablesIn(info), plans: new Map() };
    byField.set(first, entry);
  }
  return entry;
}

/**
 * What besides the field node decides a plan: the call's options and the
 * variables' values. Names joined by a character none holds; the lists as
 * JSON, only when there are any (most reads have none).
 */
function keyOf(options: Options, variables: string[]): string {
  const { context, info, typeName, path, paths, skipDeferredFragments } = options;
  const grant = (context as Partial<Context>).knownGrant?.();
  const lists =
    path || paths || variables.length > 0
      ? JSON.stringify([path, paths, variables.map((name) => info.variableValues[name])])
      : "";
  const names = [String(grant && hiddenFolder(grant)), info.parentType.name, String(info.returnType), String(typeName)];
  return `${names.join("\u0000")}\u0000${info.fieldNodes.length}\u0000${skipDeferredFragments}\u0000${lists}`;
}

/**
 * The kept plan as this request's: its own context and info, the plan's walk
 * and settled play shared. Assigned, not defined by descriptors: V8 makes
 * every such object alike, where descriptors take its slow path each time.
 */
function forRequest(plan: AnyPlan, { context, info }: Options): AnyPlan {
  const mine = Object.create(plan) as { -readonly [K in "context" | "info"]: AnyPlan[K] };
  mine.context = context;
  mine.info = info;
  return mine as AnyPlan;
}

/** Plan.fromInfo, kept per field node and variable values; a plan seeded with a caller's own selection is made afresh. */
function cachedFromInfo(...[adapter, options]: Parameters<typeof Plan.fromInfo>): ReturnType<typeof Plan.fromInfo> {
  const entry = options.initial === undefined ? fieldEntry(options.info) : undefined;
  if (!entry) return freshPlan(adapter, options);
  const key = keyOf(options, entry.variables);
  const kept = entry.plans.get(key);
  if (kept !== undefined) return kept === null ? undefined : forRequest(kept, options);
  const plan = freshPlan(adapter, options);
  // A plan still waiting on a select function's promise is not kept.
  if (isThenable(plan as unknown)) return plan;
  if (entry.plans.size >= PLANS_PER_FIELD) entry.plans.delete(entry.plans.keys().next().value as string);
  entry.plans.set(key, plan ?? null);
  return plan;
}

/** Installs the cache: every Plan.fromInfo the Prisma plugin calls goes through it. */
export function keepPlans(): void {
  Plan.fromInfo = cachedFromInfo as typeof Plan.fromInfo;
}

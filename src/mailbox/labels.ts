import type { LabelSelector } from "../db/labels.ts";
import { excerpt, ServiceError } from "../errors.ts";
import type { Prisma } from "../generated/prisma/sqlite/client.ts";

// Labels: short names an agent puts on its emails and threads, many on each,
// beside the one folder an email is in. A label compares without case and is
// kept and shown in lower case; a thread's labels are its own, not its
// messages'. A filter names labels that must all be there, and `-label` for
// one that must not be: so no label starts with "-", and none holds a comma,
// which separates a list in a query string.

export const MAX_LABEL_LENGTH = 64;
/** The most labels one email or thread carries. */
export const MAX_LABELS = 20;

/** A label as it is kept: trimmed, in NFKC and lower case; refused unless 1-64 characters without "-" first, commas or control characters. */
export function labelName(given: string): string {
  const name = given.trim().normalize("NFKC").toLowerCase();
  const length = [...name].length;
  const refuse = (why: string) => new ServiceError("BAD_REQUEST", `Invalid label "${excerpt(given)}": ${why}`);
  if (length < 1 || length > MAX_LABEL_LENGTH) throw refuse(`a label is 1-${MAX_LABEL_LENGTH} characters`);
  if (name.startsWith("-")) throw refuse('a label may not start with "-", which excludes it in a filter');
  if (/[\p{C}\p{Zl}\p{Zp},]/u.test(name)) throw refuse("a label may not hold commas or control characters");
  return name;
}

/** The labels a row keeps: its Json field holds their names. */
export const labelsOf = (stored: Prisma.JsonValue): string[] => stored as string[];

/** Labels to put on an item and to take off it; either may be left out. */
export interface LabelChange {
  addLabels?: readonly string[] | null;
  removeLabels?: readonly string[] | null;
}

/** A change checked: each label by its kept name, each once. */
export interface CheckedLabels {
  add: string[];
  remove: string[];
}

const namesOf = (labels: readonly string[] | null | undefined) => [...new Set((labels ?? []).map(labelName))];

/** The change's labels checked; null when it names none. A label both added and removed is refused. */
export function checkedLabels(change: LabelChange): CheckedLabels | null {
  if (change.addLabels == null && change.removeLabels == null) return null;
  const add = namesOf(change.addLabels);
  const remove = namesOf(change.removeLabels);
  const both = add.find((name) => remove.includes(name));
  if (both !== undefined) throw new ServiceError("BAD_REQUEST", `Label "${both}" is both added and removed`);
  return { add, remove };
}

/** What a change makes of an item's labels: all of them, and those that came and went (adding one it has, or removing one it lacks, changes nothing). */
export function relabelled(current: readonly string[], change: CheckedLabels, what: "email" | "thread") {
  const added = change.add.filter((name) => !current.includes(name));
  const removed = change.remove.filter((name) => current.includes(name));
  const labels = [...current.filter((name) => !removed.includes(name)), ...added];
  if (added.length > 0 && labels.length > MAX_LABELS) {
    throw new ServiceError("BAD_REQUEST", `An ${what} carries at most ${MAX_LABELS} labels`);
  }
  return { labels, added, removed };
}

/** A filter's labels: those that must be there, and those after "-" that must not; null when it names none. */
export function labelSelector(filter: readonly string[] | null | undefined): LabelSelector | null {
  if (filter == null || filter.length === 0) return null;
  const selector: LabelSelector = { with: [], without: [] };
  for (const given of filter) {
    const trimmed = given.trim();
    if (trimmed.startsWith("-")) selector.without.push(labelName(trimmed.slice(1)));
    else selector.with.push(labelName(trimmed));
  }
  return selector;
}

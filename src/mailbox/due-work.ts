import type { TurnName } from "../db/sql.ts";
import type { Tx } from "../db/statements.ts";
import type { Services } from "./services.ts";

// Work that comes due in the database (scheduled drafts, review notices),
// each job done once across instances: a read first, so that a look with
// nothing due writes nothing; then a batch claimed in a transaction where the
// instances take turns, for long enough that a crashed instance's claims run
// out, and the batch done together.

/** A kind of due work: where the store finds it and claims it. */
export interface DueWork<Job> {
  /** The turn the instances take to claim it. */
  turn: TurnName;
  /** How long a claim keeps the other instances off a job: past the job's longest wait. */
  claimMs: number;
  /** Jobs one look claims and does together. */
  batch: number;
  anyDue(db: Tx, now: Date): Promise<boolean>;
  claim(tx: Tx, now: Date, until: Date, limit: number): Promise<Job[]>;
}

/** Claims the jobs of this kind that are due and does them; how many it did. */
export async function doDueWork<Job>(
  { sql, clock }: Services,
  work: DueWork<Job>,
  perform: (job: Job) => Promise<void>,
): Promise<number> {
  const now = clock.now();
  if (!(await work.anyDue(sql, now))) return 0;
  const due = await sql.transaction(async (tx) => {
    await sql.takeTurns(tx, work.turn);
    return work.claim(tx, now, new Date(now.getTime() + work.claimMs), work.batch);
  });
  await Promise.all(due.map(perform));
  return due.length;
}

import type { ImapFlow } from "imapflow";
import type { ProcessedAction } from "../config.ts";
import type { Logger } from "../log.ts";

// Marking messages on the server once their batch committed: filed ones as
// IMAP_PROCESSED asks, those set aside with SET_ASIDE_FLAGS (never deleted;
// moved when filed ones are). What the server refused, or a lost connection
// left unmarked, is kept and marked with the next pass.

/** The flags of a message set aside: one a mail client shows, and one to search for. */
export const SET_ASIDE_FLAGS = ["\\Flagged", "$PigeonholeSetAside"];

type Kind = "processed" | "aside";

export class ServerMarks {
  /** The UIDs still to mark belong to this version of the mailbox. */
  #uidValidity = 0n;
  readonly #pending: Record<Kind, number[]> = { processed: [], aside: [] };

  constructor(
    private readonly action: ProcessedAction,
    private readonly log: Logger,
    private readonly mailbox: string,
  ) {}

  /** A mailbox replaced under the same name: marks owed to the old one are dropped. */
  forMailbox(uidValidity: bigint): void {
    if (this.#uidValidity === uidValidity) return;
    this.#uidValidity = uidValidity;
    this.#pending.processed = [];
    this.#pending.aside = [];
  }

  /** Flags the message as set aside with the next marks. */
  setAside(uid: number): void {
    this.#pending.aside.push(uid);
  }

  /** Marks the filed messages, and whatever is still owed. */
  async mark(client: ImapFlow, filed: number[]): Promise<void> {
    const action = this.action;
    // Kept first, so that a connection lost while marking the others loses none of these.
    this.#pending.processed.push(...filed);
    const aside = this.#pending.aside.splice(0);
    await this.#apply("aside", aside, async () => {
      const flagged = await client.messageFlagsAdd(aside, SET_ASIDE_FLAGS, { uid: true });
      return flagged && (action.kind !== "move" || (await client.messageMove(aside, action.mailbox, { uid: true })));
    });
    const processed = this.#pending.processed.splice(0);
    await this.#apply("processed", processed, () =>
      action.kind === "seen"
        ? client.messageFlagsAdd(processed, ["\\Seen"], { uid: true })
        : action.kind === "delete"
          ? client.messageDelete(processed, { uid: true })
          : client.messageMove(processed, action.mailbox, { uid: true }),
    );
  }

  /** imapflow answers false when the server refused: that, or a failure (thrown), puts the UIDs back. */
  async #apply(kind: Kind, uids: number[], apply: () => Promise<unknown>): Promise<void> {
    if (uids.length === 0) return;
    let done = false;
    try {
      done = Boolean(await apply());
    } finally {
      if (!done) this.#pending[kind].push(...uids);
    }
    if (done) return;
    const action = kind === "aside" ? "set_aside" : this.action.kind;
    this.log("warn", "imap_mark_failed", { mailbox: this.mailbox, action, uids: uids.length });
  }
}

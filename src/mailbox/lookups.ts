import type { Store } from "../db/client.ts";
import { ServiceError } from "../errors.ts";
import type { Services } from "./services.ts";

// Reading one of an agent's items by its id, the same for every kind: the
// item with what the caller's query loads beneath it, or NOT_FOUND when the
// agent has none of that id it may be shown (another agent's is none of its
// own).

/** The store's read of one of an agent's items by id, as the owner (the agent, or how it reads) is shown it; or null. */
type ById<Owner, Item, Query> = (store: Store, owner: Owner, id: string, query?: Query) => Promise<Item | null>;

/** The operation that reads one of the agent's items by id; NOT_FOUND says "<what> not found". */
export function lookupOf<Owner, Item, Query>(byId: ById<Owner, Item, Query>, what: string) {
  return async (services: Services, owner: Owner, id: string, query?: Query): Promise<Item> => {
    const item = await byId(services, owner, id, query);
    if (!item) throw new ServiceError("NOT_FOUND", `${what} not found`);
    return item;
  };
}

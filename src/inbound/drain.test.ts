import { expect, test } from "vitest";
import { batchAt, withinBytes } from "./drain.ts";

const MiB = 1024 * 1024;
const waiting = (sizes: (number | null)[]) => sizes.map((size, n) => ({ uid: n + 1, size }));
const uids = (batch: { uid: number }[]) => batch.map(({ uid }) => uid);

test("a batch takes up to its count of small messages", () => {
  const small = waiting(Array.from({ length: 250 }, () => 4000));
  expect(uids(batchAt(small, 0, 100))).toEqual(Array.from({ length: 100 }, (_, n) => n + 1));
  expect(batchAt(small, 200, 100)).toHaveLength(50);
  expect(batchAt(small, 250, 100)).toEqual([]);
});

test("a batch holds no more than 16 MiB of mail", () => {
  expect(uids(batchAt(waiting([6 * MiB, 6 * MiB, 6 * MiB, 1000]), 0, 100))).toEqual([1, 2]);
  expect(uids(batchAt(waiting([6 * MiB, 6 * MiB, 4 * MiB, 1000]), 0, 100))).toEqual([1, 2, 3]);
});

test("a message larger than a batch's bytes is a batch alone, and ends the one before it", () => {
  const mail = waiting([1000, 20 * MiB, 1000]);
  expect(uids(batchAt(mail, 0, 100))).toEqual([1]);
  expect(uids(batchAt(mail, 1, 100))).toEqual([2]);
  expect(uids(batchAt(mail, 2, 100))).toEqual([3]);
});

test("one at a time, a batch is one message whatever its size", () => {
  expect(uids(batchAt(waiting([30 * MiB, 1000]), 0, 1))).toEqual([1]);
  expect(uids(batchAt(waiting([1000, 1000]), 1, 1))).toEqual([2]);
});

test("a message whose size the server did not give is a batch alone", () => {
  const mail = waiting([1000, null, 1000]);
  expect(uids(batchAt(mail, 0, 100))).toEqual([1]);
  expect(uids(batchAt(mail, 1, 100))).toEqual([2]);
  expect(uids(batchAt(mail, 2, 100))).toEqual([3]);
});

test("only batches within 16 MiB are held beside another", () => {
  expect(withinBytes(waiting([6 * MiB, 6 * MiB]))).toBe(true);
  expect(withinBytes(waiting([20 * MiB]))).toBe(false);
  expect(withinBytes(waiting([null]))).toBe(false);
});

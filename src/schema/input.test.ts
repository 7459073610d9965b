import { expect, test } from "vitest";
import { jsonProblem, MAX_INPUT_DEPTH } from "./input.ts";

const nested = (depth: number) => {
  let value: unknown = 1;
  for (let i = 0; i < depth; i++) value = [value];
  return value;
};

test.each([
  [{ name: "fine", list: ["a", { b: "é😀" }] }, null],
  [{ name: "a\u0000b" }, "body.name must not contain NUL characters"],
  [{ deep: { er: ["\ud800"] } }, "body.deep.er.0 must not contain unpaired UTF-16 surrogates"],
  [{ "\udfff": 1 }, "a key in body must not contain unpaired UTF-16 surrogates"],
  [nested(MAX_INPUT_DEPTH), null],
  [nested(MAX_INPUT_DEPTH + 1), `body nests deeper than ${MAX_INPUT_DEPTH} levels`],
])("jsonProblem(%#) is %j", (value, problem) => {
  expect(jsonProblem(value, "body")).toBe(problem);
});

test("200,000 levels are refused without a deep call stack", () => {
  expect(jsonProblem(nested(200_000), "body")).toBe(`body nests deeper than ${MAX_INPUT_DEPTH} levels`);
});

// Writes the README's configuration table from the declarations in
// src/config.ts (npm run docs:config); src/config.test.ts fails while the
// README's table differs from them.
import { readFileSync, writeFileSync } from "node:fs";
import { configurationTable } from "../src/config.ts";

const TABLE = /(<!-- configuration table[^>]*-->\n)[\s\S]*?(\n<!-- end of configuration table -->)/;

const readme = readFileSync("README.md", "utf8");
if (!TABLE.test(readme)) throw new Error("README.md has no configuration table between its markers");
writeFileSync(
  "README.md",
  readme.replace(TABLE, (_, start: string, end: string) => `${start}\n${configurationTable()}\n${end}`),
);

import assert from "node:assert/strict";
import { join } from "node:path";
import {
  engineMismatch,
  MANIFEST_FILE,
  ManifestError,
  readManifest,
  validateManifest,
} from "./manifest.ts";

const good = {
  name: "notes",
  version: "1.0.0",
  description: "Notes",
  ursamu: ">=1.0.0",
  author: "me",
  license: "MIT",
  main: "mod.ts",
};

Deno.test("manifest: a complete manifest validates", () => {
  const m = validateManifest(good);
  assert.equal(m.name, "notes");
  assert.equal(m.main, "mod.ts");
  assert.equal(engineMismatch(m, "1.0.0"), null);
});

Deno.test("manifest: defaults for main, range, author and license", () => {
  const m = validateManifest({ name: "x", version: "0.1.0", description: "" });
  assert.equal(m.main, "mod.ts");
  assert.equal(m.ursamu, "*");
  assert.equal(m.author, "");
});

Deno.test("manifest: each bad field is named", () => {
  const cases: [unknown, RegExp][] = [
    [null, /JSON object/],
    [[], /JSON object/],
    [{ ...good, name: undefined }, /'name' is required/],
    [{ ...good, name: 5 }, /'name' must be a string/],
    [{ ...good, name: "../evil" }, /name/],
    [{ ...good, version: "one" }, /semantic version/],
    [{ ...good, description: undefined }, /'description' is required/],
    [{ ...good, ursamu: ">>1" }, /engine range/],
    [{ ...good, main: "../../etc/passwd.ts" }, /inside the plugin folder/],
    [{ ...good, main: "/abs/mod.ts" }, /inside the plugin folder/],
    [{ ...good, main: "mod.json" }, /inside the plugin folder/],
  ];
  for (const [raw, re] of cases) {
    assert.throws(
      () => validateManifest(raw),
      (e: Error) => e instanceof ManifestError && re.test(e.message),
    );
  }
});

Deno.test("manifest: engine range mismatch is explained", () => {
  const m = validateManifest({ ...good, ursamu: ">=2.0.0" });
  assert.match(engineMismatch(m, "1.0.0")!, /needs engine >=2.0.0/);
});

Deno.test("manifest: engine ranges in the forms npm uses", () => {
  const fits = (range: string, engine: string) =>
    engineMismatch(validateManifest({ ...good, ursamu: range }), engine) === null;
  assert(fits(">=1.0.0", "1.0.0"));
  assert(fits("^1.2.3", "1.9.0") && !fits("^1.2.3", "2.0.0"));
  assert(fits("~1.2.3", "1.2.9") && !fits("~1.2.3", "1.3.0"));
  assert(fits("1.x", "1.5.0") && !fits("1.x", "2.0.0"));
  assert(fits(">=1.0.0 <2.0.0 || >=3.0.0", "3.1.0") && !fits(">=1.0.0 <2.0.0", "2.0.0"));
  assert(fits("*", "0.0.1"));
  for (const bad of [">>1", "1.0.0 ||| 2", "x".repeat(300), "^^1"]) {
    assert.throws(() => validateManifest({ ...good, ursamu: bad }), /engine range/, bad);
  }
});

Deno.test("manifest: readManifest reports missing and broken files", async () => {
  const dir = await Deno.makeTempDir();
  try {
    await assert.rejects(readManifest(dir), /no ursamu.plugin.json/);
    await Deno.writeTextFile(join(dir, MANIFEST_FILE), "{ nope");
    await assert.rejects(readManifest(dir), /not valid JSON/);
    await Deno.writeTextFile(join(dir, MANIFEST_FILE), JSON.stringify(good));
    assert.equal((await readManifest(dir)).name, "notes");
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

/**
 * The engine's reader and writer of QuickJS's binary format (src/scripts/bjson.ts) on their own:
 * bad bytes are refused (the value then goes as JSON), never misread.
 */
import { assertEquals } from "../../tests/assert.ts";
import { BjsonWriter, readBjson } from "./bjson.ts";

Deno.test("bjson: values written are read back as JSON would carry them", () => {
  const w = new BjsonWriter();
  for (
    const v of [
      0,
      -(2 ** 31),
      2 ** 31,
      1.25,
      "",
      "é\u00ff€\ud800",
      "x".repeat(10_000),
      null,
      true,
      [1, [2, [3]], {}],
      { a: { b: [{ c: "d" }] }, 7: "i", "07": "s", "4294967295": "big" },
      JSON.parse('{"__proto__": 1}'),
    ]
  ) {
    assertEquals(readBjson(w.write(v)!), JSON.parse(JSON.stringify(v)));
  }
  // What JSON.parse could not make is not written.
  assertEquals(w.write({ d: new Date(0) }), null);
  assertEquals(w.write([() => 1]), null);
  assertEquals(w.write(undefined), null);
});

Deno.test("bjson: bytes that are not a JSON-shaped value are refused", () => {
  const w = new BjsonWriter();
  const good = w.write({ name: "Bob", list: [1, "two"] })!;
  // Every cut of a good buffer, every trailing byte, another version, unknown tags, an atom
  // index past the table, lengths past the end.
  for (let n = 0; n < good.length; n++) assertEquals(readBjson(good.subarray(0, n)), undefined);
  assertEquals(readBjson(new Uint8Array([...good, 0])), undefined);
  assertEquals(readBjson(new Uint8Array([4, 0, 1])), undefined);
  for (const tag of [0, 10, 0x11, 0x13, 0xff]) {
    assertEquals(readBjson(new Uint8Array([5, 0, tag, 0])), undefined);
  }
  assertEquals(readBjson(new Uint8Array([5, 0, 8, 1, 4, 1])), undefined);
  assertEquals(readBjson(new Uint8Array([5, 0, 7, 0xff, 0xff, 0xff, 0xff, 0x0f])), undefined);
  assertEquals(readBjson(new Uint8Array([5, 0, 9, 0xff, 0xff, 0x03, 1])), undefined);
  // Nesting deeper than the reader follows.
  const deep = [5, 0, ...new Array(200).fill(9).flatMap((t) => [t, 1]), 1];
  assertEquals(readBjson(new Uint8Array(deep)), undefined);
});

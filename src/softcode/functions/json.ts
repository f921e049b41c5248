/** PennMUSH's JSON functions (TinyMUX 2.12 has none): json(), json_query(), isjson(). */
import { define } from "./define.ts";
import type { FunctionDef } from "../types.ts";
import { stripMarkup } from "../markup.ts";
import { isInteger, isReal, toInt } from "../numbers.ts";

type Json = null | boolean | number | string | Json[] | { [key: string]: Json };

/** Parsed JSON, or undefined when the text is not JSON. */
function parse(text: string): Json | undefined {
  try {
    return JSON.parse(stripMarkup(text)) as Json;
  } catch {
    return undefined;
  }
}

/** JSON written as PennMUSH writes it: `[a, b]` and `{"k": v}`. */
function write(v: Json): string {
  if (Array.isArray(v)) return "[" + v.map(write).join(", ") + "]";
  if (v !== null && typeof v === "object") {
    return "{" + Object.entries(v).map(([k, x]) => JSON.stringify(k) + ": " + write(x)).join(", ") +
      "}";
  }
  return JSON.stringify(v);
}

/** The type name json_query() answers. */
function typeOf(v: Json): string {
  if (v === null) return "null";
  if (Array.isArray(v)) return "array";
  return typeof v === "object" ? "object" : typeof v;
}

/** One step into an array (an integer index from 0) or an object (a key), or undefined. */
function step(v: Json, key: string): Json | undefined {
  if (Array.isArray(v)) return isInteger(key) ? v[toInt(key)] : undefined;
  if (v !== null && typeof v === "object") return Object.hasOwn(v, key) ? v[key] : undefined;
  return undefined;
}

/** A `$.field[2]` path (`help json paths`) as its steps, or null when malformed. */
function pathSteps(path: string): string[] | null {
  if (path[0] !== "$") return null;
  const steps: string[] = [];
  const re = /\.([^.[]+)|\[(\d+)\]/y;
  let i = 1;
  while (i < path.length) {
    re.lastIndex = i;
    const m = re.exec(path);
    if (!m) return null;
    steps.push(m[1] ?? m[2]);
    i = re.lastIndex;
  }
  return steps;
}

/** The JSON family. */
export const jsonFunctions: FunctionDef[] = [
  define("json", 1, 100, {
    family: "json",
    args: "json(<type>[, <data>...])",
    summary:
      "A JSON text of the type: null, boolean, string, number, array (of JSON texts) or object (keys and JSON texts).",
    example: { think: "json(object,a,1,b,json(array,1,2))", gives: '{"a": 1, "b": [1, 2]}' },
  }, (_ev, _f, args) => {
    const type = args[0].trim().toLowerCase();
    const data = args.slice(1);
    switch (type) {
      case "null":
        return data.length > 1 || (data.length === 1 && data[0] !== "")
          ? "#-1 WRONG NUMBER OF ARGUMENTS"
          : "null";
      case "boolean":
      case "bool": {
        if (data.length !== 1) return "#-1 WRONG NUMBER OF ARGUMENTS";
        const b = data[0].trim().toLowerCase();
        if (b === "true" || b === "1") return "true";
        if (b === "false" || b === "0") return "false";
        return "#-1 INVALID VALUE";
      }
      case "string":
        if (data.length > 1) return "#-1 WRONG NUMBER OF ARGUMENTS";
        return JSON.stringify(stripMarkup(data[0] ?? ""));
      case "number": {
        if (data.length !== 1) return "#-1 WRONG NUMBER OF ARGUMENTS";
        const n = Number(data[0].trim());
        return isReal(data[0]) && Number.isFinite(n) ? JSON.stringify(n) : "#-1 INVALID VALUE";
      }
      case "array": {
        const items: Json[] = [];
        for (const d of data) {
          const v = parse(d);
          if (v === undefined) return "#-1 INVALID VALUE";
          items.push(v);
        }
        return write(items);
      }
      case "object": {
        if (data.length % 2) return "#-1 WRONG NUMBER OF ARGUMENTS";
        const obj: { [key: string]: Json } = {};
        for (let i = 0; i < data.length; i += 2) {
          const v = parse(data[i + 1]);
          if (v === undefined) return "#-1 INVALID VALUE";
          obj[stripMarkup(data[i])] = v;
        }
        return write(obj);
      }
    }
    return "#-1 INVALID TYPE";
  }),
  define("isjson", 1, 1, {
    family: "json",
    args: "isjson(<text>)",
    summary: "1 when the text is valid JSON.",
    example: { think: '[isjson(\\{"a":1\\})] [isjson(oops)]', gives: "1 0" },
  }, (_ev, _f, args) => (parse(args[0]) === undefined ? "0" : "1")),
  define("json_query", 1, 100, {
    family: "json",
    args: "json_query(<json>[, <action>[, <path>...]])",
    summary:
      "Reads a JSON text: its type, size, keys, whether a path exists, the value at a path (get, or extract with a $.a[2] path), a string unescaped.",
    example: { think: "json_query(\\[1\\,2\\,3\\],size)", gives: "3" },
  }, (_ev, _f, args) => {
    const v = parse(args[0]);
    if (v === undefined) return "#-1 INVALID JSON";
    const action = (args[1] ?? "type").trim().toLowerCase() || "type";
    const path = args.slice(2);
    switch (action) {
      case "type":
        return typeOf(v);
      case "size":
        if (v === null) return "0";
        if (Array.isArray(v)) return String(v.length);
        return typeof v === "object" ? String(Object.keys(v).length) : "1";
      case "exists":
      case "get": {
        if (v === null || typeof v !== "object") return "#-1";
        if (!path.length) return "#-1 MISSING VALUE";
        let cur: Json | undefined = v;
        for (const key of path) {
          cur = cur === undefined ? undefined : step(cur, key);
        }
        if (action === "exists") return cur === undefined ? "0" : "1";
        return cur === undefined ? "" : write(cur);
      }
      case "extract": {
        const steps = pathSteps(path[0] ?? "");
        if (!steps) return "#-1 INVALID PATH";
        let cur: Json | undefined = v;
        for (const key of steps) cur = cur === undefined ? undefined : step(cur, key);
        if (cur === undefined || cur === null) return "";
        if (typeof cur === "boolean") return cur ? "1" : "0";
        if (typeof cur === "string") return cur;
        return write(cur);
      }
      case "unescape":
        return typeof v === "string" ? v : "#-1 NOT A STRING";
      case "keys":
        return v !== null && typeof v === "object" && !Array.isArray(v)
          ? Object.keys(v).join(" ")
          : "#-1 NOT AN OBJECT";
    }
    return "#-1 INVALID OPERATION";
  }),
];

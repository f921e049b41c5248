// Builds DOM nodes from data. Nothing in the client ever assigns HTML strings: text from the
// server or from players always becomes text nodes, so markup in it shows as typed.

/**
 * Creates an element: `attrs` are attributes (`on<event>` keys become listeners, `false`
 * or null values are left out); children are nodes or strings (strings become text).
 */
export function h(tag, attrs = {}, ...children) {
  const el = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs ?? {})) {
    if (v === false || v === null || v === undefined) continue;
    if (k.startsWith("on") && typeof v === "function") el.addEventListener(k.slice(2), v);
    else if (k === "class") el.className = v;
    else el.setAttribute(k, v === true ? "" : String(v));
  }
  append(el, children);
  return el;
}

/** Appends nodes and strings (nested arrays flattened, null skipped). */
export function append(el, children) {
  for (const c of children.flat(Infinity)) {
    if (c === null || c === undefined || c === false) continue;
    el.append(c instanceof Node ? c : document.createTextNode(String(c)));
  }
  return el;
}

/** Replaces an element's children. */
export function replace(el, ...children) {
  el.replaceChildren();
  return append(el, children);
}

/** A date and time for people, in the browser's locale. */
export function when(ms) {
  if (typeof ms !== "number") return "";
  return new Date(ms).toLocaleString(undefined, { dateStyle: "medium", timeStyle: "short" });
}

/** A status line that screen readers announce (role=status). */
export function notice(text, kind = "info") {
  return h("p", { class: `notice ${kind}`, role: kind === "error" ? "alert" : "status" }, text);
}

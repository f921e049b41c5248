// The portal library: what every portal page imports, the core's and the plugins' alike
// (`import { api, formCard, h } from "/assets/portal.js"`). DOM building without HTML strings,
// the REST client with the player's token, colour codes as text, Markdown as DOM, the session,
// the reader's settings, and the labelled field and form card every page's forms are made of.
import { h, notice, replace } from "./dom.js";

export { append, h, notice, replace, when } from "./dom.js";
export { api, ApiError, seg } from "./api.js";
export { isDecoration, parseCodes, plainText, renderRuns } from "./colour.js";
export { markdown, siteUrl } from "./markdown.js";
export { isGuest, isStaff, session } from "./session.js";
export { getSettings } from "./settings.js";

/**
 * A page in two columns at desktop width: `main` (the reading) and `side` (its forms, filters
 * and facts), stacked with `side` after `main` on a phone. `side` may be null (one column).
 */
export function columns(main, side) {
  return h(
    "div",
    { class: side ? "columns" : null },
    h("div", { class: "col-main" }, main),
    side ? h("div", { class: "col-side" }, side) : null,
  );
}

/**
 * A labelled control: `<p class="field"><label for=id>label</label>control hint</p>`. `control`
 * is a node (its `id` names the label's target) or a spec: `{ id, name, label?, textarea?,
 * required?, maxlength?, value?, type?, hint?, attrs? }`.
 */
export function field(label, control, hint) {
  const el = control instanceof Node ? control : controlOf(control);
  const hintId = hint ? `${el.id}-hint` : null;
  if (hintId) el.setAttribute("aria-describedby", hintId);
  return h(
    "p",
    { class: "field" },
    h("label", { for: el.id }, label),
    el,
    hint ? h("span", { id: hintId, class: "muted" }, hint) : null,
  );
}

/** An input or textarea from a spec (see `field`). */
export function controlOf(spec) {
  const el = h(spec.textarea ? "textarea" : "input", {
    id: spec.id,
    name: spec.name ?? spec.id,
    type: spec.textarea ? null : spec.type ?? null,
    required: spec.required === true,
    maxlength: typeof spec.maxlength === "number" ? spec.maxlength : null,
    ...spec.attrs,
  });
  if (spec.value !== undefined && spec.value !== null) el.value = String(spec.value);
  return el;
}

/**
 * A form in a card: an optional heading, its fields (nodes, or specs with a `label` for
 * `field`), a submit button, and a status line. On submit, `onSubmit(values, { form, status })`
 * runs with the form's values by name; what it throws is shown in the status as an alert, and
 * a string it answers is shown there as a notice.
 */
export function formCard({ title, fields, submit, onSubmit, card = true }) {
  const status = h("div");
  const form = h(
    "form",
    { class: card ? "card" : null },
    title ? h("h2", {}, title) : null,
    fields.map((f) => f instanceof Node ? f : field(f.label, f, f.hint)),
    h("button", { type: "submit" }, submit),
    status,
  );
  form.addEventListener("submit", async (ev) => {
    ev.preventDefault();
    try {
      const said = await onSubmit(Object.fromEntries(new FormData(form)), { form, status });
      if (typeof said === "string") replace(status, notice(said));
    } catch (e) {
      replace(status, notice(e.message, "error"));
    }
  });
  return form;
}

// Display settings, kept in this browser.
import { getSettings, h } from "../portal.js";
import { setSetting } from "../settings.js";

const OPTIONS = [
  ["contrast", "High contrast", "White on black with bright links and focus."],
  ["large", "Large text", "Bigger text everywhere."],
  ["reader", "Screen-reader mode", "Game output without colour or decorative rule lines."],
  ["echo", "Local echo", "Show the commands you send in the game output."],
];

/** The settings page. */
export function render() {
  const s = getSettings();
  return h(
    "section",
    {},
    h("h1", {}, "Settings"),
    h("p", { class: "muted" }, "These settings are kept in this browser."),
    h(
      "fieldset",
      { class: "card" },
      h("legend", {}, "Display"),
      OPTIONS.map(([name, label, hint]) => {
        const box = h("input", {
          type: "checkbox",
          id: `set-${name}`,
          checked: s[name],
          "aria-describedby": `set-${name}-hint`,
        });
        box.addEventListener("change", () => setSetting(name, box.checked));
        return h(
          "p",
          { class: "row" },
          box,
          h("label", { for: `set-${name}` }, label),
          h("span", { id: `set-${name}-hint`, class: "muted" }, `(${hint})`),
        );
      }),
    ),
  );
}

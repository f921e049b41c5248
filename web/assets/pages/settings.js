// Display settings, kept in this browser, and a logged-in player's password change.
import { api, formCard, getSettings, h, isGuest, session } from "../portal.js";
import { setSetting } from "../settings.js";

const OPTIONS = [
  ["contrast", "High contrast", "White on black with bright links and focus."],
  ["large", "Large text", "Bigger text everywhere."],
  ["reader", "Screen-reader mode", "Game output without colour or decorative rule lines."],
  ["echo", "Local echo", "Show the commands you send in the game output."],
];

/**
 * The password card: the current password and the new one twice. The server ends every other
 * session of the player; this browser goes on with the token it answers.
 */
function passwordCard() {
  const pw = (id, name, label, autocomplete) => ({
    id,
    name,
    label,
    type: "password",
    required: true,
    maxlength: 512,
    attrs: { autocomplete },
  });
  return formCard({
    title: "Password",
    fields: [
      pw("pw-old", "oldPassword", "Current password", "current-password"),
      {
        ...pw("pw-new", "newPassword", "New password", "new-password"),
        hint: "8 to 512 characters.",
      },
      pw("pw-again", "again", "New password again", "new-password"),
    ],
    submit: "Change password",
    onSubmit: async (d, { form }) => {
      if (d.newPassword !== d.again) throw new Error("The new passwords are not the same.");
      const r = await api("POST", "/auth/password", {
        oldPassword: d.oldPassword,
        newPassword: d.newPassword,
      });
      session.renew(r.token);
      form.reset();
      return "Password changed. Your other sessions have ended; this one goes on.";
    },
  });
}

/** The settings page. */
export function render(_parts, { me } = {}) {
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
    me && !isGuest(me) ? passwordCard() : null,
  );
}

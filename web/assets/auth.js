// Log in, register, play as a guest, and set a new password with a reset token from staff (REST
// API).
import { h, notice } from "./dom.js";
import { api } from "./api.js";
import { session } from "./session.js";

function field(label, attrs) {
  const id = `f-${attrs.name}`;
  return h("p", { class: "field" }, h("label", { for: id }, label), h("input", { id, ...attrs }));
}

/** The form for `mode` (`login`, `register`, `reset`). */
export function authView(mode, { after = "/" } = {}) {
  const status = h("div", { class: "form-status" });
  const titles = { login: "Log in", register: "Create a character", reset: "Set a new password" };
  const fields = mode === "reset"
    ? [
      field("Reset token (from staff)", { name: "token", required: true, autocomplete: "off" }),
      field("New password", {
        name: "password",
        type: "password",
        required: true,
        minlength: 8,
        maxlength: 512,
        autocomplete: "new-password",
      }),
    ]
    : [
      field("Name", {
        name: "name",
        required: true,
        maxlength: 32,
        autocomplete: "username",
        autocapitalize: "off",
        spellcheck: "false",
      }),
      field("Password", {
        name: "password",
        type: "password",
        required: true,
        minlength: mode === "register" ? 8 : 1,
        maxlength: 512,
        autocomplete: mode === "register" ? "new-password" : "current-password",
      }),
    ];
  const button = h("button", { type: "submit" }, titles[mode]);
  const form = h("form", { class: "auth", novalidate: false }, fields, h("p", {}, button));
  form.addEventListener("submit", async (ev) => {
    ev.preventDefault();
    const data = Object.fromEntries(new FormData(form));
    button.disabled = true;
    status.replaceChildren();
    try {
      if (mode === "reset") {
        const r = await api("POST", "/auth/reset-password", {
          token: data.token.trim(),
          newPassword: data.password,
        });
        form.reset();
        status.append(notice(`${r.message} You can log in now.`));
      } else {
        const r = await api("POST", `/auth/${mode}`, { name: data.name, password: data.password });
        session.set(r.token, null);
        const me = await api("GET", "/me").catch(() => null);
        if (me) session.set(r.token, { id: me.id, name: me.name });
        history.replaceState(null, "", after);
        dispatchEvent(new PopStateEvent("popstate"));
      }
    } catch (e) {
      status.append(notice(e.message, "error"));
    } finally {
      button.disabled = false;
    }
  });
  const others = {
    login: [
      h("a", { href: "/register" }, "Create a character"),
      " · ",
      h("a", { href: "/reset" }, "I have a reset token"),
    ],
    register: [h("a", { href: "/login" }, "I have a character")],
    reset: [h("a", { href: "/login" }, "Back to log in")],
  };
  const page = h(
    "section",
    { class: "auth-page" },
    h("h1", { tabindex: "-1" }, titles[mode]),
    form,
    status,
    h("p", { class: "alt" }, others[mode]),
  );
  if (mode === "login") offerGuest(page, status, after);
  return page;
}

/**
 * Adds "Play as a guest" when the game has guests open: a guest character made over REST, whose
 * token the play view then connects with, as after a login.
 */
async function offerGuest(page, status, after) {
  const config = await api("GET", "/config").catch(() => null);
  if (config?.game?.guests !== true) return;
  const button = h("button", { type: "button", class: "guest" }, "Play as a guest");
  button.addEventListener("click", async () => {
    button.disabled = true;
    status.replaceChildren();
    try {
      const r = await api("POST", "/auth/guest");
      session.set(r.token, r.player);
      history.replaceState(null, "", after);
      dispatchEvent(new PopStateEvent("popstate"));
    } catch (e) {
      status.append(notice(e.message, "error"));
    } finally {
      button.disabled = false;
    }
  });
  page.append(
    h("p", { class: "alt guest-offer" }, "Just looking? ", button, " (gone when you leave)"),
  );
}

// The channels plugin's pane of the play view: pick a channel, read its history, join it, talk
// on it (as `+<channel> <text>` through the game's socket), and see new lines as they arrive.
import {
  api,
  getSettings,
  h,
  parseCodes,
  plainText,
  renderRuns,
  replace,
  seg,
} from "/assets/portal.js";

/** Builds the pane; `send(line)` types a line into the game. */
export function pane({ send, settings }) {
  const node = h("section", { class: "pane chan-pane", "aria-labelledby": "chan-h" });
  let channel = null;
  let log = null;
  replace(node, h("h2", { id: "chan-h" }, "Channels"), h("p", {}, "…"));

  const entry = (sender, message) => {
    const who = plainText(String(sender ?? ""));
    return h(
      "p",
      { class: "chan-line" },
      who ? h("b", {}, `${who}: `) : null,
      renderRuns(parseCodes(String(message ?? "")).flat(), getSettings().reader),
    );
  };

  const open = async (name) => {
    channel = name;
    replace(log, h("p", {}, "…"));
    try {
      const lines = await api("GET", `/channels/${seg(name)}/history?limit=50`);
      replace(log, lines.map((l) => entry(l.sender, l.message)));
      if (!lines.length) replace(log, h("p", {}, "Nothing said yet."));
    } catch (e) {
      replace(
        log,
        h(
          "p",
          {},
          e.status === 403 || e.status === 404 ? "Join the channel to read it." : e.message,
        ),
      );
    }
    log.scrollTop = log.scrollHeight;
  };

  const load = async () => {
    let list = [];
    try {
      list = await api("GET", "/channels?limit=200");
    } catch (e) {
      replace(node, h("h2", { id: "chan-h" }, "Channels"), h("p", {}, e.message));
      return;
    }
    const select = h(
      "select",
      { id: "chan-select" },
      list.map((c) => h("option", { value: c.name }, c.name)),
    );
    log = h("div", {
      class: "chan-log",
      role: "log",
      "aria-label": "Channel history",
      tabindex: "0",
    });
    const text = h("input", {
      id: "chan-text",
      name: "text",
      maxlength: settings.maxMessage,
      autocomplete: "off",
    });
    const talk = h(
      "form",
      { class: "chan-talk" },
      h("label", { for: "chan-text" }, "Say on channel"),
      text,
      h("button", { type: "submit" }, "Send"),
    );
    talk.addEventListener("submit", (ev) => {
      ev.preventDefault();
      if (!channel || !text.value.trim()) return;
      send(`+${channel} ${text.value}`);
      text.value = "";
    });
    const join = h("button", {
      type: "button",
      onclick: () => channel && send(`+chan/join ${channel}`),
    }, "Join");
    select.addEventListener("change", () => open(select.value));
    replace(
      node,
      h("h2", { id: "chan-h" }, "Channels"),
      list.length
        ? [
          h("p", { class: "field" }, h("label", { for: "chan-select" }, "Channel"), select, join),
          log,
          talk,
        ]
        : h("p", {}, "No channels yet."),
    );
    if (list.length) open(list[0].name);
  };
  load();

  return {
    node,
    /** Every frame's data: the pane shows the lines of the channel it has open. */
    data(data) {
      if (data.type !== "channel" || !log) return;
      if (String(data.channel).toLowerCase() !== String(channel).toLowerCase()) return;
      log.querySelector("p:only-child:not(.chan-line)")?.remove();
      const text = data.kind === "pose" ? `${data.sender} ${data.text}` : data.text;
      log.append(entry(data.kind === "pose" ? "" : data.sender, text));
      log.scrollTop = log.scrollHeight;
    },
  };
}

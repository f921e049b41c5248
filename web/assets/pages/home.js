// The front page: the game's name, banner and description, how to connect, who is online, and
// the plugins' cards (active and shared scenes, upcoming events, the newest wiki pages). What a
// visitor sees is what the owner opened (`web.public.*`); everything comes from /api/v1/public.
import { api, h, seg, session } from "../portal.js";
import { avatar, cardsFor, closedToVisitors, playersOnly, richText } from "./showcase.js";

/** `/home` (and a visitor's `/`). */
export async function render(_parts, { me, navigate, cards }) {
  let game;
  try {
    game = await api("GET", "/public/game");
  } catch (e) {
    if (closedToVisitors(e)) return playersOnly("Welcome", "its front page");
    throw e;
  }
  const [online, extra] = await Promise.all([
    game.public.online || me ? api("GET", "/public/online?limit=50").catch(() => null) : null,
    cardsFor(cards, "front", { me, navigate }),
  ]);
  return h(
    "article",
    { class: "showcase home" },
    game.banner ? h("img", { class: "banner", src: game.banner, alt: "" }) : null,
    h("h1", {}, game.name),
    game.description ? h("div", { class: "lede" }, richText(game.description)) : null,
    h(
      "div",
      { class: "home-grid" },
      h("aside", { class: "home-side" }, connectCard(game, me), onlineCard(online)),
      h("div", { class: "home-main" }, extra),
    ),
  );
}

/** How to connect: the web client, telnet's host and port, and a way in for visitors. */
function connectCard(game, me) {
  const c = game.connect;
  return h(
    "section",
    { class: "card", "aria-labelledby": "connect-h" },
    h("h2", { id: "connect-h" }, "How to play"),
    h(
      "p",
      { class: "row" },
      h("a", { class: "button", href: c.web }, me ? "Play now" : "Play in your browser"),
      !me && game.registration ? h("a", { href: "/register" }, "Make a character") : null,
      !me ? h("a", { href: "/login" }, "Log in") : null,
    ),
    h(
      "dl",
      { class: "facts" },
      h("dt", {}, "Telnet"),
      h("dd", {}, h("code", {}, `${c.host} ${c.telnet}`)),
      c.telnetTls
        ? [h("dt", {}, "Telnet over TLS"), h("dd", {}, h("code", {}, `${c.host} ${c.telnetTls}`))]
        : null,
    ),
    !me && game.guests
      ? h("p", { class: "muted" }, "Just looking? Guests may play without a character.")
      : null,
    session.token()
      ? null
      : h("p", { class: "muted" }, "Any MUD client works: Mudlet, TinTin++, MUSHclient."),
  );
}

/** Who is online now, linking to their pages. */
function onlineCard(online) {
  if (!online) return null;
  return h(
    "section",
    { class: "card", "aria-labelledby": "online-h" },
    h("h2", { id: "online-h" }, `Online now (${online.length})`),
    online.length
      ? h(
        "ul",
        { class: "people" },
        online.map((p) =>
          h(
            "li",
            {},
            avatar(p),
            h(
              "span",
              {},
              h("a", { href: `/profile/${seg(p.id)}` }, p.name),
              p.location ? h("span", { class: "muted" }, ` · ${p.location}`) : null,
            ),
          )
        ),
      )
      : h("p", { class: "muted" }, "Nobody right now. Be the first!"),
  );
}

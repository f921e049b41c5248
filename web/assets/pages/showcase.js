// What the core's showcase pages share (the front page, the gallery, character pages): avatars,
// the plugins' cards, and the note a visitor gets where the owner keeps a part for players.
import { ApiError, h, parseCodes, plainText, renderRuns, siteUrl } from "../portal.js";

/** A character's picture, or its initial in a circle when it has none on this site. */
export function avatar(character, size = "small") {
  // Read as the browser reads it: only pictures on this game's own site show (the CSP).
  const src = siteUrl(character.avatar ?? "");
  const cls = `avatar avatar-${size}`;
  if (src && src.startsWith("/")) return h("img", { class: cls, src, alt: "" });
  const initial = [...plainText(character.name ?? "?").trim()][0] ?? "?";
  return h("span", { class: `${cls} avatar-none`, "aria-hidden": "true" }, initial.toUpperCase());
}

/** Colour-coded text as paragraphs (descriptions, a game's blurb). */
export function richText(text) {
  return parseCodes(text).map((runs) => h("p", {}, renderRuns(runs)));
}

/**
 * The cards plugins add to a core page at `place`, in order: each module's `card(ctx)` node.
 * A card that fails is left out (the page stands without it); one with nothing answers null.
 */
export async function cardsFor(cards, place, ctx) {
  const mine = (cards ?? []).filter((c) => c.place === place);
  const nodes = await Promise.all(mine.map(async (c) => {
    try {
      const m = await import(c.module);
      return await m.card({ ...ctx, place, settings: c.settings ?? {} });
    } catch {
      return null;
    }
  }));
  return nodes.filter(Boolean);
}

/** True when the server refused because the owner keeps this part for players (403). */
export function closedToVisitors(e) {
  return e instanceof ApiError && e.status === 403;
}

/** What a visitor sees where the owner keeps a part for players: a way in. */
export function playersOnly(title, what) {
  return h(
    "section",
    {},
    h("h1", {}, title),
    h(
      "p",
      { class: "notice" },
      `This game shows ${what} to its players. `,
      h("a", { href: "/login" }, "Log in"),
      " or ",
      h("a", { href: "/register" }, "make a character"),
      " to see them.",
    ),
  );
}

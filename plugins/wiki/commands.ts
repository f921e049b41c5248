/**
 * In-game wiki commands: `+wiki [<path>]` and `+wiki/search <query>` for players;
 * `@wiki/create`, `@wiki/edit` and `@wiki/fetch` for admins and wizards.
 */
import { CommandError, type CommandSpec, EngineError } from "../../src/plugins/mod.ts";
import { MAX_TITLE } from "./frontmatter.ts";
import { parseWikiPath, type WikiPath } from "./paths.ts";
import { MAX_ASSET_BYTES, pageJson, type WikiStore } from "./store.ts";
import { renderListing, renderPage, renderResults } from "./render.ts";
import { FetchError, type NetPolicy, safeFetch } from "./safe_fetch.ts";

const STAFF = "admin+";
/** Search hits shown in game. */
const MAX_HITS = 30;

function widthOf(w: number): number {
  return Number.isFinite(w) && w > 0 ? Math.min(250, Math.max(20, Math.floor(w))) : 78;
}

/** A path argument, or the error as an in-game message. */
function pathArg(text: string, root = false): WikiPath {
  try {
    return parseWikiPath(text.trim(), { root });
  } catch (e) {
    throw new CommandError((e as Error).message);
  }
}

/** Runs a store call; its typed errors become in-game messages. */
async function attempt<T>(fn: () => Promise<T>): Promise<T> {
  try {
    return await fn();
  } catch (e) {
    if (e instanceof EngineError) {
      throw new CommandError(e.status === 404 ? "There is no such wiki page." : e.message);
    }
    throw e;
  }
}

/** In-game text: `%r` is a line break in MUSH input, a newline in the Markdown file. */
function fromGame(text: string): string {
  return text.replace(/%[rR]/g, "\n");
}

/** The wiki commands over a store and an outbound-fetch policy. */
export function wikiCommands(store: WikiStore, policy: () => NetPolicy): CommandSpec[] {
  return [
    {
      name: "+wiki",
      guests: true,
      switches: ["search"],
      category: "wiki",
      help: "+wiki [<path>] reads a wiki page or folder; +wiki/search <words> finds pages.",
      async exec(u) {
        const width = widthOf(u.width);
        if (u.cmd.switches.includes("search")) {
          const q = u.cmd.args.trim();
          if (!q) throw new CommandError("Usage: +wiki/search <words>");
          if (q.length > 200) throw new CommandError("That search is too long.");
          const hits = await store.search(q);
          return u.send(renderResults(q, hits.slice(0, MAX_HITS), hits.length, width), {
            type: "wiki.search",
            query: q,
            results: hits.slice(0, MAX_HITS),
          });
        }
        const p = pathArg(u.cmd.args, true);
        if (p.asset) {
          throw new CommandError(`${p.path} is a file: open /api/v1/wiki/${p.path} in a browser.`);
        }
        const found = await attempt(() => store.lookup(p));
        if ("page" in found) {
          return u.send(renderPage(found.page, width), {
            type: "wiki.page",
            page: { ...pageJson(found.page), body: undefined },
          });
        }
        u.send(renderListing(found.listing, width), {
          type: "wiki.directory",
          path: found.listing.path,
          children: found.listing.children,
        });
      },
    },
    {
      name: "@wiki",
      switches: ["create", "edit", "fetch"],
      lock: STAFF,
      category: "wiki",
      help: "@wiki/create <path>=<title>/<body>, @wiki/edit <path>=<new body>, " +
        "@wiki/fetch <url>=<wiki-path> (an image or PDF, at most 10 MB).",
      async exec(u) {
        const sw = u.cmd.switches;
        const actor = { actorId: u.me.id, actorName: u.me.name };
        if (sw.includes("create")) {
          if (u.cmd.rhs === null) {
            throw new CommandError("Usage: @wiki/create <path>=<title>/<body>");
          }
          const p = pathArg(u.cmd.lhs);
          const slash = u.cmd.rhs.indexOf("/");
          const title = (slash === -1 ? u.cmd.rhs : u.cmd.rhs.slice(0, slash)).trim();
          const body = slash === -1 ? "" : fromGame(u.cmd.rhs.slice(slash + 1).trim());
          if (!title) throw new CommandError("Usage: @wiki/create <path>=<title>/<body>");
          if (title.length > MAX_TITLE) {
            throw new CommandError(`A title may have at most ${MAX_TITLE} characters.`);
          }
          await attempt(() => store.create(p, { title }, body, actor));
          return u.send(`Wiki page '${p.path}' created.`);
        }
        if (sw.includes("edit")) {
          if (u.cmd.rhs === null) throw new CommandError("Usage: @wiki/edit <path>=<new body>");
          const p = pathArg(u.cmd.lhs);
          if (p.asset) throw new CommandError("Only pages can be edited in game.");
          await attempt(() => store.update(p, { body: fromGame(u.cmd.rhs ?? "") }, actor));
          return u.send(`Wiki page '${p.path}' updated.`);
        }
        if (sw.includes("fetch")) {
          // A URL may hold '=' in its query; a wiki path never does, so split at the last one.
          const eq = u.cmd.args.lastIndexOf("=");
          if (eq === -1) throw new CommandError("Usage: @wiki/fetch <url>=<wiki-path>");
          const url = u.cmd.args.slice(0, eq).trim();
          const p = pathArg(u.cmd.args.slice(eq + 1));
          if (!p.asset || !p.contentType) {
            throw new CommandError(
              "The wiki path must end in .jpg, .jpeg, .png, .gif, .webp, .svg or .pdf.",
            );
          }
          let got;
          try {
            got = await safeFetch(url, {
              policy: policy(),
              maxBytes: MAX_ASSET_BYTES,
              accept: [p.contentType],
            });
          } catch (e) {
            if (e instanceof FetchError) throw new CommandError(`@wiki/fetch: ${e.message}`);
            throw e;
          }
          const r = await attempt(() => store.putAsset(p, got.bytes, actor));
          return u.send(
            `Fetched ${got.bytes.byteLength} bytes of ${got.contentType} into '${p.path}'` +
              (r.created ? "." : " (replaced)."),
          );
        }
        throw new CommandError(
          "Usage: @wiki/create <path>=<title>/<body>, @wiki/edit <path>=<body>, " +
            "@wiki/fetch <url>=<wiki-path>",
        );
      },
    },
  ];
}

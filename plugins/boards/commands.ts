/**
 * In-game commands of the boards plugin, as players know them from Myrddin's BBS:
 * `+bbread`, `+bbpost`, `+bbedit`, `+bbremove`, `+bbnext`, `+bbnew`, `+bbcatchup`,
 * `+bbscan`, and staff's `+bbcreate`, `+bbdestroy`, `+bblock`.
 */
import {
  CommandError,
  type CommandSdk,
  type CommandSpec,
  ForbiddenError,
  optionalText,
  padVisible,
  stripColour,
} from "../../src/plugins/mod.ts";
import {
  type BoardService,
  checkName,
  MAX_BODY,
  MAX_DESCRIPTION,
  type PostView,
} from "./service.ts";
import type { Board, Post } from "./store.ts";

const STAFF = "admin+";
const RULE = "%ch" + "=".repeat(78) + "%cn";
/** Posts one `+bbread <board>` shows (the newest ones; REST pages through all). */
const LIST_MAX = 200;

/** `YYYY-MM-DD` of a time in ms (UTC, as the game's clock). */
function day(ms: number): string {
  return new Date(ms).toISOString().slice(0, 10);
}

/** Splits `<board>/<rest>` at the first slash; usage error when there is none. */
function splitRef(arg: string, usage: string): [string, string] {
  const i = arg.indexOf("/");
  if (i < 1) throw new CommandError(usage);
  return [arg.slice(0, i).trim(), arg.slice(i + 1).trim()];
}

/** The boards commands over a service. */
export function boardCommands(svc: BoardService): CommandSpec[] {
  const listBoards = async (u: CommandSdk) => {
    const views = await svc.views(await svc.visible(u.me), u.me);
    if (!views.length) return u.send("There are no boards.");
    const rows = views.map((v) =>
      `${padVisible(String(v.id), 4, "right")}  ${padVisible(v.name, 32)} ${
        padVisible(v.unread ? `%ch${v.unread}%cn` : "-", 7, "right")
      } ${padVisible(String(v.posts), 7, "right")}  ${padVisible(v.description, 22)}`
    );
    u.send(
      [
        RULE,
        `%ch${padVisible("#", 4, "right")}  ${padVisible("Board", 32)} ${
          padVisible("Unread", 7, "right")
        } ${padVisible("Posts", 7, "right")}  Description%cn`,
        ...rows,
        RULE,
        "+bbread <board> lists its posts; +bbread <board>/<#> reads one; +bbnext reads the next unread.",
      ].join("\n"),
      { type: "bbboards", boards: views },
    );
  };

  const listPosts = async (u: CommandSdk, board: Board) => {
    const total = (await svc.store.postCounts([board.id]))[0];
    const offset = Math.max(0, total - LIST_MAX);
    const posts = await svc.postViews(
      board,
      await svc.store.posts(board.id, { limit: LIST_MAX, offset }),
      u.me,
    );
    const head = `%ch**** ${board.name} ****%cn${board.description ? ` ${board.description}` : ""}`;
    if (!posts.length) return u.send(`${head}\nNo posts on ${board.name}.`);
    const rows = posts.map((p) =>
      `${padVisible(`${board.id}/${p.num}`, 8)}${p.read ? " " : "%ch*%cn"} ${
        padVisible(p.subject, 36)
      } ${padVisible(stripColour(p.authorName), 16)} ${day(p.createdAt)}`
    );
    u.send(
      [
        head,
        RULE,
        `%ch${padVisible("Message", 8)}  ${padVisible("Subject", 36)} ${
          padVisible("Poster", 16)
        } Date%cn`,
        ...rows,
        RULE,
        ...(offset ? [`(the newest ${LIST_MAX} of ${total} posts)`] : []),
        "* marks posts you have not read.",
      ].join("\n"),
      { type: "bbposts", board: board.id, posts: posts.map(({ body: _b, ...rest }) => rest) },
    );
  };

  const showPost = async (u: CommandSdk, board: Board, post: Post) => {
    const view: PostView = await svc.read(board, post, u.me);
    u.send(
      [
        RULE,
        `%chMessage:%cn ${board.id}/${view.num}  %chBoard:%cn ${board.name}`,
        `%chPoster:%cn  ${stripColour(view.authorName)}  %chDate:%cn ${day(view.createdAt)}${
          view.editedAt ? ` (edited ${day(view.editedAt)})` : ""
        }`,
        `%chSubject:%cn ${view.subject}`,
        RULE,
        view.body,
        RULE,
      ].join("\n"),
      { type: "bbpost", ...view },
    );
  };

  /** The first unread post on any readable board, in board order. */
  const firstUnread = async (u: CommandSdk): Promise<[Board, Post] | null> => {
    for (const board of await svc.visible(u.me)) {
      // A few, not one: the first may be removed between the walk and the read.
      for (const n of await svc.unreadNumbers(board, u.me, 5)) {
        const post = await svc.store.post(board.id, n);
        if (post) return [board, post];
      }
    }
    return null;
  };

  return [
    {
      name: "+bbread",
      guests: true,
      category: "boards",
      help: "+bbread lists boards; +bbread <board> lists posts; +bbread <board>/<#> reads one.",
      async exec(u) {
        const arg = u.cmd.args.trim();
        if (!arg) return await listBoards(u);
        const slash = arg.indexOf("/");
        if (slash === -1) return await listPosts(u, await svc.find(arg, u.me));
        const [ref, num] = splitRef(arg, "Usage: +bbread <board>/<#>");
        const board = await svc.find(ref, u.me);
        await showPost(u, board, await svc.findPost(board, num));
      },
    },
    {
      name: "+bbpost",
      category: "boards",
      help: "+bbpost <board>/<subject>=<body> posts a message.",
      async exec(u) {
        const usage = "Usage: +bbpost <board>/<subject>=<body>";
        if (u.cmd.rhs === null) throw new CommandError(usage);
        const [ref, subject] = splitRef(u.cmd.lhs, usage);
        const board = await svc.find(ref, u.me);
        const post = await svc.post(board, u.me, subject, u.cmd.rhs);
        u.send(`You post message ${board.id}/${post.num} to ${board.name}: ${post.subject}`);
      },
    },
    {
      name: "+bbedit",
      category: "boards",
      help: "+bbedit <board>/<#>=<old>/<new> replaces text in your post.",
      async exec(u) {
        const usage = "Usage: +bbedit <board>/<#>=<old text>/<new text>";
        if (u.cmd.rhs === null) throw new CommandError(usage);
        const [ref, num] = splitRef(u.cmd.lhs, usage);
        const [from, to] = splitEdit(u.cmd.rhs, usage);
        const board = await svc.find(ref, u.me);
        const post = await svc.findPost(board, num);
        if (!svc.canChange(post, u.me)) {
          throw new ForbiddenError("Only the author or staff may edit a post.");
        }
        const at = post.body.indexOf(from);
        if (at === -1) throw new CommandError("That text is not in the post.");
        const body = post.body.slice(0, at) + to + post.body.slice(at + from.length);
        if (!body.trim()) throw new CommandError("A post cannot be left empty.");
        if (body.length > MAX_BODY) {
          throw new CommandError(`A post can be at most ${MAX_BODY} characters.`);
        }
        await svc.store.updatePost({ ...post, body, editedAt: Date.now() });
        u.send(`Message ${board.id}/${post.num} edited.`);
      },
    },
    {
      name: "+bbremove",
      category: "boards",
      help: "+bbremove <board>/<#> removes your post.",
      async exec(u) {
        const [ref, num] = splitRef(u.cmd.args.trim(), "Usage: +bbremove <board>/<#>");
        const board = await svc.find(ref, u.me);
        const post = await svc.findPost(board, num);
        if (!svc.canChange(post, u.me)) {
          throw new ForbiddenError("Only the author or staff may remove a post.");
        }
        await svc.store.deletePost(post);
        u.send(`Message ${board.id}/${post.num} removed from ${board.name}.`);
      },
    },
    {
      name: "+bbnext",
      guests: true,
      category: "boards",
      help: "+bbnext reads your next unread post.",
      async exec(u) {
        const next = await firstUnread(u);
        if (!next) return u.send("You have no unread posts.");
        await showPost(u, next[0], next[1]);
      },
    },
    {
      name: "+bbnew",
      guests: true,
      category: "boards",
      help: "+bbnew lists your unread posts on every board.",
      async exec(u) {
        const rows: string[] = [];
        for (const board of await svc.visible(u.me)) {
          const nums = await svc.unreadNumbers(board, u.me, LIST_MAX);
          const posts = await Promise.all(nums.map((n) => svc.store.post(board.id, n)));
          for (const p of posts) {
            if (!p) continue;
            rows.push(
              `${padVisible(`${board.id}/${p.num}`, 8)} ${padVisible(board.name, 16)} ${
                padVisible(p.subject, 32)
              } ${padVisible(stripColour(p.authorName), 16)}`,
            );
          }
        }
        if (!rows.length) return u.send("You have no unread posts.");
        u.send(["%chUnread posts:%cn", ...rows, "Read them with +bbnext."].join("\n"));
      },
    },
    {
      name: "+bbscan",
      guests: true,
      category: "boards",
      help: "+bbscan shows how many unread posts each board holds for you.",
      async exec(u) {
        const boards = await svc.visible(u.me);
        const rows: string[] = [];
        for (const board of boards) {
          const nums = await svc.unreadNumbers(board, u.me);
          if (!nums.length) continue;
          const shown = nums.slice(0, 20).join(", ") + (nums.length > 20 ? ", ..." : "");
          rows.push(`  ${board.name} (${board.id}): ${nums.length} unread (${shown})`);
        }
        if (!rows.length) return u.send("You have no unread posts.");
        u.send(["%chUnread postings on the bulletin boards:%cn", ...rows].join("\n"));
      },
    },
    {
      name: "+bbcatchup",
      guests: true,
      category: "boards",
      help: "+bbcatchup <board>|all marks a board, or every board, read.",
      async exec(u) {
        const arg = u.cmd.args.trim();
        if (!arg) throw new CommandError("Usage: +bbcatchup <board>|all");
        const boards = arg.toLowerCase() === "all"
          ? await svc.visible(u.me)
          : [await svc.find(arg, u.me)];
        for (const b of boards) await svc.store.markBoardRead(b.id, u.me.id);
        u.send(
          arg.toLowerCase() === "all"
            ? "All boards marked read."
            : `${boards[0].name} marked read.`,
        );
      },
    },
    {
      name: "+bbcreate",
      lock: STAFF,
      category: "boards",
      help: "+bbcreate <name>[=<description>] creates a board (staff).",
      async exec(u) {
        if (!u.cmd.lhs) throw new CommandError("Usage: +bbcreate <name>[=<description>]");
        const { name, slug } = checkName(u.cmd.lhs);
        const board = await svc.store.createBoard({
          name,
          slug,
          description: optionalText(u.cmd.rhs ?? "", "description", MAX_DESCRIPTION),
          readLock: "",
          postLock: "",
          createdAt: Date.now(),
          createdBy: u.me.id,
        });
        u.send(`Board ${board.id} '${board.name}' created.`);
      },
    },
    {
      name: "+bbdestroy",
      lock: STAFF,
      category: "boards",
      help: "+bbdestroy <board> destroys a board and every post on it (staff).",
      async exec(u) {
        const arg = u.cmd.args.trim();
        if (!arg) throw new CommandError("Usage: +bbdestroy <board>");
        const board = await svc.find(arg, u.me);
        await svc.store.deleteBoard(board);
        u.send(`Board ${board.id} '${board.name}' destroyed with its posts.`);
      },
    },
    {
      name: "+bblock",
      lock: STAFF,
      switches: ["read", "post"],
      category: "boards",
      help:
        "+bblock <board> shows its locks; +bblock[/read|/post] <board>=<lock> sets one (staff).",
      async exec(u) {
        if (!u.cmd.lhs) throw new CommandError("Usage: +bblock[/read|/post] <board>[=<lock>]");
        const board = await svc.find(u.cmd.lhs, u.me);
        if (u.cmd.rhs === null) {
          return u.send(
            `${board.name}: read lock ${board.readLock || "(none)"}; post lock ${
              board.postLock || "(none)"
            }`,
          );
        }
        const which = u.cmd.switches[0] === "post" ? "postLock" : "readLock";
        const lock = await svc.lockAs(
          u.me,
          u.cmd.rhs,
          which === "postLock" ? "post lock" : "read lock",
        );
        await svc.store.updateBoard(board, { ...board, [which]: lock });
        u.send(
          `${board.name}: ${which === "postLock" ? "post" : "read"} lock ${
            lock ? `set to ${lock}` : "cleared"
          }.`,
        );
      },
    },
  ];
}

/** `<old>/<new>` of +bbedit: split at the first slash (the old text must not be empty). */
function splitEdit(rhs: string, usage: string): [string, string] {
  const i = rhs.indexOf("/");
  if (i < 1) throw new CommandError(usage);
  return [rhs.slice(0, i), rhs.slice(i + 1)];
}

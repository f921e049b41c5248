/** Black-box tests of the help plugin: REST reads and writes, sources and priorities, in game. */
import { join } from "node:path";
import { assert, assertEquals, assertMatch } from "./assert.ts";
import { api, ROOT } from "./harness.ts";
import { isType, startPluginWorld } from "./plugins_world.ts";
import { connectWs, pacedSender } from "./ws_client.ts";
import { stripColour } from "../src/text/colour.ts";

/** Every core command (docs/commands.md) must have a real help file. */
const CORE_TOPICS = [
  "look",
  "say",
  "pose",
  "semipose",
  "@emit",
  "page",
  "think",
  "whisper",
  "who",
  "@doing",
  "+where",
  "inventory",
  "get",
  "drop",
  "give",
  "home",
  "examine",
  "@describe",
  "@name",
  "@set",
  "@boot",
  "@toad",
  "@newpassword",
  "@resettoken",
  "@chown",
  "@moniker",
  "@site",
  "@reboot",
  "@shutdown",
  "@update",
  "@reload",
  "connect",
  "create",
  "quit",
];

const enc = encodeURIComponent;

async function copyDir(from: string, to: string) {
  await Deno.mkdir(to, { recursive: true });
  for await (const e of Deno.readDir(from)) {
    if (e.isDirectory) await copyDir(join(from, e.name), join(to, e.name));
    else if (e.isFile) await Deno.copyFile(join(from, e.name), join(to, e.name));
  }
}

Deno.test("help plugin: sources, priorities, REST writes, path safety and in-game help", async () => {
  const tmp = await Deno.makeTempDir({ prefix: "ursamu-help-" });
  const helpDir = join(tmp, "help");
  await copyDir(join(ROOT, "help"), helpDir);
  const secret = join(tmp, "secret.md");
  await Deno.writeTextFile(secret, "TOP SECRET");
  await Deno.symlink(secret, join(helpDir, "escape.md"));
  await Deno.writeTextFile(
    join(helpDir, "colourful.md"),
    "---\nsection: testing\n---\n# Colourful\n\n%chBold%cn and %crred%cn text.\n",
  );
  await Deno.writeTextFile(join(helpDir, "badyaml.md"), "---\n: [unclosed\n---\nStill readable.\n");
  const w = await startPluginWorld(["Alice"], { env: { URSAMU_SERVER_HELPDIR: helpDir } });
  try {
    const base = w.srv.base;
    const { Root, Alice } = w.tokens;

    // The index (staff see every topic; see the next test for what players see).
    const index = await api(base, "GET", "/api/v1/help", undefined, Root);
    assertEquals(index.status, 200);
    assertEquals(Object.keys(index.body), ["sections"]);
    const sections: Record<string, string[]> = index.body.sections;
    const all = Object.values(sections).flat();
    for (const t of CORE_TOPICS) assert(all.includes(t), `index lists ${t}`);
    assert(sections.communication.includes("say"));
    assert(sections.testing.includes("colourful"));
    assert(all.includes("channels") && all.includes("notes"), "plugin help folders are read");
    assert(!all.includes("escape"), "a symlink out of the help folder is refused");

    // Every core topic is a real file topic.
    for (const t of CORE_TOPICS) {
      const r = await api(base, "GET", `/api/v1/help/${enc(t)}`, undefined, Root);
      assertEquals(r.status, 200, t);
      assertEquals(r.body.source, "file", t);
      assert(r.body.content.length > 40, `${t} has real content`);
    }
    // Colour codes stripped by default, raw Markdown on request.
    const plain = await api(base, "GET", "/api/v1/help/colourful");
    assertEquals(plain.body.content.includes("%c"), false);
    assertMatch(plain.body.content, /Bold and red text/);
    const md = await fetch(`${base}/api/v1/help/colourful?format=md`);
    assertMatch(md.headers.get("content-type") ?? "", /text\/markdown/);
    assertMatch(await md.text(), /%chBold%cn/);
    assertMatch((await api(base, "GET", "/api/v1/help/badyaml")).body.content, /Still readable/);

    // Lowest priority: a command's inline help when no file exists.
    const addcom = await api(base, "GET", "/api/v1/help/addcom");
    assertEquals([addcom.status, addcom.body.source], [200, "command"]);
    // Aliases and case.
    assertEquals((await api(base, "GET", "/api/v1/help/LOOK")).body.name, "look");
    assertEquals(
      (await api(base, "GET", "/api/v1/help/%40upgrade", undefined, Root)).body.name,
      "@update",
    );

    // Unknown and hostile topics.
    assertEquals((await api(base, "GET", "/api/v1/help/no-such-topic")).status, 404);
    for (const bad of ["..%2F..%2Fsecret", "a..b", "a%00b", "x".repeat(80), "a.b"]) {
      const r = await api(base, "GET", `/api/v1/help/${bad}`);
      assertEquals(r.status, 400, bad);
      assertMatch(r.body.error, /Invalid topic name/);
    }
    const deep = await api(base, "GET", "/api/v1/help/../../secret");
    assert(deep.status === 404 || deep.status === 400, "no traversal through the URL");

    // Writes: staff only.
    const body = { content: "Database %chsay%cn help.", section: "custom" };
    assertEquals((await api(base, "POST", "/api/v1/help/say", body)).status, 401);
    const forbidden = await api(base, "POST", "/api/v1/help/say", body, Alice);
    assertEquals([forbidden.status, forbidden.body], [403, { error: "Forbidden" }]);
    assertEquals((await api(base, "DELETE", "/api/v1/help/say", undefined, Alice)).status, 403);
    const noContent = await api(base, "POST", "/api/v1/help/say", { content: " " }, Root);
    assertEquals([noContent.status, noContent.body.error], [400, "content is required"]);
    // The size limit holds for text stored at two bytes a character (was a 500 from KV).
    const wide = "€".repeat(30_000);
    const big = await api(base, "POST", "/api/v1/help/wide", { content: wide }, Root);
    assertEquals(big.status, 201, JSON.stringify(big.body).slice(0, 200));
    assertEquals((await api(base, "GET", "/api/v1/help/wide")).body.content, wide);
    const tooBig = await api(base, "POST", "/api/v1/help/wide", { content: wide + "€" }, Root);
    assertEquals(
      [tooBig.status, tooBig.body.error],
      [400, "content must be 30000 characters or fewer"],
    );
    assertEquals((await api(base, "DELETE", "/api/v1/help/wide", undefined, Root)).status, 200);
    const badSection = await api(base, "POST", "/api/v1/help/say", {
      content: "x",
      section: "../x",
    }, Root);
    assertEquals(badSection.status, 400);
    const badSlug = await api(base, "POST", "/api/v1/help/..%2Fevil", { content: "x" }, Root);
    assertEquals(badSlug.status, 400);

    // Database (100) beats file (50); deleting it restores the file entry.
    const created = await api(base, "POST", "/api/v1/help/say", body, Root);
    assertEquals(created.status, 201);
    const dbSay = await api(base, "GET", "/api/v1/help/say");
    assertEquals([dbSay.body.source, dbSay.body.section, dbSay.body.content], [
      "database",
      "custom",
      "Database say help.",
    ]);
    assert((await api(base, "GET", "/api/v1/help")).body.sections.custom.includes("say"));
    const updated = await api(base, "POST", "/api/v1/help/say", { content: "Second." }, Root);
    assertEquals([updated.status, updated.body.section], [200, "custom"]);
    const del = await api(base, "DELETE", "/api/v1/help/say", undefined, Root);
    assertEquals([del.status, del.body.deleted], [200, true]);
    const fileSay = await api(base, "GET", "/api/v1/help/say");
    assertEquals(fileSay.body.source, "file");
    assertEquals((await api(base, "DELETE", "/api/v1/help/say", undefined, Root)).status, 404);

    // A brand-new database topic, then gone entirely.
    assertEquals(
      (await api(base, "POST", "/api/v1/help/house-rules", { content: "Be kind." }, Root)).status,
      201,
    );
    assertEquals((await api(base, "GET", "/api/v1/help/house-rules")).body.section, "general");
    await api(base, "DELETE", "/api/v1/help/house-rules", undefined, Root);
    assertEquals((await api(base, "GET", "/api/v1/help/house-rules")).status, 404);

    // In game.
    const alice = await w.login("Alice");
    const idx = await alice.cmd("help", isType("help"));
    assertMatch(idx.msg, /COMMUNICATION/);
    const say = await alice.cmd("help say", isType("help"));
    assertEquals(say.data.topic, "say");
    assertMatch(say.msg, /Says something/);
    assertEquals((await alice.cmd("help emit", isType("help"))).data.topic, "@emit");
    assertEquals((await alice.cmd("help chan", isType("help"))).data.topic, "channels");
    await alice.cmd("help zzzz", /No help for 'zzzz'/);
    // Help that talks about %r shows it, rather than breaking the line there.
    const wiki = stripColour((await alice.cmd("help wiki", isType("help"))).msg);
    assertMatch(wiki, /Use %r for a line break in a body written in game\s+\(%r%r\s+starts/);
    const help = stripColour((await alice.cmd("help help", isType("help"))).msg);
    assertMatch(help, /\(colour codes and %r\s+allowed\)/);
    // TinTin++ players learn to type \; for a semicolon.
    const clients = stripColour((await alice.cmd("help tintin", isType("help"))).msg);
    assertMatch(clients, /@dig Garden=North\\;n,South\\;s/);
    // An 80-column client gets help wrapped to 80 columns, each paragraph reflowed (the files
    // are written 100 wide): no line for the client to break at its margin.
    alice.ws.sendJson({ type: "window", width: 80 });
    const narrow = stripColour((await alice.cmd("help clients", isType("help"))).msg);
    for (const l of narrow.split("\n")) assert(l.length <= 80, `fits 80 columns: ${l}`);
    assertMatch(narrow, /\ntelnet, or the web client at the game's web address\.\n/);
    await alice.cmd("+help/set say=Hacked", /Permission denied/);
    await alice.cmd("+help/reload", /Permission denied/);

    const root = await w.login("Root");
    await root.cmd("+help/set etiquette=Be %chnice%cn.%rAlways.", /Help topic 'etiquette' created/);
    const et = await alice.cmd("help etiquette", isType("help"));
    assertEquals(et.data.source, "database");
    assertEquals(
      (await api(base, "GET", "/api/v1/help/etiquette")).body.content,
      "Be nice.\nAlways.",
    );
    await root.cmd("+help/set bad..name=x", /Topic names use/);
    await root.cmd("+help/del etiquette", /deleted/);
    await root.cmd("+help/del etiquette", /no database topic/);

    await Deno.writeTextFile(join(helpDir, "fresh.md"), "# Fresh\n\nNew on disk.");
    assertEquals((await api(base, "GET", "/api/v1/help/fresh")).status, 404);
    await root.cmd("+help/reload", /Help files reloaded/);
    assertEquals(
      (await api(base, "GET", "/api/v1/help/fresh")).body.content,
      "# Fresh\n\nNew on disk.",
    );
  } finally {
    await w.stop();
    await Deno.remove(tmp, { recursive: true });
  }
});

Deno.test("help lists only what the reader may use; topics are not shown as commands", async () => {
  const w = await startPluginWorld(["Alice"], { config: { game: { guestEnabled: true } } });
  try {
    const base = w.srv.base;
    const { Root, Alice } = w.tokens;
    const flat = (sections: Record<string, string[]>) => Object.values(sections).flat();
    const ADMIN = [
      "@boot",
      "@toad",
      "@newpassword",
      "@site",
      "@reboot",
      "+help/set",
      "@chancreate",
    ];

    // Anonymous and player readers get the view of an ordinary player, over REST and in game.
    const anon = flat((await api(base, "GET", "/api/v1/help")).body.sections);
    const player = flat((await api(base, "GET", "/api/v1/help", undefined, Alice)).body.sections);
    assertEquals(player, anon);
    for (const t of [...ADMIN, "@dig"]) assert(!anon.includes(t), `${t} is not listed`);
    for (const t of ["say", "page", "+note", "notes", "channels", "colour"]) {
      assert(anon.includes(t), `${t} is listed`);
    }
    assertEquals((await api(base, "GET", "/api/v1/help/%40boot")).status, 404);
    assertEquals((await api(base, "GET", "/api/v1/help/%40boot", undefined, Alice)).status, 404);
    // Staff see the admin topics.
    const staff = flat((await api(base, "GET", "/api/v1/help", undefined, Root)).body.sections);
    for (const t of [...ADMIN, "@dig"]) assert(staff.includes(t), `staff see ${t}`);
    assertEquals((await api(base, "GET", "/api/v1/help/%40boot", undefined, Root)).status, 200);

    const alice = await w.login("Alice");
    const idx = await alice.cmd("help", isType("help"));
    assertEquals(flat(idx.data.sections), anon);
    const topics: string[] = idx.data.topics;
    for (const t of ["notes", "channels", "colour"]) assert(topics.includes(t), `${t} is a topic`);
    assert(!topics.includes("say") && !topics.includes("+note"), "commands are not topics");
    // Topics are shown capitalised under TOPICS, apart from the commands.
    const text = stripColour(idx.msg);
    assertMatch(text, /TOPICS\n(?:[^\n]*\n){0,2}[^\n]*Channels/);
    const words = text.split(/\s+/);
    assert(!words.includes("notes") && words.includes("Notes"), "notes is shown as a topic");
    for (const t of ADMIN) assert(!text.includes(t), `${t} is not shown in game`);
    // Reading a topic works; an admin topic does not exist for a player.
    assertEquals((await alice.cmd("help notes", isType("help"))).data.topic, "notes");
    await alice.cmd("help @boot", /No help for '@boot'/);
    await alice.cmd("help boo", /No help for 'boo'/);

    // Nothing listed as a command answers Huh? or Permission denied when typed.
    const commands = flat(idx.data.sections).filter((n) => !topics.includes(n));
    alice.ws.clear();
    for (const c of commands) await alice.send(c);
    await alice.cmd("think all-typed", /all-typed/);
    const refused = alice.ws.all.filter((m) => /^Huh\?|Permission denied/.test(m.msg));
    assertEquals(refused.map((m) => m.msg), [], `typed: ${commands.join(" ")}`);

    const root = await w.login("Root");
    const staffIdx = await root.cmd("help", isType("help"));
    assertMatch(stripColour(staffIdx.msg), /@boot/);

    // A guest's index lists only what guests may use, and each of those runs for a guest; the
    // help of the rest can still be read by name.
    const guest = await connectWs(w.srv, { client: "web" });
    try {
      guest.send("connect guest");
      await guest.expect(isType("session"));
      const send = pacedSender(guest);
      await send("help");
      const gIdx = await guest.expect(isType("help"));
      const gTopics: string[] = gIdx.data.topics;
      const gCommands = flat(gIdx.data.sections).filter((n) => !gTopics.includes(n));
      for (const t of ["say", "who", "+bbread", "+chan", "help"]) {
        assert(gCommands.includes(t), `${t} is listed for a guest`);
      }
      for (const t of ["@mail", "+bbpost", "@describe", "+request", "+note", "get"]) {
        assert(!gCommands.includes(t), `${t} is not listed for a guest`);
      }
      assert(gTopics.includes("mail") && gTopics.includes("guests"), "topics stay");
      guest.clear();
      for (const c of gCommands) await send(c);
      await send("think all-typed");
      await guest.expect(/all-typed/);
      const gRefused = guest.all.filter((m) =>
        /^Huh\?|Permission denied|^Guests can't/.test(m.msg)
      );
      assertEquals(gRefused.map((m) => m.msg), [], `typed: ${gCommands.join(" ")}`);
      await send("help @mail");
      await guest.expect((m) => m.data.type === "help" && m.data.topic === "@mail");
    } finally {
      await guest.close();
    }
  } finally {
    await w.stop();
  }
});

Deno.test("help for softcode functions: help <function>, help functions, REST", async () => {
  const w = await startPluginWorld(["Alice"]);
  try {
    const base = w.srv.base;
    const alice = await w.login("Alice");
    // `help ljust()` as MUX names it, and `help ljust` with no other topic of that name.
    for (const typed of ["ljust()", "ljust", "LJUST()"]) {
      const t = await alice.cmd(`help ${typed}`, isType("help"));
      assertEquals([t.data.topic, t.data.section, t.data.source], [
        "ljust()",
        "functions",
        "function",
      ]);
      const text = stripColour(t.msg);
      assertMatch(text, /ljust\(<text>, <width>\[, <fill>\]\)/);
      assertMatch(text, /> think ljust\(abc,6,\.\)\n\s+abc\.\.\./);
      assertMatch(text, /Family: formatting/);
    }
    // A % in an example shows as written, not as a colour code or a line break.
    const u = stripColour((await alice.cmd("help u()", isType("help"))).msg);
    assertMatch(u, /> &DOUBLE me=mul\(%0,2\)/);
    // An alias leads to its function; a command keeps its name (`help set` is @set).
    assertEquals((await alice.cmd("help left()", isType("help"))).data.topic, "strtrunc()");
    assertEquals((await alice.cmd("help set", isType("help"))).data.topic, "@set");
    assertEquals((await alice.cmd("help set()", isType("help"))).data.topic, "set()");
    // The index of functions by family, under MUX's names for it too.
    for (const typed of ["functions", "function list"]) {
      const idx = await alice.cmd(`help ${typed}`, isType("help"));
      assertEquals(idx.data.topic, "functions");
      const text = stripColour(idx.msg);
      // Each family's line wraps to the reader's width; its functions are indented below it.
      assertMatch(text, /Arithmetic: Numbers[^\n]*\n(?:\S[^\n]*\n)? {2}abs acos add /);
      assertMatch(
        text,
        /Database: [^\n]*\n(?:\S[^\n]*\n)?(?: {2}[^\n]*\n)*? {2}[^\n]*\bcontrols\b/,
      );
      // No line passes an 80-column reader's margin.
      for (const line of text.split("\n")) assert(line.length <= 80, line);
    }
    // The main index shows Functions as a topic, not every function.
    const main = await alice.cmd("help", isType("help"));
    assert((main.data.topics as string[]).includes("functions"));
    assert(!Object.values(main.data.sections as Record<string, string[]>).flat().includes("add()"));
    // Over REST, the same topics.
    const rest = await api(base, "GET", "/api/v1/help/ljust()");
    assertEquals([rest.status, rest.body.source], [200, "function"]);
    assertMatch(rest.body.content, /think ljust\(abc,6,\.\)/);
    assertEquals((await api(base, "GET", "/api/v1/help/nosuchfn()")).status, 404);
    // Staff may write a better text for a function: the database topic wins.
    const root = await w.login("Root");
    await root.cmd("+help/set ljust()=Our own words.", /created/);
    assertEquals((await alice.cmd("help ljust", isType("help"))).data.source, "database");
  } finally {
    await w.stop();
  }
});

Deno.test("textfile(): help and news topics in softcode, as the commands find them", async () => {
  const news = await Deno.makeTempDir({ prefix: "ursamu-news-" });
  await Deno.writeTextFile(join(news, "news.md"), "Welcome! Read **news events**.");
  await Deno.writeTextFile(join(news, "events.md"), "A ball on Friday.\n\nDress up.");
  const w = await startPluginWorld(["Alice"], { config: { server: { newsDir: news } } });
  try {
    const alice = await w.login("Alice");
    const root = await w.login("Root");
    let n = 0;
    /** What `think` shows of an expression, colour removed. */
    const think = async (who: typeof alice, expr: string) => {
      const mark = `tf${n++}=`;
      const m = await who.cmd(`think ${mark}${expr}`, (x) => stripColour(x.msg).startsWith(mark));
      return stripColour(m.msg).slice(mark.length).replaceAll("\r\n", "\n");
    };
    assertEquals(await think(alice, "[textfile(news,ev)]"), "A ball on Friday.\n\nDress up.");
    assertEquals(await think(alice, "[textfile(NEWS,)]"), "Welcome! Read news events.");
    assertEquals(await think(alice, "[textfile(news,dragons)]"), "#-1 TOPIC DOES NOT EXIST");
    // help's topics: a file, a function's own help, a unique start of a name.
    assertMatch(await think(alice, "[textfile(help,say)]"), /^say\n\nSays something to everyone/);
    assertMatch(
      await think(alice, "[textfile(+help,lit(textfile()))]"),
      /textfile\(<command>, <topic>\)/,
    );
    assertEquals(await think(alice, "[textfile(help,zzznosuch)]"), "#-1 TOPIC DOES NOT EXIST");
    assertEquals(await think(alice, "[textfile(say,say)]"), "#-1 NOT FOUND");
    // A command's help is for those who may run it, as help shows it.
    assertEquals(await think(alice, "[textfile(help,@shutdown)]"), "#-1 TOPIC DOES NOT EXIST");
    assertMatch(await think(root, "[textfile(help,@shutdown)]"), /^@shutdown\n\nStops the server/);
    assertEquals(
      await think(alice, "[textfile(help)]"),
      "#-1 FUNCTION (TEXTFILE) EXPECTS 2 ARGUMENTS",
    );
  } finally {
    await w.stop();
    await Deno.remove(news, { recursive: true });
  }
});

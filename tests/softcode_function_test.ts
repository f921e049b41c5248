/**
 * `@function` end to end, as MUX has it: staff define global functions over telnet, players call
 * them over WebSocket; privileged ones run as their object, preserved ones leave the caller's
 * registers; a built-in name cannot be taken; the list; the definitions survive a restart.
 */
import { assert } from "./assert.ts";
import { api, register } from "./harness.ts";
import { ADMIN, startSupervised, telnetLogin } from "./supervised.ts";
import { connectWs } from "./ws_client.ts";

Deno.test("@function: global user functions over telnet and WebSocket, kept across a restart", async () => {
  const first = await startSupervised();
  const dir = first.dir;
  try {
    const aliceToken = await register(first.base, "Alice");
    const admin = await telnetLogin(first, ADMIN.name, ADMIN.password);
    const alice = await connectWs(first.ws, { token: aliceToken, client: "web" });
    try {
      await alice.expect(/Limbo/);
      /** The admin runs a line over telnet and gets the text after it. */
      const run = async (line: string, want: RegExp) => {
        const from = admin.mark();
        await admin.send(line);
        return (await admin.waitFor(want, 10_000, from))[0];
      };
      /** Alice runs a line over WebSocket and gets the first message matching. */
      const as = async (line: string, want: RegExp) => {
        alice.send(line);
        return (await alice.expect(want)).msg;
      };

      await run("&DOUBLE me=mul(%0,2)", /Set\./);
      await run("&WHO me=[name(%!)]:[name(%@)]:[name(%#)]", /Set\./);
      await run("&SETX me=[setq(0,changed)]x", /Set\./);
      await run("@function double=me/double", /Function DOUBLE defined\./);
      await run("@function/privileged whoami=me/who", /Function WHOAMI defined\./);
      await run("@function plain_who=me/who", /Function PLAIN_WHO defined\./);
      await run("@function/preserve px=me/setx", /Function PX defined\./);
      await run("@function nopx=me/setx", /Function NOPX defined\./);

      // Anyone may call them; a privileged one runs as the object that holds it.
      await as("think [double(21)] [double(1,2,3)] [double()]", /^42 2 0$/);
      await as("think [whoami()]|[plain_who()]", /^Admin:Alice:Alice\|Alice:Alice:Alice$/);
      await as("think [setq(0,kept)][px()]%q0 [nopx()]%q0", /^xkept xchanged$/);
      await as("think double(5)", /^10$/);

      // Both sides are evaluated (MUX's CS_INTERP), so installers name functions by code:
      // SGP defines its FN_ attributes with `@dolist lattr(obj/FN_*)=@function after(##,FN_)=...`.
      await run("&FN_TRIPLE me=mul(%0,3)", /Set\./);
      await run(
        "@dolist lattr(me/FN_*)=@function after(##,FN_)=[num(me)]/##",
        /Function TRIPLE defined\./,
      );
      await as("think [triple(5)]", /^15$/);
      await run("@function/delete triple", /Function TRIPLE deleted\./);

      // MUX's refusals.
      await run("@function add=me/double", /Function already defined in builtin function table\./);
      await run("@function double=me/nosuch", /No such attribute\./);
      await run("@function double=nobody/double", /I don't see that here\./);
      await run("@function bad name=me/double", /Function name is not valid/);
      await run("@function/delete nosuch", /Function NOSUCH not found\./);
      // Only staff define or list them.
      await as("@function mine=me/double", /Huh\?|Permission denied/);

      // The list, as MUX 2.12 shows it.
      const from = admin.mark();
      await admin.send("@function");
      // The match's input is the text since the mark.
      const list = (await admin.waitFor(/Total User-Defined Functions: 5/, 10_000, from)).input!;
      assert(/Function Name {18}DBref# {4}Attribute {22}Flgs/.test(list), JSON.stringify(list));
      assert(/DOUBLE {25}#\d+ +DOUBLE {26}--/.test(list), list);
      assert(/WHOAMI {25}#\d+ +WHO {29}W-/.test(list), list);
      assert(/PX {29}#\d+ +SETX {28}-p/.test(list), list);

      // Deleted, by /delete or by nothing after '='.
      await run("@function/delete nopx", /Function NOPX deleted\./);
      await run("@function plain_who=", /Function PLAIN_WHO deleted\./);
      await as("think [nopx()]", /^#-1 FUNCTION \(NOPX\) NOT FOUND$/);
    } finally {
      await alice.close();
      await admin.close();
    }
  } finally {
    await first.stop({ keepDir: true });
  }

  // After a restart the definitions are there again.
  const second = await startSupervised({ dir });
  try {
    const login = await api(second.base, "POST", "/api/v1/auth/login", {
      name: "Alice",
      password: "password123",
    });
    const alice = await connectWs(second.ws, { token: login.body.token, client: "web" });
    try {
      await alice.expect(/Limbo/);
      alice.send("think [double(4)] [whoami()] [nopx()]");
      await alice.expect(/^8 Admin:Alice:Alice #-1 FUNCTION \(NOPX\) NOT FOUND$/);
    } finally {
      await alice.close();
    }
    const admin = await telnetLogin(second, ADMIN.name, ADMIN.password);
    try {
      const from = admin.mark();
      await admin.send("@function");
      await admin.waitFor(/Total User-Defined Functions: 3/, 10_000, from);
    } finally {
      await admin.close();
    }
  } finally {
    await second.stop();
  }
});

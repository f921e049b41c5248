/**
 * GMCP with a real MUD client: TinTin++ (`tt++`, /usr/games) with GMCP events on
 * (`#event {IAC SB GMCP} ...`, reading `Room.Info`) walks three rooms and prints each room's `num` and
 * `exits` as it reads them. TinTin++ never sends Core.Supports, so it gets every package.
 */
import { join } from "node:path";
import { assert, assertMatch } from "./assert.ts";
import { register } from "./harness.ts";
import { ADMIN, startSupervised, telnetLogin } from "./supervised.ts";

function findTintin(): string | null {
  for (const dir of [...(Deno.env.get("PATH") ?? "").split(":"), "/usr/games"]) {
    if (!dir) continue;
    try {
      if (Deno.statSync(join(dir, "tt++")).isFile) return join(dir, "tt++");
    } catch { /* not here */ }
  }
  return null;
}

const TT = findTintin();
if (!TT) console.warn("telnet_tintin_gmcp_test: SKIPPED — tt++ is not installed.");

Deno.test({
  name: "TinTin++ reads Room.Info (num, exits) walking three rooms",
  ignore: TT === null,
  async fn() {
    const srv = await startSupervised();
    try {
      const admin = await telnetLogin(srv, ADMIN.name, ADMIN.password);
      await admin.send("@dig Garden=North;n,South;s");
      const garden = Number((await admin.waitFor(/Garden created as room #(\d+)/))[1]);
      await admin.send("n");
      await admin.waitFor(/Garden/);
      await admin.send("@dig Tower=Up;u,Down;d");
      const tower = Number((await admin.waitFor(/Tower created as room #(\d+)/))[1]);
      await admin.send("quit");
      await admin.close();
      await register(srv.base, "Walker", "walker-password");

      const script = join(srv.dir, "gmcp.tin");
      await Deno.writeTextFile(
        script,
        [
          "#config {verbose} {off}",
          // TinTin++ refuses GMCP unless told to accept it: IAC DO GMCP.
          "#event {IAC WILL GMCP} {#send {\\xFF\\xFD\\xC9\\}}",
          // TinTin++ 2.02 fires the generic GMCP event (module in %0, data as a table in %1);
          // `;` separates commands, so the exits are shown with commas.
          '#event {IAC SB GMCP} {#if {"%0" == "Room.Info"} {#var room {%1}; #showme ROOM ' +
          "num=$room[num] exits=$room[exits][n],$room[exits][s],$room[exits][u],$room[exits][d] END}}",
          "#action {connect <name>} {connect Walker walker-password}",
          "#action {ROOM num=1 } {n}",
          `#action {ROOM num=${garden} } {u}`,
          `#action {ROOM num=${tower} } {quit}`,
          "#event {SESSION DISCONNECTED} {#end}",
          "#delay 30 {#end}",
          `#session t 127.0.0.1 ${srv.telnet}`,
          "",
        ].join("\n"),
      );
      const out = await new Deno.Command(TT!, {
        args: ["-G", "-H", script],
        stdin: "null",
        stdout: "piped",
        stderr: "piped",
        env: { TERM: "xterm", COLUMNS: "100", LINES: "30" },
      }).output();
      // deno-lint-ignore no-control-regex
      const plain = new TextDecoder().decode(out.stdout).replace(/\x1b\[[0-9;?]*[A-Za-z]/g, "");
      assertMatch(plain, new RegExp(`ROOM num=1 exits=${garden},,, END`));
      assertMatch(plain, new RegExp(`ROOM num=${garden} exits=,1,${tower}, END`));
      assertMatch(plain, new RegExp(`ROOM num=${tower} exits=,,,${garden} END`));
      assert(plain.includes("Goodbye!"), "quit at the end of the walk");
    } finally {
      await srv.stop();
    }
  },
});

/** The start-up line that says where to play, and when it is said. */
import assert from "node:assert/strict";
import { defaultConfig } from "../config/defaults.ts";
import { playLine, ReadyWatch } from "./where_to_play.ts";
import { stderrLevel } from "./main.ts";

Deno.test("where to play: the addresses a player types, by the listen address", () => {
  const cfg = defaultConfig();
  assert.equal(
    playLine(cfg),
    "Ready: play with telnet localhost 4201, or at http://localhost:4203/ in a browser.",
  );
  cfg.server.host = "mud.example.org";
  cfg.server.ssl.enabled = true;
  assert.equal(
    playLine(cfg),
    "Ready: play with telnet mud.example.org 4201 (telnet over TLS: port 4204), or at " +
      "https://mud.example.org:4203/ in a browser.",
  );
  cfg.server.host = "2001:db8::1";
  cfg.server.ssl.enabled = false;
  assert.match(playLine(cfg), /telnet 2001:db8::1 4201, or at http:\/\/\[2001:db8::1\]:4203\//);
  // A public address, when the game has one, is what players are told.
  cfg.web.publicUrl = "https://play.example.org";
  assert.equal(
    playLine(cfg),
    "Ready: play with telnet play.example.org 4201, or at https://play.example.org/ in a browser.",
  );
});

Deno.test("where to play: said once, when the engine and the sidecar both listen", () => {
  let told = 0;
  const w = new ReadyWatch(() => told++);
  w.line("2030-01-01T00:00:00.000Z INFO  telnet: listening on 0.0.0.0:4201, hub ws://...");
  assert.equal(told, 0);
  w.line("engine: HTTP listening on 0.0.0.0:4203");
  assert.equal(told, 0);
  w.line("engine: WebSocket hub on 0.0.0.0:4202");
  assert.equal(told, 1);
  // An @reboot's engine says it again; the owner heard it already.
  w.line("engine: HTTP listening on 0.0.0.0:4203");
  assert.equal(told, 1);
});

Deno.test("a child's stderr: Deno's download notes are info, the rest errors", () => {
  assert.equal(stderrLevel("Download https://registry.npmjs.org/hono"), "info");
  assert.equal(
    stderrLevel("\x1b[0m\x1b[32mDownload\x1b[0m https://registry.npmjs.org/yaml"),
    "info",
  );
  assert.equal(stderrLevel("engine: could not start: Download failed"), "error");
  assert.equal(stderrLevel("TypeError: x is not a function"), "error");
});

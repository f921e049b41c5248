import { assertEquals } from "./assert.ts";
import { createEngine } from "../src/engine.ts";

/** Builds an in-process engine on a temp dir; the HTTP app is exercised through fetch-style requests. */
async function engineInTemp() {
  const dir = await Deno.makeTempDir({ prefix: "ursamu-reset-" });
  const engine = await createEngine({
    root: dir,
    env: { URSAMU_SERVER_DB: `${dir}/db`, JWT_SECRET: "reset-secret" },
  });
  return { dir, engine };
}

function post(engine: Awaited<ReturnType<typeof createEngine>>, path: string, body: unknown) {
  return engine.app.request(path, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify(body),
  }, { remoteAddr: { hostname: "127.0.0.9" } });
}

Deno.test("reset-password: every outcome row of the spec", async (t) => {
  const { dir, engine } = await engineInTemp();
  const s = engine.services;
  try {
    const player = await s.accounts.register("Resetme", "oldpassword", { location: "1" });
    const token = await s.accounts.issueResetToken(player.id, "1");

    await t.step("missing fields", async () => {
      for (const body of [{}, { token }, { newPassword: "x" }, { token: "", newPassword: "" }]) {
        const r = await post(engine, "/api/v1/auth/reset-password", body);
        assertEquals(r.status, 400);
        assertEquals(await r.json(), { error: "token and newPassword are required." });
      }
    });

    await t.step("password over 512 characters", async () => {
      const r = await post(engine, "/api/v1/auth/reset-password", {
        token,
        newPassword: "x".repeat(513),
      });
      assertEquals(r.status, 400);
      assertEquals(await r.json(), { error: "Password must be 512 characters or fewer." });
    });

    await t.step(
      "blank and short passwords: the registration rule, token left unused",
      async () => {
        const cases: [string, string][] = [
          [" ", "Password must not be blank."],
          [" ".repeat(10), "Password must not be blank."],
          ["1234567", "Password must be at least 8 characters."],
        ];
        for (const [newPassword, error] of cases) {
          const r = await post(engine, "/api/v1/auth/reset-password", { token, newPassword });
          assertEquals(r.status, 400, JSON.stringify(newPassword));
          assertEquals(await r.json(), { error });
        }
        assertEquals(await s.accounts.authenticate("resetme", " "), null);
        assertEquals(await s.accounts.authenticate("resetme", "1234567"), null);
        assertEquals((await s.accounts.authenticate("resetme", "oldpassword"))?.id, player.id);
      },
    );

    await t.step(
      "order: a short password with an invalid token gets the password message",
      async () => {
        const r = await post(engine, "/api/v1/auth/reset-password", {
          token: crypto.randomUUID(),
          newPassword: "short",
        });
        assertEquals(r.status, 400);
        assertEquals(await r.json(), { error: "Password must be at least 8 characters." });
      },
    );

    await t.step("unknown token", async () => {
      const r = await post(engine, "/api/v1/auth/reset-password", {
        token: crypto.randomUUID(),
        newPassword: "brandnew1",
      });
      assertEquals(r.status, 400);
      assertEquals(await r.json(), { error: "Invalid or expired reset token." });
    });

    await t.step("success changes the password and logs PASSWORD_RESET", async () => {
      const r = await post(engine, "/api/v1/auth/reset-password", {
        token,
        newPassword: "brandnew1",
      });
      assertEquals(r.status, 200);
      assertEquals(await r.json(), { message: "Password updated successfully." });
      assertEquals((await s.accounts.authenticate("resetme", "brandnew1"))?.id, player.id);
      assertEquals(await s.accounts.authenticate("resetme", "oldpassword"), null);
      await s.securityLog.flush();
      const log = await Deno.readTextFile(`${dir}/logs/security.log`);
      const entry = JSON.parse(log.trim().split("\n").pop()!);
      assertEquals(entry.event, "PASSWORD_RESET");
      assertEquals(entry.actor, player.id);
      assertEquals(entry.ip, "127.0.0.9");
    });

    await t.step("a used token is refused", async () => {
      const r = await post(engine, "/api/v1/auth/reset-password", {
        token,
        newPassword: "another12",
      });
      assertEquals(r.status, 400);
      assertEquals(await r.json(), { error: "Invalid or expired reset token." });
    });

    await t.step("a new token replaces the earlier one", async () => {
      const first = await s.accounts.issueResetToken(player.id, "1");
      const second = await s.accounts.issueResetToken(player.id, "1");
      const r1 = await post(engine, "/api/v1/auth/reset-password", {
        token: first,
        newPassword: "another12",
      });
      assertEquals(r1.status, 400);
      const r2 = await post(engine, "/api/v1/auth/reset-password", {
        token: second,
        newPassword: "another12",
      });
      assertEquals(r2.status, 200);
    });

    await t.step("an expired token is refused", async () => {
      const tok = await s.accounts.issueResetToken(player.id, "1");
      const creds = await s.accounts.credentials(player.id);
      await s.kv.set(["auth", player.id], { ...creds, resetExpires: Date.now() - 1 });
      const r = await post(engine, "/api/v1/auth/reset-password", {
        token: tok,
        newPassword: "another34",
      });
      assertEquals(r.status, 400);
      assertEquals(await r.json(), { error: "Invalid or expired reset token." });
    });
  } finally {
    await engine.close();
    await Deno.remove(dir, { recursive: true });
  }
});

/**
 * The jobs and mail plugins together, each through the other's public face only: a staff
 * comment and a status change on a job reach its submitter as mail in the real mail plugin
 * (jobs finds mail's exported API with ctx.api; neither imports the other), and a staff note
 * never does.
 */
import assert from "node:assert/strict";
import { startTestGame } from "../src/plugins/testing.ts";

Deno.test("jobs + mail: a staff comment and a status change mail the submitter, a staff note does not", async () => {
  const game = await startTestGame({ plugins: ["jobs", "mail"] });
  try {
    const ann = await game.player("Ann");
    const wiz = await game.player("Wiz", { flags: ["wizard"] });
    const made = await game.request("POST", "/api/v1/jobs", {
      as: ann,
      body: { title: "Broken exit", description: "The north exit leads nowhere." },
    });
    assert.equal(made.status, 201, JSON.stringify(made.body));
    const n = made.body.number;
    const inbox = async () => (await game.request("GET", "/api/v1/mail", { as: ann })).body;
    assert.deepEqual(await inbox(), []);

    const comment = await game.request("POST", `/api/v1/jobs/${n}/comment`, {
      as: wiz,
      body: { text: "Looking into it." },
    });
    assert.ok(comment.status === 200 || comment.status === 201, JSON.stringify(comment.body));
    let mail = await inbox();
    assert.equal(mail.length, 1, JSON.stringify(mail));
    assert.equal(mail[0].read, false);
    const read = await game.request("GET", `/api/v1/mail/${mail[0].id}`, { as: ann });
    assert.equal(read.status, 200);
    assert.match(read.body.body, /Looking into it\./);
    assert.equal(read.body.from, "Wiz");

    const closed = await game.request("PATCH", `/api/v1/jobs/${n}`, {
      as: wiz,
      body: { status: "resolved" },
    });
    assert.equal(closed.status, 200, JSON.stringify(closed.body));
    mail = await inbox();
    assert.equal(mail.length, 2, JSON.stringify(mail));

    // Staff notes stay among staff: no mail, and nothing of them in what the player reads.
    await game.run(wiz, `+job/staffnote ${n}=Probably the builder's fault.`);
    mail = await inbox();
    assert.equal(mail.length, 2);
    for (const m of mail) {
      const full = await game.request("GET", `/api/v1/mail/${m.id}`, { as: ann });
      assert.doesNotMatch(full.body.body, /builder's fault/);
    }
  } finally {
    await game.close();
  }
});

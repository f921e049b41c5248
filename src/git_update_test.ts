import assert from "node:assert/strict";
import { branchProblem, type GitResult, type GitRunner, pullBranch } from "./git_update.ts";

Deno.test("branch names: ordinary ones pass, option- and path-like ones are refused", () => {
  for (const ok of ["main", "stable", "release/1.2", "feature_x-2", "v1.0.0"]) {
    assert.equal(branchProblem(ok), null, ok);
  }
  for (
    const bad of [
      "",
      "-x",
      "--upload-pack=evil",
      "../etc",
      "a..b",
      "a//b",
      "main/",
      "main.",
      "x.lock",
      "main;rm -rf /",
      "main branch",
      "$(id)",
      "a".repeat(101),
      "ümlaut",
    ]
  ) {
    assert.notEqual(branchProblem(bad), null, bad);
  }
});

/** A fake git: answers by the first argument, records every call. */
function fakeGit(answers: Record<string, GitResult>): { run: GitRunner; calls: string[][] } {
  const calls: string[][] = [];
  return {
    calls,
    run: (_dir, args) => {
      calls.push(args);
      return Promise.resolve(answers[args[0]] ?? { code: 1, stdout: "", stderr: "unexpected" });
    },
  };
}

const ok = (stdout: string): GitResult => ({ code: 0, stdout, stderr: "" });

Deno.test("pull: refuses a bad branch before running git at all", async () => {
  const g = fakeGit({});
  const r = await pullBranch(Deno.cwd(), "--evil", g.run);
  assert.equal(r.ok, false);
  assert.equal(g.calls.length, 0);
});

Deno.test("pull: not a checkout, a checkout inside another repo, no remote", async () => {
  const dir = await Deno.makeTempDir();
  try {
    let announced = false;
    let r = await pullBranch(
      dir,
      "main",
      fakeGit({ "rev-parse": { code: 128, stdout: "", stderr: "fatal" } }).run,
      () => announced = true,
    );
    assert.equal(announced, false, "nothing to announce when the checks fail");
    assert.ok(!r.ok && /not a git checkout/.test(r.reason));
    r = await pullBranch(dir, "main", fakeGit({ "rev-parse": ok("/somewhere/else\n") }).run);
    assert.ok(!r.ok && /not a git checkout/.test(r.reason));
    r = await pullBranch(dir, "main", fakeGit({ "rev-parse": ok(dir + "\n"), remote: ok("") }).run);
    assert.ok(!r.ok && /no remote/.test(r.reason));
    r = await pullBranch(
      dir,
      "main",
      fakeGit({
        "rev-parse": { code: 127, stdout: "", stderr: "git is not installed on the server" },
      }).run,
    );
    assert.ok(!r.ok && /git is not installed/.test(r.reason));
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("pull: prefers origin, ends options with --, reports git's complaint", async () => {
  const dir = await Deno.makeTempDir();
  try {
    const g = fakeGit({
      "rev-parse": ok(dir),
      remote: ok("backup\norigin\n"),
      pull: ok("Updating 1..2\nFast-forward\n 1 file changed\n"),
    });
    let before: string[] | null = null;
    const r = await pullBranch(dir, "stable", g.run, (remote) => before = [remote, ...g.calls[1]]);
    assert.deepEqual(r, { ok: true, remote: "origin", summary: "1 file changed" });
    assert.deepEqual(before, ["origin", "remote"], "called after the checks, before the pull");
    assert.deepEqual(g.calls[2], ["pull", "--ff-only", "--no-rebase", "origin", "--", "stable"]);
    const failed = await pullBranch(
      dir,
      "main",
      fakeGit({
        "rev-parse": ok(dir),
        remote: ok("upstream\n"),
        pull: { code: 1, stdout: "", stderr: "fatal: couldn't find remote ref main\n" },
      }).run,
    );
    assert.ok(
      !failed.ok && /git pull failed: fatal: couldn't find remote ref main/.test(failed.reason),
    );
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

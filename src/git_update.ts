/**
 * `@update`: pulls a branch into the install's git checkout, without a shell. The branch name
 * is user input, so it is checked against a strict pattern before it reaches git.
 */

/** Why a branch name is refused, or null when it is safe to pass to git. */
export function branchProblem(branch: string): string | null {
  if (!/^[A-Za-z0-9][A-Za-z0-9._/-]{0,99}$/.test(branch)) {
    return "Branch names use letters, digits and . _ / - (up to 100), starting with a letter or digit.";
  }
  if (
    branch.includes("..") || branch.includes("//") || /[./]$/.test(branch) ||
    branch.endsWith(".lock")
  ) {
    return "That is not a valid branch name.";
  }
  return null;
}

/** Output of one git run. */
export interface GitResult {
  code: number;
  stdout: string;
  stderr: string;
}

/** Runs git with arguments in a directory (injected so tests need no real git). */
export type GitRunner = (dir: string, args: string[], timeoutMs: number) => Promise<GitResult>;

/** The real runner: `git` from PATH, no shell, no prompts, killed after the timeout. */
export const runGit: GitRunner = async (dir, args, timeoutMs) => {
  const ctl = new AbortController();
  const timer = setTimeout(() => ctl.abort(), timeoutMs);
  try {
    const out = await new Deno.Command("git", {
      args,
      cwd: dir,
      stdin: "null",
      stdout: "piped",
      stderr: "piped",
      signal: ctl.signal,
      // Never wait for a password or an editor: an update runs unattended.
      env: { GIT_TERMINAL_PROMPT: "0", GIT_EDITOR: "true", GIT_ASKPASS: "true" },
    }).output();
    const dec = new TextDecoder();
    return { code: out.code, stdout: dec.decode(out.stdout), stderr: dec.decode(out.stderr) };
  } catch (e) {
    if (e instanceof Deno.errors.NotFound) {
      return { code: 127, stdout: "", stderr: "git is not installed on the server" };
    }
    return { code: 1, stdout: "", stderr: (e as Error).message };
  } finally {
    clearTimeout(timer);
  }
};

/** What an update attempt did. */
export type UpdateOutcome =
  | { ok: true; remote: string; summary: string }
  | { ok: false; reason: string };

async function samePath(a: string, b: string): Promise<boolean> {
  if (!a) return false;
  try {
    return (await Deno.realPath(a)) === (await Deno.realPath(b));
  } catch {
    return false;
  }
}

/** First few meaningful lines of git's output, for a player to read. */
function gist(r: GitResult): string {
  const text = (r.stderr.trim() || r.stdout.trim()).split("\n").map((l) => l.trim()).filter(
    Boolean,
  );
  return text.slice(0, 3).join(" / ").slice(0, 300) || `git exited with code ${r.code}`;
}

/**
 * Pulls `branch` (fast-forward only) from the checkout's remote (`origin`, else the first one).
 * Refuses, changing nothing, when `dir` is not a git checkout or has no remote. `beforePull`
 * runs once the checks pass, just before the pull (`@update` announces the update there, so a
 * refusal of a non-checkout bothers nobody but the caller).
 */
export async function pullBranch(
  dir: string,
  branch: string,
  run: GitRunner = runGit,
  beforePull: (remote: string) => void = () => {},
): Promise<UpdateOutcome> {
  const problem = branchProblem(branch);
  if (problem) return { ok: false, reason: problem };
  const top = await run(dir, ["rev-parse", "--show-toplevel"], 10_000);
  if (top.code === 127) return { ok: false, reason: gist(top) };
  // The checkout must be the install itself, not some repository the install happens to sit in.
  if (top.code !== 0 || !(await samePath(top.stdout.trim(), dir))) {
    return {
      ok: false,
      reason: "this installation is not a git checkout, so it cannot update itself",
    };
  }
  const remotes = await run(dir, ["remote"], 10_000);
  const names = remotes.stdout.split("\n").map((s) => s.trim()).filter(Boolean);
  const remote = names.includes("origin") ? "origin" : names[0];
  if (remotes.code !== 0 || !remote) {
    return { ok: false, reason: "this git checkout has no remote to pull from" };
  }
  beforePull(remote);
  // `--` ends the options, so nothing in the branch name can be read as one.
  const pull = await run(dir, ["pull", "--ff-only", "--no-rebase", remote, "--", branch], 120_000);
  if (pull.code !== 0) return { ok: false, reason: `git pull failed: ${gist(pull)}` };
  const summary = pull.stdout.split("\n").map((l) => l.trim()).filter(Boolean).slice(-1)[0] ?? "";
  return { ok: true, remote, summary };
}

import assert from "node:assert/strict";
import {
  blockLine,
  blockPairsUs,
  cpuDelta,
  parseStat,
  processClockId,
  runInterleaved,
  runPairs,
  ServerCpu,
  serverPids,
  spread,
  spreadIn,
} from "./line_cpu.ts";

Deno.test("parseStat reads ppid and pgrp past a name with spaces and parentheses", () => {
  const text = "4242 (deno (worker) x) S 4200 4100 4100 0 -1 4194560 1 0 0 0 5 6";
  assert.deepEqual(parseStat(4242, text), { pid: 4242, ppid: 4200, pgrp: 4100 });
  assert.equal(parseStat(7, "7 (gone) Z 1 7 7"), null);
});

Deno.test("serverPids takes the root, its group and its descendants, nothing else", () => {
  const procs = [
    { pid: 1, ppid: 0, pgrp: 1 },
    { pid: 100, ppid: 1, pgrp: 100 }, // the root (a supervisor)
    { pid: 101, ppid: 100, pgrp: 100 }, // its sidecar
    { pid: 102, ppid: 100, pgrp: 102 }, // its engine, in a group of its own
    { pid: 103, ppid: 102, pgrp: 102 }, // the engine's child
    { pid: 104, ppid: 1, pgrp: 100 }, // reparented, still in the root's group
    { pid: 200, ppid: 1, pgrp: 200 }, // someone else
    { pid: 201, ppid: 200, pgrp: 200 },
  ];
  assert.deepEqual(serverPids(100, procs), [100, 101, 102, 103, 104]);
  assert.deepEqual(serverPids(999, procs), []);
});

Deno.test("processClockId is MAKE_PROCESS_CPUCLOCK(pid, CPUCLOCK_SCHED)", () => {
  assert.equal(processClockId(1), -14);
  assert.equal(processClockId(4_194_304), -33_554_438);
});

Deno.test("cpuDelta sums the processes both readings hold", () => {
  const a = new Map([[1, 100], [2, 1_000], [3, 50]]);
  const b = new Map([[1, 160], [2, 1_500], [4, 9_999]]);
  assert.equal(cpuDelta(a, b), 560);
});

Deno.test("spread: median, trimmed mean, quartiles and the median's interval", () => {
  // 1..100, and two wild values the trimmed mean and median ignore.
  const xs = [...Array.from({ length: 98 }, (_, i) => i + 2), -1e6, 1e6];
  const s = spread(xs);
  assert.equal(s.n, 100);
  assert.equal(s.mean, (99 * 100 / 2 - 1) / 100);
  assert.equal(s.median, 50.5);
  assert.equal(s.trimmedMean, 50.5);
  assert.equal(s.q1, 25.75);
  assert.equal(s.q3, 75.25);
  // Ranks 50 ± 9.8: the 41st and the 60th smallest.
  assert.equal(s.lo, 41);
  assert.equal(s.hi, 60);
  assert.throws(() => spread([]));
  assert.deepEqual(spreadIn([1500, 2500, 3500], 1000), {
    n: 3,
    mean: 2.5,
    sem: 0.6, // sd 1000 ÷ √3
    median: 2.5,
    trimmedMean: 2.5,
    q1: 2,
    q3: 3,
    lo: 1.5,
    hi: 3.5,
  });
});

Deno.test("ServerCpu reads this process's CPU, and it only grows", () => {
  const cpu = new ServerCpu(Deno.pid);
  try {
    assert.deepEqual(cpu.pids.includes(Deno.pid), true);
    const a = cpu.read();
    let x = 0;
    for (let i = 0; i < 2_000_000; i++) x += Math.sqrt(i);
    const b = cpu.read();
    assert.ok(x > 0);
    assert.ok(cpuDelta(a, b) > 0, `CPU went from ${a.get(Deno.pid)} to ${b.get(Deno.pid)}`);
  } finally {
    cpu.close();
  }
  assert.throws(() => new ServerCpu(2 ** 30), /no process/);
});

Deno.test("runPairs: warm-up left out, each pair both kinds, the order turning", async () => {
  const cpu = new ServerCpu(Deno.pid);
  const seen: string[] = [];
  try {
    const p = await runPairs(cpu, { pairs: 3, warmup: 1, gapMs: 0 }, (i, kind) => {
      seen.push(`${i}:${kind}`);
      return Promise.resolve();
    });
    assert.deepEqual(seen, ["0:0", "1:1", "2:1", "3:0", "4:0", "5:1", "6:1", "7:0"]);
    assert.equal(p.diffNs.length, 3);
    assert.equal(p.replyDiffNs.length, 3);
    assert.equal(p.plainNs.length, 3);
    assert.equal(p.testMs.length, 3);
    // Blocks of two: each side is two lines of its kind, the sides' order turning.
    seen.length = 0;
    await runPairs(cpu, { pairs: 2, warmup: 0, gapMs: 0, sideLines: 2 }, (i, kind) => {
      seen.push(`${i}:${kind}`);
      return Promise.resolve();
    });
    assert.deepEqual(seen, ["0:0", "1:0", "2:1", "3:1", "4:1", "5:1", "6:0", "7:0"]);
  } finally {
    cpu.close();
  }
});

Deno.test("runInterleaved: warm-up then rounds, the servers' order turning from case to case and round to round", async () => {
  const cpu = new ServerCpu(Deno.pid);
  const seen: string[] = [];
  const blocks: string[] = [];
  try {
    const server = (s: number) => ({
      cpu,
      line: (c: number, _i: number, kind: 0 | 1) => {
        seen.push(`${s}${c}${kind}`);
        return Promise.resolve();
      },
    });
    const out = await runInterleaved(
      [server(0), server(1)],
      { cases: 2, rounds: 2, blockPairs: 3, warmup: 1, gapMs: 0 },
      (c, r, s, b) => blocks.push(`${r}:${c}:${s}:${b.diffNs.length}`),
    );
    // Warm-up: one pair of each case on server 0 then 1 (plain first).
    assert.deepEqual(seen.slice(0, 8), ["000", "001", "100", "101", "010", "011", "110", "111"]);
    // Each block is one uncounted pair and three counted: 8 lines; 8 blocks after the warm-up.
    assert.equal(seen.length, 8 + 8 * 8);
    // Case 0 of round 0 on 0 then 1, case 1 on 1 then 0; round 1 the other way for each case
    // (ABBA within a case, which turning at every block pair alone gives no even count of cases).
    assert.deepEqual(blocks, [
      "0:0:0:3",
      "0:0:1:3",
      "0:1:1:3",
      "0:1:0:3",
      "1:0:1:3",
      "1:0:0:3",
      "1:1:0:3",
      "1:1:1:3",
    ]);
    assert.equal(out.length, 2);
    assert.equal(out[0].length, 2);
    assert.ok(out[1][0][0].at >= out[1][0][1].at, "server 1 went first in that pair");
    const pairs = blockPairsUs(out[0]);
    assert.equal(pairs.length, 2);
    assert.equal(pairs[0].a.length, 3);
    assert.equal(pairs[0].a[0], out[0][0][0].diffNs[0] / 1000);
  } finally {
    cpu.close();
  }
});

Deno.test("runInterleaved: with eight cases each server goes first in half of each case's block pairs", async () => {
  const cpu = new ServerCpu(Deno.pid);
  const firsts: number[][] = Array.from({ length: 8 }, () => []);
  try {
    const server = { cpu, line: () => Promise.resolve() };
    let last = -1;
    await runInterleaved(
      [server, server],
      { cases: 8, rounds: 4, blockPairs: 1, warmup: 0, gapMs: 0 },
      (c, r, s) => {
        if (last !== r * 8 + c) firsts[c].push(s);
        last = r * 8 + c;
      },
    );
    for (const f of firsts) assert.deepEqual([...f].sort(), [0, 0, 1, 1]);
  } finally {
    cpu.close();
  }
});

Deno.test("blockLine: a block's start, mean difference and plain line in µs", () => {
  const b = { at: 1.234, diffNs: [1000, 2000, 6000], plainNs: [100_000, 300_000] };
  assert.deepEqual(blockLine(b), { at: 1.2, meanUs: 3, plainUs: 200 });
});

/** The arithmetic, logic, trigonometry, vector, radix, random and digest families, from their help. */
import assert from "node:assert/strict";
import { testSoftcode } from "../_test_world.ts";
import { NORMAL } from "../markup.ts";
import { formatNumber, formatPretty } from "../numbers.ts";

Deno.test("softcode math: MUX's number printing (add, fdiv, round, power)", () => {
  const { run } = testSoftcode();
  assert.equal(run("[add(0.1,0.2)] [sub(0.3,0.1)] [mul(1.1,1.1)]"), "0.3 0.2 1.21");
  assert.equal(
    run("[add(123456789012345678,1)] [iadd(9223372036854775807,1)]"),
    "123456789012345696 -9223372036854775808",
  );
  assert.equal(
    run("[fdiv(10,4)] [fdiv(1,0)] [fdiv(0,0)] [power(100,pi())]"),
    "2.5 +Inf Ind 1919487.5835776986",
  );
  assert.equal(
    run("[round(5.123,1)] [round(9.8765,3)] [round(5.5,0)] [round(-5.5,0)] [round(520,-3)]"),
    "5.1 9.877 6 -6 1000",
  );
  assert.equal(
    run("[round(0.125,2)] [round(1.23456789,20)] [round(1e20,2)]"),
    "0.12 1.23456789000000000000 1E20",
  );
  assert.equal(
    run("[trunc(-5.8)] [fmod(6.1,2.5)] [log(8,2)] [log(10,1)]"),
    "-5 1.0999999999999996 3 #-1 BASE OUT OF RANGE",
  );
});

Deno.test("softcode math: integer functions wrap at 64 bits as MUX's do", () => {
  const { run } = testSoftcode();
  assert.equal(
    run("[iadd(5,3,7,-4)] [isub(3,10)] [imul(3,4,5)] [iabs(-5)] [isign(-4)]"),
    "11 -7 60 5 -1",
  );
  assert.equal(
    run("[inc(9223372036854775807)] [shl(1,63)] [shl(1,64)] [bnand(-1,1)]"),
    "-9223372036854775808 -9223372036854775808 1 -2",
  );
  assert.equal(
    run("[bound(-3,0,10)] [bound(12,0,10)] [bound(12,0)] [bound(5.5,0,10)]"),
    "0 10 12 5.5",
  );
});

Deno.test("softcode math: logic and comparison", () => {
  const { run } = testSoftcode();
  assert.equal(run("[land(1 0)] [land(1|1,|)] [lor(0 0)] [lor(0|0|1,|)]"), "0 1 0 1");
  assert.equal(
    run("[alphamax(apple,Banana)] [alphamin(apple,Banana)] [comp(a,b)]"),
    "apple Banana -1",
  );
  assert.equal(run("[t(#-1)] [t(0x)] [and(abc,1)] [cand(0,[setq(0,x)])]%q0"), "0 1 0 0");
});

Deno.test("softcode math: trigonometry and unit conversion", () => {
  const { run } = testSoftcode();
  assert.equal(run("[sin(90,d)] [cos(0)] [atan2(-1,-1,d)] [asin(2)]"), "1 1 -135 Ind");
  assert.equal(
    run("[ctu(180,d,g)] [ctu(180,d,r)] [dist2d(0,0,3,4)] [dist3d(0,0,0,1,2,2)]"),
    "200 3.141592653589793 5 3",
  );
});

Deno.test("softcode math: vectors", () => {
  const { run } = testSoftcode();
  assert.equal(
    run("[vadd(1 2 3,4 5 6)] [vadd(0|0|0,1|2|3,|,^)] [vsub(4 5 6,1 2 3)]"),
    "5 7 9 1^2^3 3 3 3",
  );
  assert.equal(run("[vmul(1 2 3,2)] [vmul(1 2 3,2 3 4)] [vdot(1 2 3,4 5 6)]"), "2 4 6 2 6 12 32");
  assert.equal(
    run("[vcross(1 2 3,2 3 4)] [vmag(3 4)] [vunit(2 0 0)] [vdim(1 2 3)]"),
    "-1 2 -1 5 1 0 0 3",
  );
  assert.equal(run("[vadd(1 2,3 4 5)]"), "#-1 VECTORS MUST BE SAME DIMENSIONS");
  assert.equal(run("[vunit(0 0)]"), "#-1 CANNOT MAKE UNIT VECTOR FROM ZERO-LENGTH VECTOR");
});

Deno.test("softcode math: bases", () => {
  const { run } = testSoftcode();
  assert.equal(
    run("[baseconv(255,10,16)] [baseconv(-255,10,16)] [baseconv(100,10,64)]"),
    "ff -ff Bk",
  );
  assert.equal(
    run("[pack(629126998)] [pack(629126998,16)] [pack(-629126998,16)]"),
    "bVxTM 257FB756 -257FB756",
  );
  assert.equal(
    run("[unpack(bVxTM)] [unpack(1111,2)] [unpack(zz,36)]"),
    "629126998 15 #-1 NUMBER IS NOT VALID FOR INPUT RADIX",
  );
  assert.equal(run("[pack(-9223372036854775808,2)]"), "-1" + "0".repeat(63));
});

Deno.test("softcode math: digests and ciphers", () => {
  const { run } = testSoftcode();
  assert.equal(run("[crc32(MUX)] [crc32(a,b)]"), "629126998 2659403885");
  assert.equal(run("[sha1(abc)]"), "A9993E364706816ABA3E25717850C26C9CD0D89D");
  assert.equal(
    run("[digest(sha256,abc)]"),
    "BA7816BF8F01CFEA414140DE5DAE2223B00361A396177A9CB410FF61F20015AD",
  );
  assert.equal(run("[digest(nope,abc)]"), "#-1 UNSUPPORTED DIGEST TYPE");
  assert.equal(run("[decrypt(encrypt(Hello World,key),key)]"), "Hello World");
  assert.notEqual(run("[encrypt(Hello World,key)]"), "Hello World");
});

Deno.test("softcode math: random results stay in their range", () => {
  const { run } = testSoftcode();
  for (let i = 0; i < 50; i++) {
    const r = Number(run("[rand(10)]"));
    assert.ok(r >= 0 && r < 10);
    const d = Number(run("[die(3,6)]"));
    assert.ok(d >= 3 && d <= 18);
    const s = Number(run("[successes(5,6)]"));
    assert.ok(s >= -5 && s <= 5);
  }
  assert.equal(run("[words(lrand(1,6,20))] [words(die(10,6,1))]"), "20 10");
  assert.equal(run("[ladd(distribute(100,5))] [words(distribute(10,4,|),|)]"), "100 4");
  assert.equal(
    run("[die(-1,6)] [rand(6,5)] [distribute(5,0)]"),
    "#-1 OUT OF RANGE #-1 OUT OF RANGE #-1 OUT OF RANGE",
  );
  assert.equal(run("[strlen(lrand(1,9,100000))]"), "7999");
});

Deno.test("softcode math: a number's result holds no colour; alphamax() still closes the colour it gives back", () => {
  const { raw } = testSoftcode();
  assert.equal(raw("[add(1,2)][lte(1,2)][words(a b)][hasflag(me,wizard)][num(me)]"), "3121#1");
  const picked = raw("[alphamax(%xrb,a)]");
  assert.equal(picked, raw("[ansi(r,b)]"));
  assert.ok(picked.endsWith(NORMAL));
});

Deno.test("softcode math: the integer functions' number path answers as their 64-bit one", () => {
  const { run } = testSoftcode();
  const wrap = (v: bigint) => BigInt.asIntN(64, v).toString();
  const expect = (a: bigint, b: bigint): string => {
    const d = b === 0n ? 1n : b;
    let m = a % d;
    if (m !== 0n && (m < 0n) !== (d < 0n)) m += d;
    let f = b === 0n ? 0n : a / b;
    if (b !== 0n && a % b !== 0n && (a < 0n) !== (b < 0n)) f -= 1n;
    const div = b === 0n ? "#-1 DIVIDE BY ZERO" : wrap(a / b);
    const floor = b === 0n ? "#-1 DIVIDE BY ZERO" : wrap(f);
    return [div, floor, wrap(m), wrap(a % d), wrap(a + 1n), wrap(a - 1n)].join(" ");
  };
  let seed = 99;
  const next = () => (seed = (seed * 1103515245 + 12345) % 2147483648);
  const values = [0n, 1n, -1n, 7n, -7n, 2147483647n, -2147483647n, 2147483648n, -2147483648n];
  values.push(9007199254740991n, -9007199254740991n, 9007199254740992n, 9223372036854775807n);
  for (let i = 0; i < 60; i++) values.push(BigInt(next() - 1073741824), BigInt(next() % 100));
  for (let i = 0; i < values.length; i++) {
    const a = values[i], b = values[(i * 7 + 3) % values.length];
    assert.equal(
      run(
        `[div(${a},${b})] [floordiv(${a},${b})] [mod(${a},${b})] [remainder(${a},${b})] ` +
          `[inc(${a})] [dec(${a})]`,
      ),
      expect(a, b),
      `${a}, ${b}`,
    );
  }
  assert.equal(run("[mod(-4,2)] [remainder(-4,2)] [div(-1,2)] [inc(-1)] [dec(-0)]"), "0 0 0 0 -1");
});

Deno.test("softcode math: add() sums by falling magnitude, whatever the sort", () => {
  const { run } = testSoftcode();
  /** MUX's AddDoubles with a comparison sort, as before the insertion sort. */
  const reference = (values: number[]): number => {
    const v = [...values].sort((a, b) => Math.abs(b) - Math.abs(a));
    let sum = v[0], err = 0;
    for (let i = 1; i < v.length; i++) {
      const addend = err + v[i];
      const addendErr = v[i] - (addend - err);
      const sum1 = sum + addend;
      const sum1Err = addend - (sum1 - sum);
      const next = sum1 + (addendErr + sum1Err);
      err = (addendErr + sum1Err) - (next - sum1);
      sum = next;
    }
    return sum;
  };
  let seed = 5;
  const next = () => (seed = (seed * 1103515245 + 12345) % 2147483648) / 2147483648;
  for (let t = 0; t < 400; t++) {
    const values = Array.from({ length: 2 + (t % 19) }, (_, i) => {
      const x = (next() - 0.5) * 10 ** Math.floor(next() * 12 - 4);
      // Equal magnitudes of both signs, whose order the sort must keep.
      return i % 5 === 4 ? -Number(x.toPrecision(3)) : Number(x.toPrecision(1 + (t % 16)));
    });
    if (t % 3 === 0) values.push(-values[0]);
    const text = values.map((v) => formatNumber(v)).join(",");
    const read = text.split(",").map(Number);
    assert.equal(run(`[add(${text})]`), formatPretty(reference(read)), text);
  }
});

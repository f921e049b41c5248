/**
 * timefmt() against what TinyMUX 2.12 answered (it ran in UTC; these run with utc so the
 * machine's zone does not matter). The other duration functions are in the differential test's
 * testdata/mux212_format.json.
 */
import assert from "node:assert/strict";
import { testSoftcode } from "../_test_world.ts";

Deno.test("timefmt: strftime's codes after $, as TinyMUX 2.12 writes them", () => {
  const t = testSoftcode();
  const fmt = (f: string, secs: string) => t.run(`timefmt(${f},${secs},utc)`);
  assert.equal(fmt("$Y-$m-$d $H:$M:$S", "0"), "1970-01-01 00:00:00");
  assert.equal(fmt("$a $A $b $B $c", "86400"), "Fri Friday Jan January Fri Jan 02 00:00:00 1970");
  assert.equal(fmt("$j $U $w $y $p $I $e $$ $Z", "1000000"), "012 02 1 70 PM 01 12 $ ");
  assert.equal(
    fmt("$x $X $D $T $F $R", "1000000"),
    "01/12/70 13:46:40 01/12/70 13:46:40 1970-01-12 13:46",
  );
  assert.equal(fmt("$q $#Y $-d $E $O", "0"), "$q 1970 $-d $E $O");
  assert.equal(
    t.run("timefmt($e|$C|$u|$V|$W|$g|$G|$z|$P|$r|$h|$k|$l|$s,1000000,utc)"),
    "12|19|1|03|02|70|1970|+0000|pm|01:46:40 PM|Jan|13| 1|1000000",
  );
  assert.equal(t.run("timefmt($t|$n,0,utc)"), "\t|\r\n");
  assert.equal(fmt("$U $W $V $j", "1262304000"), "00 00 53 001");
  assert.equal(fmt("$Y", "-1"), "1969");
  assert.equal(fmt("$Y", "abc"), "1970");
  assert.equal(fmt("", "5"), "");
  assert.equal(fmt("$", "0"), "$");
  assert.equal(fmt("a$", "0"), "a$");
  assert.equal(fmt("$H", "1.9"), "00");
  assert.equal(fmt("$#d", "86400"), "2");
  assert.equal(fmt("$#m $#H", "86400"), "1 0");
  // Without seconds, now (the test world's clock).
  assert.equal(t.run("timefmt($Y)"), String(new Date(t.world.now).getFullYear()));
  assert.equal(t.run("timefmt(abc)"), "abc");
});

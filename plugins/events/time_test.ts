/** Dates in the game's zone: parsing wall times (daylight saving included) and refusing bad days. */
import assert from "node:assert/strict";
import { formatTime, parseDate, validZone } from "./time.ts";

Deno.test("events time: wall times in a zone, with daylight saving", () => {
  assert.equal(parseDate("2026-03-14", "UTC"), Date.UTC(2026, 2, 14));
  assert.equal(parseDate("2026-03-14 20:30", "UTC"), Date.UTC(2026, 2, 14, 20, 30));
  // New York is UTC-5 in January and UTC-4 in July.
  assert.equal(parseDate("2026-01-10 18:00", "America/New_York"), Date.UTC(2026, 0, 10, 23));
  assert.equal(parseDate("2026-07-10 18:00", "America/New_York"), Date.UTC(2026, 6, 10, 22));
  assert.equal(parseDate("2026-07-10 09:15", "Asia/Kolkata"), Date.UTC(2026, 6, 10, 3, 45));
  assert.equal(
    formatTime(Date.UTC(2026, 6, 10, 22), "America/New_York"),
    "Fri 2026-07-10 18:00 EDT",
  );
  assert.equal(formatTime(Date.UTC(2026, 0, 1), "UTC"), "Thu 2026-01-01 00:00 UTC");
});

Deno.test("events time: bad dates and zones are refused", () => {
  for (const bad of ["2026-13-40", "2026-02-30", "tomorrow", "2026-1-1", "2026-01-01 24:00", ""]) {
    assert.equal(parseDate(bad, "UTC"), null, bad);
  }
  assert.equal(parseDate("2028-02-29", "UTC"), Date.UTC(2028, 1, 29));
  assert.ok(validZone("Europe/Berlin"));
  assert.ok(!validZone("Mars/Olympus"));
  assert.ok(!validZone(""));
});

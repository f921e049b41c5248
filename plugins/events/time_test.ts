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
  for (
    const bad of [
      "2026-13-40",
      "2026-02-30",
      "2026-1-1",
      "2026-01-01 24:00",
      "",
      "yesterday",
      "fr",
      "frid",
      "tomorrow 25:00",
    ]
  ) {
    assert.equal(parseDate(bad, "UTC"), null, bad);
  }
  assert.equal(parseDate("2028-02-29", "UTC"), Date.UTC(2028, 1, 29));
  assert.ok(validZone("Europe/Berlin"));
  assert.ok(!validZone("Mars/Olympus"));
  assert.ok(!validZone(""));
});

Deno.test("events time: today, tomorrow and weekdays from now, in the game's zone", () => {
  // Friday 2030-03-01 18:00 UTC, which is 13:00 in New York.
  const now = Date.UTC(2030, 2, 1, 18);
  assert.equal(parseDate("today 20:00", "UTC", now), Date.UTC(2030, 2, 1, 20));
  assert.equal(parseDate("Tomorrow", "UTC", now), Date.UTC(2030, 2, 2));
  // The month and the year roll over.
  assert.equal(
    parseDate("tomorrow 09:00", "UTC", Date.UTC(2030, 11, 31, 12)),
    Date.UTC(2031, 0, 1, 9),
  );
  assert.equal(parseDate("sunday 12:00", "UTC", now), Date.UTC(2030, 2, 3, 12));
  assert.equal(parseDate("mon", "UTC", now), Date.UTC(2030, 2, 4));
  // Today's weekday: today while the time is ahead, else a week on.
  assert.equal(parseDate("friday 20:00", "UTC", now), Date.UTC(2030, 2, 1, 20));
  assert.equal(parseDate("fri 17:00", "UTC", now), Date.UTC(2030, 2, 8, 17));
  // In New York it is still Friday 13:00; 20:00 there is 01:00 UTC on Saturday.
  assert.equal(parseDate("friday 20:00", "America/New_York", now), Date.UTC(2030, 2, 2, 1));
  // 23:00 UTC on Friday is already Saturday in Kolkata: "tomorrow" is Sunday there.
  assert.equal(
    parseDate("tomorrow 10:00", "Asia/Kolkata", Date.UTC(2030, 2, 1, 23)),
    Date.UTC(2030, 2, 3, 4, 30),
  );
});

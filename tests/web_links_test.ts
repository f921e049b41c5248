/**
 * The web client's link and picture checks (web/assets/markdown.js), read as a browser reads a
 * URL: `/\evil.example/x` is the other site `//evil.example/x` to Chromium, so it is no path here.
 * The Chromium side is in tests/web_client_test.ts (the wiki page step).
 */
import { assertEquals } from "./assert.ts";
import { browserForm, safeUrl, siteUrl } from "../web/assets/markdown.js";

Deno.test("markdown links: backslashes and controls are read as a browser reads them", () => {
  assertEquals(browserForm("/\\evil.example/x"), "//evil.example/x");
  assertEquals(browserForm("\\\\evil.example"), "//evil.example");
  assertEquals(browserForm(" /\t/evil.example\n"), "//evil.example");
  assertEquals(browserForm("\u0000/\\evil.example"), "//evil.example");
  // After `?` or `#` a backslash is data, as in the browser.
  assertEquals(browserForm("/wiki/a?q=\\x#b\\c"), "/wiki/a?q=\\x#b\\c");
});

Deno.test("markdown links: another site behind a backslash is never a local link", () => {
  for (
    const u of ["/\\evil.example/x", "\\\\evil.example/x", "\\/evil.example", "/\t/evil.example"]
  ) {
    assertEquals(safeUrl(u, "/wiki"), null, u);
    assertEquals(siteUrl(u, "/api/v1/wiki"), null, u);
  }
  assertEquals(safeUrl("java\tscript:alert(1)"), null);
  assertEquals(safeUrl("JAVASCRIPT:alert(1)"), null);
  // Paths here and ordinary links still work.
  assertEquals(safeUrl("/wiki/rules"), "/wiki/rules");
  assertEquals(safeUrl("rules", "/wiki/setting"), "/wiki/setting/rules");
  assertEquals(safeUrl("#top"), "#top");
  assertEquals(safeUrl("https://example.org/a"), "https://example.org/a");
  assertEquals(safeUrl("mailto:a@example.org"), "mailto:a@example.org");
  assertEquals(siteUrl("https://example.org/a.png"), null);
  assertEquals(siteUrl("map.png", "/api/v1/wiki/assets"), "/api/v1/wiki/assets/map.png");
  // A single backslash in front is a path on this site, for the browser too.
  assertEquals(safeUrl("\\rules"), "/rules");
});

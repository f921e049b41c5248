/**
 * The safe fetch against real servers on loopback: the default policy refuses them, an
 * injected resolver that treats the test address as public reaches them, and every refusal
 * (redirect into a refused range, mixed DNS answers, wrong type, oversize, too many
 * redirects, timeout, bad TLS name) is a clear FetchError. HTTPS runs over a certificate made
 * with openssl when the machine has it.
 */
import assert from "node:assert/strict";
import { addressRefusal } from "./address.ts";
import { FetchError, type NetPolicy, safeFetch, systemPolicy } from "./safe_fetch.ts";

const PNG = new Uint8Array([137, 80, 78, 71, 13, 10, 26, 10, 0, 0, 0, 13, 73, 72, 68, 82]);
const TYPES = ["image/png"];
const MB = 1024 * 1024;

/** A policy with fixed answers that treats 127.0.0.1 as public. */
function testPolicy(hosts: Record<string, string[]>, caCerts?: string[]): NetPolicy {
  return {
    resolve: (h) => Promise.resolve(hosts[h] ?? []),
    refusal: (a) => (a === "127.0.0.1" ? null : addressRefusal(a)),
    caCerts,
  };
}

async function refused(p: Promise<unknown>, re: RegExp): Promise<void> {
  await assert.rejects(p, (e: unknown) => {
    assert.ok(e instanceof FetchError, String(e));
    assert.match(e.message, re);
    return true;
  });
}

function serve(handler: (req: Request) => Response | Promise<Response>) {
  const hits: string[] = [];
  const server = Deno.serve({ hostname: "127.0.0.1", port: 0, onListen() {} }, (req) => {
    hits.push(new URL(req.url).pathname);
    return handler(req);
  });
  return { port: server.addr.port, hits, close: () => server.shutdown() };
}

Deno.test("safe fetch: the default policy refuses loopback before connecting", async () => {
  const s = serve(() => new Response(PNG, { headers: { "content-type": "image/png" } }));
  try {
    const policy = systemPolicy();
    for (
      const url of [
        `http://127.0.0.1:${s.port}/a.png`,
        `http://0x7f000001:${s.port}/a.png`,
        `http://2130706433:${s.port}/a.png`,
        `http://[::1]:${s.port}/a.png`,
        `http://[::ffff:127.0.0.1]:${s.port}/a.png`,
      ]
    ) {
      await refused(safeFetch(url, { policy, maxBytes: MB, accept: TYPES }), /loopback/);
    }
    await refused(
      safeFetch("http://169.254.169.254/latest/meta-data", { policy, maxBytes: MB, accept: TYPES }),
      /metadata/,
    );
    assert.deepEqual(s.hits, []);
  } finally {
    await s.close();
  }
});

Deno.test("safe fetch: URL forms that are never fetched", async () => {
  const policy = testPolicy({});
  const opts = { policy, maxBytes: MB, accept: TYPES };
  await refused(safeFetch("ftp://example.com/a.png", opts), /Only http and https/);
  await refused(safeFetch("file:///etc/passwd", opts), /Only http and https/);
  await refused(safeFetch("not a url", opts), /not a valid URL/);
  await refused(safeFetch("http://u:p@example.com/a.png", opts), /credentials/);
  await refused(safeFetch("http://nowhere.test/a.png", opts), /Could not resolve nowhere\.test/);
});

Deno.test("safe fetch: a public-treated server is fetched; mixed answers are refused", async () => {
  const s = serve(() => new Response(PNG, { headers: { "content-type": "image/png" } }));
  try {
    const policy = testPolicy({
      "img.test": ["127.0.0.1"],
      "mixed.test": ["127.0.0.1", "10.0.0.7"],
    });
    const got = await safeFetch(`http://img.test:${s.port}/cat.png`, {
      policy,
      maxBytes: MB,
      accept: TYPES,
    });
    assert.deepEqual(got.bytes, PNG);
    assert.equal(got.contentType, "image/png");
    await refused(
      safeFetch(`http://mixed.test:${s.port}/cat.png`, { policy, maxBytes: MB, accept: TYPES }),
      /mixed\.test is 10\.0\.0\.7, a private address/,
    );
    assert.deepEqual(s.hits, ["/cat.png"]);
  } finally {
    await s.close();
  }
});

Deno.test("safe fetch: redirects are followed, checked, and bounded", async () => {
  const s = serve((req) => {
    const path = new URL(req.url).pathname;
    const go = (to: string) => new Response(null, { status: 302, headers: { location: to } });
    if (path === "/ok") return go("/final.png");
    if (path === "/inside") return go(`http://internal.test:${s.port}/secret.png`);
    if (path === "/meta") return go("http://169.254.169.254/latest/meta-data/");
    if (path === "/mapped") return go(`http://[::ffff:10.0.0.1]:${s.port}/x.png`);
    if (path === "/loop") return go("/loop");
    if (path === "/final.png") {
      return new Response(PNG, { headers: { "content-type": "image/png" } });
    }
    return new Response("no", { status: 404 });
  });
  try {
    const policy = testPolicy({ "img.test": ["127.0.0.1"], "internal.test": ["192.168.0.10"] });
    const opts = { policy, maxBytes: MB, accept: TYPES };
    const base = `http://img.test:${s.port}`;
    const got = await safeFetch(`${base}/ok`, opts);
    assert.equal(got.url, `${base}/final.png`);
    assert.deepEqual(got.bytes, PNG);
    await refused(
      safeFetch(`${base}/inside`, opts),
      /internal\.test is 192\.168\.0\.10, a private/,
    );
    await refused(safeFetch(`${base}/meta`, opts), /metadata/);
    await refused(safeFetch(`${base}/mapped`, opts), /private address \(IPv4-mapped\)/);
    await refused(safeFetch(`${base}/loop`, opts), /Too many redirects/);
    await refused(safeFetch(`${base}/missing.png`, opts), /answered 404/);
    assert.ok(!s.hits.includes("/secret.png"));
  } finally {
    await s.close();
  }
});

Deno.test("safe fetch: content type, size cap while streaming, and the timeout", async () => {
  const big = 2 * MB;
  const s = serve(async (req) => {
    const path = new URL(req.url).pathname;
    if (path === "/page.html") {
      return new Response("<h1>hi</h1>", { headers: { "content-type": "text/html" } });
    }
    if (path === "/untyped") return new Response(PNG);
    if (path === "/declared") {
      return new Response(new Uint8Array(big), { headers: { "content-type": "image/png" } });
    }
    if (path === "/streamed") {
      // Chunked, no length: the cap has to be counted while reading.
      let sent = 0;
      const body = new ReadableStream<Uint8Array>({
        pull(ctl) {
          if (sent >= big) return ctl.close();
          sent += 64 * 1024;
          ctl.enqueue(new Uint8Array(64 * 1024));
        },
      });
      return new Response(body, { headers: { "content-type": "image/png" } });
    }
    if (path === "/slow") {
      await new Promise((r) => setTimeout(r, 1500));
      return new Response(PNG, { headers: { "content-type": "image/png" } });
    }
    if (path === "/chunked.png") {
      const parts = [PNG.slice(0, 5), PNG.slice(5)];
      const body = new ReadableStream<Uint8Array>({
        pull(ctl) {
          const p = parts.shift();
          if (p) ctl.enqueue(p);
          else ctl.close();
        },
      });
      return new Response(body, { headers: { "content-type": "image/png; charset=binary" } });
    }
    return new Response("no", { status: 404 });
  });
  try {
    const policy = testPolicy({ "img.test": ["127.0.0.1"] });
    const base = `http://img.test:${s.port}`;
    const opts = { policy, maxBytes: MB, accept: TYPES };
    await refused(safeFetch(`${base}/page.html`, opts), /text\/html, not an accepted type/);
    await refused(safeFetch(`${base}/untyped`, opts), /no Content-Type|not an accepted type/);
    await refused(safeFetch(`${base}/declared`, opts), /larger than 1048576 bytes/);
    await refused(safeFetch(`${base}/streamed`, opts), /larger than 1048576 bytes/);
    await refused(safeFetch(`${base}/slow`, { ...opts, timeoutMs: 300 }), /timed out/);
    const got = await safeFetch(`${base}/chunked.png`, opts);
    assert.deepEqual(got.bytes, PNG);
  } finally {
    await s.close();
  }
});

/** A self-signed leaf certificate for `wiki.test` (null when openssl is missing). */
async function testCert(): Promise<{ cert: string; key: string } | null> {
  const dir = await Deno.makeTempDir();
  try {
    const out = await new Deno.Command("openssl", {
      args: [
        "req",
        "-x509",
        "-newkey",
        "ec",
        "-pkeyopt",
        "ec_paramgen_curve:prime256v1",
        "-nodes",
        "-keyout",
        `${dir}/key.pem`,
        "-out",
        `${dir}/cert.pem`,
        "-days",
        "2",
        "-subj",
        "/CN=wiki.test",
        "-addext",
        "subjectAltName=DNS:wiki.test",
        "-addext",
        "basicConstraints=critical,CA:FALSE",
      ],
      stdout: "null",
      stderr: "null",
    }).output();
    if (!out.success) return null;
    return {
      cert: await Deno.readTextFile(`${dir}/cert.pem`),
      key: await Deno.readTextFile(`${dir}/key.pem`),
    };
  } catch {
    return null;
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
}

const tls = await testCert();

Deno.test({
  name: "safe fetch: https connects to the checked address and verifies the URL's host name",
  ignore: tls === null,
  async fn() {
    const { cert, key } = tls!;
    const server = Deno.serve(
      { hostname: "127.0.0.1", port: 0, cert, key, onListen() {} },
      (req) =>
        new Response(PNG, {
          headers: { "content-type": "image/png", "x-host": req.headers.get("host") ?? "" },
        }),
    );
    try {
      const port = server.addr.port;
      const policy = testPolicy({ "wiki.test": ["127.0.0.1"], "other.test": ["127.0.0.1"] }, [
        cert,
      ]);
      const got = await safeFetch(`https://wiki.test:${port}/logo.png`, {
        policy,
        maxBytes: MB,
        accept: TYPES,
      });
      assert.deepEqual(got.bytes, PNG);
      // Same address, another name: the certificate does not match, so no bytes come back.
      await refused(
        safeFetch(`https://other.test:${port}/logo.png`, { policy, maxBytes: MB, accept: TYPES }),
        /Could not connect|failed/,
      );
      // Without the test CA the certificate is not trusted.
      await refused(
        safeFetch(`https://wiki.test:${port}/logo.png`, {
          policy: testPolicy({ "wiki.test": ["127.0.0.1"] }),
          maxBytes: MB,
          accept: TYPES,
        }),
        /Could not connect|failed/,
      );
    } finally {
      await server.shutdown();
    }
  },
});

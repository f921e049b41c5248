/** True when `GET <base>/health` answers 200 within half a second (a reboot's down and up edges). */
export async function healthy(base: string): Promise<boolean> {
  try {
    const r = await fetch(`${base}/health`, { signal: AbortSignal.timeout(500) });
    await r.body?.cancel();
    return r.ok;
  } catch {
    return false;
  }
}

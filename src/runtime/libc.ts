/**
 * Opens the C library's symbols for the callers that tune this process through it (thread
 * priority, the allocator), or says why they cannot be had here. Linux only; the FFI permission
 * is asked, never prompted for, so a process run without `--allow-ffi` just goes without.
 */

/** `symbols` of libc.so.6, or why not (not Linux, no `--allow-ffi`, no such library or symbol). */
export function openLibcSymbols<S extends Deno.ForeignLibraryInterface>(
  symbols: S,
): Deno.DynamicLibrary<S> | string {
  if (Deno.build.os !== "linux") return `not Linux (${Deno.build.os})`;
  if (Deno.permissions.querySync({ name: "ffi" }).state !== "granted") return "no --allow-ffi";
  try {
    return Deno.dlopen("libc.so.6", symbols);
  } catch (e) {
    return `${e}`;
  }
}

#!/bin/sh
# UrsaMU launcher of the dist archive (docs/binaries.md): runs the command line with the Deno
# runtime shipped beside it. Neither Deno nor Node needs to be installed. The game directory is
# the working directory: config/, data/, logs/, backups/ go there; text/, help/, plugins/ and
# system/scripts/ come from the archive unless the game directory has its own.
case "$0" in
  */*) here="${0%/*}" ;;
  *) here="." ;;
esac
here="$(cd "$here" && pwd)" || exit 1
app="$here/app"
export DENO_NO_PACKAGE_JSON=1 DENO_NO_UPDATE_CHECK=1 DENO_NO_PROMPT=1
export DENO_DIR="${DENO_DIR:-$here/.deno}"
# Children (engine, sidecar) run offline from the packages in app/node_modules.
export URSAMU_RUN_FLAGS="--cached-only --node-modules-dir=manual"
[ -d text ] || [ -n "$URSAMU_SERVER_TEXTDIR" ] || export URSAMU_SERVER_TEXTDIR="$app/text"
[ -f text/connect.txt ] || [ -n "$URSAMU_GAME_TEXT_CONNECT" ] ||
  export URSAMU_GAME_TEXT_CONNECT="$app/text/connect.txt"
[ -d help ] || [ -n "$URSAMU_SERVER_HELPDIR" ] || export URSAMU_SERVER_HELPDIR="$app/help"
[ -d plugins ] || [ -n "$URSAMU_SERVER_PLUGINSDIR" ] || export URSAMU_SERVER_PLUGINSDIR="$app/plugins"
[ -d system/scripts ] || [ -n "$URSAMU_SCRIPTS_DIR" ] ||
  export URSAMU_SCRIPTS_DIR="$app/system/scripts"
exec "$here/bin/deno" run --config "$app/deno.json" $URSAMU_RUN_FLAGS --unstable-kv -A \
  "$app/src/cli/main.ts" "$@"

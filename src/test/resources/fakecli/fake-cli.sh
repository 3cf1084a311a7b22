#!/usr/bin/env bash
# Fake agent CLI for tests. Installed under the real CLI's name (claude, codex, cursor-agent, copilot, az)
# next to its control files. It records argv (NUL-separated), stdin, env and cwd per call, asserts the
# flags upstream always sends, then replays a recorded stream: reply.<n> or reply, with optional
# stderr, sleep and exit(.<n>) files. Codex's --output-last-message file is written from last(.<n>).
set -u
DIR="$(cd "$(dirname "$0")" && pwd)"
NAME="$(basename "$0")"
N=$(( $(cat "$DIR/count" 2>/dev/null || echo 0) + 1 ))
echo "$N" > "$DIR/count"
: > "$DIR/argv.$N"
for a in "$@"; do printf '%s\0' "$a" >> "$DIR/argv.$N"; done
if [ ! -t 0 ]; then cat > "$DIR/stdin.$N"; fi
env > "$DIR/env.$N"
pwd > "$DIR/cwd.$N"
fail() { echo "fake $NAME: $*" >&2; exit 97; }
has() { for a in "${ARGS[@]}"; do [ "$a" = "$1" ] && return 0; done; return 1; }
ARGS=("$@")
case "$NAME" in
  claude)
    [ "${1:-}" = "-p" ] || fail "first argument must be -p"
    has --output-format || fail "missing --output-format"
    has --permission-mode || fail "missing --permission-mode" ;;
  codex)
    [ "${1:-}" = "exec" ] || fail "first argument must be exec"
    has --skip-git-repo-check || fail "missing --skip-git-repo-check"
    has --sandbox || fail "missing --sandbox"
    has --full-auto && fail "--full-auto must never be sent"
    LAST=""; PREV=""
    for a in "$@"; do [ "$PREV" = "--output-last-message" ] && LAST="$a"; PREV="$a"; done
    [ -n "$LAST" ] || fail "missing --output-last-message"
    if [ -f "$DIR/last.$N" ]; then cp "$DIR/last.$N" "$LAST"; elif [ -f "$DIR/last" ]; then cp "$DIR/last" "$LAST"; fi ;;
  cursor-agent)
    [ "${1:-}" = "-p" ] && [ "${2:-}" = "--output-format" ] && [ "${3:-}" = "stream-json" ] || fail "argv must start with -p --output-format stream-json"
    has --trust || fail "missing --trust" ;;
  copilot)
    has -p && fail "the prompt goes on stdin, never -p"
    has --disable-builtin-mcps || fail "missing --disable-builtin-mcps"
    has --no-custom-instructions || fail "missing --no-custom-instructions"
    [ -n "${COPILOT_ALLOW_ALL:-}" ] && fail "COPILOT_ALLOW_ALL leaked into the child" ;;
  az)
    [ "${1:-} ${2:-}" = "account get-access-token" ] || fail "expected: account get-access-token" ;;
esac
[ -f "$DIR/sleep" ] && sleep "$(cat "$DIR/sleep")"
[ -f "$DIR/stderr" ] && cat "$DIR/stderr" >&2
R="$DIR/reply.$N"; [ -f "$R" ] || R="$DIR/reply"
[ -f "$R" ] && cat "$R"
exit "$(cat "$DIR/exit.$N" 2>/dev/null || cat "$DIR/exit" 2>/dev/null || echo 0)"

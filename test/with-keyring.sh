#!/usr/bin/env bash
# Runs a command inside a private D-Bus session with an unlocked gnome-keyring, so tests
# use a real OS keychain without touching the developer's own. Its data lives in a temp
# folder (XDG_*), HOME is left alone. Without dbus-run-session or gnome-keyring-daemon the
# command runs as is, and the keychain tests say what is missing.
set -euo pipefail
if [ "${ADOPS_IN_KEYRING:-}" = 1 ] || ! command -v dbus-run-session >/dev/null || ! command -v gnome-keyring-daemon >/dev/null; then
  exec "$@"
fi
scratch=$(mktemp -d "${TMPDIR:-/tmp}/adops-keyring-XXXXXX")
trap 'rm -rf "$scratch"' EXIT
mkdir -p "$scratch/data" "$scratch/cache" "$scratch/runtime"
chmod 700 "$scratch/runtime"
export XDG_DATA_HOME="$scratch/data" XDG_CACHE_HOME="$scratch/cache" XDG_RUNTIME_DIR="$scratch/runtime" ADOPS_IN_KEYRING=1
dbus-run-session -- bash -c 'echo -n pass | gnome-keyring-daemon --unlock --components=secrets >/dev/null && exec "$@"' keyring "$@" 2> >(grep -v "Failed to set fd limit" >&2)

#!/usr/bin/env bash
# The browser tests drive Debian's Chromium; install it when it is missing and we may (as root).
set -euo pipefail
chromium="${CHROMIUM_PATH:-/usr/bin/chromium}"
[ -x "$chromium" ] && exit 0
if [ "$(id -u)" = 0 ] && command -v apt-get >/dev/null; then
  echo "Chromium is missing: installing Debian's package…"
  apt-get update -qq
  DEBIAN_FRONTEND=noninteractive apt-get install -y -qq chromium >/dev/null
else
  echo "The browser tests need Chromium at $chromium: install it (sudo apt-get install chromium) or set CHROMIUM_PATH." >&2
  exit 1
fi

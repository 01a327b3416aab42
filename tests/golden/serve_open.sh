#!/usr/bin/env bash
# `parallax serve --open`: the browser is started on a private file (mode 600) that redirects to
# the printed URL, so the token does not appear in the process list; without a browser, a note.
# Usage: serve_open.sh PARALLAX_BINARY TEST_DATA_DIR
set -euo pipefail
bin=$1
data=$2
tmp=$(mktemp -d)
trap 'kill $(jobs -p) 2>/dev/null || true; rm -rf "$tmp"' EXIT

# A stand-in browser that records what it was asked to open.
cat > "$tmp/browser" <<SH
#!/bin/sh
echo "\$1" > "$tmp/opened"
SH
chmod +x "$tmp/browser"

BROWSER="$tmp/browser" TMPDIR="$tmp" "$bin" serve --root "$data/epoch" --open > "$tmp/out" 2>&1 &
for _ in $(seq 100); do [ -s "$tmp/opened" ] && break; sleep 0.1; done
url=$(grep -o 'http://[^ ]*token=[0-9a-f]*' "$tmp/out")
opened=$(cat "$tmp/opened")
case "$opened" in file://"$tmp"/parallax-open-*.html) ;; *) echo "FAIL: opened '$opened'"; exit 1 ;; esac
page=${opened#file://}
grep -qF "url=$url\"" "$page" || { echo "FAIL: $page does not redirect to $url"; cat "$page"; exit 1; }
[ "$(stat -c %a "$page")" = 600 ] || { echo "FAIL: $page is not private"; exit 1; }
if grep -q "$(echo "$url" | grep -o 'token=[0-9a-f]*')" "$tmp/opened"; then echo "FAIL: token on the command line"; exit 1; fi
kill %1; wait %1 2>/dev/null || true

# No browser: the server still runs and says so.
BROWSER="$tmp/no-such-browser" TMPDIR="$tmp" "$bin" serve --root "$data/epoch" --open > "$tmp/out2" 2>&1 &
for _ in $(seq 100); do grep -q "no browser" "$tmp/out2" && break; sleep 0.1; done
grep -q "note: no browser was started" "$tmp/out2" || { echo "FAIL: no note"; cat "$tmp/out2"; exit 1; }
grep -q "^Open http" "$tmp/out2" || { echo "FAIL: no URL"; exit 1; }
kill %1; wait %1 2>/dev/null || true

# No display and no $BROWSER (a server over ssh, the README's demo in a container): xdg-open is
# not started (it would print its errors for every browser it tries), the URL and one line.
mkdir "$tmp/bin"
cat > "$tmp/bin/xdg-open" <<SH
#!/bin/sh
touch "$tmp/xdg-started"
for i in 1 2 3 4 5; do echo "xdg-open: no method available for opening '\$1'" >&2; done
exit 3
SH
chmod +x "$tmp/bin/xdg-open"
env -u DISPLAY -u WAYLAND_DISPLAY -u BROWSER PATH="$tmp/bin:$PATH" TMPDIR="$tmp" \
  "$bin" serve --root "$data/epoch" --open > "$tmp/out3" 2>&1 &
for _ in $(seq 100); do grep -q "no browser" "$tmp/out3" && break; sleep 0.1; done
[ ! -e "$tmp/xdg-started" ] || { echo "FAIL: xdg-open started without a display"; cat "$tmp/out3"; exit 1; }
grep -q "^Open http" "$tmp/out3" || { echo "FAIL: no URL"; cat "$tmp/out3"; exit 1; }
[ "$(grep -c "no browser" "$tmp/out3")" = 1 ] || { echo "FAIL: not one note"; cat "$tmp/out3"; exit 1; }
if grep -q "xdg-open:" "$tmp/out3"; then echo "FAIL: xdg-open's errors shown"; cat "$tmp/out3"; exit 1; fi
# Only the browser that started got a page: where none started, none was left in $TMPDIR.
pages=$(find "$tmp" -maxdepth 1 -name 'parallax-open-*.html' | wc -l)
[ "$pages" = 1 ] || { echo "FAIL: $pages pages in TMPDIR, expected the first browser's only"; exit 1; }
echo "serve --open: ok"

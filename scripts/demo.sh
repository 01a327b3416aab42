#!/usr/bin/env bash
# Sets up Parallax, summarises the example trace shipped in the repository, and opens the
# browser UI on it (`parallax serve`; Ctrl-C stops it). PORT=8080 picks a fixed port, for an
# SSH tunnel: ssh -L 8080:127.0.0.1:8080 host, then open the printed URL.
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/setup.sh
build/bin/parallax info tests/data/epoch/epoch_4proc.prv.gz | head -n 12
echo
exec build/bin/parallax serve --root tests/data --port "${PORT:-0}" --open tests/data/epoch/epoch_4proc.prv.gz

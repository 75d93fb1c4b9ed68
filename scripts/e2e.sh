#!/usr/bin/env bash
# The browser journeys (e2e/): builds the app, seeds demo data into a scratch data directory, starts the
# server on a free port, runs every journey in headless Chromium at 1280×900 and 390×844, and stops
# the server whatever happens. Screenshots go to E2E_OUT (default .build/e2e/<time>/).
#
#   make e2e                          # everything
#   E2E_ONLY="team coach" make e2e    # some journeys
#   E2E_SIZE=phone make e2e           # one size (E2E_SIZE=one: each journey once, desktop unless phone-only)
#   E2E_SKIP=recorder make e2e        # all but some journeys
#   E2E_LANGUAGE=en make e2e          # English only (by default a Portuguese pass at desktop size follows)
#   E2E_BASE=http://127.0.0.1:8080 scripts/e2e.sh   # against a server already running with demo data
set -euo pipefail
cd "$(dirname "$0")/.."

FIELDHOUSE_NEED_BROWSER=1 scripts/install-deps.sh
venv=.build/e2e-venv
if [[ ! -x "$venv/bin/python" ]] || ! "$venv/bin/python" -c 'import selenium' 2>/dev/null; then
  echo "Making $venv with Selenium…"
  mkdir -p .build
  rm -rf "$venv"
  python3 -m venv "$venv" 2>/dev/null || { FIELDHOUSE_NEED_VENV=1 scripts/install-deps.sh; python3 -m venv "$venv"; }
  "$venv/bin/pip" install --quiet --disable-pip-version-check -r e2e/requirements.txt
fi
# axe-core for the accessibility checks: the copy inside axe-selenium-python's wheel (the newest
# release ships axe-core 4.10; its Python part needs a newer Python than Debian's and is not used).
axe=.build/axe/axe.min.js
if [[ ! -s "$axe" ]]; then
  wheel=$(mktemp -d)
  "$venv/bin/pip" download --quiet --disable-pip-version-check --no-deps --only-binary=:all: \
    --python-version 3.12 -d "$wheel" "axe-selenium-python==3.0.0"
  mkdir -p .build/axe
  "$venv/bin/python" -c 'import sys, zipfile; z = zipfile.ZipFile(sys.argv[1]); open(sys.argv[2], "wb").write(z.read("axe_selenium_python/node_modules/axe-core/axe.min.js"))' \
    "$wheel"/*.whl "$axe"
  rm -rf "$wheel"
fi

out=${E2E_OUT:-.build/e2e/$(date +%Y%m%d-%H%M%S)}
mkdir -p "$out"
args=(--out "$out")
[[ -n "${E2E_ONLY:-}" ]] && args+=(--only $E2E_ONLY)
[[ -n "${E2E_SKIP:-}" ]] && args+=(--skip $E2E_SKIP)
[[ -n "${E2E_SIZE:-}" ]] && args+=(--size $E2E_SIZE)
if [[ -n "${E2E_BASE:-}" ]]; then
  exec "$venv/bin/python" e2e/run.py --base "$E2E_BASE" "${args[@]}"
fi

# CI built the debug binary in its test stage (FIELDHOUSE_PREBUILT, set by .ci/run).
[[ -n "${FIELDHOUSE_PREBUILT:-}" ]] || swift build
data=$(mktemp -d /tmp/fieldhouse-e2e.XXXXXX)
port=$(python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')
server=""
tiles=""
cleanup() {
  [[ -n "$server" ]] && kill "$server" 2>/dev/null && wait "$server" 2>/dev/null || true
  [[ -n "$tiles" ]] && kill "$tiles" 2>/dev/null && wait "$tiles" 2>/dev/null || true
  rm -rf "$data"
}
trap cleanup EXIT

# Map tiles from a tile server on loopback (patterned tiles), so maps are zoomable as with a real one.
python3 scripts/tile-server.py --log "$data/tiles.log" --pattern --until-killed > "$data/tiles.port" &
tiles=$!
for _ in $(seq 1 50); do grep -q PORT "$data/tiles.port" 2>/dev/null && break; sleep 0.1; done
export FIELDHOUSE_TILE_URL="http://127.0.0.1:$(awk '/PORT/ {print $2}' "$data/tiles.port")/{z}/{x}/{y}.png"

export FIELDHOUSE_DATA_DIR="$data" PORT="$port" LOG_LEVEL=warning
.build/debug/fieldhouse seed >/dev/null
.build/debug/fieldhouse serve > "$out/server.log" 2>&1 &
server=$!
for _ in $(seq 1 100); do
  curl -fsS "http://127.0.0.1:$port/healthz" >/dev/null 2>&1 && break
  kill -0 "$server" 2>/dev/null || { echo "e2e: the server did not start; see $out/server.log" >&2; exit 1; }
  sleep 0.2
done

status=0
"$venv/bin/python" e2e/run.py --base "http://127.0.0.1:$port" "${args[@]}" || status=1
# Once more in European Portuguese (a Portuguese browser; the journeys find every word through the
# app's own catalogue, see e2e/words.py), at desktop size. E2E_LANGUAGE=pt-PT alone runs only that;
# E2E_LANGUAGE=en only English (CI, whose Portuguese pass goes through the cluster: scripts/cluster-check.sh).
if [[ -z "${E2E_LANGUAGE:-}" ]]; then
  E2E_LANGUAGE=pt-PT "$venv/bin/python" e2e/run.py --base "http://127.0.0.1:$port" --out "$out/pt-PT" --size desktop \
    ${E2E_ONLY:+--only $E2E_ONLY} ${E2E_SKIP:+--skip $E2E_SKIP} || status=1
fi
exit $status

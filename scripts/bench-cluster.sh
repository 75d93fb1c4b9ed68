#!/usr/bin/env bash
# `make bench-cluster`: the same figures (scripts/bench_side.py) on this machine for one release
# process on SQLite and for two release processes on PostgreSQL behind nginx (make cluster), side by side.
set -euo pipefail
cd "$(dirname "$0")/.."
FIELDHOUSE_NEED_WRK=1 FIELDHOUSE_NEED_NGINX=1 FIELDHOUSE_NEED_POSTGRES=1 scripts/install-deps.sh
swift build -c release --product fieldhouse 2>&1 | tail -n 1

results=$(mktemp -d /tmp/fieldhouse-bench-cluster.XXXXXX)
data=$results/sqlite
server=""
cleanup() {
  [[ -n "$server" ]] && kill "$server" 2>/dev/null && wait "$server" 2>/dev/null || true
  rm -rf "$results"
}
trap cleanup EXIT INT TERM

port=$(python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1]); s.close()')
FIELDHOUSE_DATA_DIR=$data .build/release/fieldhouse seed >/dev/null
FIELDHOUSE_DATA_DIR=$data PORT=$port LOG_LEVEL=warning .build/release/fieldhouse serve >"$results/sqlite.log" 2>&1 &
server=$!
for _ in $(seq 1 100); do curl -fs "http://127.0.0.1:$port/healthz" >/dev/null 2>&1 && break; sleep 0.1; done
echo "one process on SQLite…"
python3 scripts/bench_side.py "http://127.0.0.1:$port" "$results/sqlite.json"
kill "$server"; wait "$server" 2>/dev/null || true; server=""

echo "two processes on PostgreSQL behind nginx…"
CLUSTER_BUILD=release scripts/cluster.sh bash -c "python3 scripts/bench_side.py \"\$FIELDHOUSE_CLUSTER_URL\" $results/cluster.json" >/dev/null

python3 - "$results" <<'PY'
import json, sys
one = json.load(open(sys.argv[1] + "/sqlite.json"))
two = json.load(open(sys.argv[1] + "/cluster.json"))
print(f"{'':34} {'1 process, SQLite':>22} {'2 processes, PostgreSQL + nginx':>34}")
print(f"{'4 people posting 3,600-sample batches':34} {one['samples']:>14,.0f} samples/s {two['samples']:>26,.0f} samples/s   target (PostgreSQL): >= 200,000")
for name in [k for k in one if k != "samples"]:
    a, b = one[name], two[name]
    print(f"{name + ' (32 conns)':34} {a['rate']:>9,.0f} req/s, p99 {a['p99']:5.1f} ms {b['rate']:>18,.0f} req/s, p99 {b['p99']:5.1f} ms"
          + ("   (non-2xx answers!)" if a['errors'] or b['errors'] else ""))
PY

#!/usr/bin/env bash
# Two `fieldhouse serve` processes on one PostgreSQL database (DATABASE_URL; `make test-postgres`
# runs this inside scripts/with-postgres.sh) share 400 due jobs of 20 ms each. One process is killed
# with SIGKILL while it holds jobs; the other must finish them once their lease (5 s here) runs out.
# Passes when every job ran exactly once: 400 done, none failed, 400 distinct notifications.
set -euo pipefail
cd "$(dirname "$0")/.."
: "${DATABASE_URL:?run inside scripts/with-postgres.sh}"
bin=.build/debug/fieldhouse
[[ -n "${FIELDHOUSE_PREBUILT:-}" ]] || swift build --product fieldhouse 2>&1 | tail -n 2

work=$(mktemp -d /tmp/fieldhouse-2p.XXXXXX)
pids=()
cleanup() {
  for pid in "${pids[@]}"; do kill -TERM "$pid" 2>/dev/null || true; done
  wait 2>/dev/null || true
  rm -rf "$work"
}
trap cleanup EXIT INT TERM

export FIELDHOUSE_DATA_DIR=$work/data FIELDHOUSE_JOB_POLL_SECONDS=0.1 FIELDHOUSE_JOB_LEASE_SECONDS=5 LOG_LEVEL=warning
sql() { psql "$DATABASE_URL" -qtAX -c "$1"; }
free_port() { python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1]); s.close()'; }

echo y | $bin migrate >/dev/null
$bin user create kai kai@example.org --password "two processes, one truth" >/dev/null
$bin bench-jobs --count 400 --to kai --slow-ms 20 --queue-only

start() {
  PORT=$(free_port) $bin serve > "$work/serve-$1.log" 2>&1 &
  pids+=($!)
}
start a
victim=${pids[0]}
start b

# Kill the first process the moment it holds jobs (its lease is committed before it runs them).
held=0
for _ in $(seq 1 400); do
  held=$(sql "SELECT count(*) FROM jobs WHERE state = 'queued' AND lease_owner LIKE '%:$victim:%'")
  [[ $held -gt 0 ]] && break
  sleep 0.02
done
kill -KILL "$victim"
# Gone for good before counting what it left: a signal is not instant.
wait "$victim" 2>/dev/null || true
orphans=$(sql "SELECT count(*) FROM jobs WHERE state = 'queued' AND lease_owner LIKE '%:$victim:%'")
echo "killed process $victim holding $orphans job(s); alive after kill: $(kill -0 "$victim" 2>/dev/null && echo yes || echo no); serve processes: $(pgrep -fc "fieldhouse serve")"

for _ in $(seq 1 600); do
  left=$(sql "SELECT count(*) FROM jobs WHERE kind = 'notifications.bench' AND state = 'queued'")
  [[ $left -eq 0 ]] && break
  sleep 0.1
done

done_=$(sql "SELECT count(*) FROM jobs WHERE kind = 'notifications.bench' AND state = 'done'")
failed=$(sql "SELECT count(*) FROM jobs WHERE kind = 'notifications.bench' AND state = 'failed'")
retaken=$(sql "SELECT count(*) FROM jobs WHERE kind = 'notifications.bench' AND attempts > 1")
notes=$(sql "SELECT count(*) FROM notifications WHERE text LIKE 'Bench job %'")
distinct=$(sql "SELECT count(DISTINCT text) FROM notifications WHERE text LIKE 'Bench job %'")
echo "done $done_, failed $failed, taken again after the kill $retaken, notifications $notes ($distinct distinct)"
status=0
[[ $done_ -eq 400 && $failed -eq 0 && $notes -eq 400 && $distinct -eq 400 ]] || status=1
# The killed process is gone, so every job it still held when it died was finished by the other:
# all 400 done says so. (The attempt counts are printed for the curious; they are no test, since a
# job the dying process had just committed can be counted among those it held.)
if [[ $status -ne 0 ]]; then
  echo "FAILED: every job must run exactly once" >&2
  tail -n 20 "$work"/serve-*.log >&2
fi
exit $status

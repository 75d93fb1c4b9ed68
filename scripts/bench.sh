#!/usr/bin/env bash
# `make bench`: release build, a scratch data directory with demo data, and wrk against the main
# pages. Prints one line per scenario: requests per second and latency percentiles.
# Later features add their scenarios to SCENARIOS below.
set -euo pipefail
cd "$(dirname "$0")/.."

FIELDHOUSE_NEED_WRK=1 scripts/install-deps.sh
swift build -c release 2>&1 | tail -n 1

CONNECTIONS=${BENCH_CONNECTIONS:-32}
DURATION=${BENCH_DURATION:-10s}
data=$(mktemp -d /tmp/fieldhouse-bench.XXXXXX)
port=$(python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1]); s.close()')
base="http://127.0.0.1:$port"
server=""
cleanup() {
  [[ -n "$server" ]] && kill "$server" 2>/dev/null && wait "$server" 2>/dev/null || true
  rm -rf "$data"
}
trap cleanup EXIT INT TERM

export FIELDHOUSE_DATA_DIR="$data" LOG_LEVEL=warning PORT="$port"
# Pages are measured as a site with map tiles serves them: maps carry their tiles and their
# zoomable layer's data. Nothing here fetches a tile, so the address leads nowhere.
export FIELDHOUSE_TILE_URL="http://127.0.0.1:9/{z}/{x}/{y}.png"
# The live figures hold over 2,000 connections open, a file each: the server gets the hard limit.
ulimit -n "$(ulimit -Hn)" 2>/dev/null || ulimit -n 65536 2>/dev/null || true
.build/release/fieldhouse seed --bench-teams 100000 --bench-games 200000 --bench-challenges 500 --bench-training --bench-articles 500 --bench-community --bench-places 50000 >/dev/null
.build/release/fieldhouse serve --env production >"$data/server.log" 2>&1 &
server=$!
for _ in $(seq 1 100); do curl -fs "$base/healthz" >/dev/null 2>&1 && break; sleep 0.1; done

# Sign in the way a browser does: fetch the form, send its CSRF token back. Prints the session.
sign_in() {
  local jar="$data/cookies-$1.txt" token session
  token=$(curl -fs -c "$jar" "$base/login" | sed -n 's/.*name="csrf" value="\([^"]*\)".*/\1/p' | head -n 1)
  curl -fs -b "$jar" -c "$jar" -o /dev/null --data-urlencode "csrf=$token" \
    --data-urlencode "login=$1" --data-urlencode "password=$2" "$base/login"
  session=$(awk '$6 == "fh_session" { print $7 }' "$jar")
  [[ -n "$session" ]] || { echo "could not sign in as $1" >&2; exit 1; }
  echo "$session"
}
jar="$data/cookies-maya.txt"
session=$(sign_in maya fieldhouse-demo)
athlete=$(sign_in bench_athlete bench-password)
coach=$(sign_in bench_coach bench-password)
social=$(sign_in bench_social bench-password)

# bench_athlete's one-hour run (her newest workout) and the 30-day heart-rate range, as the pages link them.
run=$(curl -fs -H "Cookie: fh_session=$athlete" "$base/workouts" | grep -o 'href="/workouts/[0-9a-f-]\{36\}"' | head -n 1 | cut -d'"' -f2)
[[ -n "$run" ]] || { echo "could not find the bench run" >&2; exit 1; }
month=$(curl -fs -H "Cookie: fh_session=$athlete" "$base/heart-rate" | sed -n 's/.*<a href="\([^"]*\)">30 days<\/a>.*/\1/p' | head -n 1 | sed 's/&amp;/\&/g')
[[ -n "$month" ]] || { echo "could not find the 30-day heart-rate link" >&2; exit 1; }

# maya's secret calendar address, as the settings page shows it.
feed=$(curl -fs -b "$jar" "$base/settings/calendar" | sed -n 's/.*id="feed" readonly value="[^"]*\(\/calendar\/[^"]*\.ics\)".*/\1/p' | head -n 1)
[[ -n "$feed" ]] || { echo "could not read the calendar address" >&2; exit 1; }

# One of maya's challenge photos, as her inbox links it.
photo=$(curl -fs -b "$jar" "$base/challenges" | sed -n 's/.*src="\(\/photos\/[0-9a-f-]*\(\/small\)\{0,1\}\)".*/\1/p' | head -n 1)
[[ -n "$photo" ]] || { echo "could not find a challenge photo" >&2; exit 1; }

# Seeding leaves background work due (badges over the seeded history, reminders, sweeps): wait until
# the server is idle (under 5 % of a core for a second, at most two minutes), so no figure, and
# /healthz least of all (every page's ratio is to it), is measured against it.
for _ in $(seq 1 120); do
  before=$(awk '{ print $14 + $15 }' "/proc/$server/stat")
  sleep 1
  after=$(awk '{ print $14 + $15 }' "/proc/$server/stat")
  (( after - before < 5 )) && break
done

# name | path | cookie | target (issue 26: "ratio" figures are req/s against /healthz's, "alone" ones the p50 of one connection)
SCENARIOS=(
  "healthz|/healthz||"
  "profile page (public, anonymous)|/u/jonas||ratio >= 50 %"
  "home page (signed in)|/|fh_session=$session"
  "team page (25 members, anonymous)|/teams/bench-25|"
  "team page (25 members, signed in)|/teams/bench-25|fh_session=$session"
  "find teams within 50 km (100k teams)|/find?what=teams&lat=55.68&lon=12.57&radius_km=50&sport=futsal|"
  "game page (30 players, signed in)|/games/00000000-0000-4000-8000-000000000030|fh_session=$session"
  "find games within 25 km (200k games)|/find?lat=55.68&lon=12.57&radius_km=25||alone <= 10 ms"
  "find games API, 25 km, volleyball|/api/v1/find?lat=55.68&lon=12.57&radius_km=25&sport=volleyball|"
  "calendar feed (300 games)|$feed|"
  "challenge inbox (500 challenges)|/challenges|fh_session=$session"
  "challenge photo (signed in)|$photo|fh_session=$session"
  "workout page (1 h run, 1 Hz, HR+GPS)|$run|fh_session=$athlete"
  "heart rate, 24 h of 1 Hz|/heart-rate|fh_session=$athlete"
  "heart rate, 30 days of 1 Hz|$month|fh_session=$athlete"
  "statistics by month (2,000 workouts)|/stats?period=month|fh_session=$athlete"
  "coach dashboard (40 athletes, 2 years)|/coach|fh_session=$coach"
  "coach weekly review (40 athletes)|/coach/week|fh_session=$coach"
  "learn article (anonymous)|/learn/hydration|"
  "learn article (signed in)|/learn/hydration|fh_session=$athlete"
  "learn search, 513 articles, 'hydration'|/learn?q=hydration|"
  "learn search, 513 articles, 'heart rate'|/learn?q=heart+rate|"
  "feed (300 friends, 200k workouts)|/feed|fh_session=$social"
  "leaderboard, month (300 friends)|/leaderboard?scope=friends&period=month&by=minutes|fh_session=$social"
  "places within 10 km (50k places)|/places?lat=55.68&lon=12.57&radius_km=10|"
  "places within 10 km, cafés only|/places?lat=55.68&lon=12.57&radius_km=10&kind=cafe|"
)

printf "%-38s %10s %7s %9s %9s %9s %10s   (wrk, %s connections, %s, 2 threads; ratio = req/s of /healthz's; alone = p50 of one connection, 3s)\n" \
  "scenario" "req/s" "ratio" "p50" "p90" "p99" "alone" "$CONNECTIONS" "$DURATION"
healthz_rps=""
for scenario in "${SCENARIOS[@]}"; do
  IFS='|' read -r name path cookie target <<<"$scenario"
  args=(-t2 -c"$CONNECTIONS" -d"$DURATION" --latency)
  [[ -n "$cookie" ]] && args+=(-H "Cookie: $cookie")
  status=$(curl -s -o /dev/null -w '%{http_code}' ${cookie:+-H "Cookie: $cookie"} "$base$path")
  out=$(wrk "${args[@]}" "$base$path")
  rps=$(awk '/Requests\/sec/ { print $2 }' <<<"$out")
  p50=$(awk '$1 == "50%" { print $2 }' <<<"$out")
  p90=$(awk '$1 == "90%" { print $2 }' <<<"$out")
  p99=$(awk '$1 == "99%" { print $2 }' <<<"$out")
  errors=$(awk '/Non-2xx|Socket errors/ { printf "%s ", $0 }' <<<"$out")
  # One request at a time: the server's own time per request, without queueing behind others.
  alone_args=(-t1 -c1 -d3s --latency)
  [[ -n "$cookie" ]] && alone_args+=(-H "Cookie: $cookie")
  alone=$(wrk "${alone_args[@]}" "$base$path" | awk '$1 == "50%" { print $2 }')
  [[ -z "$healthz_rps" ]] && healthz_rps=$rps
  ratio=$(awk -v a="$rps" -v b="$healthz_rps" 'BEGIN { printf "%.0f %%", 100 * a / b }')
  printf "%-38s %10s %7s %9s %9s %9s %10s   HTTP %s %s%s\n" "$name" "$rps" "$ratio" "$p50" "$p90" "$p99" "$alone" "$status" "$errors" \
    "${target:+  target: $target}"
done

# Live (issue 43): event streams, their memory and recorders' ingest, before the uploads' big files
# leave freed memory the streams would reuse unseen.
python3 scripts/bench_live.py "$base" "$server"
# Messages (issue 47): one team message to 30 members' open conversations.
python3 scripts/bench_messages.py "$base"
# Uploads are POSTs of a 4 MB file, so they are timed by a small client of their own.
python3 scripts/bench_uploads.py "$base" "$session" "$server" Tests/Fixtures/photos/geotagged_sony.jpg
python3 scripts/bench_samples.py "$base" "$session"
python3 scripts/bench_workouts.py "$base" "$server" Tests/Fixtures/fit/garmin-edge-500-activity.fit

# The job runner: 10,000 jobs due at once, drained by this command and the running server together.
printf "%-38s " "job runner, 10,000 due jobs"
.build/release/fieldhouse bench-jobs --count 10000 --to maya

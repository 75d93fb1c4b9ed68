#!/usr/bin/env bash
# The device API against its own document (Resources/OpenAPI/openapi.json). Builds nothing: run it after
# `swift build`. Starts the debug server on a free port with a scratch data directory and demo data,
# gives Maya a device token the way a person gets one (Settings → Devices), and runs schemathesis with
# every check and a fixed seed, three minutes at most; any failure fails. Then promtool checks /metrics.
#
#   make api-check
#   API_CHECK_SEED=7 API_CHECK_EXAMPLES=300 scripts/api-check.sh    # a longer, different run
#
# schemathesis comes from scripts/api-check-requirements.txt, in a virtual environment under .build made
# once (again when the pins change). promtool is unpacked from Debian's prometheus package into
# .build/promtool; the package is not installed, so no Prometheus service is set up or started.
set -euo pipefail
cd "$(dirname "$0")/.."

[[ -x .build/debug/fieldhouse ]] || { echo "api-check: .build/debug/fieldhouse is missing; run swift build first" >&2; exit 1; }

venv=.build/api-check-venv
requirements=scripts/api-check-requirements.txt
if ! cmp -s "$requirements" "$venv/requirements.txt"; then
  echo "Making $venv with schemathesis…"
  mkdir -p .build
  rm -rf "$venv"
  python3 -m venv "$venv" 2>/dev/null || { FIELDHOUSE_NEED_VENV=1 scripts/install-deps.sh; python3 -m venv "$venv"; }
  "$venv/bin/pip" install --quiet --disable-pip-version-check -r "$requirements"
  cp "$requirements" "$venv/requirements.txt"
fi

promtool=.build/promtool/usr/bin/promtool
if [[ ! -x "$promtool" ]]; then
  echo "Unpacking promtool from Debian's prometheus package into .build/promtool…"
  download=$(mktemp -d /tmp/fieldhouse-promtool.XXXXXX)
  chmod 755 "$download" # apt's download user writes there
  if ! (cd "$download" && apt-get download prometheus >/dev/null 2>&1); then
    [[ $(id -u) -eq 0 ]] || { echo "api-check: apt-get download prometheus failed; run sudo apt-get update" >&2; exit 1; }
    apt-get update -qq
    (cd "$download" && apt-get download prometheus >/dev/null 2>&1)
  fi
  mkdir -p .build/promtool
  dpkg-deb --fsys-tarfile "$download"/prometheus_*.deb | tar -x -C .build/promtool ./usr/bin/promtool
  rm -rf "$download"
fi

scratch=$(mktemp -d /tmp/fieldhouse-api-check.XXXXXX)
port=$(python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')
base="http://127.0.0.1:$port"
server=""
cleanup() {
  [[ -n "$server" ]] && kill "$server" 2>/dev/null && wait "$server" 2>/dev/null || true
  rm -rf "$scratch"
}
trap cleanup EXIT

# A copy of the binary, so a rebuild while this runs cannot change the server under it.
cp .build/debug/fieldhouse "$scratch/fieldhouse"
mkdir "$scratch/data" "$scratch/run"
export FIELDHOUSE_DATA_DIR="$scratch/data" PORT="$port" LOG_LEVEL=warning
"$scratch/fieldhouse" seed >/dev/null
"$scratch/fieldhouse" serve >"$scratch/server.log" 2>&1 &
server=$!
for _ in $(seq 1 100); do
  curl -fsS "$base/healthz" >/dev/null 2>&1 && break
  kill -0 "$server" 2>/dev/null || { cat "$scratch/server.log" >&2; echo "api-check: the server did not start" >&2; exit 1; }
  sleep 0.2
done
token=$(python3 -c 'import sys; sys.path.insert(0, "scripts"); from benchlib import Client
c = Client(sys.argv[1]); print(c.device_token(c.sign_in("maya"), "API check"))' "$base")

# A schema-valid request may still be refused where the rule is one a schema cannot state, on the
# operations that have such rules: 422 for a time more than 5 minutes ahead or an end before the start
# (workouts), lat without lon or `to` before `from` (find), a form reading without a time (samples); 415
# for an upload whose bytes are not a GPX, TCX or FIT file. Every other operation keeps schemathesis's
# default, and every check runs.
cat >"$scratch/schemathesis.toml" <<'TOML'
[[operations]]
include-path-regex = "^/api/v1/(workouts|workouts/\\{id\\}/finish|find|samples)$"
checks.positive_data_acceptance.expected-statuses = ["2xx", "3xx", "401", "403", "404", "409", "422", "429", "5xx"]

[[operations]]
include-path = "/api/v1/uploads"
checks.positive_data_acceptance.expected-statuses = ["2xx", "3xx", "401", "403", "404", "409", "415", "422", "429", "5xx"]
TOML

status=0
started=$SECONDS
# Run from the scratch directory: hypothesis keeps its example database in the working directory,
# and a database left from an earlier run would make this one differ from its seed.
st=$PWD/$venv/bin/st
(cd "$scratch/run" && timeout 180 "$st" --config-file "$scratch/schemathesis.toml" run "$base/api/v1/openapi.json" \
  --checks all --seed "${API_CHECK_SEED:-1}" --max-examples "${API_CHECK_EXAMPLES:-100}" --workers 2 \
  --header "Authorization: Bearer $token") || status=$?
[[ $status -eq 124 ]] && echo "api-check: schemathesis did not finish in 3 minutes" >&2
echo "api-check: schemathesis took $((SECONDS - started)) s"

echo "promtool check metrics $base/metrics"
curl -fsS "$base/metrics" | "$promtool" check metrics || status=1
exit $status

#!/usr/bin/env bash
# CI's run against `make cluster` (inside scripts/cluster.sh): the browser journeys through nginx, the
# recorder journey across the two app processes, then scripts/cluster_smoke.py, which ends by killing
# one app process.
set -euo pipefail
cd "$(dirname "$0")/.."
# What only the cluster can get wrong (nginx, PostgreSQL, two processes) shows at one window size.
# The journeys go through it in Portuguese at phone size, with axe: this is CI's Portuguese and phone
# pass too (.ci/run runs make e2e in English, each journey once, at desktop size unless it runs only
# at phone), so every journey is seen at both sizes and in both languages without a third run
# (E2E_SIZE, E2E_LANGUAGE, E2E_SKIP and E2E_AXE override).
out=${E2E_OUT:-.build/e2e/cluster-$(date +%Y%m%d-%H%M%S)}
E2E_SIZE=${E2E_SIZE:-phone} E2E_LANGUAGE=${E2E_LANGUAGE:-pt-PT} E2E_SKIP="recorder ${E2E_SKIP:-}" E2E_BASE=$FIELDHOUSE_CLUSTER_URL \
  E2E_OUT=$out scripts/e2e.sh
# The recorder journey runs at phone size only (left out above), in English and without axe
# (make e2e ran both on one process; with axe injected, the emulated strap here did not connect in
# one run of two, not yet understood): its rider talks to the
# first app process and the coach watches live from the second, so what one process stores reaches
# a viewer on the other through PostgreSQL's LISTEN/NOTIFY; the stranger comes through nginx.
if [[ -z "${E2E_ONLY:-}" || " $E2E_ONLY " == *" recorder "* ]]; then
  read -r -a ports <<<"$CLUSTER_PORTS"
  E2E_ONLY=recorder E2E_SIZE=phone E2E_LANGUAGE=en E2E_AXE=${E2E_AXE:-off} E2E_BASE=$FIELDHOUSE_CLUSTER_URL E2E_OUT=$out/across-processes \
    E2E_PROCESSES="http://127.0.0.1:${ports[0]} http://127.0.0.1:${ports[1]}" scripts/e2e.sh
fi
python3 scripts/cluster_smoke.py

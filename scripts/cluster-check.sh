#!/usr/bin/env bash
# CI's run against `make cluster` (inside scripts/cluster.sh): every browser journey at both sizes
# through nginx, then scripts/cluster_smoke.py, which ends by killing one app process.
set -euo pipefail
cd "$(dirname "$0")/.."
# What only the cluster can get wrong (nginx, PostgreSQL, two processes) shows at one window size,
# and the page checks that do not depend on the server (axe) already ran in make e2e: both sizes and
# axe here would double CI's longest stage for nothing (E2E_SIZE and E2E_AXE override).
E2E_SIZE=${E2E_SIZE:-desktop} E2E_AXE=${E2E_AXE:-off} \
  E2E_BASE=$FIELDHOUSE_CLUSTER_URL E2E_OUT=${E2E_OUT:-.build/e2e/cluster-$(date +%Y%m%d-%H%M%S)} scripts/e2e.sh
python3 scripts/cluster_smoke.py

#!/usr/bin/env bash
# CI's run against `make cluster` (inside scripts/cluster.sh): every browser journey at both sizes
# through nginx, then scripts/cluster_smoke.py, which ends by killing one app process.
set -euo pipefail
cd "$(dirname "$0")/.."
E2E_BASE=$FIELDHOUSE_CLUSTER_URL E2E_OUT=${E2E_OUT:-.build/e2e/cluster-$(date +%Y%m%d-%H%M%S)} scripts/e2e.sh
python3 scripts/cluster_smoke.py

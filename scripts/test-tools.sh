#!/usr/bin/env bash
# The Python tools the test suite starts for real protocol peers (the SMTP server of
# scripts/smtp-sink.py on aiosmtpd, the Web Push service of scripts/push-server.py on http_ece and
# cryptography, pinned in scripts/test-requirements.txt), in a virtual environment under .build that
# is made once and reused. The tests find it there, or where FIELDHOUSE_TEST_PYTHON points.
set -euo pipefail
cd "$(dirname "$0")/.."
venv=.build/test-venv
if [[ ! -x "$venv/bin/python" ]] || ! "$venv/bin/python" -c 'import aiosmtpd, http_ece, cryptography' 2>/dev/null; then
  echo "Making $venv with aiosmtpd, http_ece and cryptography (the test SMTP and push servers)…"
  mkdir -p .build
  rm -rf "$venv"
  if ! python3 -m venv "$venv" 2>/dev/null; then
    # Debian's own Python keeps venv in a package of its own.
    FIELDHOUSE_NEED_VENV=1 scripts/install-deps.sh
    python3 -m venv "$venv"
  fi
  "$venv/bin/pip" install --quiet --disable-pip-version-check -r scripts/test-requirements.txt
fi

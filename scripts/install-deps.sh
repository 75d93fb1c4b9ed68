#!/usr/bin/env bash
# Installs the Debian packages Fieldhouse needs when they are missing. Run as root it installs them;
# otherwise it prints the exact command and stops, so nothing fails later with a puzzling error.
set -euo pipefail

needed=(libmarkdown2-dev zlib1g-dev libvips-dev libjs-leaflet)
[[ "${FIELDHOUSE_NEED_POSTGRES:-}" == 1 ]] && needed+=(postgresql)
[[ "${FIELDHOUSE_NEED_WRK:-}" == 1 ]] && needed+=(wrk)
[[ "${FIELDHOUSE_NEED_VENV:-}" == 1 ]] && needed+=(python3-venv)
[[ "${FIELDHOUSE_NEED_BROWSER:-}" == 1 ]] && needed+=(chromium chromium-driver curl)
[[ "${FIELDHOUSE_NEED_NGINX:-}" == 1 ]] && needed+=(nginx curl)

missing=()
for package in "${needed[@]}"; do
  dpkg-query -W -f='${Status}' "$package" 2>/dev/null | grep -q "install ok installed" || missing+=("$package")
done
[[ ${#missing[@]} -eq 0 ]] && exit 0

if [[ $(id -u) -eq 0 ]]; then
  echo "Installing ${missing[*]}…"
  export DEBIAN_FRONTEND=noninteractive
  apt-get update -qq
  apt-get install -y -qq "${missing[@]}" >/dev/null
else
  echo "Fieldhouse needs: ${missing[*]}. Install them with:" >&2
  echo "  sudo apt-get update && sudo apt-get install -y ${missing[*]}" >&2
  exit 1
fi

#!/usr/bin/env bash
# The scaled set-up on one machine: a private PostgreSQL, `fieldhouse migrate`, demo data, two
# `fieldhouse serve` processes on free ports sharing one data directory, and nginx in front on a free
# port running deploy/nginx/fieldhouse.conf (only its ports and paths changed). Ctrl-C stops all of it
# and removes its data.
#
#   make cluster                        # prints the address and serves until Ctrl-C
#   scripts/cluster.sh COMMAND [ARG…]   # runs COMMAND against it, then stops everything
#
# COMMAND gets FIELDHOUSE_CLUSTER_URL (nginx), CLUSTER_PORTS and CLUSTER_PIDS (the app processes, in
# the same order), CLUSTER_BIN (the fieldhouse binary), CLUSTER_WORK (logs, nginx files, the data directory), DATABASE_URL and
# FIELDHOUSE_METRICS_TOKEN.
# CLUSTER_BUILD=release builds and runs the release binary (make soak); CLUSTER_PROCESSES=3 runs three.
set -euo pipefail
cd "$(dirname "$0")/.."

if [[ -z "${CLUSTER_DATABASE:-}" ]]; then
  FIELDHOUSE_NEED_NGINX=1 FIELDHOUSE_NEED_POSTGRES=1 scripts/install-deps.sh
  build=${CLUSTER_BUILD:-debug}
  # CI built the debug binary in its test stage (FIELDHOUSE_PREBUILT, set by .ci/run).
  if [[ "$build" != debug || -z "${FIELDHOUSE_PREBUILT:-}" ]]; then swift build -c "$build" --product fieldhouse 2>&1 | tail -n 1; fi
  # A scratch cluster: commits survive a crash of the server process, and only a crash of the
  # machine may lose the last fraction of a second. (SQLite, as `make run` uses it, runs with the
  # default synchronous=FULL and loses nothing; a real deployment keeps PostgreSQL's default too.)
  export PG_SETTINGS="-c synchronous_commit=off"
  CLUSTER_DATABASE=1 exec scripts/with-postgres.sh "$0" "$@"
fi

bin=.build/${CLUSTER_BUILD:-debug}/fieldhouse
processes=${CLUSTER_PROCESSES:-2}
work=$(mktemp -d /tmp/fieldhouse-cluster.XXXXXX)
free_port() { python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1]); s.close()'; }

pids=()
nginx_pid=""
tiles=""
cleanup() {
  local status=$?
  # A failed run shows what the servers said, since their folder goes with it.
  if [[ $status -ne 0 ]]; then
    for log in "$work"/serve-*.log; do
      [[ -f "$log" ]] || continue
      echo "--- the last errors of ${log##*/}:" >&2
      grep -E "\[ (ERROR|CRITICAL|WARNING) \]|Fatal|error" "$log" | tail -n 30 >&2 || true
    done
  fi
  [[ -n "$nginx_pid" ]] && kill -QUIT "$nginx_pid" 2>/dev/null || true
  [[ -n "$tiles" ]] && kill "$tiles" 2>/dev/null || true
  for pid in "${pids[@]}"; do kill -TERM "$pid" 2>/dev/null || true; done
  wait 2>/dev/null || true
  rm -rf "$work"
}
trap cleanup EXIT
trap 'exit 130' INT TERM

nginx_port=$(free_port)
export FIELDHOUSE_DATA_DIR=$work/data LOG_LEVEL=${LOG_LEVEL:-warning}
export FIELDHOUSE_BASE_URL=http://127.0.0.1:$nginx_port FIELDHOUSE_TRUSTED_PROXIES=127.0.0.1
# nginx is on this machine, so loopback no longer proves a request comes from this machine: /metrics
# needs the token (`curl -H "Authorization: Bearer $FIELDHOUSE_METRICS_TOKEN" 127.0.0.1:PORT/metrics`).
export FIELDHOUSE_METRICS_TOKEN=${FIELDHOUSE_METRICS_TOKEN:-$(python3 -c 'import secrets; print(secrets.token_hex(24))')}
# Map tiles from a tile server on loopback, as in make e2e: every process signs and serves the same tiles.
python3 scripts/tile-server.py --log "$work/tiles.log" --pattern --until-killed >"$work/tiles.port" &
tiles=$!
for _ in $(seq 1 50); do grep -q PORT "$work/tiles.port" 2>/dev/null && break; sleep 0.1; done
export FIELDHOUSE_TILE_URL="http://127.0.0.1:$(awk '/PORT/ {print $2}' "$work/tiles.port")/{z}/{x}/{y}.png"
$bin migrate --yes >/dev/null
$bin seed >/dev/null

ports=()
for _ in $(seq 1 "$processes"); do
  port=$(free_port)
  PORT=$port $bin serve >"$work/serve-$port.log" 2>&1 &
  pids+=($!)
  ports+=("$port")
done
for i in "${!ports[@]}"; do
  for _ in $(seq 1 150); do
    curl -fsS "http://127.0.0.1:${ports[$i]}/healthz" >/dev/null 2>&1 && break
    kill -0 "${pids[$i]}" 2>/dev/null || { cat "$work/serve-${ports[$i]}.log" >&2; echo "cluster: a server did not start" >&2; exit 1; }
    sleep 0.2
  done
done

# The deployed site, with this cluster's upstreams, port and checkout.
mkdir -p "$work/nginx"
upstreams=$(for port in "${ports[@]}"; do printf '    server 127.0.0.1:%s max_fails=2 fail_timeout=10s;\\n' "$port"; done)
sed -e "s|^    server 127.0.0.1:8081 .*|${upstreams%\\n}|" -e "/^    server 127.0.0.1:8082 /d" \
    -e "s|^    listen 80;|    listen 127.0.0.1:$nginx_port;|" -e '/listen \[::\]:80;/d' \
    -e "s|/opt/fieldhouse/Public|$PWD/Public|" deploy/nginx/fieldhouse.conf >"$work/nginx/site.conf"
{
  # nginx started by root hands its workers to `nobody`, who may not read this checkout.
  [[ $(id -u) -eq 0 ]] && echo "user root;"
  cat <<CONF
worker_processes 2;
pid $work/nginx/nginx.pid;
error_log $work/nginx/error.log warn;
events { worker_connections 2048; }
http {
    include /etc/nginx/mime.types;
    default_type application/octet-stream;
    sendfile on;
    access_log $work/nginx/access.log;
    client_body_temp_path $work/nginx/body;
    proxy_temp_path $work/nginx/proxy;
    fastcgi_temp_path $work/nginx/fastcgi;
    uwsgi_temp_path $work/nginx/uwsgi;
    scgi_temp_path $work/nginx/scgi;
    include $work/nginx/site.conf;
}
CONF
} >"$work/nginx/nginx.conf"
nginx -q -t -p "$work/nginx" -c "$work/nginx/nginx.conf"
nginx -p "$work/nginx" -c "$work/nginx/nginx.conf" -g 'daemon off;' &
nginx_pid=$!
for _ in $(seq 1 50); do curl -fsS "$FIELDHOUSE_BASE_URL/healthz" >/dev/null 2>&1 && break; sleep 0.1; done

export FIELDHOUSE_CLUSTER_URL=$FIELDHOUSE_BASE_URL CLUSTER_PORTS="${ports[*]}" CLUSTER_PIDS="${pids[*]}" CLUSTER_WORK=$work CLUSTER_BIN=$PWD/$bin
echo "Fieldhouse cluster: $FIELDHOUSE_CLUSTER_URL (nginx) → ${ports[*]} (fieldhouse serve, pids ${pids[*]}); PostgreSQL $DATABASE_URL"
if [[ $# -gt 0 ]]; then
  "$@"
else
  echo "Sign in as maya / fieldhouse-demo. Logs: $work. Ctrl-C stops everything."
  wait "$nginx_pid"
fi

#!/usr/bin/env bash
# Runs a command with DATABASE_URL pointing at a private PostgreSQL 15 cluster made for it:
# initdb into a temporary directory, listen on 127.0.0.1 on a free port, and stop the server by
# its PID whatever happens. The tests' cluster skips fsync; PG_SETTINGS replaces that (make cluster). As root, the cluster runs as the `postgres` user (PostgreSQL refuses root).
set -euo pipefail

FIELDHOUSE_NEED_POSTGRES=1 "$(dirname "$0")/install-deps.sh"

bin=$(ls -d /usr/lib/postgresql/*/bin 2>/dev/null | sort -V | tail -n 1)
[[ -x "$bin/initdb" ]] || { echo "PostgreSQL server binaries not found under /usr/lib/postgresql" >&2; exit 1; }

dir=$(mktemp -d /tmp/fieldhouse-pg.XXXXXX)
port=$(python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1]); s.close()')

as_owner() {
  if [[ $(id -u) -eq 0 ]]; then runuser -u postgres -- "$@"; else "$@"; fi
}
if [[ $(id -u) -eq 0 ]]; then
  id postgres >/dev/null 2>&1 || useradd --system --home-dir "$dir" postgres
  chown postgres "$dir"
fi

pid=""
cleanup() {
  if [[ -n "$pid" ]] && kill -0 "$pid" 2>/dev/null; then
    kill -INT "$pid" 2>/dev/null || true
    for _ in $(seq 1 50); do kill -0 "$pid" 2>/dev/null || break; sleep 0.2; done
    kill -KILL "$pid" 2>/dev/null || true
  fi
  rm -rf "$dir"
}
trap cleanup EXIT INT TERM

as_owner "$bin/initdb" -D "$dir/data" -U fieldhouse -A trust -E UTF8 --no-locale >/dev/null
as_owner "$bin/pg_ctl" -D "$dir/data" -l "$dir/server.log" -w -t 60 \
  -o "-h 127.0.0.1 -p $port -k $dir -c max_connections=300 ${PG_SETTINGS--c fsync=off -c full_page_writes=off}" start >/dev/null
pid=$(head -n 1 "$dir/data/postmaster.pid")
as_owner "$bin/createdb" -h 127.0.0.1 -p "$port" -U fieldhouse fieldhouse

echo "PostgreSQL $("$bin/postgres" --version | awk '{print $3}') listening on 127.0.0.1:$port (pid $pid)"
export DATABASE_URL="postgres://fieldhouse@127.0.0.1:$port/fieldhouse"
"$@"

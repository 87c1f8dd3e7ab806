#!/usr/bin/env bash
# A whole Pyramids cluster on loopback: PostgreSQL, Redis, N `pyramids serve` instances
# and HAProxy in front of them. Debian packages: postgresql, redis-server, haproxy;
# Python extras: pip install 'pyramids[postgres,redis]'. See docs/deploy.md.
#
#   deploy/cluster.sh start     # then open http://127.0.0.1:8000/ (run again: starts
#                               # the instances, Redis or HAProxy that died)
#   deploy/cluster.sh status
#   deploy/cluster.sh stop      # stops what start started (by the pids it wrote down)
#   deploy/cluster.sh purge     # stop, then delete the data directory
#
# Knobs (environment):
#   PYRAMIDS_CLUSTER_DIR   data, logs and pid files   (/tmp/pyramids-cluster)
#   PYRAMIDS_PORT          HAProxy, for the players   (8000)
#   PYRAMIDS_STATS_PORT    HAProxy statistics page    (8404)
#   PYRAMIDS_INSTANCES     how many instances         (3)
#   PYRAMIDS_FIRST_PORT    port of the first instance, the others follow (8101)
#   PYRAMIDS_PG_PORT       PostgreSQL                 (5433)
#   PYRAMIDS_REDIS_PORT    Redis                      (6380)
#   PYRAMIDS               the pyramids command       (.venv/bin/pyramids of this checkout)
#   PYRAMIDS_SERVE_OPTIONS more options for every instance, e.g. "--bot-delay 0 --rate-limit off"
#
# Logs are appended to, never truncated: a restarted instance's log keeps what the dead
# one wrote. Nothing here restarts a process that dies: this is a cluster to try on one
# machine; deploy/systemd/ has units that do, with the journal's rotating logs.
set -euo pipefail

here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/.." && pwd)
dir=${PYRAMIDS_CLUSTER_DIR:-/tmp/pyramids-cluster}
port=${PYRAMIDS_PORT:-8000}
stats_port=${PYRAMIDS_STATS_PORT:-8404}
instances=${PYRAMIDS_INSTANCES:-3}
first=${PYRAMIDS_FIRST_PORT:-8101}
pg_port=${PYRAMIDS_PG_PORT:-5433}
redis_port=${PYRAMIDS_REDIS_PORT:-6380}
pyramids=${PYRAMIDS:-$root/.venv/bin/pyramids}
serve_options=${PYRAMIDS_SERVE_OPTIONS:-}
python=$(dirname "$pyramids")/python
database_url="postgresql+psycopg://postgres@127.0.0.1:$pg_port/pyramids"
broker_url="redis://127.0.0.1:$redis_port/0"

say() { printf '%s\n' "$*"; }
die() { printf 'cluster.sh: %s\n' "$*" >&2; exit 1; }

pg_bindir() {
    local found
    found=$(ls -d /usr/lib/postgresql/*/bin 2>/dev/null | sort -V | tail -n 1)
    if [ -n "$found" ]; then
        echo "$found"
    elif command -v initdb >/dev/null; then
        dirname "$(command -v initdb)"
    else
        die "no PostgreSQL server (Debian: apt-get install postgresql)"
    fi
}

# PostgreSQL refuses to run as root: as root, its tools run as the postgres user
as_pg() {
    if [ "$(id -u)" = 0 ]; then runuser -u postgres -- "$@"; else "$@"; fi
}

# wait_http URL SECONDS: until URL answers 200
wait_http() {
    "$python" - "$1" "$2" <<'PY'
import sys, time, urllib.request
url, limit = sys.argv[1], float(sys.argv[2])
deadline = time.monotonic() + limit
while True:
    try:
        with urllib.request.urlopen(url, timeout=1) as r:
            if r.status == 200:
                sys.exit(0)
    except OSError:
        pass
    if time.monotonic() > deadline:
        sys.exit(1)
    time.sleep(0.1)
PY
}

# alive PID: the process exists and is not a zombie waiting for its parent (init) to reap it
alive() {
    local state
    state=$(awk '{ sub(/.*\) /, ""); print $1 }' "/proc/$1/stat" 2>/dev/null) || return 1
    [ -n "$state" ] && [ "$state" != Z ]
}

running() { [ -f "$1" ] && alive "$(cat "$1")"; }

# stop_pids NAME=FILE...: SIGTERM every pid written in the FILEs at once, wait up to 15 s
# for all of them, SIGKILL what is left
stop_pids() {
    local item file pid pids=() names=()
    for item in "$@"; do
        file=${item#*=}
        if running "$file"; then
            pid=$(cat "$file")
            kill "$pid" 2>/dev/null || true
            pids+=("$pid")
            names+=("${item%%=*}")
        fi
        rm -f "$file"
    done
    for _ in $(seq 150); do
        local left=0
        for pid in "${pids[@]}"; do alive "$pid" && left=1; done
        [ "$left" = 0 ] && break
        sleep 0.1
    done
    for pid in "${pids[@]}"; do alive "$pid" && kill -9 "$pid" 2>/dev/null; done
    for item in "${names[@]}"; do say "stopped $item"; done
}

start_postgres() {
    local bin
    bin=$(pg_bindir)
    mkdir -p "$dir/pg"
    if [ "$(id -u)" = 0 ]; then chown postgres: "$dir/pg"; fi
    if [ ! -f "$dir/pg/data/PG_VERSION" ]; then
        as_pg "$bin/initdb" -D "$dir/pg/data" -U postgres -A trust -E UTF8 --locale=C >"$dir/pg/initdb.log"
    fi
    if [ ! -f "$dir/pg/data/postmaster.pid" ]; then
        as_pg "$bin/pg_ctl" -D "$dir/pg/data" -l "$dir/pg/server.log" -w \
            -o "-c listen_addresses=127.0.0.1 -p $pg_port -k $dir/pg" start >/dev/null
    fi
    if ! as_pg "$bin/psql" -h 127.0.0.1 -p "$pg_port" -U postgres -tAc \
        "SELECT 1 FROM pg_database WHERE datname = 'pyramids'" | grep -q 1; then
        as_pg "$bin/createdb" -h 127.0.0.1 -p "$pg_port" -U postgres pyramids
    fi
    say "PostgreSQL on 127.0.0.1:$pg_port (database pyramids)"
}

start_redis() {
    command -v redis-server >/dev/null || die "no redis-server (Debian: apt-get install redis-server)"
    if ! running "$dir/redis.pid"; then
        redis-server --port "$redis_port" --bind 127.0.0.1 --daemonize yes \
            --pidfile "$dir/redis.pid" --logfile "$dir/redis.log" --dir "$dir" \
            --save "" --appendonly no
        for _ in $(seq 100); do running "$dir/redis.pid" && break; sleep 0.05; done
    fi
    say "Redis on 127.0.0.1:$redis_port"
}

start_instances() {
    [ -x "$pyramids" ] || die "no pyramids command at $pyramids (set PYRAMIDS)"
    local k p
    for k in $(seq "$instances"); do
        p=$((first + k - 1))
        if running "$dir/instance-$k.pid"; then continue; fi
        printf '=== %s: cluster.sh starts instance %s on port %s\n' \
            "$(date -u '+%Y-%m-%d %H:%M:%S UTC')" "$k" "$p" >>"$dir/instance-$k.log"
        # shellcheck disable=SC2086 # the options are words on purpose
        nohup "$pyramids" serve --host 127.0.0.1 --port "$p" --database-url "$database_url" \
            --broker "$broker_url" $serve_options >>"$dir/instance-$k.log" 2>&1 &
        echo $! >"$dir/instance-$k.pid"
    done
    for k in $(seq "$instances"); do
        p=$((first + k - 1))
        wait_http "http://127.0.0.1:$p/healthz" 60 ||
            die "instance $k did not start: see $dir/instance-$k.log"
        say "instance $k on 127.0.0.1:$p"
    done
}

start_haproxy() {
    command -v haproxy >/dev/null || die "no haproxy (Debian: apt-get install haproxy)"
    local servers="" k
    for k in $(seq "$instances"); do
        servers+="    server i$k 127.0.0.1:$((first + k - 1)) check"$'\n'
    done
    # the ready configuration, with this run's ports and servers
    awk -v servers="$servers" -v front="127.0.0.1:$port" -v stats="127.0.0.1:$stats_port" '
        /^    # servers/ { print; printf "%s", servers; skip = 1; next }
        /^    # end of servers/ { skip = 0 }
        skip { next }
        /^    bind 127.0.0.1:8000$/ { print "    bind " front; next }
        /^    bind 127.0.0.1:8404$/ { print "    bind " stats; next }
        { print }' "$here/haproxy.cfg" >"$dir/haproxy.cfg"
    if ! running "$dir/haproxy.pid"; then
        haproxy -f "$dir/haproxy.cfg" -D -p "$dir/haproxy.pid"
    fi
    wait_http "http://127.0.0.1:$port/healthz" 20 || die "HAProxy does not answer on $port"
    say "HAProxy on 127.0.0.1:$port (statistics on 127.0.0.1:$stats_port)"
}

stop_all() {
    stop_pids "HAProxy=$dir/haproxy.pid"
    local f items=()
    for f in "$dir"/instance-*.pid; do
        [ -e "$f" ] && items+=("$(basename "$f" .pid)=$f")
    done
    [ ${#items[@]} -gt 0 ] && stop_pids "${items[@]}"
    stop_pids "Redis=$dir/redis.pid"
    if [ -f "$dir/pg/data/postmaster.pid" ]; then
        as_pg "$(pg_bindir)/pg_ctl" -D "$dir/pg/data" -w -m fast stop >/dev/null
        say "stopped PostgreSQL"
    fi
}

status() {
    local f
    for f in "$dir"/haproxy.pid "$dir"/instance-*.pid "$dir"/redis.pid; do
        [ -e "$f" ] || continue
        if running "$f"; then say "$(basename "$f" .pid): running (pid $(cat "$f"))"; else say "$(basename "$f" .pid): stopped"; fi
    done
    if [ -f "$dir/pg/data/postmaster.pid" ]; then say "postgresql: running"; else say "postgresql: stopped"; fi
}

case "${1:-}" in
start)
    mkdir -p "$dir"
    start_postgres
    start_redis
    start_instances
    start_haproxy
    say "open http://127.0.0.1:$port/"
    ;;
stop) stop_all ;;
status) status ;;
purge)
    stop_all
    rm -rf "$dir"
    say "deleted $dir"
    ;;
*)
    die "usage: deploy/cluster.sh start|stop|status|purge"
    ;;
esac

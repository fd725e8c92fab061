#!/usr/bin/env bash
# A private PostgreSQL cluster for tests and benchmarks, in a directory of its own.
#
#   scripts/postgres-cluster.sh start DIR [--port N] [--listen ADDRESSES] [--fsync on|off]
#   scripts/postgres-cluster.sh stop DIR [--remove]
#   scripts/postgres-cluster.sh env DIR
#
# start  creates the cluster in DIR/data on first use (initdb), starts it (pg_ctl -w) unless
#        it is already running with the same settings (restarts it when they changed), and
#        prints the environment below on stdout. Safe to run again at any time; a stale
#        postmaster.pid left by a killed server is removed.
#        --port N     also listen on TCP 127.0.0.1:N; without it the server listens only on
#                     its Unix socket DIR/.s.PGSQL.5432, and N names that socket instead
#        --listen ADDRESSES
#                     with --port: listen on these comma-separated IPv4 addresses instead of
#                     127.0.0.1 (the addresses of the network namespace the script runs in,
#                     for `ip netns exec NS scripts/postgres-cluster.sh start …`); clients on
#                     the subnets of those addresses log in with passwords, as on 127.0.0.1
#        --fsync off  fsync=off and full_page_writes=off: faster, and a crash of the machine
#                     may lose or corrupt data, which is fine for tests (default: on)
# stop   stops the server (fast shutdown); --remove then deletes DIR, only if this script
#        made it.
# env    prints the environment again.
#
# The environment, as lines of `export NAME=value` for `eval "$(scripts/postgres-cluster.sh start DIR)"`:
#   CART_TEST_POSTGRES_URL           postgresql://cart_test@<DIR, percent-encoded>:<port>/cart_test
#                                    over the Unix socket, trust authentication
#   CART_TEST_POSTGRES_PASSWORD_URL  the same database as role cart_password, which must give
#                                    its password (scram-sha-256), also over the socket
#   CART_TEST_POSTGRES_TCP_URL       (with --port) cart_test with its password over TCP, at
#                                    127.0.0.1 or the first --listen address
#   CART_TEST_POSTGRES_DIR           DIR, for tests that stop and start the server
# Roles: cart_test (LOGIN CREATEDB, owns database cart_test, password cart_test on TCP),
# cart_password (LOGIN, password cart-password), postgres (superuser, trust on the socket).
# These passwords protect nothing: the cluster is a private, throwaway test fixture.
#
# Needs Debian's `postgresql` package (server binaries under `pg_config --bindir`, not on
# PATH). Run as root, the cluster belongs to the `postgres` user: DIR is given to it and
# initdb, pg_ctl and psql run through `runuser -u postgres --`. Messages go to stderr; the
# server's log is DIR/postgres.log.
set -euo pipefail

usage() {
    sed -n '4,6p' "$0" | sed 's/^# */usage: /' >&2
    exit 64
}
fail() {
    echo "postgres-cluster: $*" >&2
    exit 1
}

[ $# -ge 2 ] || usage
command=$1
dir=$2
shift 2
port=5432
tcp=false
listen=127.0.0.1
fsync=on
remove=false
while [ $# -gt 0 ]; do
    case "$1 ${2-}" in
    "--port "[0-9]*)
        port=$2
        tcp=true
        shift 2
        ;;
    "--listen "[0-9]*)
        listen=$2
        shift 2
        ;;
    "--fsync on" | "--fsync off")
        fsync=$2
        shift 2
        ;;
    "--remove "*)
        remove=true
        shift
        ;;
    *) usage ;;
    esac
done
case "$command" in start | stop | env) ;; *) usage ;; esac
[[ "$port" =~ ^[0-9]+$ ]] && [ "$port" -ge 1 ] && [ "$port" -le 65535 ] || fail "--port wants a number from 1 to 65535, not '$port'"
[[ "$listen" =~ ^[0-9.]+(,[0-9.]+)*$ ]] || fail "--listen wants comma-separated IPv4 addresses, not '$listen'"

# The caller's PG* variables (PGHOST, PGOPTIONS, ...) must not redirect this script's own
# psql and pg_ctl calls.
while read -r name; do unset "$name"; done < <(compgen -e | grep '^PG' || true)

bindir=$(pg_config --bindir 2>/dev/null) || bindir=
if [ ! -x "$bindir/initdb" ]; then
    bindir=$(ls -d /usr/lib/postgresql/*/bin 2>/dev/null | sort -V | tail -n 1)
fi
[ -x "$bindir/initdb" ] || fail "no PostgreSQL server binaries (initdb) found: install Debian's 'postgresql' package"

as_owner() {
    if [ "$(id -u)" -eq 0 ]; then runuser -u postgres -- "$@"; else "$@"; fi
}

marker_name=.cart-postgres-cluster
if [ "$command" != start ]; then
    [ -d "$dir" ] || { [ "$command" = stop ] && exit 0; fail "no cluster in '$dir'"; }
fi
mkdir -p "$dir"
dir=$(cd "$dir" && pwd -P)
data=$dir/data
conf=$data/cart-cluster.conf
log=$dir/postgres.log
marker=$dir/$marker_name
# A Unix socket path holds at most 107 bytes.
[ $((${#dir} + 15)) -le 107 ] || fail "'$dir' is too long for a Unix socket path (at most 92 characters)"

# Prints $1 percent-encoded, as the host of a libpq URI.
url_encode() {
    local LC_ALL=C text=$1 out= char i
    for ((i = 0; i < ${#text}; i++)); do
        char=${text:i:1}
        case "$char" in
        [A-Za-z0-9._~-]) out+=$char ;;
        *) out+=$(printf '%%%02X' "'$char") ;;
        esac
    done
    printf '%s' "$out"
}

print_env() {
    local socket_port tcp_port
    socket_port=$(sed -n "s/^port = //p" "$conf")
    tcp_port=$(sed -n "s/^# tcp port //p" "$conf")
    local host
    host=$(url_encode "$dir")
    printf 'export CART_TEST_POSTGRES_URL=%q\n' "postgresql://cart_test@$host:$socket_port/cart_test"
    printf 'export CART_TEST_POSTGRES_PASSWORD_URL=%q\n' "postgresql://cart_password:cart-password@$host:$socket_port/cart_test"
    if [ -n "$tcp_port" ]; then
        printf 'export CART_TEST_POSTGRES_TCP_URL=%q\n' "postgresql://cart_test:cart_test@$(sed -n "s/^# tcp address //p" "$conf"):$tcp_port/cart_test"
    fi
    printf 'export CART_TEST_POSTGRES_DIR=%q\n' "$dir"
}

# Whether the server of this cluster is running: pg_ctl's view, with a postmaster.pid whose
# process is not a postgres server (a PID reused after a crash) counted as not running.
is_running() {
    [ -f "$data/PG_VERSION" ] || return 1
    as_owner "$bindir/pg_ctl" -D "$data" status >/dev/null 2>&1 || return 1
    local pid
    pid=$(head -n 1 "$data/postmaster.pid" 2>/dev/null) || return 1
    [ "$(readlink "/proc/$pid/exe" 2>/dev/null)" = "$(readlink -f "$bindir/postgres")" ]
}

# Runs "$@" with no file descriptor above 2: the server it may start lives on, and must not
# keep a pipe or socket of whoever ran this script open (a test harness waiting for this
# script's output, a CI log pipe).
without_inherited_files() {
    (
        for fd in /proc/$BASHPID/fd/*; do
            fd=${fd##*/}
            if [ "$fd" -gt 2 ] 2>/dev/null; then eval "exec $fd>&-" 2>/dev/null || true; fi
        done
        "$@"
    )
}

remove_stale_locks() {
    rm -f "$data/postmaster.pid" "$dir"/.s.PGSQL.*.lock
}

stop_server() {
    if is_running; then
        as_owner "$bindir/pg_ctl" -D "$data" -w -t 60 -m fast stop >/dev/null || fail "could not stop the server in '$dir' (see $log)"
        echo "postgres-cluster: stopped the server in $dir" >&2
    fi
}

case "$command" in
env)
    [ -f "$conf" ] || fail "no cluster in '$dir' (run 'start' first)"
    is_running || echo "postgres-cluster: note: the server in $dir is not running" >&2
    print_env
    exit 0
    ;;
stop)
    if [ -f "$data/PG_VERSION" ]; then stop_server; fi
    if $remove; then
        [ -f "$marker" ] || fail "'$dir' was not made by this script; not removing it"
        rm -rf "$dir"
    fi
    exit 0
    ;;
esac

if [ "$(id -u)" -eq 0 ]; then
    id postgres >/dev/null 2>&1 || fail "no 'postgres' user: install Debian's 'postgresql' package"
    chown -R postgres:postgres "$dir"
    runuser -u postgres -- test -x "$dir" ||
        fail "the postgres user cannot reach '$dir' (a parent directory is not searchable); use a directory under /tmp"
fi
touch "$marker"
[ "$(id -u)" -ne 0 ] || chown postgres:postgres "$marker"

if [ ! -f "$data/PG_VERSION" ]; then
    # initdb into a fresh folder each time: an interrupted one leaves no half cluster behind.
    rm -rf "$data" "$data.initdb"
    as_owner "$bindir/initdb" -D "$data.initdb" -U postgres -A trust -E UTF8 --locale=C --no-sync \
        --no-instructions >"$dir/initdb.log" 2>&1 || {
        cat "$dir/initdb.log" >&2
        fail "initdb failed"
    }
    mv "$data.initdb" "$data"
    echo "include_if_exists = 'cart-cluster.conf'" | as_owner tee -a "$data/postgresql.conf" >/dev/null
fi
# pg_hba.conf is read top down: the first matching line decides. `samenet` is any address on
# a subnet one of the server's own addresses is on (the other ends of --listen's links).
as_owner tee "$data/pg_hba.conf" >/dev/null <<'EOF'
# TYPE  DATABASE  USER           ADDRESS       METHOD
local   all       cart_password                scram-sha-256
local   all       all                          trust
host    all       all            127.0.0.1/32  scram-sha-256
host    all       all            ::1/128       scram-sha-256
host    all       all            samenet       scram-sha-256
EOF

settings=$(
    if $tcp; then
        echo "# tcp port $port"
        echo "# tcp address ${listen%%,*}"
        echo "listen_addresses = '$listen'"
    else
        echo "listen_addresses = ''"
    fi
    echo "port = $port"
    echo "unix_socket_directories = '$dir'"
    echo "fsync = $fsync"
    if [ "$fsync" = off ]; then echo "full_page_writes = off"; else echo "full_page_writes = on"; fi
)

if is_running; then
    if [ "$(cat "$conf" 2>/dev/null)" = "$settings" ]; then
        print_env
        exit 0
    fi
    stop_server
fi
remove_stale_locks
printf '%s\n' "$settings" | as_owner tee "$conf" >/dev/null
if ! without_inherited_files as_owner "$bindir/pg_ctl" -D "$data" -w -t 60 -l "$log" start >/dev/null; then
    tail -n 20 "$log" >&2 || true
    fail "the server in '$dir' did not start (log: $log)"
fi

as_owner "$bindir/psql" -X -q -v ON_ERROR_STOP=1 -h "$dir" -p "$port" -U postgres -d postgres >/dev/null <<'EOF' ||
DO $$
BEGIN
    IF NOT EXISTS (SELECT FROM pg_roles WHERE rolname = 'cart_test') THEN
        CREATE ROLE cart_test LOGIN CREATEDB PASSWORD 'cart_test';
    END IF;
    IF NOT EXISTS (SELECT FROM pg_roles WHERE rolname = 'cart_password') THEN
        CREATE ROLE cart_password LOGIN PASSWORD 'cart-password';
    END IF;
END
$$;
SELECT 'CREATE DATABASE cart_test OWNER cart_test'
WHERE NOT EXISTS (SELECT FROM pg_database WHERE datname = 'cart_test') \gexec
EOF
    fail "could not create the test roles and database in '$dir'"
echo "postgres-cluster: running in $dir (port $port$($tcp && echo ", TCP $listen:$port"), fsync $fsync)" >&2
print_env

# Sourced by the HTTP scripts: starting a server that prints "Listening on http://HOST:PORT".

# start_server NAME COMMAND... : runs COMMAND in the background with its output in
# $work/NAME.stdout and $work/NAME.err, waits up to 30 s for its "Listening on" line, and sets
# $url and $pid (also added to the array $servers, for a trap to stop).
start_server() {
    local name=$1
    shift
    "$@" >"$work/$name.stdout" 2>"$work/$name.err" &
    pid=$!
    servers+=("$pid")
    for _ in $(seq 300); do
        grep -q '^Listening on ' "$work/$name.stdout" 2>/dev/null && break
        sleep 0.1
    done
    url=$(sed -n 's/^Listening on //p' "$work/$name.stdout")
    if [[ -z $url ]]; then
        cat "$work/$name.err" >&2
        return 1
    fi
}

# stop_server PID : stops one server started with start_server and waits for it.
stop_server() {
    kill "$1" 2>/dev/null || true
    wait "$1" 2>/dev/null || true
}

# stop_servers : stops every server started with start_server (for an EXIT trap).
stop_servers() {
    for server in "${servers[@]}"; do stop_server "$server"; done
}

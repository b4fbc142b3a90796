# Shared by the deployment checks (sourced, not run).

# A TCP port nothing listens on right now.
free_port() { python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])'; }

# Waits up to $2 seconds for $1 to answer with a success status.
wait_for_url() {
    local deadline=$((SECONDS + $2))
    until curl -fsS -o /dev/null "$1" 2>/dev/null; do
        ((SECONDS < deadline)) || return 1
        sleep 0.3
    done
}

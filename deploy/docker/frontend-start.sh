#!/bin/sh
# Starts nginx believing the client's address (X-Forwarded-For) from one peer only: the
# proxies TRUSTED_PROXIES lists (addresses, CIDR ranges or host names, separated by
# commas or spaces; on Kubernetes the ingress controller's range), or, without it, this
# container's gateway, which is where a proxy on the host and Docker's forwarding of the
# published port reach it from. Any other peer is taken for the client itself.
set -eu
conf=/tmp/trusted-proxies.conf
: >"$conf"
if [ -n "${TRUSTED_PROXIES:-}" ]; then
    for entry in $(echo "$TRUSTED_PROXIES" | tr ',' ' '); do
        echo "set_real_ip_from $entry;" >>"$conf"
    done
else
    # The default route's gateway in /proc/net/route: hex, least significant byte first.
    hex="$(awk '$2 == "00000000" { print $3; exit }' /proc/net/route)"
    if [ -n "$hex" ]; then
        byte() { printf '%d' "0x$(echo "$hex" | cut -c"$1")"; }
        echo "set_real_ip_from $(byte 7-8).$(byte 5-6).$(byte 3-4).$(byte 1-2);" >>"$conf"
    fi
fi
exec nginx -g 'daemon off;'

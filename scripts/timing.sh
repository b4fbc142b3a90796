# Per-step wall times: `step NAME` ends the step before it and starts NAME; the times go
# to the file named by SANDPIPER_TIMINGS (when set), so CI can print one table for the
# steps of every script it runs. Sourced; the caller defines `log`.

step_name=""
step_started=0
step() {
    step_end
    step_name="$1"
    step_started=$SECONDS
    log "$1"
}
step_end() {
    if [[ -n "$step_name" && -n "${SANDPIPER_TIMINGS:-}" ]]; then
        printf '%s\t%d\n' "$step_name" $((SECONDS - step_started)) >>"$SANDPIPER_TIMINGS"
    fi
    step_name=""
}

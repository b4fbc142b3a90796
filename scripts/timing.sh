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
    [[ -z "$step_name" ]] || record_time "$step_name" $((SECONDS - step_started))
    step_name=""
}
# One line of the table: a name and its seconds (also for work timed some other way).
record_time() {
    if [[ -n "${SANDPIPER_TIMINGS:-}" ]]; then
        printf '%s\t%d\n' "$1" "$2" >>"$SANDPIPER_TIMINGS"
    fi
}

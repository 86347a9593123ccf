#!/usr/bin/env bash
# make fuzz: builds the libFuzzer target (fuzz/TrellisFuzz) with -sanitize=fuzzer,address in its
# own scratch path, then fuzzes each feature endpoint (and font-bytes: arbitrary bytes as a font file,
# read and shaped as a stored font is) in turn for FUZZ_SECONDS, starting from the committed seeds in
# fuzz/corpus/<endpoint>/ plus whatever earlier runs found.
#
# Inputs that take longer than FUZZ_TIMEOUT seconds (a hang) or push the process past
# FUZZ_RSS_MB (a memory blowup) count as findings, like crashes and contract violations.
# Findings land in .build/fuzz-work/findings/<endpoint>/ (crash-*, timeout-*, oom-*), full
# logs in .build/fuzz-work/logs/. Exits non-zero when any endpoint had a finding.
#
# FUZZ_KEEP_GOING=1 runs each endpoint for its whole time (libFuzzer's fork mode, ignoring findings
# after saving them) instead of stopping at the first, for a campaign that is triaged afterwards:
# every finding is replayed by the release build's replayer (no AddressSanitizer) with the cost check at
# TRIAGE_COST_MULTIPLE (default 3, the service's target), and only what fails there counts.
#
# Reproduce a finding without libFuzzer: swift build --product TrellisFuzz &&
#   .build/debug/TrellisFuzz <endpoint> <file>
set -euo pipefail
cd "$(dirname "$0")/.."

SECONDS_PER_ENDPOINT=${FUZZ_SECONDS:-300}
TIMEOUT=${FUZZ_TIMEOUT:-10}
RSS_MB=${FUZZ_RSS_MB:-2048}
MAX_LEN=${FUZZ_MAX_LEN:-16384}
# Every endpoint with seeds (scripts/fuzz-seeds.py writes a folder for each path with samples).
ENDPOINTS=${FUZZ_ENDPOINTS:-$(cd fuzz/corpus && ls)}
SWIFT=${SWIFT:-swift}
WORK=.build/fuzz-work

# The C shims (HarfBuzz's, among them the font readers the font-bytes target reaches) are instrumented too.
"$SWIFT" build -c release --scratch-path .build/fuzz --product TrellisFuzz \
    -Xswiftc -sanitize=fuzzer,address -Xswiftc -DTRELLIS_LIBFUZZER \
    -Xcc -fsanitize=fuzzer-no-link,address -Xcxx -fsanitize=fuzzer-no-link,address -Xswiftc -use-ld=lld
binary=$("$SWIFT" build -c release --scratch-path .build/fuzz --show-bin-path)/TrellisFuzz
replayer=""
if [ "${FUZZ_KEEP_GOING:-0}" = 1 ]; then
    "$SWIFT" build -c release --product TrellisFuzz
    replayer=$("$SWIFT" build -c release --show-bin-path)/TrellisFuzz
fi

failed=()
summary=()
for endpoint in $ENDPOINTS; do
    seeds=fuzz/corpus/$endpoint
    [ -d "$seeds" ] || { echo "no seed corpus at $seeds" >&2; exit 2; }
    mkdir -p "$WORK/corpus/$endpoint" "$WORK/findings/$endpoint" "$WORK/logs"
    log=$WORK/logs/$endpoint.log
    echo "== $endpoint: fuzzing for ${SECONDS_PER_ENDPOINT}s (log: $log)"
    status=0
    keep_going=()
    [ "${FUZZ_KEEP_GOING:-0}" = 1 ] && keep_going=(-fork=1 -ignore_crashes=1 -ignore_ooms=1 -ignore_timeouts=1)
    # No Swift backtracer: after a finding aborts, its memory reads would be reported by AddressSanitizer
    # as a second, misleading error ("unknown-crash" in CrashHandlerLinux.cpp) in place of the finding's own message.
    SWIFT_BACKTRACE=enable=no TRELLIS_FUZZ_ENDPOINT=$endpoint "$binary" "${keep_going[@]}" \
        -max_total_time="$SECONDS_PER_ENDPOINT" -timeout="$TIMEOUT" -rss_limit_mb="$RSS_MB" \
        -max_len="$MAX_LEN" -dict=fuzz/trellis.dict -print_final_stats=1 \
        -artifact_prefix="$WORK/findings/$endpoint/" \
        "$WORK/corpus/$endpoint" "$seeds" >"$log" 2>&1 || status=$?
    runs=$(sed -n 's/^stat::number_of_executed_units: *//p' "$log" | tail -1)
    [ -n "$runs" ] || runs=$(grep -oE '^#[0-9]+' "$log" | tail -1 | tr -d '#' || true)
    if [ "${FUZZ_KEEP_GOING:-0}" = 1 ]; then
        # Triage: what the release replayer still finds is a finding; the rest was AddressSanitizer's slowdown.
        status=0
        found=$(find "$WORK/findings/$endpoint" -type f | wc -l)
        real=0
        for file in "$WORK/findings/$endpoint"/*; do
            [ -f "$file" ] || continue
            if ! TRELLIS_FUZZ_COST_MULTIPLE=${TRIAGE_COST_MULTIPLE:-3} "$replayer" "$endpoint" "$file" >>"$log.triage" 2>&1; then
                real=$((real + 1)); status=1; echo "finding: $file" >>"$log.triage"
            fi
        done
        [ "$found" -eq 0 ] || echo "$endpoint: $found saved, $real confirmed by the release replayer (see $log.triage)"
    fi
    last=$(grep -E '^#[0-9]+\s+(DONE|pulse|NEW|REDUCE)' "$log" | tail -1 | sed -E 's/^#[0-9]+\s+\S+\s+//' || true)
    if [ "$status" -ne 0 ]; then
        failed+=("$endpoint")
        summary+=("$endpoint: FINDING after ${runs:-?} runs: $(grep -m1 -E '^==[0-9]+==ERROR|^TrellisFuzz:|Fatal error|ALARM|out-of-memory' "$log" || echo "exit $status")")
        grep -E 'Test unit written to|^==[0-9]+==ERROR|^TrellisFuzz:|Fatal error' "$log" | head -5 || true
    else
        summary+=("$endpoint: ${runs:-?} runs, no findings; $last")
    fi
done

echo "== fuzz summary (${SECONDS_PER_ENDPOINT}s per endpoint)"
printf '%s\n' "${summary[@]}"
if [ ${#failed[@]} -gt 0 ]; then
    echo "findings in: ${failed[*]} (inputs under $WORK/findings/)" >&2
    exit 1
fi

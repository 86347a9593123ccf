#!/usr/bin/env bash
# make contract-test: schemathesis against the release server, every operation in openapi.yaml,
# every check, a bounded and seeded number of examples. Exits non-zero on any failure.
#
#   scripts/contract-test.sh [extra schemathesis options]
#
# Environment: TRELLIS_BIN (default .build/release/trellis), CONTRACT_EXAMPLES (at most that many
# generated examples per operation, default 100), CONTRACT_SEED (default 7), CONTRACT_WORKERS
# (default 2). The JUnit report, the server's output and Hypothesis's caches are left in
# .build/contract-test/.
set -euo pipefail

cd "$(dirname "$0")/.."
BIN=${TRELLIS_BIN:-.build/release/trellis}
EXAMPLES=${CONTRACT_EXAMPLES:-100}
SEED=${CONTRACT_SEED:-7}
WORKERS=${CONTRACT_WORKERS:-2}
REPORT_DIR=.build/contract-test

[[ -x "$BIN" ]] || { echo "contract-test: $BIN is missing; run swift build -c release" >&2; exit 1; }
SCHEMATHESIS=(python3 -m schemathesis.cli)
"${SCHEMATHESIS[@]}" --version >/dev/null 2>&1 || { echo "contract-test: schemathesis is not installed (make contract-test installs it)" >&2; exit 1; }

mkdir -p "$REPORT_DIR"
# Hypothesis (under schemathesis) keeps its caches there too, not in .hypothesis/ of the work tree.
export HYPOTHESIS_STORAGE_DIRECTORY="$REPORT_DIR/hypothesis"
# Port 0: the kernel picks a free loopback port, which the server prints once it listens.
SERVER_LOG="$REPORT_DIR/server.log"
"$BIN" --host 127.0.0.1 --port 0 --log off >"$SERVER_LOG" 2>&1 &
SERVER=$!
stop_server() {
    if kill -0 "$SERVER" 2>/dev/null; then
        kill -TERM "$SERVER" 2>/dev/null || true
        wait "$SERVER" 2>/dev/null || true
    fi
}
trap stop_server EXIT

PORT=
for _ in $(seq 1 100); do
    PORT=$(sed -n 's/^trellis: listening on 127\.0\.0\.1:\([0-9]*\).*/\1/p' "$SERVER_LOG")
    [[ -n "$PORT" ]] && break
    kill -0 "$SERVER" 2>/dev/null || { echo "contract-test: the server exited:" >&2; cat "$SERVER_LOG" >&2; exit 1; }
    sleep 0.1
done
[[ -n "$PORT" ]] && "$BIN" healthcheck --host 127.0.0.1 --port "$PORT" ||
    { echo "contract-test: the server did not start:" >&2; cat "$SERVER_LOG" >&2; exit 1; }

# A list the server keeps, which the hooks give the positive examples that name one (POST /v1/list/layout's `list`).
CONTRACT_LIST_ID=$(python3 - "$PORT" <<'PY'
import http.client, json, sys
body = {"font": {"family": "DejaVu Sans", "size": 16}, "width": 300, "keep": True,
        "rows": [{"key": "a", "texts": ["A kept list"]}, {"key": 2, "texts": ["of two rows"]}]}
connection = http.client.HTTPConnection("127.0.0.1", int(sys.argv[1]), timeout=30)
connection.request("POST", "/v1/list/layout", json.dumps(body), {"Content-Type": "application/json"})
print(json.load(connection.getresponse())["list"])
PY
)
export CONTRACT_LIST_ID

echo "contract-test: schemathesis $("${SCHEMATHESIS[@]}" --version | awk '{print $NF}') against 127.0.0.1:$PORT," \
    "at most $EXAMPLES generated examples per operation, seed $SEED"
# The hooks make positive examples keep the rules openapi.yaml states in prose but JSON Schema
# cannot (ids that must name a node or section, unique ids, the drawer's physical limits); see
# scripts/contract_hooks.py. Negative examples are sent as generated.
status=0
PYTHONPATH="scripts${PYTHONPATH:+:$PYTHONPATH}" SCHEMATHESIS_HOOKS=contract_hooks \
    "${SCHEMATHESIS[@]}" --config-file scripts/schemathesis.toml run openapi.yaml \
    --url "http://127.0.0.1:$PORT" \
    --checks all \
    --max-examples "$EXAMPLES" \
    --seed "$SEED" \
    --workers "$WORKERS" \
    --request-timeout 30 \
    --generation-database none \
    --suppress-health-check too_slow \
    --report junit --report-dir "$REPORT_DIR" \
    --output-sanitize false \
    --no-color \
    "$@" || status=$?

# The server must have survived every request.
if ! "$BIN" healthcheck --host 127.0.0.1 --port "$PORT"; then
    echo "contract-test: the server stopped answering /healthz" >&2
    status=1
fi
exit "$status"

#!/usr/bin/env bash
# `make test-examples`, the Python part: the reference client's
# fixed_interval.py, written from Docs/ExternalPolicyProtocol.md alone, must
# give exactly the bytes of the built-in `fixed-interval` (runs.csv,
# summary.csv, events.csv, apps.csv), and `validate` must start a decision
# process once and refuse a missing script. Well under a minute after the build.
set -euo pipefail
cd "$(dirname "$0")/../.."
SWIFT=${SWIFT:-swift}
$SWIFT build --product bgbench
bgbench=$($SWIFT build --show-bin-path)/bgbench
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT
fail() { echo "FAIL: $*"; exit 1; }
$bgbench validate Examples/python/specs/fixed-interval-python.json > /dev/null
$bgbench run Examples/python/specs/fixed-interval-builtin.json --out "$out/builtin" --events --apps --threads 2 --quiet
$bgbench run Examples/python/specs/fixed-interval-python.json --out "$out/python" --events --apps --threads 2 --quiet
for f in runs.csv summary.csv events.csv apps.csv; do
    cmp -s "$out/builtin/$f" "$out/python/$f" || fail "fixed_interval.py differs from the built-in fixed-interval in $f"
done
rows=$(($(wc -l < "$out/python/runs.csv") - 1))
[ "$rows" -eq 12 ] || fail "expected 12 runs (2 intervals x 6 users), got $rows"
# A missing script is an input error at validate, naming the command's JSON path.
sed 's|Examples/python/fixed_interval.py|Examples/python/no_such_policy.py|' Examples/python/specs/fixed-interval-python.json > "$out/missing.json"
set +e
message=$($bgbench validate "$out/missing.json" 2>&1)
status=$?
set -e
[ "$status" -eq 65 ] || fail "validate with a missing script exited $status, expected 65"
case "$message" in *'$.policies[0].params.command'*) ;; *) fail "validate's error does not name \$.policies[0].params.command: $message" ;; esac
echo "test-examples: Python fixed_interval.py byte-identical to the built-in (runs, summary, events, apps); missing script refused by validate (65)"

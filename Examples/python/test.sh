#!/usr/bin/env bash
# `make test-examples`, the Python part: the reference client's
# fixed_interval.py, written from Docs/ExternalPolicyProtocol.md alone, and
# greedy.py must give exactly the bytes of the built-in `fixed-interval` and
# `greedy` (runs.csv, summary.csv, events.csv, apps.csv) in each of their
# modes: standing rules (their default), plan mode without rules (--plans)
# and asked at every decision point (--decide); and `validate` must
# start a decision process once and refuse a missing script. Well under a
# minute after the build.
set -euo pipefail
cd "$(dirname "$0")/../.."
SWIFT=${SWIFT:-swift}
$SWIFT build --product bgbench
bgbench=$($SWIFT build --show-bin-path)/bgbench
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT
fail() { echo "FAIL: $*"; exit 1; }
$bgbench validate Examples/python/specs/fixed-interval-python.json > /dev/null
# The same spec with the process's flag for another mode (--decide: a
# round trip per decision point, so a generous timeout for a loaded machine).
flagged() { sed "s|\\.py\"\\]|.py\", \"--$3\"], \"timeout\": \"120s\"|" "$1" > "$2"; }
for policy in fixed-interval greedy; do
    for mode in plans decide; do
        flagged Examples/python/specs/$policy-python.json "$out/$policy-$mode.json" $mode
        grep -q -- "--$mode" "$out/$policy-$mode.json" || fail "could not add --$mode to $policy-python.json"
    done
done
for policy in fixed-interval greedy; do
    $bgbench run Examples/python/specs/$policy-builtin.json --out "$out/$policy-builtin" --events --apps --threads 2 --quiet
    for mode in rules plans decide; do
        spec=Examples/python/specs/$policy-python.json
        [ "$mode" = rules ] || spec="$out/$policy-$mode.json"
        $bgbench run "$spec" --out "$out/$policy-$mode" --events --apps --threads 2 --quiet
        for f in runs.csv summary.csv events.csv apps.csv; do
            cmp -s "$out/$policy-builtin/$f" "$out/$policy-$mode/$f" \
                || fail "${policy//-/_}.py ($mode mode) differs from the built-in $policy in $f"
        done
    done
done
rows=$(($(wc -l < "$out/fixed-interval-rules/runs.csv") - 1))
[ "$rows" -eq 12 ] || fail "expected 12 runs (2 intervals x 6 users), got $rows"
# A missing script is an input error at validate, naming the command's JSON path.
sed 's|Examples/python/fixed_interval.py|Examples/python/no_such_policy.py|' Examples/python/specs/fixed-interval-python.json > "$out/missing.json"
set +e
message=$($bgbench validate "$out/missing.json" 2>&1)
status=$?
set -e
[ "$status" -eq 65 ] || fail "validate with a missing script exited $status, expected 65"
case "$message" in *'$.policies[0].params.command'*) ;; *) fail "validate's error does not name \$.policies[0].params.command: $message" ;; esac
echo "test-examples: Python fixed_interval.py and greedy.py byte-identical to the built-ins (runs, summary, events, apps) with standing rules, in plan mode and per decision; missing script refused by validate (65)"

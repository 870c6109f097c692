#!/usr/bin/env bash
# `make test-examples`: builds this package from scratch (its own .build,
# which builds BGBench too), runs its tests, validates and runs its spec
# through its own executable, and checks the result names the custom
# policy, its parameter grid and the executable that made it.
set -euo pipefail
cd "$(dirname "$0")"
SWIFT=${SWIFT:-swift}
rm -rf .build
$SWIFT build --build-tests
$SWIFT test --skip-build
exe=.build/debug/custom-bgbench
out=.build/compare
$exe policies | grep -q '^wifi-or-charging — ' || { echo "FAIL: 'policies' does not list wifi-or-charging"; exit 1; }
$exe validate specs/compare.json
$exe run specs/compare.json --out "$out" --threads 2 --quiet
fail() { echo "FAIL: $*"; exit 1; }
for label in "wifi-or-charging maxHold=1h" "wifi-or-charging maxHold=3h" "wifi-or-charging maxHold=8h" "coalescing(wifi-or-charging)"; do
    grep -q "^$label," "$out/runs.csv" || fail "runs.csv has no rows for '$label'"
    grep -q "| \`$label\` |" "$out/report.md" || fail "report.md has no row for '$label'"
done
grep -q "Reproduce: \`$exe run specs/compare.json\`" "$out/report.md" || fail "report.md's Reproduce line does not name $exe"
grep -q "\"executable\": \"$exe\"" "$out/manifest.json" || fail "manifest.json does not name $exe"
grep -q '"wifi-or-charging"' "$out/manifest.json" || fail "manifest.json's registry does not list wifi-or-charging"
# Sharded and merged through the same executable: the unsharded bytes.
for i in 0 1; do $exe run specs/compare.json --out "$out-shard$i" --shard $i/2 --threads 1 --quiet; done
$exe merge --out "$out-merged" "$out-shard0" "$out-shard1" > /dev/null
for f in runs.csv summary.csv report.md; do
    cmp -s "$out/$f" "$out-merged/$f" || fail "merge of the shards differs from the whole run in $f"
done
# The report re-renders to the same bytes with the same executable.
cp "$out/report.md" "$out/report.before"
$exe report "$out" > /dev/null
cmp -s "$out/report.md" "$out/report.before" || fail "bgbench report changed report.md"
echo "test-examples: CustomPolicy OK (tests, policies, validate, run with a grid, shards merged, report names the policy and $exe)"

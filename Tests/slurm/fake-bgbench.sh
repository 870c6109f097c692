#!/usr/bin/env bash
# A stand-in for `bgbench run/merge` with the same command-line contract, used to
# test the Slurm scripts' mechanics without building the Swift binary:
#
#   fake-bgbench.sh run SPEC --out DIR [--shard i/n] [--threads N] [--quiet]
#   fake-bgbench.sh merge --out DIR SHARD_DIR...
#
# The "sweep" is a fixed list of RUNS rows derived from the spec file's bytes and
# seed. Shard i/n computes rows i, i+n, i+2n, ...; merge sorts the union. The
# per-run rows, summary.csv and comparison.csv of a merge are byte-identical to
# an unsharded run. A complete shard directory holds shard.json (written last,
# atomically); a re-run of a complete shard with the same spec/seed/version/i/n
# prints "skipped" and exits 0. Merge refuses incomplete or inconsistent sets.
set -euo pipefail

VERSION="fake-1"
RUNS=${FAKE_BGBENCH_RUNS:-24}
SLEEP=${FAKE_BGBENCH_SLEEP:-0.3}   # seconds of "work" per shard

die() { echo "fake-bgbench: error: $*" >&2; exit 1; }

# field NAME FILE: the value of a flat "NAME": value in a one-line JSON object
field() { sed -n "s/.*\"$1\": *\"\{0,1\}\([^\",}]*\)\"\{0,1\}.*/\1/p" "$2"; }

spec_id() { sha256sum "$1" | cut -c1-16; }
spec_seed() { sed -n 's/.*"seed": *\([0-9][0-9]*\).*/\1/p' "$1" | head -n1; }

# rows SPECID SEED I N: the rows of shard i/n, one "run,policy,value" per line
rows() {
    local k
    for ((k = $3; k < RUNS; k += $4)); do
        printf '%04d,policy-%d,%s\n' "$k" $((k % 3)) \
            "$(printf '%s-%s-%d' "$1" "$2" "$k" | sha256sum | cut -c1-8)"
    done
}

# finish DIR ROWSFILE: write runs/summary/comparison CSVs from the sorted rows
finish() {
    local dir=$1 rowsfile=$2
    { echo "run,policy,value"; sort "$rowsfile"; } > "$dir/runs.csv"
    { echo "policy,runs"; sort "$rowsfile" | cut -d, -f2 | sort | uniq -c |
        awk '{print $2 "," $1}'; } > "$dir/summary.csv"
    { echo "policy,share"; tail -n +2 "$dir/summary.csv" |
        awk -F, -v t="$(wc -l < "$rowsfile")" '{printf "%s,%.4f\n", $1, $2 / t}'; } \
        > "$dir/comparison.csv"
    printf '{"wall_seconds": %s, "threads": %s}\n' "$SECONDS" "${THREADS:-1}" > "$dir/manifest.json"
}

cmd_run() {
    local spec="" out="" shard="" quiet=0
    spec=${1:?usage: run SPEC --out DIR [--shard i/n]}; shift
    while (($#)); do
        case $1 in
            --out) out=$2; shift 2 ;;
            --shard) shard=$2; shift 2 ;;
            --threads) THREADS=$2; shift 2 ;;
            --quiet) quiet=1; shift ;;
            *) die "run: unknown option $1" ;;
        esac
    done
    [[ -f $spec ]] || die "spec not found: $spec"
    [[ -n $out ]] || die "run: --out DIR is required"
    local id seed
    id=$(spec_id "$spec"); seed=$(spec_seed "$spec"); seed=${seed:-0}
    mkdir -p "$out"
    if [[ -z $shard ]]; then
        sleep "$SLEEP"
        rows "$id" "$seed" 0 1 > "$out/rows.tmp"
        finish "$out" "$out/rows.tmp"; rm -f "$out/rows.tmp"
        ((quiet)) || echo "fake-bgbench: wrote $out"
        return
    fi
    [[ $shard =~ ^([0-9]+)/([0-9]+)$ ]] || die "--shard must be i/n, got '$shard'"
    local i=${BASH_REMATCH[1]} n=${BASH_REMATCH[2]}
    ((n >= 1 && i < n)) || die "--shard $shard: need 0 <= i < n"
    local marker="$out/shard.json"
    local want="{\"spec\": \"$id\", \"seed\": $seed, \"version\": \"$VERSION\", \"shard\": $i, \"count\": $n}"
    if [[ -f $marker ]]; then
        if [[ $(cat "$marker") == "$want" ]]; then
            echo "fake-bgbench: shard $i/$n already complete in $out, skipped"
            return
        fi
        die "$out holds a different shard ($(cat "$marker")); use another --out"
    fi
    sleep "$SLEEP"
    rows "$id" "$seed" "$i" "$n" > "$out/rows.csv"
    echo "$want" > "$marker.tmp" && mv "$marker.tmp" "$marker"
    ((quiet)) || echo "fake-bgbench: shard $i/$n written to $out"
}

cmd_merge() {
    local out=""
    while (($#)); do
        case $1 in
            --out) out=$2; shift 2 ;;
            -*) die "merge: unknown option $1" ;;
            *) break ;;
        esac
    done
    [[ -n $out ]] || die "merge: --out DIR is required"
    (($#)) || die "merge: no shard directories given"
    local d first="" n="" seen="" missing=()
    for d in "$@"; do
        [[ -f $d/shard.json ]] || { missing+=("$d"); continue; }
        local m; m=$(cat "$d/shard.json")
        local key="$(field spec "$d/shard.json")/$(field seed "$d/shard.json")/$(field version "$d/shard.json")"
        if [[ -z $first ]]; then first=$key; n=$(field count "$d/shard.json"); fi
        [[ $key == "$first" && $(field count "$d/shard.json") == "$n" ]] ||
            die "inconsistent shards: $d is $m, but the first shard is spec/seed/version $first of $n"
        seen+=" $(field shard "$d/shard.json")"
    done
    ((${#missing[@]} == 0)) || die "incomplete set: no completion marker (shard.json) in: ${missing[*]}"
    local i
    for ((i = 0; i < n; i++)); do
        [[ " $seen " == *" $i "* ]] || die "incomplete set: shard $i/$n missing (have:$seen)"
    done
    (($# == n)) || die "inconsistent set: $# directories for $n shards (have:$seen)"
    mkdir -p "$out"
    for d in "$@"; do cat "$d/rows.csv"; done > "$out/rows.tmp"
    finish "$out" "$out/rows.tmp"; rm -f "$out/rows.tmp"
    echo "fake-bgbench: merged $n shards into $out"
}

case ${1:-} in
    run) shift; cmd_run "$@" ;;
    merge) shift; cmd_merge "$@" ;;
    *) die "usage: $0 run SPEC --out DIR [--shard i/n] | merge --out DIR SHARD_DIR..." ;;
esac

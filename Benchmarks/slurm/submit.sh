#!/usr/bin/env bash
# Submit a BGBench sweep to Slurm: a job array with one task per shard
# (sweep.sbatch) and a merge job (merge.sbatch) that runs after every task
# succeeded (--dependency=afterok). Prints the job ids.
#
#   Benchmarks/slurm/submit.sh [--only-missing] SPEC OUT SHARDS [SBATCH_OPTION...]
#
#   SPEC    sweep spec (JSON), readable from the compute nodes
#   OUT     output root on shared storage: OUT/shard-i per shard, OUT/merged for
#           the merged result, OUT/logs for the job logs
#   SHARDS  number of shards n = array size (tasks 0..n-1)
#   SBATCH_OPTION...  passed to both sbatch calls (e.g. --partition=short
#           --time=02:00:00 --account=proj); sbatch's SBATCH_* environment
#           variables work too
#   --only-missing  submit only the shards whose directory lacks the completion
#           marker shard.json (what resubmit.sh does), then the merge job
#
# Environment:
#   BGBENCH       the bgbench binary; default: this checkout's
#                 .build/release/bgbench if built, else bgbench on PATH
#   THREADS       threads per shard (default: the task's --cpus-per-task)
#   MAX_PARALLEL  run at most this many shard tasks at once (--array=...%N)
#
# Output (one line per job, also fit for scripts):
#   array_job=ID array=0-3 shards=4
#   merge_job=ID dependency=afterok:ID
set -euo pipefail

here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
repo=$(cd "$here/../.." && pwd)

only_missing=0
if [[ ${1:-} == --only-missing ]]; then only_missing=1; shift; fi
if (($# < 3)); then
    sed -n '2,/^set -euo/p' "${BASH_SOURCE[0]}" | sed '$d; s/^# \{0,1\}//' >&2
    exit 2
fi
SPEC=$1 OUT=$2 SHARDS=$3
shift 3
[[ $SHARDS =~ ^[1-9][0-9]*$ ]] || { echo "submit.sh: SHARDS must be a positive integer, got '$SHARDS'" >&2; exit 2; }
[[ -f $SPEC ]] || { echo "submit.sh: spec not found: $SPEC" >&2; exit 2; }

abspath() { case $1 in /*) echo "$1" ;; *) echo "$PWD/$1" ;; esac; }
SPEC=$(abspath "$SPEC")
mkdir -p "$OUT/logs"
OUT=$(cd "$OUT" && pwd)
if [[ -z ${BGBENCH:-} ]]; then
    if [[ -x $repo/.build/release/bgbench ]]; then BGBENCH=$repo/.build/release/bgbench
    else BGBENCH=bgbench; fi
elif [[ $BGBENCH == */* ]]; then
    BGBENCH=$(abspath "$BGBENCH")
fi

# ranges 0 1 2 5 7 8 -> 0-2,5,7-8
ranges() {
    local out="" start=-1 prev=-2 i
    for i in "$@" -1; do
        if ((i == prev + 1)); then prev=$i; continue; fi
        if ((start >= 0)); then
            if ((start == prev)); then out+=",$start"; else out+=",$start-$prev"; fi
        fi
        start=$i prev=$i
    done
    echo "${out#,}"
}

indices=()
for ((i = 0; i < SHARDS; i++)); do
    if ((only_missing)) && [[ -f $OUT/shard-$i/shard.json ]]; then continue; fi
    indices+=("$i")
done

export_vars="ALL,BGBENCH=$BGBENCH"
[[ -n ${THREADS:-} ]] && export_vars+=",THREADS=$THREADS"

dependency=()
unset array_job
if ((${#indices[@]} == 0)); then
    echo "all $SHARDS shards in $OUT are complete; submitting only the merge" >&2
else
    array=$(ranges "${indices[@]}")
    ((only_missing)) && echo "shards without a completion marker: $array (of 0-$((SHARDS - 1)))" >&2
    array_job=$(sbatch --parsable --array="$array${MAX_PARALLEL:+%$MAX_PARALLEL}" \
        --export="$export_vars" --output="$OUT/logs/shard-%a.job%A.out" "$@" \
        "$here/sweep.sbatch" "$SPEC" "$OUT" "$SHARDS")
    array_job=${array_job%%;*}
    echo "array_job=$array_job array=$array shards=$SHARDS"
    dependency=(--dependency="afterok:$array_job" --kill-on-invalid-dep=yes)
fi
merge_job=$(sbatch --parsable "${dependency[@]}" --export="$export_vars" \
    --output="$OUT/logs/merge.job%j.out" "$@" "$here/merge.sbatch" "$OUT" "$SHARDS")
merge_job=${merge_job%%;*}
echo "merge_job=$merge_job dependency=$( ((${#dependency[@]})) && echo "afterok:$array_job" || echo none)"
echo "logs: $OUT/logs; merged result: $OUT/merged" >&2

#!/usr/bin/env bash
# Re-run only the shards of a sweep that did not finish, then merge.
#
#   Benchmarks/slurm/resubmit.sh SPEC OUT SHARDS [SBATCH_OPTION...]
#
# Finds the shard directories OUT/shard-i (0 <= i < SHARDS) without the
# completion marker shard.json and submits the array with just those indices
# (--array=2,5-7), passing the full shard count, plus the merge job depending on
# it. Finished shards are not resubmitted (and bgbench would skip them anyway).
# Use the same SPEC and SHARDS as the first submission; bgbench merge refuses a
# set from a different spec, seed or version. Wait until the first submission
# has left the queue (squeue --me) before resubmitting. Same environment and
# output as submit.sh.
exec "$(dirname "${BASH_SOURCE[0]}")/submit.sh" --only-missing "$@"

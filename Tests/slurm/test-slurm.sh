#!/usr/bin/env bash
# `make test-slurm`: run the Slurm scripts in Benchmarks/slurm/ on a real,
# private, single-node Slurm cluster started on localhost for the test.
#
#   Tests/slurm/test-slurm.sh                       # real .build/release/bgbench
#   BGBENCH=Tests/slurm/fake-bgbench.sh Tests/slurm/test-slurm.sh
#
# Environment:
#   BGBENCH   binary under test (default .build/release/bgbench)
#   SPEC      sweep spec (default Benchmarks/suites/smoke.json; with the fake
#             binary and no such file, a small spec is generated)
#   SHARDS    array size (default 4)
#   TEST_SLURM_TIMEOUT  seconds for each bounded wait (default 120)
#   KEEP_TMP=1          keep the temporary directory (logs, outputs) afterwards
#
# Installs slurm-wlm and munge with apt-get if missing. Everything (munge key,
# slurm.conf, spool, state, logs, outputs) lives in one temporary directory.
# munged, slurmctld and slurmd are started directly (no systemd) on free ports
# and stopped by the PIDs this script started, also on failure.
#
# Phases:
#   1. unsharded reference run; SHARDS-task array + afterok merge through Slurm;
#      merged CSVs byte-identical to the reference
#   2. a shard fails (injected): merge job never runs, `bgbench merge` refuses
#      the incomplete set; resubmit.sh submits only that index; finished shards
#      are not recomputed (marker mtimes, invocation log); merged CSVs identical
#   3. full re-submission: every shard reports skipped, nothing recomputed;
#      resubmit.sh with nothing missing submits only the merge
#   4. `bgbench merge` refuses an inconsistent set (shards of another split)
#   5. sweep.sbatch without SHARDS: takes n from a full 0..n-1 array, refuses
#      any other array
set -euo pipefail

repo=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
cd "$repo"

COMPARE_FILES="runs.csv summary.csv comparison.csv"   # compared byte-for-byte
BGBENCH=${BGBENCH:-.build/release/bgbench}
SPEC=${SPEC:-Benchmarks/suites/smoke.json}
SHARDS=${SHARDS:-4}
TIMEOUT=${TEST_SLURM_TIMEOUT:-120}
started=$SECONDS

# Slurm clients retry for minutes when the controller is gone: bound them.
for c in sbatch squeue scontrol scancel sinfo; do
    eval "$c() { timeout 30 $c \"\$@\"; }"
done
log() { printf '[test-slurm %3ds] %s\n' $((SECONDS - started)) "$*"; }
failure="exited early (set -e); see the output above"
fail() { failure=$*; log "FAIL: $*"; exit 1; }

TMP=""       # temporary directory, created below
pids=()      # daemons we started, in start order
jobs_ids=()  # Slurm jobs we submitted
cleanup() {
    local rc=$? p i
    trap - EXIT INT TERM
    # Cancel our jobs while slurmctld (pids[1]) is alive; at most 15 s.
    if ((${#jobs_ids[@]})) && ((${#pids[@]} > 1)) && kill -0 "${pids[1]}" 2>/dev/null; then
        timeout 5 scancel "${jobs_ids[@]}" 2>/dev/null || true
        local until=$((SECONDS + 15))
        while ((SECONDS < until)) && [[ -n $(timeout 5 squeue -h -o %i 2>/dev/null) ]]; do
            sleep 0.5
        done
    fi
    if ((rc != 0)) && [[ -n $TMP ]]; then
        for f in "$TMP"/log/*.log "$TMP"/log/*.stdout "$TMP"/out/*/logs/*; do
            [[ -s $f ]] || continue
            echo "----- ${f#$TMP/} (last 15 lines, PMIx plugin noise left out)"
            grep -v -e pmix -e 'MPI: Cannot create' "$f" | tail -n 15
        done
    fi
    for ((i = ${#pids[@]} - 1; i >= 0; i--)); do   # slurmd, slurmctld, munged
        p=${pids[i]}
        kill -TERM "$p" 2>/dev/null || continue
        for ((t = 0; t < 50; t++)); do kill -0 "$p" 2>/dev/null || break; sleep 0.2; done
        kill -0 "$p" 2>/dev/null && { log "PID $p ignored SIGTERM, sending SIGKILL"; kill -KILL "$p" 2>/dev/null; }
        wait "$p" 2>/dev/null || true
    done
    ((${#pids[@]})) && log "stopped daemons (PIDs ${pids[*]})"
    if [[ -z $TMP ]]; then :
    elif [[ ${KEEP_TMP:-0} == 1 ]]; then log "kept $TMP"
    else rm -rf "$TMP"; fi
    if ((rc == 0)); then
        echo "PASS: make test-slurm ($((SECONDS - started)) s, BGBENCH=$BGBENCH)"
    else
        echo "FAIL: make test-slurm: $failure"
    fi
    exit "$rc"
}
trap cleanup EXIT
trap 'fail "interrupted"' INT TERM

# ---- prerequisites -------------------------------------------------------
[[ $(id -u) == 0 ]] || fail "must run as root (the daemons run with SlurmUser=root)"
case $BGBENCH in /*) ;; *) BGBENCH=$repo/$BGBENCH ;; esac
[[ -x $BGBENCH ]] || fail "no executable bgbench at $BGBENCH (build: swift build -c release --product bgbench, or pass BGBENCH=...)"
if ! command -v slurmctld >/dev/null || ! command -v slurmd >/dev/null ||
    ! command -v sbatch >/dev/null || ! command -v munged >/dev/null; then
    log "installing slurm-wlm and munge with apt-get"
    apt-get update -qq
    DEBIAN_FRONTEND=noninteractive apt-get install -y -qq slurm-wlm munge >/dev/null
fi
log "$(slurmctld -V), $(munged -V 2>&1 | head -n1)"

# ---- temporary cluster ---------------------------------------------------
TMP=$(mktemp -d /tmp/bgbench-slurm.XXXXXX)
chmod 755 "$TMP"   # munged wants its socket path searchable by all
mkdir -p "$TMP"/{munge,state,spool,log,out}


# A spec: the real smoke suite, or (fake binary only) a generated one.
if [[ ! -f $SPEC ]]; then
    [[ $BGBENCH == */fake-bgbench.sh ]] || fail "spec not found: $SPEC"
    SPEC=$TMP/fake-spec.json
    echo '{"name": "fake-smoke", "seed": 42}' > "$SPEC"
fi
case $SPEC in /*) ;; *) SPEC=$repo/$SPEC ;; esac

# wait_for SECONDS DESCRIPTION COMMAND...: poll until COMMAND succeeds
wait_for() {
    local limit=$1 what=$2; shift 2
    local deadline=$((SECONDS + limit))
    until "$@" >/dev/null 2>&1; do
        ((SECONDS < deadline)) || fail "timed out after ${limit}s waiting for $what"
        sleep 0.2
    done
}

port_free() { ! (exec 3<>"/dev/tcp/127.0.0.1/$1") 2>/dev/null; }
for ((try = 0; ; try++)); do
    ((try < 50)) || fail "no two free TCP ports found"
    ctld_port=$((20000 + RANDOM % 30000)); slurmd_port=$((ctld_port + 1))
    port_free "$ctld_port" && port_free "$slurmd_port" && break
done

# No core files from the daemons or job steps (they raise the soft limit).
ulimit -c 0

# munged with its own key, socket, pid, seed and log file
key=$TMP/munge/munge.key
dd if=/dev/urandom of="$key" bs=1024 count=1 status=none
chmod 400 "$key"
sock=$TMP/munge/munge.socket
munged -F --force --socket="$sock" --key-file="$key" --pid-file="$TMP/munge/munged.pid" \
    --seed-file="$TMP/munge/munged.seed" --log-file="$TMP/log/munged.log" \
    >"$TMP/log/munged.stdout" 2>&1 &
pids+=($!)
munge_ok() { munge -n -S "$sock" | unmunge -S "$sock"; }
wait_for 15 "munged (socket $sock)" munge_ok

node=$(hostname -s)
cpus=$(nproc)
mem=$(slurmd -C | sed -n 's/.*RealMemory=\([0-9]*\).*/\1/p')
mem=$((${mem:-2048} * 9 / 10))
export SLURM_CONF=$TMP/slurm.conf
cat > "$SLURM_CONF" <<EOF
# Private single-node test cluster of Tests/slurm/test-slurm.sh
ClusterName=bgbenchtest
SlurmctldHost=$node(127.0.0.1)
SlurmctldPort=$ctld_port
SlurmdPort=$slurmd_port
SlurmUser=root
SlurmdUser=root
AuthType=auth/munge
AuthInfo=socket=$sock
CredType=cred/munge
StateSaveLocation=$TMP/state
SlurmdSpoolDir=$TMP/spool
SlurmctldPidFile=$TMP/slurmctld.pid
SlurmdPidFile=$TMP/slurmd.pid
SlurmctldLogFile=$TMP/log/slurmctld.log
SlurmdLogFile=$TMP/log/slurmd.log
SlurmctldDebug=info
SlurmdDebug=info
PlugStackConfig=$TMP/plugstack.conf
ProctrackType=proctrack/linuxproc
TaskPlugin=task/none
SwitchType=switch/none
MpiDefault=none
ReturnToService=2
SchedulerType=sched/backfill
SchedulerParameters=batch_sched_delay=0,sched_min_interval=0
SelectType=select/cons_tres
SelectTypeParameters=CR_Core
AccountingStorageType=accounting_storage/none
JobAcctGatherType=jobacct_gather/none
JobCompType=jobcomp/none
MailProg=/bin/true
MinJobAge=300
InactiveLimit=0
KillWait=5
NodeName=$node NodeAddr=127.0.0.1 CPUs=$cpus RealMemory=$mem State=UNKNOWN
PartitionName=test Nodes=$node Default=YES MaxTime=INFINITE State=UP
EOF
: > "$TMP/plugstack.conf"

slurmctld -D -f "$SLURM_CONF" >"$TMP/log/slurmctld.stdout" 2>&1 &
pids+=($!)
slurmd -D -f "$SLURM_CONF" -N "$node" >"$TMP/log/slurmd.stdout" 2>&1 &
pids+=($!)
ctld_up() { scontrol ping | grep -q UP; }
wait_for 30 "slurmctld (scontrol ping)" ctld_up
node_idle() { [[ $(sinfo -h -n "$node" -o %T) == idle ]]; }
wait_for 30 "node $node idle (sinfo)" node_idle
log "cluster up: munged/slurmctld/slurmd PIDs ${pids[*]}, ports $ctld_port/$slurmd_port, node $node ($cpus CPUs)"

# ---- helpers -------------------------------------------------------------
# A wrapper around the binary under test: logs every invocation and fails
# shard i while $TMP/fail-shard-i exists.
wrapper=$TMP/bgbench-wrapper
cat > "$wrapper" <<EOF
#!/usr/bin/env bash
echo "\$*" >> "$TMP/invocations.log"
prev=
for a in "\$@"; do
    if [[ \$prev == --shard && -e "$TMP/fail-shard-\${a%/*}" ]]; then
        echo "injected failure of shard \$a" >&2; exit 3
    fi
    prev=\$a
done
exec "$BGBENCH" "\$@"
EOF
chmod +x "$wrapper"

# submit SCRIPT ARGS...: run submit.sh/resubmit.sh, record job ids in $submitted
submit() {
    local out
    out=$(BGBENCH=$wrapper "Benchmarks/slurm/$@" 2>&1) || fail "$1 failed: $out"
    printf '%s\n' "$out" | sed 's/^/    /'
    submitted=$out
    array_job=$(sed -n 's/^array_job=\([0-9]*\).*/\1/p' <<<"$out")
    merge_job=$(sed -n 's/^merge_job=\([0-9]*\).*/\1/p' <<<"$out")
    [[ -n $merge_job ]] || fail "$1 printed no merge job id"
    jobs_ids+=($array_job $merge_job)
}
queue_empty() { [[ -z $(squeue -h -o %i) ]]; }
wait_queue() {
    local deadline=$((SECONDS + TIMEOUT))
    until queue_empty; do
        ((SECONDS < deadline)) || { squeue; fail "jobs still queued after ${TIMEOUT}s"; }
        sleep 0.2
    done
}
# job_states ID: the JobState of the job or of each array task, sorted
job_states() { scontrol -o show job "$1" | grep -o 'JobState=[A-Z_]*' | cut -d= -f2 | sort | uniq -c | xargs; }
compare() {   # compare DIR: the CSVs equal the unsharded reference's
    local f
    for f in $COMPARE_FILES; do
        [[ -f $1/$f ]] || fail "$1/$f missing"
        cmp -s "$TMP/ref/$f" "$1/$f" || fail "$1/$f differs from the unsharded run's"
    done
    log "identical to the unsharded run: $COMPARE_FILES ($(cat "$TMP"/ref/*.csv | wc -c) bytes)"
}
mtimes() { local i; for ((i = 0; i < SHARDS; i++)); do stat -c "$i %y" "$1/shard-$i/shard.json" 2>/dev/null || echo "$i none"; done; }
invocations() { grep -c -- "--out $1 " "$TMP/invocations.log" || true; }

# ---- phase 1: reference, array + merge -------------------------------------
log "phase 1: unsharded reference run of ${SPEC#$repo/}"
"$BGBENCH" run "$SPEC" --out "$TMP/ref" --quiet || fail "unsharded bgbench run failed"
out1=$TMP/out/sweep1
log "phase 1: submit.sh, $SHARDS-task array + merge"
submit submit.sh "$SPEC" "$out1" "$SHARDS" --chdir="$TMP"
wait_queue
log "array job $array_job: $(job_states "$array_job"); merge job $merge_job: $(job_states "$merge_job")"
[[ $(job_states "$array_job") == "$SHARDS COMPLETED" ]] || fail "array tasks did not all complete"
[[ $(job_states "$merge_job") == "1 COMPLETED" ]] || fail "merge job did not complete"
compare "$out1/merged"

# ---- phase 2: a failed shard, merge refused, resubmit only it ---------------
out2=$TMP/out/sweep2
bad=$((SHARDS / 2))
touch "$TMP/fail-shard-$bad"
log "phase 2: submit.sh with shard $bad failing"
submit submit.sh "$SPEC" "$out2" "$SHARDS" --chdir="$TMP"
wait_queue
log "array job $array_job: $(job_states "$array_job"); merge job $merge_job: $(job_states "$merge_job")"
[[ $(job_states "$array_job") == "$((SHARDS - 1)) COMPLETED 1 FAILED" ]] || fail "expected exactly one failed array task"
[[ $(job_states "$merge_job") != *COMPLETED* ]] || fail "merge job ran although a shard failed"
[[ ! -e $out2/merged ]] || fail "merged output exists although a shard failed"
[[ ! -e $out2/shard-$bad/shard.json ]] || fail "failed shard $bad has a completion marker"
dirs=(); for ((i = 0; i < SHARDS; i++)); do dirs+=("$out2/shard-$i"); done
if msg=$("$BGBENCH" merge --out "$TMP/refused" "${dirs[@]}" 2>&1); then
    fail "bgbench merge accepted an incomplete set: $msg"
fi
log "bgbench merge refuses the incomplete set: $(tail -n1 <<<"$msg")"
before=$(mtimes "$out2")
rm "$TMP/fail-shard-$bad"
log "phase 2: resubmit.sh"
submit resubmit.sh "$SPEC" "$out2" "$SHARDS" --chdir="$TMP"
grep -q "^array_job=[0-9]* array=$bad " <<<"$submitted" || fail "resubmit.sh did not submit exactly --array=$bad"
wait_queue
log "array job $array_job: $(job_states "$array_job"); merge job $merge_job: $(job_states "$merge_job")"
[[ $(job_states "$array_job") == "1 COMPLETED" ]] || fail "resubmitted shard did not complete"
[[ $(job_states "$merge_job") == "1 COMPLETED" ]] || fail "merge job after resubmission did not complete"
after=$(mtimes "$out2")
diff <(grep -v "^$bad " <<<"$before") <(grep -v "^$bad " <<<"$after") >/dev/null ||
    fail "finished shards were rewritten by the resubmission: before: $before after: $after"
for ((i = 0; i < SHARDS; i++)); do
    n=$(invocations "$out2/shard-$i"); want=1; ((i == bad)) && want=2
    [[ $n == "$want" ]] || fail "shard $i ran $n times, expected $want"
done
log "only shard $bad was re-run; the other markers are unchanged"
compare "$out2/merged"

# ---- phase 3: full re-submission skips; nothing missing -> merge only --------
log "phase 3: submit.sh again over the complete sweep"
submit submit.sh "$SPEC" "$out2" "$SHARDS" --chdir="$TMP"
wait_queue
[[ $(job_states "$array_job") == "$SHARDS COMPLETED" ]] || fail "re-submitted array did not complete"
[[ $(job_states "$merge_job") == "1 COMPLETED" ]] || fail "re-merge did not complete"
[[ $(mtimes "$out2") == "$after" ]] || fail "a complete shard was recomputed: before: $after now: $(mtimes "$out2")"
skipped=$(cat "$out2"/logs/shard-*.job"$array_job".out | grep -ci skip || true)
# Not recomputed = markers unchanged (checked above); the "skipped" line is
# for the researcher reading the logs, so its absence only warns.
[[ $skipped == "$SHARDS" ]] ||
    log "WARNING: expected $SHARDS 'skipped' lines in the shard logs (sweep.sbatch passes --quiet), found $skipped"
log "no shard recomputed (markers unchanged); $skipped of $SHARDS logs say skipped"
compare "$out2/merged"
log "phase 3: resubmit.sh with nothing missing"
submit resubmit.sh "$SPEC" "$out2" "$SHARDS" --chdir="$TMP"
[[ -z $array_job ]] || fail "resubmit.sh submitted an array although no shard is missing"
wait_queue
[[ $(job_states "$merge_job") == "1 COMPLETED" ]] || fail "merge-only job did not complete"
compare "$out2/merged"

# ---- phase 4: an inconsistent set is refused ---------------------------------
log "phase 4: merge shards of a different split (0/2 with i/$SHARDS)"
"$BGBENCH" run "$SPEC" --out "$TMP/other/shard-0" --shard "0/2" --quiet || fail "bgbench run --shard 0/2 failed"
dirs[0]=$TMP/other/shard-0
if msg=$("$BGBENCH" merge --out "$TMP/refused2" "${dirs[@]}" 2>&1); then
    fail "bgbench merge accepted an inconsistent set: $msg"
fi
log "bgbench merge refuses the inconsistent set: $(tail -n1 <<<"$msg")"

# ---- phase 5: sweep.sbatch without SHARDS ---------------------------------------
log "phase 5: sbatch sweep.sbatch without SHARDS: --array=0-1 runs 2 shards, --array=1,3 is refused"
out5=$TMP/out/sweep5
mkdir -p "$out5/logs"
ok=$(BGBENCH=$wrapper sbatch --parsable --chdir="$TMP" --array=0-1 --output="$out5/logs/ok-%a.out" \
    Benchmarks/slurm/sweep.sbatch "$SPEC" "$out5") || fail "sbatch failed"
ok=${ok%%;*}
refused=$(BGBENCH=$wrapper sbatch --parsable --chdir="$TMP" --array=1,3 --output="$out5/logs/refused-%a.out" \
    Benchmarks/slurm/sweep.sbatch "$SPEC" "$out5/partial") || fail "sbatch failed"
refused=${refused%%;*}
jobs_ids+=("$ok" "$refused")
wait_queue
[[ $(job_states "$ok") == "2 COMPLETED" ]] || fail "--array=0-1 without SHARDS did not complete"
[[ -f $out5/shard-0/shard.json && -f $out5/shard-1/shard.json ]] || fail "--array=0-1 wrote no shards 0/2, 1/2"
[[ $(job_states "$refused") == "2 FAILED" ]] || fail "partial array without SHARDS was not refused"
[[ ! -e $out5/partial ]] || fail "a shard ran although SHARDS was unknown"
log "--array=0-1 wrote shards 0/2 and 1/2; --array=1,3 refused: $(head -n1 "$out5/logs/refused-1.out")"

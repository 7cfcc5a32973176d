#!/usr/bin/env bash
# A matrix array against a real, throwaway Slurm (docs/architecture.md section 13.5): munged with a fresh key and its
# own socket, slurmctld and slurmd on unused ports with a generated slurm.conf, all state under one temporary folder,
# every daemon this test started stopped by its PID at the end, also on failure. Three tasks on paretoscope-engine-sim
# (b300-sim, mi325x-sim, and one made to fail with an unknown profile); then cluster collect must have imported
# every level of the two good tasks and report the third as failed with its reason.
# Usage: tst_slurm.sh PARETOSCOPE_CLI ENGINE_SIM. Exit 77 (CTest's SKIP) where no cluster can be started here.
set -uo pipefail
CLI=$1
SIM_DIR=$(dirname "$2")
skip() { echo "SKIPPED: $*"; exit 77; }
fail() { echo "FAIL: $*"; for f in "$T"/*.log "$ARRAY"/logs/*.log "$ARRAY"/work/*/bench.err; do [ -f "$f" ] && { echo "--- $f"; tail -n 15 "$f"; }; done; exit 1; }

[ "$(id -u)" -eq 0 ] || skip "munged and slurmd need root here (SlurmUser=root)"
for p in munged slurmctld slurmd sbatch squeue sinfo python3; do
    command -v "$p" >/dev/null || [ -x "/usr/sbin/$p" ] || skip "$p is not installed (scripts/install-deps.sh installs slurm-wlm and munge)"
done
export PATH="$SIM_DIR:/usr/sbin:$PATH" # sbatch passes it on to the tasks

T=$(mktemp -d /tmp/paretoscope-slurm.XXXXXX)
chmod 755 "$T" # munged wants its socket's folder searchable by all
ARRAY="$T/array"
PIDS=()
cleanup() {
    for pid in "${PIDS[@]}"; do kill "$pid" 2>/dev/null; done
    for pid in "${PIDS[@]}"; do
        for _ in $(seq 50); do kill -0 "$pid" 2>/dev/null || break; sleep 0.1; done
        kill -9 "$pid" 2>/dev/null
    done
    rm -rf "$T"
}
trap cleanup EXIT
trap 'exit 1' INT TERM
start=$(date +%s.%N)

# munge: a fresh 1 KB key, its own socket, log, pid and seed
dd if=/dev/urandom of="$T/munge.key" bs=1024 count=1 status=none
chmod 400 "$T/munge.key"
munged -F --key-file="$T/munge.key" --socket="$T/munge.sock" --pid-file="$T/munged.pid" \
    --log-file="$T/munged.log" --seed-file="$T/munged.seed" >/dev/null 2>&1 &
PIDS+=($!)
for _ in $(seq 50); do [ -S "$T/munge.sock" ] && break; sleep 0.1; done
[ -S "$T/munge.sock" ] || skip "munged did not start: $(tail -n 3 "$T/munged.log" 2>/dev/null)"

# five ports free now: slurmctld's, slurmd's and one per task's engine (a fixed offset from them could be taken by
# another test's client connection when the suite runs in parallel)
read -r CTLD_PORT SLURMD_PORT PORT_B300 PORT_MI325X PORT_BROKEN < <(python3 -c '
import socket
s = [socket.socket() for _ in range(5)]
for x in s: x.bind(("127.0.0.1", 0))
print(*[x.getsockname()[1] for x in s])')
HOST=$(hostname -s)
NODE=$(timeout 20 slurmd -C | head -n 1) # this machine's NodeName line: CPUs, sockets, cores, RealMemory
[ -n "$NODE" ] || skip "slurmd -C did not describe this machine within 20 s"
mkdir -p "$T/state" "$T/spool"
export SLURM_CONF="$T/slurm.conf"
cat > "$SLURM_CONF" <<EOF
ClusterName=paretoscope-test
SlurmctldHost=$HOST
AuthType=auth/munge
CredType=cred/munge
AuthInfo=socket=$T/munge.sock
SlurmUser=root
SlurmdUser=root
SlurmctldPort=$CTLD_PORT
SlurmdPort=$SLURMD_PORT
StateSaveLocation=$T/state
SlurmdSpoolDir=$T/spool
SlurmctldPidFile=$T/slurmctld.pid
SlurmdPidFile=$T/slurmd.pid
SlurmctldLogFile=$T/slurmctld.log
SlurmdLogFile=$T/slurmd.log
ProctrackType=proctrack/linuxproc
TaskPlugin=task/none
SelectType=select/cons_tres
SelectTypeParameters=CR_Core
MpiDefault=none
ReturnToService=2
AccountingStorageType=accounting_storage/none
JobAcctGatherType=jobacct_gather/none
JobCompType=jobcomp/none
SchedulerType=sched/builtin
MinJobAge=300
$NODE State=UNKNOWN
PartitionName=test Nodes=$HOST Default=YES MaxTime=INFINITE State=UP
EOF
slurmctld -D -i -f "$SLURM_CONF" >"$T/slurmctld.out" 2>&1 &
CTLD_PID=$!
PIDS+=($CTLD_PID)
slurmd -D -f "$SLURM_CONF" >"$T/slurmd.out" 2>&1 &
SLURMD_PID=$!
PIDS+=($SLURMD_PID)
# every wait has a bound: a daemon that cannot start (a chroot without cgroups, a taken port) skips the test within
# 30 s, naming the daemon; each sinfo is cut off after 5 s (it waits MessageTimeout on a controller that never answers)
up=""
for _ in $(seq 60); do
    kill -0 "$CTLD_PID" 2>/dev/null || break
    kill -0 "$SLURMD_PID" 2>/dev/null || break
    if timeout 5 sinfo -h -o %T 2>/dev/null | grep -q idle; then
        up=yes
        break
    fi
    sleep 0.5
done
if [ -z "$up" ]; then
    kill -0 "$CTLD_PID" 2>/dev/null || skip "slurmctld did not come up: $(tail -n 3 "$T/slurmctld.log" "$T/slurmctld.out" 2>/dev/null)"
    kill -0 "$SLURMD_PID" 2>/dev/null || skip "slurmd did not come up: $(tail -n 3 "$T/slurmd.log" "$T/slurmd.out" 2>/dev/null)"
    skip "slurmctld and slurmd run, but the node never showed idle within 30 s: $(tail -n 3 "$T/slurmctld.log" "$T/slurmd.log" 2>/dev/null)"
fi
echo "cluster up in $(python3 -c "import time;print(round(time.time()-$start,1))") s (ports $CTLD_PORT, $SLURMD_PORT)"

# three configurations: short levels so the whole array runs in seconds
cat > "$T/matrix.json" <<EOF
{ "slurm": { "time": "00:10:00" },
  "configurations": [
    { "name": "b300", "recipe": "sim", "profile": "b300-sim", "tp": 8, "isl": 64, "osl": 16,
      "concurrency": [1, 4, 16], "port": $PORT_B300 },
    { "name": "mi325x", "recipe": "sim", "profile": "mi325x-sim", "tp": 4, "isl": 64, "osl": 16,
      "concurrency": [1, 4], "repeats": 2, "port": $PORT_MI325X },
    { "name": "broken", "recipe": "sim", "profile": "h100-sim", "isl": 64, "osl": 16, "concurrency": [1],
      "port": $PORT_BROKEN } ] }
EOF
"$CLI" bench --matrix "$T/matrix.json" --emit-sbatch "$ARRAY" || fail "--emit-sbatch"
grep -q '^#SBATCH --array=0-2$' "$ARRAY/array.sbatch" || fail "no --array=0-2 line"
timeout 30 sbatch --test-only "$ARRAY/array.sbatch" 2>"$T/test-only.txt" || fail "sbatch --test-only: $(cat "$T/test-only.txt")"
grep -q "to start" "$T/test-only.txt" || fail "sbatch --test-only said: $(cat "$T/test-only.txt")"
timeout 60 "$CLI" bench --matrix "$T/matrix.json" --emit-sbatch "$ARRAY" --submit >"$T/jobid" || fail "--submit"
JOB=$(cat "$T/jobid")
[[ "$JOB" =~ ^[0-9]+$ ]] || fail "--submit printed '$JOB', not a job id"
timeout 60 "$CLI" cluster status "$ARRAY" --format json | grep -q "\"jobs\":\[\"$JOB\"\]" || fail "status does not name job $JOB"

# collect --watch imports as tasks finish, until the array ends (timeout: a hung array fails the test)
# it exits 1: the third task failed (after importing what finished); 124 would be the timeout
rc=0
timeout 120 "$CLI" cluster collect "$ARRAY" --db "$T/store.sqlite" --watch --interval 0.5 >"$T/collect.jsonl" || rc=$?
[ "$rc" = 1 ] || fail "collect --watch exited $rc, not 1 (a task failed): $(cat "$T/collect.jsonl")"
cat "$T/collect.jsonl"
timeout 60 "$CLI" cluster status "$ARRAY" --db "$T/store.sqlite" | tee "$T/status.txt"

python3 - "$T" <<'EOF' || fail "collected results"
import json, sys
t = sys.argv[1]
lines = [json.loads(l) for l in open(t + "/collect.jsonl")]
imported = {l["name"]: l["imported"] for l in lines if "imported" in l}
# every level of the two good tasks: 3 levels, and 2 levels x 2 repeats
assert imported == {"b300": 3, "mi325x": 4}, imported
failed = [l for l in lines if l.get("state") == "failed"]
assert [l["name"] for l in failed] == ["broken"], failed
assert "h100-sim" in failed[0]["reason"] or "profile" in failed[0]["reason"], failed[0]["reason"]
print("broken:", failed[0]["reason"][:160])
EOF
grep -qP '^0\tfinished\tb300\tcollected$' "$T/status.txt" || fail "status of task 0"
grep -qP '^2\tfailed\tbroken\t.*profile' "$T/status.txt" || fail "status of task 2"

# the store holds the levels, per hardware; a second collect imports nothing more
for hw in b300-sim:3 mi325x-sim:4; do
    n=$("$CLI" export --db "$T/store.sqlite" --model DeepSeek-V4.1-Flash --isl 64 --osl 16 --hardware "${hw%%:*}" \
        --runs all --include-marked --format json | python3 -c 'import json,sys; d=json.load(sys.stdin); print(len(d if isinstance(d, list) else d["runs"]))')
    [ "$n" = "${hw##*:}" ] || fail "store has $n runs of ${hw%%:*}, not ${hw##*:}"
done
rc=0
timeout 60 "$CLI" cluster collect "$ARRAY" --db "$T/store.sqlite" >"$T/collect2.jsonl" || rc=$?
grep -q imported "$T/collect2.jsonl" && fail "a second collect imported again"
[ "$rc" = 1 ] || fail "a second collect exited $rc, not 1 (the failed task is still failed)"
echo "PASS in $(python3 -c "import time;print(round(time.time()-$start,1))") s"

#!/bin/sh
# feroce-sweep's cluster backend on a real SLURM: a single-node cluster on
# localhost (Debian's slurm-wlm and munge) configured and started here
# (munged, slurmctld, slurmd; stopped again whatever happens), a sweep
# submitted with sbatch as a job array, its shards merged, and the result
# equal to the same sweep run locally.  Needs root (CI is root) and
# "apt-get install slurm-wlm munge" (.ci/install-deps); skips (status 77)
# when they are not installed.
#   sweep-slurm-test.sh FEROCE_SWEEP FAKE_SCENARIO WORK_DIR
. "$(dirname "$0")/../lib.sh"
sweep=$1
fake=$2
work=$3
for p in munged slurmctld slurmd sbatch squeue sinfo; do
    if ! command -v $p > /dev/null 2>&1 && [ ! -x /usr/sbin/$p ]; then
        echo "SKIP: $p not found: install slurm-wlm and munge (apt-get install slurm-wlm munge) to run this test"
        exit 77
    fi
done
if [ "$(id -u)" -ne 0 ]; then
    echo "SKIP: slurmd must run as root to start jobs; run this test as root (CI does)"
    exit 77
fi
PATH=$PATH:/usr/sbin
rm -rf "$work" && mkdir -p "$work" || exit 1
cd "$work" || exit 1
work=$(pwd)
logs() {
    for f in munge/munged.log slurm/slurmctld.log slurm/slurmd.log; do
        [ -f "$f" ] && { echo "--- $f (last lines)"; tail -20 "$f"; }
    done
}

# --- the cluster: one node, this machine; every file under $work
mkdir -p munge slurm/state slurm/spool shared && chmod 700 munge || exit 1
dd if=/dev/urandom of=munge/munge.key bs=1024 count=1 2> /dev/null && chmod 400 munge/munge.key || exit 1
host=$(hostname -s)
# ports of our own, so as not to meet another SLURM on this machine
base=$((20000 + $$ % 20000))
cat > slurm/slurm.conf <<EOT
ClusterName=feroce-test
SlurmctldHost=$host(127.0.0.1)
SlurmctldPort=$base
SlurmdPort=$((base + 1))
AuthType=auth/munge
CredType=cred/munge
AuthInfo=socket=$work/munge/munge.socket
SlurmUser=root
SlurmdUser=root
StateSaveLocation=$work/slurm/state
SlurmdSpoolDir=$work/slurm/spool
SlurmctldPidFile=$work/slurm/slurmctld.pid
SlurmdPidFile=$work/slurm/slurmd.pid
SlurmctldLogFile=$work/slurm/slurmctld.log
SlurmdLogFile=$work/slurm/slurmd.log
ProctrackType=proctrack/linuxproc
TaskPlugin=task/none
JobAcctGatherType=jobacct_gather/none
AccountingStorageType=accounting_storage/none
JobCompType=jobcomp/none
SwitchType=switch/none
MpiDefault=none
SchedulerType=sched/builtin
SelectType=select/cons_tres
SelectTypeParameters=CR_CPU
ReturnToService=2
# more CPUs than the machine has (the tasks are tiny), so the array runs in one wave
SlurmdParameters=config_overrides
NodeName=$host NodeAddr=127.0.0.1 CPUs=16 State=UNKNOWN
PartitionName=test Nodes=$host Default=YES MaxTime=INFINITE State=UP
EOT
export SLURM_CONF=$work/slurm/slurm.conf

stop() {
    # the daemons this test started, by their pid files
    for f in slurm/slurmd.pid slurm/slurmctld.pid munge/munged.pid; do
        [ -f "$work/$f" ] && kill "$(cat "$work/$f")" 2> /dev/null
    done
    i=0
    while [ $i -lt 50 ]; do
        alive=0
        for f in slurm/slurmd.pid slurm/slurmctld.pid munge/munged.pid; do
            [ -f "$work/$f" ] && kill -0 "$(cat "$work/$f")" 2> /dev/null && alive=1
        done
        [ $alive -eq 0 ] && break
        sleep 0.1
        i=$((i + 1))
    done
}
trap 'stop' EXIT
trap 'exit 1' INT TERM

munged --key-file="$work/munge/munge.key" --socket="$work/munge/munge.socket" --pid-file="$work/munge/munged.pid" \
    --log-file="$work/munge/munged.log" --seed-file="$work/munge/munged.seed" --force ||
    { bad "munged did not start"; logs; exit 1; }
slurmctld || { bad "slurmctld did not start"; logs; exit 1; }
slurmd || { bad "slurmd did not start"; logs; exit 1; }
# the node comes up idle within seconds
i=0
while [ "$(sinfo -h -o %t 2> /dev/null)" != idle ] && [ $i -lt 300 ]; do
    sleep 0.1
    i=$((i + 1))
done
[ "$(sinfo -h -o %t)" = idle ] && ok || { bad "the node is not idle: $(sinfo 2>&1)"; logs; exit 1; }

# --- the sweep, locally and on the cluster
cat > study.sweep <<EOT
name slurm-test
program $fake
flags --duration=1ms --sleep=0.05
param x list 1 2 3
param y log 1 100 3
replications 2
EOT
"$sweep" run study.sweep -j 2 --dir local > local.out 2>&1 && ok || bad "local run: $(cat local.out)"
"$sweep" slurm study.sweep --shared-dir "$work/shared" --dir cluster --time 5 > slurm.out 2>&1 && ok || bad "slurm: $(cat slurm.out)"
job=$(sbatch --parsable shared/job.sbatch 2> sbatch.err)
[ -n "$job" ] && ok || { bad "sbatch: $(cat sbatch.err)"; logs; exit 1; }
# wait (at most two minutes) for the array to leave the queue
i=0
while [ -n "$(squeue -h -j "$job" 2> /dev/null)" ] && [ $i -lt 1200 ]; do
    sleep 0.1
    i=$((i + 1))
done
[ -z "$(squeue -h -j "$job")" ] && ok || { bad "job $job still queued after 120 s: $(squeue)"; logs; exit 1; }
[ "$(ls shared/logs | wc -l)" -eq 18 ] && [ "$(grep -l 'done in' shared/logs/task-*.out | wc -l)" -eq 18 ] && ok ||
    { bad "task logs: $(ls shared/logs) $(cat shared/logs/* | head -20)"; logs; }
"$sweep" merge study.sweep shared --dir cluster > merge.out 2>&1; rc=$?
[ $rc -eq 0 ] && grep -q 'slurm-test: 18 points: 18 done, 0 failed, 0 not run' merge.out && ok || bad "merge: $rc $(cat merge.out)"
results() {
    sqlite3 "$1/sweep.db" "SELECT p.key, p.seed, p.combo, p.status, r.scenario, r.seed, r.metrics,
                                  json_remove(r.params, '\$.outdir', '\$.db')
                           FROM points p LEFT JOIN runs r ON r.id = p.run_id ORDER BY p.key"
}
results local > local.txt
results cluster > cluster.txt
[ "$(wc -l < local.txt)" -eq 18 ] && cmp -s local.txt cluster.txt && ok || bad "the cluster's results differ from the local run: $(diff local.txt cluster.txt | head)"
"$sweep" report study.sweep --dir local --csv local.csv > /dev/null 2>&1
"$sweep" report study.sweep --dir cluster --csv cluster.csv > /dev/null 2>&1
cmp -s local.csv cluster.csv && ok || bad "the reports differ"
# every point ran on the cluster, in its shard on the shared directory
[ "$(sqlite3 cluster/sweep.db "SELECT count(*) FROM runs WHERE outdir LIKE '$work/shared/shards/%/point'")" = 18 ] && ok ||
    bad "outdirs: $(sqlite3 cluster/sweep.db 'SELECT outdir FROM runs LIMIT 3')"
"$sweep" merge study.sweep shared --dir cluster 2>&1 | grep -q '18 done already' && ok || bad "second merge"

finish

#!/bin/sh
# The cluster backend without a cluster: "feroce-sweep slurm" writes the job
# array and its task list; each task is run here as SLURM would run it
# ("feroce-sweep task SHARED_DIR N"), into its own shard; "feroce-sweep merge"
# takes the shards in; the result equals the same sweep run locally; merging
# again changes nothing; a failed shard, a later good one, and shards of
# another sweep are handled and reported.
#   sweep-merge-test.sh FEROCE_SWEEP FAKE_SCENARIO WORK_DIR
. "$(dirname "$0")/../lib.sh"
sweep=$1
fake=$2
work=$3
rm -rf "$work" && mkdir -p "$work" || exit 1
cd "$work" || exit 1
# the results of a sweep database, without what differs from run to run (times, paths, ids)
results() {
    sqlite3 "$1/sweep.db" "SELECT p.key, p.seed, p.combo, p.status, r.scenario, r.seed, r.metrics,
                                  json_remove(r.params, '\$.outdir', '\$.db')
                           FROM points p LEFT JOIN runs r ON r.id = p.run_id ORDER BY p.key"
}

cat > m.sweep <<EOT
name merge-test
program $fake
flags --duration=1ms
param x list 1 2 3
param y log 1 100 3
replications 2
EOT
"$sweep" run m.sweep -j 2 --dir local > local.out 2>&1 && ok || bad "local run: $(cat local.out)"

# the job array: every point when nothing is done in the sweep's directory
"$sweep" slurm m.sweep --shared-dir shared --dir cluster --time 10:00 --max-parallel 4 --sbatch-option "--partition=debug" > slurm.out 2>&1; rc=$?
[ $rc -eq 0 ] && grep -q 'wrote .*/shared/job.sbatch (18 tasks)' slurm.out && ok || bad "slurm: $rc $(cat slurm.out)"
grep -q '^#SBATCH --array=1-18%4$' shared/job.sbatch && grep -q '^#SBATCH --time=10:00$' shared/job.sbatch &&
    grep -q '^#SBATCH --partition=debug$' shared/job.sbatch && grep -q "^#SBATCH --chdir=$work\$" shared/job.sbatch &&
    grep -q "^#SBATCH --output=$work/shared/logs/task-%a.out\$" shared/job.sbatch && ok || bad "job.sbatch: $(cat shared/job.sbatch)"
grep -q "^exec .*feroce-sweep task --program $fake $work/shared \"\$SLURM_ARRAY_TASK_ID\"\$" shared/job.sbatch && ok ||
    bad "job.sbatch command: $(tail -1 shared/job.sbatch)"
[ "$(grep -vc '^#' shared/tasks.txt)" -eq 18 ] && cmp -s m.sweep shared/m.sweep && ok || bad "tasks.txt or the copy of the sweep file"
sh -n shared/job.sbatch && ok || bad "job.sbatch is not valid sh"

# the tasks, as SLURM runs them (from --chdir, with SLURM_ARRAY_TASK_ID)
i=1
while [ $i -le 18 ]; do
    SLURM_ARRAY_TASK_ID=$i sh shared/job.sbatch > "shared/logs/task-$i.out" 2>&1 || bad "task $i: $(cat "shared/logs/task-$i.out")"
    i=$((i + 1))
done
[ "$(ls shared/shards | wc -l)" -eq 18 ] && ok || bad "shards: $(ls shared/shards | wc -l)"
"$sweep" merge m.sweep shared/shards --dir cluster > merge.out 2>&1; rc=$?
[ $rc -eq 0 ] && grep -q 'merged 18 shards into cluster/sweep.db: 18 points done, 0 failed, 0 done already' merge.out &&
    grep -q 'merge-test: 18 points: 18 done, 0 failed, 0 not run' merge.out && ok || bad "merge: $rc $(cat merge.out)"
results local > local.txt
results cluster > cluster.txt
[ -s local.txt ] && cmp -s local.txt cluster.txt && ok || bad "merged results differ from the local run: $(diff local.txt cluster.txt | head)"
"$sweep" report m.sweep --dir local --csv local.csv > /dev/null 2>&1
"$sweep" report m.sweep --dir cluster --csv cluster.csv > /dev/null 2>&1
cmp -s local.csv cluster.csv && ok || bad "reports differ"
# merging again (the shared dir, or shards one by one) changes nothing
"$sweep" merge m.sweep shared --dir cluster > merge2.out 2>&1; rc=$?
[ $rc -eq 0 ] && grep -q '0 points done, 0 failed, 18 done already' merge2.out && ok || bad "second merge: $rc $(cat merge2.out)"
"$sweep" merge m.sweep shared/shards/*/shard.db --dir cluster > /dev/null 2>&1 || bad "merge of files"
[ "$(sqlite3 cluster/sweep.db 'SELECT count(*) FROM runs')" = 18 ] && results cluster | cmp -s local.txt - && ok || bad "merging twice added rows"
# a local run now has nothing to do; slurm has nothing to submit
"$sweep" run m.sweep --dir cluster --program "$fake" 2>&1 | grep -q 'nothing to run' && ok || bad "run after merge"
"$sweep" slurm m.sweep --shared-dir shared2 --dir cluster 2>&1 | grep -q 'nothing to submit' && ok || bad "slurm after merge"

# a failed task is merged as failed (exit status and stderr kept), a later success replaces it
sed 's/^flags --duration=1ms$/flags --duration=1ms --fail-unless=marker/' m.sweep > shared3.sweep
sed -i 's/^name merge-test$/name merge-fail/' shared3.sweep
"$sweep" slurm shared3.sweep --shared-dir s3 --dir c3 > /dev/null 2>&1 || bad "slurm s3"
SLURM_ARRAY_TASK_ID=1 sh s3/job.sbatch > s3/logs/task-1.out 2>&1; rc=$?
[ $rc -eq 1 ] && ok || bad "failing task: exit status $rc"
"$sweep" merge shared3.sweep s3 --dir c3 > merge3.out 2>&1
grep -q '0 points done, 1 failed' merge3.out && [ "$(sqlite3 c3/sweep.db "SELECT status, exit_status FROM points")" = "failed|3" ] &&
    sqlite3 c3/sweep.db "SELECT stderr_tail FROM points" | grep -q 'marker does not exist' && ok || bad "failed shard: $(cat merge3.out)"
mkdir marker
SLURM_ARRAY_TASK_ID=1 sh s3/job.sbatch > s3/logs/task-1.out 2>&1 || bad "task after marker: $(cat s3/logs/task-1.out)"
"$sweep" merge shared3.sweep s3 --dir c3 > merge4.out 2>&1
grep -q '1 points done, 0 failed' merge4.out && [ "$(sqlite3 c3/sweep.db "SELECT status, attempts FROM points")" = "done|2" ] &&
    ok || bad "good shard after a failed one: $(cat merge4.out) $(sqlite3 c3/sweep.db 'SELECT * FROM points')"

# shards of another sweep are not merged, and that is said (exit status 1)
"$sweep" merge m.sweep s3 --dir cluster > merge5.out 2>&1; rc=$?
[ $rc -eq 1 ] && grep -q '1 points are not points of merge-test' merge5.out && ok || bad "foreign shard: $rc $(cat merge5.out)"
"$sweep" merge m.sweep nowhere --dir cluster > merge6.out 2>&1; rc=$?
[ $rc -eq 1 ] && grep -q 'nowhere: no shard.db there' merge6.out && ok || bad "missing shard: $rc $(cat merge6.out)"
# a task number beyond the list, or a list from another version
"$sweep" task shared 99 > task.out 2>&1; rc=$?
[ $rc -eq 2 ] && grep -q 'no task 99 (it has 18)' task.out && ok || bad "task 99: $rc $(cat task.out)"
"$sweep" task shared 1 --key-version other > task.out 2>&1; rc=$?
[ $rc -eq 2 ] && grep -q 'the task list was made by another version' task.out && ok || bad "task of another version: $rc $(cat task.out)"
"$sweep" slurm m.sweep --dir cluster > /dev/null 2> noshared.err; rc=$?
[ $rc -eq 2 ] && grep -q -- '--shared-dir DIR is missing' noshared.err && ok || bad "slurm without --shared-dir"

finish

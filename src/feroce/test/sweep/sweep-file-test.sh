#!/bin/sh
# feroce-sweep's sweep files and grids, through "feroce-sweep list": lists,
# linear and log ranges, zip, require, replications, stable keys; and every
# kind of malformed file rejected with its line number and what was expected.
#   sweep-file-test.sh FEROCE_SWEEP FAKE_SCENARIO WORK_DIR
. "$(dirname "$0")/../lib.sh"
sweep=$1
fake=$2
work=$3
rm -rf "$work" && mkdir -p "$work" || exit 1
cd "$work" || exit 1

# grid NAME TEXT: writes NAME.sweep, lists it into NAME.list (points only)
grid() {
    printf 'program %s\n%b' "$fake" "$2" > "$1.sweep"
    "$sweep" list "$1.sweep" --dir "$work/d-$1" > "$1.out" 2> "$1.err" || { bad "$1: list failed: $(cat "$1.err")"; return 1; }
    grep -v '^#' "$1.out" > "$1.list"
}
# expect NAME WANTED: the "parameters" column of every point, one per line, equals WANTED
expect() {
    got=$(cut -d' ' -f5- "$1.list")
    if [ "$got" = "$(printf '%b' "$2")" ]; then ok; else bad "$1: got
$got
wanted
$(printf '%b' "$2")"; fi
}

# a list, a linear range with integer ends (integer values) and one with decimal ends
grid cart 'param a list x y\nparam n lin 0 10 3\nparam f lin 0.0 1 3\n'
expect cart 'a=x n=0 f=0\na=x n=0 f=0.5\na=x n=0 f=1\na=x n=5 f=0\na=x n=5 f=0.5\na=x n=5 f=1\na=x n=10 f=0\na=x n=10 f=0.5\na=x n=10 f=1\na=y n=0 f=0\na=y n=0 f=0.5\na=y n=0 f=1\na=y n=5 f=0\na=y n=5 f=0.5\na=y n=5 f=1\na=y n=10 f=0\na=y n=10 f=0.5\na=y n=10 f=1'
grep -q '^# 3 parameters, 18 combinations x 1 replications = 18 points' cart.out && ok || bad "cart header: $(head -2 cart.out)"

# log ranges: integer ends round, decimal ends keep 10 significant digits
grid log2 'param k log 5000 80000 5\nparam g log 1 16 5\ncombine zip\n'
expect log2 'k=5000 g=1\nk=10000 g=2\nk=20000 g=4\nk=40000 g=8\nk=80000 g=16'
grid log3 'param g log 0.00390625 0.0625 3\nparam q log 1 10.0 3\nparam r log 1000 100000 3\nzip g q r\n'
expect log3 'g=0.00390625 q=1 r=1000\ng=0.015625 q=3.16227766 r=10000\ng=0.0625 q=10 r=100000'

# zip groups inside a cartesian product; require; replications (seeds 1..R, combination-major)
grid zip 'param kmin list 1 2 3\nparam kmax list 2 3 4\nparam pmax list 0.1 0.2\nzip kmin kmax\n'
expect zip 'kmin=1 kmax=2 pmax=0.1\nkmin=1 kmax=2 pmax=0.2\nkmin=2 kmax=3 pmax=0.1\nkmin=2 kmax=3 pmax=0.2\nkmin=3 kmax=4 pmax=0.1\nkmin=3 kmax=4 pmax=0.2'
grid req 'param kmin list 1 5 10\nparam kmax list 5 10\nrequire kmin < kmax\nrequire kmax != 7\nreplications 2\n'
expect req 'kmin=1 kmax=5\nkmin=1 kmax=5\nkmin=1 kmax=10\nkmin=1 kmax=10\nkmin=5 kmax=10\nkmin=5 kmax=10'
[ "$(cut -d' ' -f3 req.list | tr '\n' ' ')" = "1 2 1 2 1 2 " ] && ok || bad "req seeds: $(cut -d' ' -f3 req.list | tr '\n' ' ')"
grep -q '3 combinations (3 more excluded by require) x 2 replications = 6 points' req.out && ok || bad "req header: $(head -2 req.out)"
# strings, ns-3 attributes, quoted values; no parameters at all (one combination)
grid str 'param preset list paper connectx "a b"\nparam ns3::FeroceSwitch::Kmin list 100\nrequire preset != paper\n'
expect str 'preset=connectx ns3::FeroceSwitch::Kmin=100\npreset=a b ns3::FeroceSwitch::Kmin=100'
grid none 'flags --x=1\nreplications 3\n'
[ "$(wc -l < none.list)" -eq 3 ] && ok || bad "no parameters: $(cat none.list)"

# keys: the same point has the same key whatever the order of the param lines, and another
# key when a flag, a value, the seed, the program or the version changes
grid k1 'flags --a=1 --b=2\nparam x list 1 2\nparam y list 3\n'
grid k2 'param y list 3\nflags --a=1 --b=2\n# a comment\nparam x list 1 2   # and another\n'
grid k3 'flags --a=1 --b=3\nparam x list 1 2\nparam y list 3\n'
k1=$(cut -d' ' -f2 k1.list | sort | tr '\n' ' ')
[ "$k1" = "$(cut -d' ' -f2 k2.list | sort | tr '\n' ' ')" ] && ok || bad "keys change with the order of param lines"
cut -d' ' -f2 k1.list | sort > k1.keys
cut -d' ' -f2 k3.list | sort > k3.keys
[ -z "$(comm -12 k1.keys k3.keys)" ] && ok || bad "a changed flag keeps keys"
[ "$(cut -d' ' -f2 k1.list | sort -u | wc -l)" -eq 2 ] && ok || bad "keys not distinct"
"$sweep" list k1.sweep --dir d-k1 --key-version other > k1v.out && grep -v '^#' k1v.out | cut -d' ' -f2 | sort > k1v.keys &&
    [ -z "$(comm -12 k1.keys k1v.keys)" ] && ok || bad "--key-version keeps keys"
grep -q 'version other' k1v.out && ok || bad "--key-version not shown"
# a value that names a file: its content is in the key (an edited file makes new points), its
# name alone is not enough; a value naming no file keys as before
printf 'a\n' > topo-a.txt
printf 'b\n' > topo-b.txt
grid f1 'flags --topology=topo-a.txt\nparam flows list topo-b.txt\n'
grid f2 'flags --topology=topo-a.txt\nparam flows list topo-b.txt\n'
[ "$(cut -d' ' -f2 f1.list)" = "$(cut -d' ' -f2 f2.list)" ] && ok || bad "the same files: new keys"
printf 'a2\n' > topo-a.txt
grid f3 'flags --topology=topo-a.txt\nparam flows list topo-b.txt\n'
[ "$(cut -d' ' -f2 f1.list)" != "$(cut -d' ' -f2 f3.list)" ] && ok || bad "an edited flag's file keeps its key"
printf 'b2\n' > topo-b.txt
grid f4 'flags --topology=topo-a.txt\nparam flows list topo-b.txt\n'
[ "$(cut -d' ' -f2 f3.list)" != "$(cut -d' ' -f2 f4.list)" ] && ok || bad "an edited parameter's file keeps its key"
# the files a configuration names (the program says which: --PrintInputs) are in the key too
printf 'include topo-c.txt\n' > cfg.txt
printf 'c\n' > topo-c.txt
grid c1 'flags --config=cfg.txt\nparam x list 1\n'
grid c2 'flags --config=cfg.txt\nparam x list 1\n'
[ "$(cut -d' ' -f2 c1.list)" = "$(cut -d' ' -f2 c2.list)" ] && ok || bad "the same configuration: new keys"
printf 'c2\n' > topo-c.txt
grid c3 'flags --config=cfg.txt\nparam x list 1\n'
[ "$(cut -d' ' -f2 c1.list)" != "$(cut -d' ' -f2 c3.list)" ] && ok || bad "an edited file of a configuration keeps its key"
# ... and only the files the program reads: a file a flag names that is no input (a log the points
# append to) leaves the keys as they were
printf 'run 1\n' > points.log
grid l1 'flags --label=points.log\nparam x list 1\n'
printf 'run 2\n' >> points.log
grid l2 'flags --label=points.log\nparam x list 1\n'
[ "$(cut -d' ' -f2 l1.list)" = "$(cut -d' ' -f2 l2.list)" ] && ok || bad "a file that is no input is in the key"
# keys are 16 hex digits, the FNV-1a hash of the canonical text of src/feroce/doc/sweep-reference.md
# (computed independently: a change here invalidates every sweep's finished points)
[ "$(cut -d' ' -f2 k1.list | grep -c '^[0-9a-f]\{16\}$')" -eq 2 ] && ok || bad "key format: $(cat k1.list)"
printf 'program fake\nflags --a=1 --b=2\nparam y list 3\nparam x list 1 2\n' > golden.sweep
"$sweep" list golden.sweep --key-version test --dir d-golden | grep -q '^0 e7d4bcd0814ee744 1 pending y=3 x=1$' && ok ||
    bad "golden key: $("$sweep" list golden.sweep --key-version test --dir d-golden)"
# list -v shows each point's command with --RngRun, --outdir and --db
"$sweep" list k1.sweep -v --dir d-k1 | grep -q -- "--a=1 --b=2 --x=1 --y=3 --RngRun=1 --outdir=d-k1/points/[0-9a-f]* --db=d-k1/points/[0-9a-f]*/run.db" &&
    ok || bad "list -v: $("$sweep" list k1.sweep -v --dir d-k1)"

# a relative program path is relative to the sweep file's directory
mkdir -p sub/bin && ln -sf "$fake" sub/bin/fake && printf 'program bin/fake\nparam x list 1\n' > sub/rel.sweep
"$sweep" list sub/rel.sweep | grep -q "sub/bin/fake)" && ok || bad "relative program: $("$sweep" list sub/rel.sweep | head -1)"
printf 'program no-such-program-anywhere\n' > nf.sweep
"$sweep" run nf.sweep --dir d-nf > /dev/null 2> nf.err
[ $? -eq 2 ] && grep -q 'nf.sweep:1: program no-such-program-anywhere not found: looked in' nf.err && ok ||
    bad "missing program: $(cat nf.err)"

# reject NAME LINE PATTERN TEXT: "feroce-sweep list" exits 2 and names FILE:LINE: and PATTERN
reject() {
    printf '%b' "$4" > "$1.sweep"
    "$sweep" list "$1.sweep" --dir "d-$1" > /dev/null 2> "$1.err"
    rc=$?
    if [ $rc -ne 2 ]; then
        bad "$1: exit status $rc, wanted 2 ($(cat "$1.err"))"
    elif [ "$2" = 0 ] && ! grep -q -- "$1.sweep: " "$1.err"; then
        bad "$1: message $(cat "$1.err") (wanted the file named)"
    elif [ "$2" != 0 ] && ! grep -q -- "$1.sweep:$2: " "$1.err"; then
        bad "$1: message $(cat "$1.err") (wanted line $2)"
    elif ! grep -q -- "$3" "$1.err"; then
        bad "$1: message $(cat "$1.err") (wanted '$3')"
    else
        ok
    fi
}
p="program $fake\n"
reject unknown 2 'unknown directive "parm": expected name, program, flags, param' "$p"'parm x list 1\n'
reject kind 2 'param x: "range" is not allowed: expected list, lin or log' "$p"'param x range 1 2 3\n'
reject no-values 2 'param x list has no values' "$p"'param x list\n'
reject lin-args 3 'param x lin takes FROM TO COUNT, found 2 values' "$p"'# c\nparam x lin 1 2\n'
reject lin-number 2 'param x: FROM = "one" is not allowed: expected a number' "$p"'param x lin one 2 3\n'
reject lin-count 2 'COUNT = "2.5" is not allowed: expected an integer in \[2, 100000\]' "$p"'param x lin 1 2 2.5\n'
reject lin-same 2 'FROM = TO = 3: expected two different ends' "$p"'param x lin 3 3 4\n'
reject lin-round 2 'repeat after rounding to integers' "$p"'param x lin 0 1 5\n'
reject log-neg 2 'param x log: FROM = -1 and TO = 10 are not allowed: expected both > 0' "$p"'param x log -1 10 3\n'
reject dup-param 3 'parameter "x" is given twice (first on line 2)' "$p"'param x list 1\nparam x list 2\n'
reject dup-value 2 'value "1" is given twice' "$p"'param x list 1 2 1\n'
reject bad-name 2 'parameter name "2x" is not allowed: expected a flag name' "$p"'param 2x list 1\n'
reject reserved 2 'parameter "RngRun" is not allowed: feroce-sweep sets --RngRun itself' "$p"'param RngRun list 1 2\n'
reject flag-outdir 2 'flag "--outdir=x" is not allowed: feroce-sweep sets --outdir itself' "$p"'flags --outdir=x\n'
reject flag-db 3 'flag "--db=x.db" is not allowed' "$p"'flags --a=1\nflags --db=x.db\n'
reject flag-form 2 'flag "kmin=5" is not allowed: expected --NAME=VALUE' "$p"'flags kmin=5\n'
reject flag-param 3 'flag "--x=1" is also a swept parameter (line 2)' "$p"'param x list 1\nflags --x=1\n'
reject param-flag 3 'parameter "x" is also a fixed flag (--x=1)' "$p"'flags --x=1\nparam x list 1\n'
reject zip-len 4 'zip: a has 2 values and b has 3: expected zipped parameters with as many values each' "$p"'param a list 1 2\nparam b list 1 2 3\nzip a b\n'
reject zip-unknown 3 'zip: "c" is not a parameter' "$p"'param a list 1 2\nzip a c\n'
reject zip-twice 5 'zip: parameter a is already zipped on line 4' "$p"'param a list 1\nparam b list 1\nzip a b\nzip a b\n'
reject combine-zip 4 'combine zip: a has 1 values and b has 2: expected as many values' "$p"'param a list 1\nparam b list 1 2\ncombine zip\n'
reject combine 2 'combine "product" is not allowed: expected cartesian or zip' "$p"'combine product\n'
reject replications 2 'replications = "0" is not allowed: expected an integer in \[1, 100000\]' "$p"'replications 0\n'
reject replications2 3 'replications is given twice (first on line 2)' "$p"'replications 2\nreplications 3\n'
reject timeout 2 'timeout = "soon" is not allowed: expected seconds > 0' "$p"'timeout soon\n'
reject metric 2 'metric "jain-min" is not allowed: expected a name of letters, digits and _' "$p"'metrics jain-min\n'
reject require-op 3 'require: operator "=<" is not allowed' "$p"'param a list 1\nrequire a =< 3\n'
reject require-name 3 'require: "b" is not allowed: expected a parameter name or a number' "$p"'param a list 1\nrequire a < b\n'
reject require-text 3 'require a < 2: "x" < "2" is not allowed: expected numbers for <' "$p"'param a list x\nrequire a < 2\n'
reject quote 2 'a quote " is not closed' "$p"'param a list "x y\n'
reject plot-kind 3 'plot kind "bars" is not allowed' "$p"'param a list 1\nplot bars goodput_gbps a a\n'
reject plot-metric 4 'plot: metric "value" is not allowed: expected one of the metrics line' "$p"'param a list 1\nparam b list 1\nplot heatmap value a b\n'
reject plot-param 4 'plot: "c" is not a parameter' "$p"'param a list 1\nparam b list 1\nplot lines goodput_gbps a c\n'
reject plot-at 5 'plot: c = "9" is not allowed: expected one of the values of c (line 4)' "$p"'param a list 1\nparam b list 1\nparam c list 1 2\nplot heatmap goodput_gbps a b c=9\n'
reject plot-scale 4 'plot: "logx" is not allowed: expected NAME=VALUE (a parameter held fixed) or logcb, lincb (the colour scale)' "$p"'param a list 1\nparam b list 1\nplot heatmap goodput_gbps a b logx\n'
reject plot-scale2 4 'plot: "liny" is not allowed: a second scale for the same axis' "$p"'param a list 1\nparam b list 1\nplot lines goodput_gbps a b logy liny\n'
reject plot-logx 4 'plot: logx with a = "0" is not allowed: expected every value of a a number above 0' "$p"'param a list 0 10 100\nparam b list 1\nplot lines goodput_gbps a b logx\n'
reject plot-logx-words 4 'plot: logx with a = "fast" is not allowed' "$p"'param a list fast slow\nparam b list 1\nplot lines goodput_gbps a b logx\n'
reject name 1 'name "a/b" is not allowed' 'name a/b\n'"$p"
reject program-twice 2 'program is given twice (first on line 1)' "$p$p"
reject no-program 0 'no program line: expected "program NAME-OR-PATH"' 'param a list 1\n'
reject empty 0 'no program line' ''
"$sweep" list missing-file.sweep > /dev/null 2> missing.err; rc=$?
[ $rc -eq 2 ] && grep -q 'missing-file.sweep: cannot read: No such file or directory' missing.err && ok || bad "missing file: $rc $(cat missing.err)"

# the command line: unknown command and option, an option of another command, a bad -j
"$sweep" frobnicate x > /dev/null 2> cli.err; [ $? -eq 2 ] && grep -q 'command "frobnicate" is not allowed' cli.err && ok || bad "bad command"
"$sweep" run k1.sweep --frob > /dev/null 2> cli.err; [ $? -eq 2 ] && grep -q 'option "--frob" is not allowed' cli.err && ok || bad "bad option"
"$sweep" list k1.sweep --csv x > /dev/null 2> cli.err; [ $? -eq 2 ] && grep -q 'option "--csv" is not an option of list' cli.err && ok || bad "option of another command"
"$sweep" run k1.sweep -j 0 > /dev/null 2> cli.err; [ $? -eq 2 ] && grep -q -- '-j = "0" is not allowed: expected an integer in \[1, 4096\]' cli.err && ok || bad "bad -j: $(cat cli.err)"

# binary garbage comes back escaped, on one line
printf 'program %s\n\001\377bad\n' "$fake" > garbage.sweep
"$sweep" list garbage.sweep > /dev/null 2> garbage.err
[ $? -eq 2 ] && [ "$(wc -l < garbage.err)" -eq 1 ] && grep -qF '"\x01\xffbad"' garbage.err && ok || bad "garbage: $(od -c garbage.err | head -3)"
# report and plot on a sweep never run: exit 2, no empty report; a bad plot on the command
# line is named as such, not as a line past the end of the file
printf 'program %s\nparam a list 1 2\n' "$fake" > unrun.sweep
"$sweep" report unrun.sweep --dir "$work/unrun" > /dev/null 2> unrun.err
[ $? -eq 2 ] && [ ! -e "$work/unrun/report.csv" ] && grep -q 'has not been run yet' unrun.err && ok || bad "report of a sweep never run: $(cat unrun.err)"
"$sweep" plot unrun.sweep --dir "$work/unrun" heatmap m a bogus > /dev/null 2> plot.err
[ $? -eq 2 ] && grep -q '^feroce-sweep: the plot on the command line: ' plot.err && ok || bad "plot on the command line: $(cat plot.err)"

finish

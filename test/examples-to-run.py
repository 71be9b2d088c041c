#! /usr/bin/env python3
# The examples that ns-3's test.py runs when feroce is an in-tree module (contrib/feroce):
# test.py reads MODULE/test/examples-to-run.py.  Each entry: (command, run it?, under valgrind?).
# Short runs that write no row (--db=none) and put their files under the build's working folder;
# test.py runs them in testpy-output/DATE, so the files they read are named from there.

cpp_examples = [
    ("dcqcn-rate-limiter --preset=hpcc --duration=1ms --outdir=feroce-examples/rate-limiter", "True", "True"),
    ("advcam-incast --duration=3ms --db=none --outdir=feroce-examples/advcam-incast", "True", "False"),
    ("advcam-camera --boards=12 --boardsPerLeaf=4 --receivers=3 --duration=1ms --window=250us "
     "--warmup=250us --db=none --outdir=feroce-examples/advcam-camera", "True", "False"),
    ("advcam-mtu --duration=5ms --db=none --outdir=feroce-examples/advcam-mtu", "True", "False"),
    ("advcam-sawtooth --duration=3ms --warmup=1ms --db=none --outdir=feroce-examples/advcam-sawtooth",
     "True", "False"),
    ("feroce-bench --scenario=incast3", "True", "False"),
    ("fixed-point-widths --scripts=10 --events=200 --outdir=feroce-examples/fixed-point-widths",
     "True", "False"),
    ("fluid-vs-packet --boards=2 --lineRate=40Gbps --duration=2ms --db=none "
     "--outdir=feroce-examples/fluid-vs-packet", "True", "False"),
    ("advcam-receiver --duration=3ms --warmup=1ms --db=none --outdir=feroce-examples/advcam-receiver",
     "True", "False"),
    ("advcam-window --depths=1,4,16 --messageSizes=4096 --delays=50ns --duration=2ms --warmup=500us "
     "--db=none --outdir=feroce-examples/advcam-window", "True", "False"),
    ("feroce-fabric --topology=../../contrib/feroce/src/feroce/test/data/fabric/good/fat_k4.txt "
     "--cdf=../../contrib/feroce/examples/cdf/FbHdp.txt --load=0.3 --duration=1ms --db=none "
     "--outdir=feroce-examples/feroce-fabric", "True", "False"),
    ("advcam-eventbuilding --boards=24 --boardsPerLeaf=12 --receivers=3 --duration=2ms --db=none "
     "--outdir=feroce-examples/advcam-eventbuilding", "True", "False"),
]

python_examples = []

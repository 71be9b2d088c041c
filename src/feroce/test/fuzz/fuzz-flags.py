#!/usr/bin/python3
"""Random command lines for every feroce program, from a grammar of the input classes
(src/feroce/doc/input-grammar.md), within a time budget.

Each run must either do its job (exit 0, its files published, no incomplete-run folder) or
refuse the input before anything runs (exit 2: one line on stderr that begins with the
program's name, nothing on stdout, no row added, no file written).  Nothing else is allowed:
no abort, segfault, hang (a run is stopped after its timeout), other status, or, with the
attribute audit preloaded, an attribute not honoured (exit 3).

    fuzz-flags.py BUILD_DIR WORK_DIR [SECONDS] [SEED]

The seed (default 1) makes a failing run reproducible; each run is printed as it would be typed.
"""
import os
import random
import shlex
import shutil
import sqlite3
import subprocess
import sys
import time

# values by class: what a hostile user types
VALUES = {
    "whole": ["0", "1", "3", "12", "0x10", "0X1f", "1e3", "2.5e1", "007"],
    "bad-whole": ["-1", "1.5", "3x", "+1", " 1", "1 ", "0x", "0xg", "1e-1", "18446744073709551616",
                  "0x10000000000000000", "99999999999999999999999", "1,000", "1e400", "-0x1"],
    "real": ["0", "0.5", ".5", "5.", "1e-3", "-1", "0.01", "1"],
    "bad-real": ["0x1p-4", "0x1.8p3", "inf", "-inf", "nan", "infinity", "1e400", "0.5abc", "--1",
                 "1..2", "e3", "."],
    "time": ["0", "1ms", "500us", "1e3ns", "0.5ms", "2ms", "100ns"],
    "bad-time": ["1", "-1ms", "0x1p-20s", "1 ms", "1mss", "1e400s", "9e18h", "ms", "1e3", "nan ms"],
    "rate": ["10Gbps", "1Gbps", "25Gb/s", "100Mbps", "1e9bps", "1GBps"],
    "bad-rate": ["-10Gbps", "10gbps", "1e20Gbps", "fast", "10 Gbps", "0x10Gbps", "Gbps"],
    "bool": ["0", "1", "true", "false"],
    "bad-bool": ["2", "yes", "True", "-1", ""],
    "list": ["1,2,3", "1:4", "4096", "256,512", "50ns,1us", "write,send", "paper,hpcc"],
    "bad-list": ["", ",", "1,,2", "1,", "4:1", "1:1000001", "a,b", "1:x", "0:0x"],
    "junk": ["", "abc", "=", "1=2", "\x01", "\u00e9", "a" * 3000, "ns3::Bogus", "--", "-", "%s%n"],
    "type": ["ns3::MapScheduler", "ns3::HeapScheduler", "ns3::Bogus", "ns3::Node", "ns3::RoceNic",
             "ns3::DefaultSimulatorImpl", "ns3::FeroceSimulatorImpl", ""],
}
CLASSES = {  # the valid class twice: half the values parse
    "whole": ["whole", "whole", "bad-whole", "real", "junk"],
    "real": ["real", "real", "bad-real", "whole", "junk"],
    "time": ["time", "time", "bad-time", "whole", "junk"],
    "rate": ["rate", "rate", "bad-rate", "junk"],
    "bool": ["bool", "bool", "bad-bool", "junk"],
    "list": ["list", "list", "bad-list", "junk", "whole"],
    "string": ["junk", "list", "whole"],
    "type": ["type", "type", "junk"],
    "junk": ["junk"],
}
STUDY = {"duration": "time", "window": "time", "warmup": "time", "pcap": "bool"}
FABRIC = {"dcqcn": "bool", "preset": "string", "g": "real", "rai": "real", "timer": "time",
          "pfc": "bool", "pfcHonour": "bool", "headroom": "whole", "ecn": "bool", "kmin": "whole",
          "kmax": "whole", "pmax": "real", "bufferSize": "whole"}
ATTRIBUTES = {
    "ns3::FeroceSwitch::Kmin": "whole", "ns3::FeroceSwitch::Pmax": "real",
    "ns3::FeroceSwitch::PfcMode": "string", "ns3::FeroceSwitch::XoffBytes": "whole",
    "ns3::FeroceSwitch::Headroom": "whole", "ns3::FeroceSwitch::DscpMap": "string",
    "ns3::RoceQueuePair::AckTimeout": "time", "ns3::RoceQueuePair::Pmtu": "whole",
    "ns3::RoceQueuePair::Priority": "whole", "ns3::RoceNic::DcqcnPreset": "string",
    "ns3::RoceNic::ReactionPoint": "whole", "ns3::RoceNic::QueuePairs": "junk",
    "ns3::RoceNic::CnpPriority": "whole", "ns3::RoceNic::Ipv4Address": "string",
    "ns3::FeroceNetDevice::ReceiveErrorModel": "whole", "ns3::FeroceNetDevice::Mtu": "whole",
    "ns3::FeroceNetDevice::DataRate": "rate", "ns3::FeroceChannel::Delay": "time",
    "ns3::DcqcnReactionPoint::G": "real", "ns3::DcqcnReactionPoint::LineRate": "rate",
    "ns3::DcqcnReactionPoint::FixedPointFormat": "string", "ns3::RoceFrontEndApp::Mode": "string",
    "ns3::Bogus::X": "whole", "ns3::RoceNic::Bogus": "whole",
    "RngRun": "whole", "RngSeed": "whole", "SchedulerType": "type",
    "SimulatorImplementationType": "type", "ChecksumEnabled": "bool",
}
# program: (fixed arguments that keep a valid run short, its own flags by class)
PROGRAMS = {
    "advcam-incast": ("--duration=1ms --window=500us --warmup=0",
                      dict(STUDY, boards="whole", leave="bool", schedule="list", loss="real",
                           linkDelay="time", pmtu="whole", messageSize="whole", mode="string",
                           ackTimeout="time", ackJitter="time", **FABRIC)),
    "advcam-camera": ("--boards=6 --boardsPerLeaf=3 --receivers=2 --duration=1ms --window=500us --warmup=0",
                      dict(STUDY, boards="whole", receivers="whole", boardRate="rate",
                           fragmentSize="whole", triggerInterval="time", poisson="bool",
                           boardBuffer="whole", **FABRIC)),
    "advcam-mtu": ("--pmtus=1024 --duration=1ms --window=500us --warmup=0",
                   dict(STUDY, pmtus="list", messageSize="whole", maxOutstanding="whole",
                        linkRate="rate", linkDelay="time")),
    "advcam-sawtooth": ("--duration=1ms --window=500us --warmup=0",
                        dict(STUDY, presets="list", timers="list", gs="list", rais="list",
                             cnpInterval="time", kmin="whole")),
    "advcam-window": ("--depths=1,2 --messageSizes=4096 --delays=1us --duration=1ms --window=500us --warmup=0",
                      dict(STUDY, depths="list", messageSizes="list", opcodes="list", delays="list",
                           recvPostRate="real", ackReqMessages="whole", viaSwitch="bool")),
    "fluid-vs-packet": ("--duration=1ms --window=500us --warmup=0",
                        dict(STUDY, boards="whole", lineRate="rate", preset="string", pmtu="whole")),
    "dcqcn-rate-limiter": ("--duration=1ms",
                           {"preset": "string", "lineRate": "rate", "mtu": "whole", "duration": "time",
                            "sample": "time", "cnpInterval": "time"}),
    # a two-host star written into WORK_DIR (fabric.topo, fabric.flows) before the first run
    "feroce-fabric": ("--topology={work}/fabric.topo --flows={work}/fabric.flows --duration=1ms --window=500us",
                      dict(STUDY, topology="junk", flows="junk", cdf="junk", load="real", pairs="string",
                           incast="whole", incastSize="whole", incastPeriod="time", ecmpSeed="whole",
                           fctStep="whole", saveFlows="string", pmtu="whole", **FABRIC)),
    "fixed-point-widths": ("--scripts=2 --events=10 --rateBits=20:22 --alphaBits=10:11",
                           {"scripts": "whole", "events": "whole", "tolerance": "real", "clockHz": "whole",
                            "rateBits": "list", "presets": "list", "lineRate": "rate"}),
}
NO_ATTRIBUTES = {"fixed-point-widths"}


def pick(rng, kind):
    return rng.choice(VALUES[rng.choice(CLASSES[kind])])


def command(rng, bin_dir, prog, out, db):
    fixed, flags = PROGRAMS[prog]
    args = shlex.split(fixed.replace("{work}", os.path.dirname(out)))
    names = list(flags.items())
    if prog not in NO_ATTRIBUTES or rng.random() < 0.2:
        names += list(ATTRIBUTES.items())
    for _ in range(rng.randint(1, 3)):
        name, kind = rng.choice(names)
        form = rng.random()
        if form < 0.05:
            args.append("--" + name)  # no value
        elif form < 0.08:
            args.append("-" + name + "=" + pick(rng, kind))  # one dash
        else:
            args.append("--" + name + "=" + pick(rng, kind))
    if rng.random() < 0.05:
        args.append(rng.choice(["extra", "--bogus=1", "--help=x", "--PrintAttributes=ns3::Bogus"]))
    if prog.startswith("advcam") or prog in ("fluid-vs-packet", "feroce-fabric"):
        args += ["--outdir=" + out, "--db=" + db]
    else:
        args += ["--outdir=" + out]
    return [os.path.join(bin_dir, "examples", prog)] + args


def rows(db):
    if not os.path.exists(db):
        return 0
    with sqlite3.connect(db) as c:
        try:
            return c.execute("SELECT count(*) FROM runs").fetchone()[0]
        except sqlite3.OperationalError:
            return 0


def main():
    bin_dir, work = sys.argv[1], sys.argv[2]
    budget = float(sys.argv[3]) if len(sys.argv) > 3 else 45
    seed = int(sys.argv[4]) if len(sys.argv) > 4 else 1
    rng = random.Random(seed)
    shutil.rmtree(work, ignore_errors=True)
    os.makedirs(work)
    with open(os.path.join(work, "fabric.topo"), "w") as f:
        f.write("feroce-topology 1\nnode h0 host\nnode h1 host\nnode s0 switch\n"
                "link h0 s0 10Gbps 1us\nlink h1 s0 10Gbps 1us\n")
    with open(os.path.join(work, "fabric.flows"), "w") as f:
        f.write("feroce-flows 1\nh0 h1 100000 0ns\nh1 h0 5000 10us\n")
    env = dict(os.environ)
    audit = os.path.join(bin_dir, "lib", "libferoce-audit.so")
    if os.path.exists(audit):
        env["LD_PRELOAD"] = audit
    db = os.path.join(work, "feroce.db")
    failures = []
    runs = {0: 0, 2: 0}
    start = time.monotonic()
    n = 0
    print("fuzz-flags: seed %d, %g s" % (seed, budget))
    while time.monotonic() - start < budget:
        n += 1
        prog = rng.choice(sorted(PROGRAMS))
        out = os.path.join(work, "out%d" % n)
        cmd = command(rng, bin_dir, prog, out, db)
        # as it would be typed (a long value shortened: printf 'a%.0s' {1..3000} rebuilds it)
        typed = " ".join(shlex.quote(a if len(a) < 120 else a[:60] + "...(%d bytes)" % len(a))
                         for a in [prog] + cmd[1:])
        before = rows(db)
        try:
            p = subprocess.run(cmd, capture_output=True, timeout=60, env=env)
        except subprocess.TimeoutExpired:
            failures.append("hang (60 s): " + typed)
            continue
        err = p.stderr.decode("utf-8", "replace")
        lines = err.splitlines()
        why = None
        if p.returncode == 2:
            runs[2] += 1
            if len(lines) != 1 or not lines[0].startswith(prog + ": "):
                why = "exit 2 without one line naming the program: %r" % err[:500]
            elif p.stdout:
                why = "exit 2 with output on stdout"
            elif rows(db) != before:
                why = "exit 2 added a row"
            elif os.path.exists(out):
                why = "exit 2 left %s: %s" % (out, os.listdir(out))
        elif p.returncode == 0:
            runs[0] += 1
            if os.path.exists(os.path.join(out, "incomplete-run")):
                why = "exit 0 left incomplete-run"
            elif "help" not in typed and "Print" not in typed and not os.path.exists(out):
                why = "exit 0 wrote nothing"
        else:
            why = "exit status %d: %r" % (p.returncode, err[-300:])
        if why:
            failures.append(why + ": " + typed)
        shutil.rmtree(out, ignore_errors=True)
    print("fuzz-flags: %d runs in %.0f s: %d did their job, %d refused by name, %d failed"
          % (n, time.monotonic() - start, runs[0], runs[2], len(failures)))
    for f in failures:
        print("FAIL: " + f)
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())

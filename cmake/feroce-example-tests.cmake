# The examples' tests (standalone build): each study program as a user runs it, its outputs and
# its row; a bad flag named with exit status 2; every bad input at once (bad-inputs-test.sh).
# Included by feroce_standalone_targets() in feroce-standalone.cmake.
# the example as a user runs it: a short run writes its CSV; a bad flag exits non-zero, named
add_test(NAME example-dcqcn-rate-limiter
         COMMAND dcqcn-rate-limiter --preset=hpcc --duration=1ms --outdir=${CMAKE_BINARY_DIR}/test-out)
set_tests_properties(example-dcqcn-rate-limiter PROPERTIES PASS_REGULAR_EXPRESSION "wrote .*rate-limiter.csv")
add_test(NAME example-dcqcn-rate-limiter-bad-preset COMMAND dcqcn-rate-limiter --preset=fast)
set_tests_properties(example-dcqcn-rate-limiter-bad-preset PROPERTIES WILL_FAIL TRUE)
add_test(NAME example-dcqcn-rate-limiter-bad-preset-message COMMAND dcqcn-rate-limiter --preset=fast)
set_tests_properties(example-dcqcn-rate-limiter-bad-preset-message PROPERTIES PASS_REGULAR_EXPRESSION
                     "preset = \"fast\" is not allowed: expected paper, connectx or hpcc")

add_test(NAME example-advcam-incast
         COMMAND advcam-incast --duration=3ms --outdir=${CMAKE_BINARY_DIR}/test-out/advcam-incast
                 --db=${CMAKE_BINARY_DIR}/test-out/feroce.db)
set_tests_properties(example-advcam-incast PROPERTIES PASS_REGULAR_EXPRESSION "wrote .*metrics.txt")
add_test(NAME example-advcam-incast-bad-pmtu COMMAND advcam-incast --pmtu=1500)
set_tests_properties(example-advcam-incast-bad-pmtu PROPERTIES PASS_REGULAR_EXPRESSION
                     "Pmtu = 1500 is not allowed: expected 256, 512, 1024, 2048 or 4096")
add_test(NAME example-advcam-incast-bad-buffer COMMAND advcam-incast --boards=16 --bufferSize=150000)
set_tests_properties(example-advcam-incast-bad-buffer PROPERTIES PASS_REGULAR_EXPRESSION
                     "BufferSize = 150000 is not allowed")

# a study's row, its outputs, a killed run and the pictures (sqlite3 and gnuplot)
add_test(NAME study-advcam-incast
         COMMAND sh ${CMAKE_CURRENT_SOURCE_DIR}/src/feroce/test/study/study-test.sh
                 $<TARGET_FILE:advcam-incast> ${CMAKE_CURRENT_SOURCE_DIR} ${CMAKE_BINARY_DIR}/test-out/study)
# render.sh's titles (the parameters in force, a sweep point by its values) and a failed picture
add_test(NAME study-render
         COMMAND sh ${CMAKE_CURRENT_SOURCE_DIR}/src/feroce/test/study/render-test.sh
                 $<TARGET_FILE:advcam-incast> ${CMAKE_CURRENT_SOURCE_DIR} ${CMAKE_BINARY_DIR}/test-out/render)
set_tests_properties(study-render PROPERTIES SKIP_RETURN_CODE 77)
add_test(NAME example-advcam-incast-bad-schedule COMMAND advcam-incast --schedule=0ms:30ms)
set_tests_properties(example-advcam-incast-bad-schedule PROPERTIES PASS_REGULAR_EXPRESSION
                     "--schedule=0ms:30ms is not allowed: expected 3 start:stop pairs")
# the main job's bench: turn-taking with PFC alone, fair sharing with DCQCN
add_test(NAME study-advcam-onoff
         COMMAND sh ${CMAKE_CURRENT_SOURCE_DIR}/src/feroce/test/study/onoff-test.sh
                 $<TARGET_FILE:advcam-incast> ${CMAKE_BINARY_DIR}/test-out/onoff)
add_test(NAME example-advcam-incast-bad-ack-jitter COMMAND advcam-incast --ackJitter=-1ms)
set_tests_properties(example-advcam-incast-bad-ack-jitter PROPERTIES PASS_REGULAR_EXPRESSION
                     "--ackJitter=-1ms is not allowed: expected a time >= 0")
add_test(NAME example-advcam-incast-bad-g COMMAND advcam-incast --g=2)
set_tests_properties(example-advcam-incast-bad-g PROPERTIES PASS_REGULAR_EXPRESSION
                     "--g=2 is not allowed")

# the AdvCam studies as a user runs them: a short run writes its files and its row into the
# database (the line "row N in DB" comes last, after every file); a bad flag is named and
# exits with status 2 (the sh wrapper prints the status for the expression to see)
set(study_out ${CMAKE_BINARY_DIR}/test-out)
add_test(NAME example-advcam-camera
         COMMAND advcam-camera --boards=12 --boardsPerLeaf=4 --receivers=3 --duration=1ms
                 --window=250us --warmup=250us --outdir=${study_out}/advcam-camera
                 --db=${study_out}/feroce.db)
set_tests_properties(example-advcam-camera PROPERTIES PASS_REGULAR_EXPRESSION
  "queue_max_bytes=.*events_lost=0.*wrote [^\n]*switches.csv,pause.csv,boards.csv,receivers.csv,leaves.csv,metrics.txt.*row [0-9]+ in [^\n]*feroce.db")
add_test(NAME example-advcam-mtu
         COMMAND advcam-mtu --duration=5ms --outdir=${study_out}/advcam-mtu --db=${study_out}/feroce.db)
# the measured goodput at PMTU 4096 is the table's 9.804 Gb/s, every PMTU within 1% of it
set_tests_properties(example-advcam-mtu PROPERTIES PASS_REGULAR_EXPRESSION
  "advcam-mtu: goodput_gbps=9\\.(79|80|81)[0-9]*\n.*max_error_vs_analytic=(0\\.00[0-9]*|[0-9.]+e-0[5-9])\n.*wrote [^\n]*mtu.csv.*row [0-9]+ in [^\n]*feroce.db")
add_test(NAME example-advcam-sawtooth
         COMMAND advcam-sawtooth --duration=3ms --warmup=1ms --outdir=${study_out}/advcam-sawtooth
                 --db=${study_out}/feroce.db)
set_tests_properties(example-advcam-sawtooth PROPERTIES PASS_REGULAR_EXPRESSION
  "board2_cnps=[1-9].*wrote [^\n]*series.csv,pause.csv,metrics.txt.*row [0-9]+ in [^\n]*feroce.db")
foreach(bad
    "camera-boards|advcam-camera|--boards=0|--boards=0 is not allowed: expected 1..2000"
    "camera-leaf|advcam-camera|--boardsPerLeaf=300|--boardsPerLeaf=300 is not allowed: expected 1..256"
    "camera-receivers|advcam-camera|--receivers=0|--receivers=0 is not allowed: expected 1..64"
    "camera-buffer|advcam-camera|--boardBuffer=1000|--boardBuffer=1000 is not allowed: expected >= fragmentSize = 4096"
    "camera-simulator-impl|advcam-camera|--SimulatorImplementationType=ns3::MapScheduler|SimulatorImplementationType = ns3::MapScheduler is not allowed: expected ns3::DefaultSimulatorImpl"
    "camera-pmtu|advcam-camera|--pmtu=1500|Pmtu = 1500 is not allowed: expected 256, 512, 1024, 2048 or 4096"
    "camera-trigger-both|advcam-camera|--triggerRate=62500 --triggerInterval=16us|--triggerRate=62500 is not allowed: expected no --triggerInterval beside it .give one of the two."
    "camera-trigger-rate|advcam-camera|--triggerRate=0|--triggerRate=0 is not allowed: expected > 0 and <= 1e9 per second"
    "camera-steady-start|advcam-camera|--steadyStart=late|--steadyStart=late is not allowed: expected auto or warmup"
    "mtu-pmtus|advcam-mtu|--pmtus=256,1500|--pmtus=256,1500 is not allowed: expected distinct values of 256, 512, 1024, 2048 and 4096"
    "mtu-message|advcam-mtu|--messageSize=0|--messageSize=0 is not allowed: expected 1..2147483648"
    "sawtooth-presets|advcam-sawtooth|--presets=paper,fast|--presets=paper,fast is not allowed: expected paper, connectx or hpcc for each item .fast is not."
    "sawtooth-timers|advcam-sawtooth|--timers=0,0|--timers=0,0 is not allowed: expected 3 comma-separated values"
    "sawtooth-g|advcam-sawtooth|--gs=0,2,0|--gs=0,2,0 is not allowed: expected a number in .0, 1. for each item .2 is not."
    "receiver-pmtus|advcam-receiver|--pmtus=300|--pmtus=300 is not allowed: expected distinct values"
    "receiver-rate|advcam-receiver|--softByteRate=0bps|--softByteRate=0bps is not allowed: expected a rate > 0"
    "receiver-buffer|advcam-receiver|--pmtus=4096 --softBuffer=1000|RxBufferSize = 1000 is not allowed: expected >= 4178"
    "receiver-headroom|advcam-receiver|--softBuffer=12000|RxBufferSize = 12000 is not allowed with RxPfc: expected >= "
    "receiver-owned|advcam-receiver|--ns3::RoceNic::RxProcessingRate=1Gbps|--ns3::RoceNic::RxProcessingRate is set by this program through --softByteRate"
    "window-depths|advcam-window|--depths=0:4|--depths=0:4 is not allowed: expected lo:hi or distinct comma-separated depths, within 1..1024"
    "window-delays|advcam-window|--delays=-1us|--delays=-1us is not allowed: expected distinct comma-separated times within 0..1ms"
    "window-opcodes|advcam-window|--opcodes=read|--opcodes=read is not allowed: expected write, send or write,send"
    "window-post-rate|advcam-window|--recvPostRate=-5|--recvPostRate=-5 is not allowed: expected 0 .buffers always posted. or a rate in .0, 1e9. buffers per second"
    "window-buffers|advcam-window|--recvPostRate=1000 --receiveBuffers=0|--receiveBuffers=0 is not allowed: expected >= 1 with --recvPostRate > 0"
    "window-latency|advcam-window|--completionLatency=-1us|--completionLatency=-1us is not allowed: expected a time >= 0"
    "window-ackreq|advcam-window|--ackReqMessages=2000|--ackReqMessages=2000 is not allowed: expected 0..1024"
    "window-post-rate-attribute|advcam-window|--ns3::RoceReceiverApp::PostRate=5|--ns3::RoceReceiverApp::PostRate is set by this program through --recvPostRate")
  string(REPLACE "|" ";" bad "${bad}")
  list(GET bad 0 name)
  list(GET bad 1 program)
  list(GET bad 2 flag)
  list(GET bad 3 message)
  separate_arguments(flag)
  add_test(NAME example-advcam-${name}-bad
           COMMAND sh -c "\"$0\" \"$@\"; echo \"exit status $?\"" $<TARGET_FILE:${program}>
                   ${flag} --outdir=${study_out}/bad --db=none)
  set_tests_properties(example-advcam-${name}-bad PROPERTIES PASS_REGULAR_EXPRESSION
                       "${program}: [^\n]*${message}.*exit status 2")
endforeach()

# every bad input: exit status 2, one line, no row, no file; an ns-3 attribute honoured
add_test(NAME study-bad-inputs
         COMMAND sh ${CMAKE_CURRENT_SOURCE_DIR}/src/feroce/test/study/bad-inputs-test.sh
                 ${CMAKE_BINARY_DIR}/examples ${CMAKE_BINARY_DIR}/test-out/bad-inputs/work)

# the design study as a user runs it (a short one), and a bad flag refused by name
add_test(NAME example-fixed-point-widths
         COMMAND fixed-point-widths --scripts=10 --events=200 --outdir=${CMAKE_BINARY_DIR}/test-out/fpw)
set_tests_properties(example-fixed-point-widths PROPERTIES PASS_REGULAR_EXPRESSION
                     "connectx +nearest +[0-9]+ +[0-9]+ +0\\.0.*wrote [^\n]*minimum.csv")
add_test(NAME example-fixed-point-widths-bad
         COMMAND sh -c "\"$0\" \"$@\"; echo \"exit status $?\"" $<TARGET_FILE:fixed-point-widths>
                 --alphaBits=0:40 --outdir=${CMAKE_BINARY_DIR}/test-out/fpw-bad)
set_tests_properties(example-fixed-point-widths-bad PROPERTIES PASS_REGULAR_EXPRESSION
                     "--alphaBits=0:40 is not allowed: expected lo:hi within 1:31.*exit status 2")
# the AdvCam fixed-point comparison, one run per format: a summary row for each of the six
add_test(NAME example-fixed-point-advcam
         COMMAND sh ${CMAKE_CURRENT_SOURCE_DIR}/examples/fixed-point-advcam.sh $<TARGET_FILE:advcam-incast>
                 ${CMAKE_BINARY_DIR}/test-out/fpa 1 hpcc)
set_tests_properties(example-fixed-point-advcam PROPERTIES PASS_REGULAR_EXPRESSION
                     "double +1 .*surf +1 .*surf-alpha-16 +1 .*wrote [^\n]*summary.csv")

# an event scheduler that is not one is refused by name before anything runs
add_test(NAME example-advcam-incast-bad-scheduler COMMAND advcam-incast --SchedulerType=ns3::Bogus)
set_tests_properties(example-advcam-incast-bad-scheduler PROPERTIES PASS_REGULAR_EXPRESSION
                     "SchedulerType = ns3::Bogus is not allowed: expected ns3::MapScheduler")

# the receiver study (src/feroce/doc/receiver.md): Soft-RoCE's CPU model (5.02 Gb/s at PMTU 4096),
# ConnectX at the wire's limit, the bench lossless with the NIC's PFC; its bad inputs by name
add_test(NAME example-advcam-receiver
         COMMAND advcam-receiver --duration=8ms --warmup=2ms --outdir=${study_out}/advcam-receiver
                 --db=${study_out}/feroce.db)
set_tests_properties(example-advcam-receiver PROPERTIES PASS_REGULAR_EXPRESSION
  "connectx_pmtu4096_gbps=9\\.80[0-9]*\n.*softroce_pfc_pmtu4096_gbps=5\\.0[12][0-9]*\n.*nicpfc1_dcqcn0_goodput_gbps=5\\.0[12][0-9]*\n.*nicpfc1_dcqcn0_nic_drops=0\n.*wrote [^\n]*pmtu.csv,bench.csv.*row [0-9]+ in [^\n]*feroce.db")
# the work-request window study (doc/window.md): the hardware bench's two points with one
# parameter set (8.17 and 9.80 Gb/s against 8.10 and 9.75), the formula within 0.1%; RNR with a
# receiver posting 20000 buffers per second: rnr_retry 7 retries for ever, 3 fails by name
add_test(NAME example-advcam-window
         COMMAND advcam-window --depths=1,2,4,8,16 --messageSizes=1024,4096 --delays=50ns,1us
                 --duration=2ms --warmup=500us --outdir=${study_out}/advcam-window --db=${study_out}/feroce.db)
set_tests_properties(example-advcam-window PROPERTIES PASS_REGULAR_EXPRESSION
  "bench4_gbps=8\\.17[0-9]*\n.*bench16_gbps=9\\.80[0-9]*\n.*max_error_vs_analytic=([0-9.]+e-0[4-9]|0\\.000[0-9]*)\n.*points_below_formula=0\n.*wrote [^\n]*window.csv,design.csv,hardware.csv.*row [0-9]+ in [^\n]*feroce.db")
add_test(NAME example-advcam-window-rnr-forever
         COMMAND advcam-window --opcodes=send --depths=4 --messageSizes=4096 --delays=50ns --withImm=1
                 --recvPostRate=20000 --rnrRetry=7 --duration=3ms --outdir=${study_out}/window-rnr7 --db=none)
set_tests_properties(example-advcam-window-rnr-forever PROPERTIES PASS_REGULAR_EXPRESSION
  "rnr_naks=[1-9][0-9]*\nadvcam-window: qp_errors=0\n")
add_test(NAME example-advcam-window-rnr-exceeded
         COMMAND advcam-window --opcodes=send --depths=4 --messageSizes=4096 --delays=50ns --withImm=1
                 --recvPostRate=20000 --rnrRetry=3 --duration=3ms --outdir=${study_out}/window-rnr3 --db=none)
set_tests_properties(example-advcam-window-rnr-exceeded PROPERTIES PASS_REGULAR_EXPRESSION
  "1 queue pair\\(s\\) in the error state, first completion status: RNR retry exceeded.*rnr_naks=4\nadvcam-window: qp_errors=1\n")

# The attribute audit (src/feroce/test/audit): preloaded, it records every ns-3 object a program
# creates, and the program's front door checks each holds the value every attribute was given.
add_library(feroce-audit SHARED src/feroce/test/audit/feroce-audit.cc)
target_link_libraries(feroce-audit PRIVATE ${libcore})
feroce_target_flags(feroce-audit)
# the audit fails a program that overwrites a value it was given (exit 3, one line)
add_executable(feroce-audit-selftest src/feroce/test/audit/audit-selftest.cc)
target_link_libraries(feroce-audit-selftest PRIVATE ${libferoce})
feroce_target_flags(feroce-audit-selftest)
add_test(NAME audit-selftest
         COMMAND sh ${CMAKE_CURRENT_SOURCE_DIR}/src/feroce/test/audit/audit-selftest.sh
                 $<TARGET_FILE:feroce-audit-selftest> $<TARGET_FILE:feroce-audit>)
# every attribute of every feroce type, on every study program: honoured or refused by name
add_test(NAME study-attributes-audit
         COMMAND sh ${CMAKE_CURRENT_SOURCE_DIR}/src/feroce/test/audit/attributes-test.sh
                 ${CMAKE_BINARY_DIR}/examples $<TARGET_FILE:feroce-audit>
                 ${CMAKE_BINARY_DIR}/test-out/attributes)
# a study's files and row together or not at all: killed, failed, interrupted runs; warnings
add_test(NAME study-publish
         COMMAND sh ${CMAKE_CURRENT_SOURCE_DIR}/src/feroce/test/study/publish-test.sh
                 ${CMAKE_BINARY_DIR}/examples ${CMAKE_BINARY_DIR}/test-out/publish)
# random command lines from a grammar of the input classes, every program, 40 s (seed 1)
add_test(NAME fuzz-flags
         COMMAND /usr/bin/python3 ${CMAKE_CURRENT_SOURCE_DIR}/src/feroce/test/fuzz/fuzz-flags.py
                 ${CMAKE_BINARY_DIR} ${CMAKE_BINARY_DIR}/test-out/fuzz-flags 40 1)
# the front door's grammar, flags and precedence, and the window formula (an ns-3 TestSuite)
add_test(NAME ns3-feroce-front-door COMMAND feroce-test-runner --suite=feroce-front-door --verbose)

# advcam-camera: counters that add up (losses at every place), the steady state and its
# convergence warning, --triggerRate, the camera's pictures
add_test(NAME study-camera
         COMMAND sh ${CMAKE_CURRENT_SOURCE_DIR}/src/feroce/test/study/camera-test.sh
                 $<TARGET_FILE:advcam-camera> ${CMAKE_CURRENT_SOURCE_DIR} ${CMAKE_BINARY_DIR}/test-out/camera)
# the camera sweep of the docs, small (the full one: the sweep-camera target)
add_test(NAME study-camera-sweep
         COMMAND sh ${CMAKE_CURRENT_SOURCE_DIR}/src/feroce/test/study/camera-sweep-test.sh
                 $<TARGET_FILE:feroce-sweep> ${CMAKE_CURRENT_SOURCE_DIR} ${CMAKE_BINARY_DIR}/test-out/camera-sweep)
set_tests_properties(study-camera-sweep PROPERTIES TIMEOUT 300)
# advcam-camera on a topology file: feroce-topo camera's file gives the built-in shape's outputs
# byte for byte; two aggregation switches; the flags the file owns refused
add_test(NAME study-camera-topology
         COMMAND sh ${CMAKE_CURRENT_SOURCE_DIR}/src/feroce/test/study/camera-topology-test.sh ${CMAKE_BINARY_DIR}
                 ${CMAKE_BINARY_DIR}/test-out/camera-topology)
# a packet study's batches (feroce-sweep's "batch N", the fork server): the files and rows of one
# process per point, failures kept apart (exit 1, exit 2, a signal), resuming, bad batches
add_test(NAME study-batch
         COMMAND sh ${CMAKE_CURRENT_SOURCE_DIR}/src/feroce/test/study/batch-test.sh
                 $<TARGET_FILE:advcam-incast> $<TARGET_FILE:feroce-sweep> ${CMAKE_BINARY_DIR}/test-out/batch)
set_tests_properties(study-batch PROPERTIES TIMEOUT 300)

# feroce-fabric on a k=4 fat-tree: a flow alone in its standalone FCT, drawn flows reproducible
# by seed, the HPCC simulator's configuration, fct.txt through feroce-topo, the picture, and
# every bad file or flag refused by line
add_test(NAME study-fabric
         COMMAND sh ${CMAKE_CURRENT_SOURCE_DIR}/src/feroce/test/study/fabric-test.sh ${CMAKE_BINARY_DIR}
                 ${CMAKE_CURRENT_SOURCE_DIR}/src/feroce/test/data ${CMAKE_CURRENT_SOURCE_DIR}
                 ${CMAKE_BINARY_DIR}/test-out/fabric)
set_tests_properties(study-fabric PROPERTIES TIMEOUT 300)
# links down and up on a k=4 fat-tree: routes around a dead uplink, a host cut off and back, the
# HPCC simulator's LINK_DOWN, bad outages refused by line
add_test(NAME study-fabric-outage
         COMMAND sh ${CMAKE_CURRENT_SOURCE_DIR}/src/feroce/test/study/fabric-outage-test.sh ${CMAKE_BINARY_DIR}
                 ${CMAKE_CURRENT_SOURCE_DIR}/src/feroce/test/data ${CMAKE_BINARY_DIR}/test-out/fabric-outage)

# event building when a receiver fails (src/feroce/doc/eventbuilding.md): static assignment as
# advcam-camera, a crash and return under both policies, a slow receiver, random failures, every
# counter adding up (short runs; the docs run the real ones)
add_test(NAME study-advcam-eventbuilding
         COMMAND sh ${CMAKE_CURRENT_SOURCE_DIR}/src/feroce/test/study/eventbuilding-test.sh
                 ${CMAKE_BINARY_DIR}/examples ${CMAKE_BINARY_DIR}/test-out/eventbuilding)

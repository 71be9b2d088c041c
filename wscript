# -*- Mode: python; py-indent-offset: 4; indent-tabs-mode: nil; coding: utf-8; -*-
#
# feroce as contrib/feroce of an ns-3 <= 3.35 source tree (waf).  Newer trees
# and the standalone build use CMakeLists.txt; keep the two source lists equal.

CORE_SOURCES = [
    'src/feroce/core/feroce-check.c',
    'src/feroce/core/feroce-rp.c',
    'src/feroce/core/feroce-rp-params.c',
    'src/feroce/core/feroce-np.c',
    'src/feroce/core/feroce-cp.c',
    'src/feroce/core/feroce-wire.c',
    'src/feroce/core/feroce-icrc.c',
]

CORE_HEADERS = [
    'src/feroce/core/feroce-check.h',
    'src/feroce/core/feroce-rp.h',
    'src/feroce/core/feroce-np.h',
    'src/feroce/core/feroce-cp.h',
    'src/feroce/core/feroce-wire.h',
    'src/feroce/core/feroce-icrc.h',
]

import subprocess

# the results layer (sqlite results database, GSL statistics), compiled into the module here
RESULTS_SOURCES = [
    'src/feroce/results/feroce-db.c',
    'src/feroce/results/feroce-stats.c',
]

RESULTS_HEADERS = [
    'src/feroce/results/feroce-db.h',
    'src/feroce/results/feroce-stats.h',
]


def configure(conf):
    pass


def feroce_version(path):
    """The version the results database records: as CMakeLists.txt: feroce_base_version-<git describe>."""
    try:
        out = subprocess.check_output(['git', 'describe', '--always', '--dirty'], cwd=path,
                                      stderr=subprocess.DEVNULL)
        return '0.1.0-' + out.decode().strip()
    except (OSError, subprocess.CalledProcessError):
        return '0.1.0'


def build(bld):
    module = bld.create_ns3_module('feroce', ['core', 'network'])
    module.source = CORE_SOURCES + [
        'src/feroce/model/dcqcn-reaction-point.cc',
        'src/feroce/model/roce-header.cc',
        'src/feroce/model/icrc-trailer.cc',
        'src/feroce/model/pfc-header.cc',
        'src/feroce/model/feroce-channel.cc',
        'src/feroce/model/feroce-frame.cc',
        'src/feroce/model/feroce-net-device.cc',
        'src/feroce/model/roce-queue-pair.cc',
        'src/feroce/model/roce-nic.cc',
        'src/feroce/model/roce-frontend-app.cc',
        'src/feroce/model/roce-receiver-app.cc',
        'src/feroce/model/pfc-pause-state.cc',
        'src/feroce/model/feroce-switch-port.cc',
        'src/feroce/model/feroce-switch.cc',
        'src/feroce/helper/roce-helper.cc',
        'src/feroce/helper/feroce-study.cc',
        'src/feroce/helper/feroce-switch-probe.cc',
    ] + RESULTS_SOURCES
    # waf compiles the C core without -fPIC or optimisation by default
    module.env.append_value('CFLAGS', ['-fPIC', '-O2', '-std=c11'])
    module.env.append_value('LIB', ['sqlite3', 'gsl', 'gslcblas', 'm'])
    module.env.append_value('DEFINES', ['FEROCE_VERSION="%s"' % feroce_version(bld.path.abspath())])

    module_test = bld.create_ns3_module_test_library('feroce')
    module_test.source = [
        'src/feroce/test/dcqcn-reaction-point-test-suite.cc',
        'src/feroce/test/roce-header-test-suite.cc',
        'src/feroce/test/roce-nic-test-suite.cc',
        'src/feroce/test/feroce-switch-test-suite.cc',
        'src/feroce/test/roce-frontend-app-test-suite.cc',
        'src/feroce/test/feroce-scheduler-test-suite.cc',
    ]

    headers = bld(features='ns3header')
    headers.module = 'feroce'
    headers.source = CORE_HEADERS + RESULTS_HEADERS + [
        'src/feroce/model/dcqcn-reaction-point.h',
        'src/feroce/model/roce-header.h',
        'src/feroce/model/icrc-trailer.h',
        'src/feroce/model/pfc-header.h',
        'src/feroce/model/feroce-channel.h',
        'src/feroce/model/feroce-frame.h',
        'src/feroce/model/feroce-net-device.h',
        'src/feroce/model/roce-work-request.h',
        'src/feroce/model/roce-queue-pair.h',
        'src/feroce/model/roce-nic.h',
        'src/feroce/model/roce-frontend-app.h',
        'src/feroce/model/roce-receiver-app.h',
        'src/feroce/model/pfc-pause-state.h',
        'src/feroce/model/feroce-switch-port.h',
        'src/feroce/model/feroce-switch.h',
        'src/feroce/helper/roce-helper.h',
        'src/feroce/helper/feroce-study.h',
        'src/feroce/helper/feroce-switch-probe.h',
    ]

    if bld.env.ENABLE_EXAMPLES:
        bld.recurse('examples')

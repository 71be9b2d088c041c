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
]

CORE_HEADERS = [
    'src/feroce/core/feroce-check.h',
    'src/feroce/core/feroce-rp.h',
    'src/feroce/core/feroce-np.h',
    'src/feroce/core/feroce-cp.h',
]


def configure(conf):
    pass


def build(bld):
    module = bld.create_ns3_module('feroce', ['core', 'network'])
    module.source = CORE_SOURCES + [
        'src/feroce/model/dcqcn-reaction-point.cc',
    ]
    # waf compiles the C core without -fPIC or optimisation by default
    module.env.append_value('CFLAGS', ['-fPIC', '-O2', '-std=c11'])

    module_test = bld.create_ns3_module_test_library('feroce')
    module_test.source = [
        'src/feroce/test/dcqcn-reaction-point-test-suite.cc',
    ]

    headers = bld(features='ns3header')
    headers.module = 'feroce'
    headers.source = CORE_HEADERS + [
        'src/feroce/model/dcqcn-reaction-point.h',
    ]

    if bld.env.ENABLE_EXAMPLES:
        bld.recurse('examples')

# -*- Mode: python; py-indent-offset: 4; indent-tabs-mode: nil; coding: utf-8; -*-
#
# feroce as contrib/feroce of an ns-3 <= 3.35 source tree (waf).  Newer trees
# and the standalone build use CMakeLists.txt; both read their files from sources.txt.

import os
import subprocess


def read_sources(bld, kind):
    """The paths of one kind in sources.txt, the module's one list of files (CMake reads it too)."""
    with open(os.path.join(bld.path.abspath(), 'sources.txt')) as f:
        return [line.split()[1] for line in f
                if line.strip() and not line.startswith('#') and line.split()[0] == kind]


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
    module.source = (read_sources(bld, 'core') + read_sources(bld, 'source') + read_sources(bld, 'results') +
                     read_sources(bld, 'fabric'))
    # waf compiles the C core without -fPIC or optimisation by default
    module.env.append_value('CFLAGS', ['-fPIC', '-O2', '-std=c11'])
    module.env.append_value('LIB', ['sqlite3', 'gsl', 'gslcblas', 'm'])
    module.env.append_value('DEFINES', ['FEROCE_VERSION="%s"' % feroce_version(bld.path.abspath())])

    module_test = bld.create_ns3_module_test_library('feroce')
    module_test.source = read_sources(bld, 'test')

    headers = bld(features='ns3header')
    headers.module = 'feroce'
    headers.source = (read_sources(bld, 'core-header') + read_sources(bld, 'results-header') +
                      read_sources(bld, 'fabric-header') + read_sources(bld, 'header'))

    if bld.env.ENABLE_EXAMPLES:
        bld.recurse('examples')

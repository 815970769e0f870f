#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
#
# Generate the kernel patch series (kernel-patches/) from the project's
# sources against a pristine Debian linux-source-6.1 tree.
#
# The series is built in a throw-away git repository holding only the
# pristine versions of the files the series touches, one commit per patch,
# and written out with `git format-patch` using a fixed author and date,
# zero commit ids and no signature, so regenerating from unchanged sources
# gives byte-identical files.
#
# Usage:
#   gen-kernel-patches.py --pristine TREE [--project ROOT] [--out DIR]
#                         [--meta DIR] [--list-files]
#
#   --pristine TREE  pristine linux-source-6.1 tree (only read)
#   --project ROOT   project root (default: the parent of scripts/)
#   --out DIR        where the NNNN-*.patch files go (default
#                    ROOT/kernel-patches); stale *.patch files in DIR are
#                    removed, nothing else in DIR is touched
#   --meta DIR       also write DIR/suites.json (expected KUnit suites and
#                    cases, derived from the test files in the series) and
#                    DIR/kunitconfig.suites (Kconfig lines enabling them)
#   --list-files     print "project-path tree-path" for every file the
#                    series copies verbatim, and exit
#
# The manifest is explicit: KLIST_FILES, DDM_HEADERS, DDM_SOURCES and
# KUNIT_FILES name every file shipped, and PATCHES says which patch
# carries which list, with the hook that wires it into the build and
# writes its message.  A listed file that is missing is an error.

import argparse
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile
import textwrap

AUTHOR_NAME = 'klist-port developers'
AUTHOR_EMAIL = 'klist-port@localhost'
AUTHOR = '%s <%s>' % (AUTHOR_NAME, AUTHOR_EMAIL)
FIXED_DATE = '2024-01-01T00:00:00+0000'
MAINTAINERS_ENTRY = 'KLIST-PORT KLIST, DDM BINDING CORE AND KUNIT SUITES'

# ---------------------------------------------------------------------------
# Manifest: what the series ships, patch by patch, named file by file.
# Every entry is (project path, tree path); a missing project file is an
# error, never a silent omission.  PATCHES (after the messages) says, for
# each patch, its files, how it hooks them into the build and its message.
# ---------------------------------------------------------------------------

KLIST_FILES = [
	('include/linux/klist.h', 'include/linux/klist.h'),
	('lib/klist.c', 'lib/klist.c'),
]

# The binding core: lib/ddm/ in both worlds, dd.c being the seed's dd.c.
DDM_HEADERS = [
	('include/linux/ddm.h', 'include/linux/ddm.h'),
	('include/linux/ddm_class.h', 'include/linux/ddm_class.h'),
	('include/linux/ddm_object.h', 'include/linux/ddm_object.h'),
]
DDM_SOURCES = [
	('lib/ddm/dd.c', 'lib/ddm/dd.c'),
	('lib/ddm/bus.c', 'lib/ddm/bus.c'),
	('lib/ddm/object.c', 'lib/ddm/object.c'),
	('lib/ddm/uevent.c', 'lib/ddm/uevent.c'),
	('lib/ddm/class.c', 'lib/ddm/class.c'),
]

# KUnit files: (project path, tree path, what the suites test).  Test
# files get a Kconfig symbol each; headers are only copied beside them.
# A PART is linked into the test file of its directory (a composite
# object, lib/DIR/Makefile): code the suites share with the explorer.
PART = 'part'
KUNIT_FILES = [
	('tests/unit/klist-test-fixture.h', 'lib/klist-test-fixture.h', 'klist'),
	('tests/unit/klist-test.c', 'lib/klist-test.c', 'klist'),
	('tests/unit/klist-lessons-test.c', 'lib/klist-lessons-test.c', 'klist'),
	('tests/unit/klist-hardirq-test.c', 'lib/klist-hardirq-test.c', 'klist'),
	('tests/qemu/klist-kthread-test.c', 'lib/klist-kthread-test.c', 'klist'),
	('tests/qemu/klist-platform-test.c', 'lib/klist-platform-test.c', 'klist'),
	('tests/unit/ddm-test-fixture.h', 'lib/ddm-test-fixture.h', 'ddm'),
	('tests/unit/ddm-test.c', 'lib/ddm-test.c', 'ddm'),
	('tests/unit/ddm-lessons-test.c', 'lib/ddm-lessons-test.c', 'ddm'),
	('tests/unit/ddm-hotplug-test.c', 'lib/ddm-hotplug-test.c', 'ddm'),
	('tests/unit/ddm-class-test.c', 'lib/ddm-class-test.c', 'ddm'),
	('tests/qemu/ddm-kthread-test.c', 'lib/ddm-kthread-test.c', 'ddm'),
	# The generated pairs on kthreads: a test file in a directory of its
	# own with the explorer's families, generator and check linked in.
	('tests/explore/gen/gen.h', 'lib/klist-gen/gen.h', 'ddm'),
	('tests/unit/gen-pairs-test.c', 'lib/klist-gen/klist-gen-pairs-test.c', 'ddm'),
	('tests/explore/gen/gen-enum.c', 'lib/klist-gen/gen-enum.c', PART),
	('tests/explore/gen/gen-check.c', 'lib/klist-gen/gen-check.c', PART),
	('tests/explore/gen/gen-klist.c', 'lib/klist-gen/gen-klist.c', PART),
	('tests/explore/gen/gen-ddm.c', 'lib/klist-gen/gen-ddm.c', PART),
	('tests/explore/gen/gen-hotplug.c', 'lib/klist-gen/gen-hotplug.c', PART),
]

MSG_KLIST = """\
klist: replace with the klist-port implementation

The klist-port project re-implements the 2005 klist design (a list whose
nodes can be removed while iterators still hold them) and tests it both
in userspace, on a pthread shim, and in the kernel.  Replace the kernel's
klist with the project's files, byte for byte, so that the booted driver
core, which keeps every bus, driver and child list in a klist, runs on
the code the project tests.

The implementation keeps the 6.1 API and follows the rules the kernel
arrived at after the 2005 RFC:

 - starting a walk at a node takes a reference on it, and only if the
   node is still live;
 - a deleted node is marked dead, new walks skip it, walks holding it
   still step past it;
 - every klist_remove() caller of a node is woken, and a node can be
   added again once klist_remove() has returned;
 - the get/put hooks pin the containing object, put runs after the final
   unlink with the list lock dropped;
 - klist_next() and klist_prev() work with interrupts disabled.

It also closes a window 6.1 leaves open: klist_release() set
waiter->woken and only then read waiter->process and cleared n_klist,
while the remover may already have returned and freed both the node and
the waiter on its stack.  The waiter's task is read and n_klist cleared
first, ->woken is set last.
"""

MSG_DDM = """\
driver core: add the ddm binding core

Add the klist-port binding core (ddm): buses, devices and drivers kept
on klists, with binding and unbinding done under the locking rules the
driver-model locking work of 2005 ended up with (join the bus list
before probing, detach by pinning the last bound device, re-check the
driver under the device lock, refuse to bind a bound device).

The files are the project's, copied verbatim to lib/ddm/ and
include/linux/, next to klist which they build on; lib/ddm/dd.c is the
2005 work's drivers/base/dd.c.  ddm does not replace or hook into
drivers/base/: it has its own bool symbol, CONFIG_DDM, default off, and
exists in the kernel only so its KUnit suites can run on SMP under
lockdep, KASAN and KCSAN.  CONFIG_GCOV_PROFILE_DDM profiles just lib/ddm/
for the project's coverage runs.
"""

KUNIT_INTRO = (
	'Add the KUnit suites of the klist-port project to the kernel build, '
	'each file with its own Kconfig symbol following the usual KUnit '
	'pattern (depends on KUNIT, default KUNIT_ALL_TESTS).')

KUNIT_SHARED = (
	'The shared suites (%s) are the project\'s tests/unit/ files, '
	'compiled unchanged: in userspace against a pthread shim and here '
	'against the real kernel, where they must report the same cases.')

KUNIT_KERNEL_ONLY = (
	'The kernel-only suites, from the project\'s tests/qemu/, exercise '
	'what userspace cannot:')

# Descriptions of the kernel-only suite files, by file name.
KERNEL_ONLY_DESC = {
	'klist-kthread-test.c':
		'kthreads walk a klist while others add, delete and '
		'klist_remove() nodes on it; a walk must never return a node '
		'twice or a node deleted before it started, the get/put hooks '
		'must balance and every node must be freed; two klist_remove() '
		'callers of one node must both return',
	'ddm-kthread-test.c':
		'kthreads register and unregister ddm devices and drivers '
		'concurrently while another walks the bus; driver callbacks '
		'run under the device lock, a device is never probed twice or '
		'removed by the wrong driver, and every device ends up unbound '
		'and released; a device and a driver registered at once always '
		'bind',
	'klist-platform-test.c':
		'walks the real platform bus with bus_for_each_dev() and '
		'device_for_each_child{,_reverse}(), proving the booted driver '
		'core runs on the replaced klist',
}



def die(msg):
	sys.stderr.write('gen-kernel-patches: %s\n' % msg)
	sys.exit(1)


def check_files(root, files):
	for entry in files:
		if not os.path.isfile(os.path.join(root, entry[0])):
			die('%s is in the manifest but does not exist' % entry[0])


# The library sources a KUnit file's suites exercise, by what they test.
TESTED_SOURCES = {
	'klist': [p for p, _ in KLIST_FILES if p.endswith('.c')],
	'ddm': [p for p, _ in KLIST_FILES + DDM_SOURCES if p.endswith('.c')],
}


# --- KUnit metadata --------------------------------------------------------

def strip_comments(text):
	text = re.sub(r'/\*.*?\*/', ' ', text, flags=re.S)
	return re.sub(r'//[^\n]*', ' ', text)


def kunit_suites(path):
	"""Return [(suite name, [case names])] declared in a KUnit file."""
	with open(path, encoding='utf-8') as f:
		text = strip_comments(f.read())
	arrays = {}
	for m in re.finditer(r'struct\s+kunit_case\s+(\w+)\s*\[\s*\w*\s*\]\s*='
			     r'\s*\{(.*?)\}\s*;', text, re.S):
		cases = re.findall(r'\bKUNIT_CASE\w*\s*\(\s*(\w+)', m.group(2))
		arrays[m.group(1)] = cases
	suites = []
	for m in re.finditer(r'struct\s+kunit_suite\s+(\w+)\s*=\s*\{(.*?)\}\s*;',
			     text, re.S):
		body = m.group(2)
		name = re.search(r'\.name\s*=\s*"([^"]+)"', body)
		cases = re.search(r'\.test_cases\s*=\s*(\w+)', body)
		if not name:
			die('%s: suite %s has no .name' % (path, m.group(1)))
		if not cases or cases.group(1) not in arrays:
			die('%s: suite %s: cannot find its test_cases array' %
			    (path, name.group(1)))
		suites.append((name.group(1), arrays[cases.group(1)]))
	if not suites:
		die('%s: no struct kunit_suite found' % path)
	return suites


def kconfig_symbol(tree_path):
	base = os.path.basename(tree_path)
	base = re.sub(r'([-_]test|[-_]kunit)?\.c$', '', base)
	return re.sub(r'[^A-Za-z0-9]', '_', base).upper() + '_KUNIT_TEST'


def exports(root, tested):
	"""True if every source the suites test exports symbols (modular use)."""
	for p in TESTED_SOURCES[tested]:
		with open(os.path.join(root, p), encoding='utf-8') as f:
			if 'EXPORT_SYMBOL' not in f.read():
				return False
	return True


def kconfig_entry(root, proj_path, tree_path, tested, suites):
	sym = kconfig_symbol(tree_path)
	# A test may be a module only if what it tests is exported.
	modular = exports(root, tested)
	deps = ['KUNIT'] + (['DDM'] if tested == 'ddm' else [])
	names = ', '.join(s for s, _ in suites)
	origin = 'shared with the userspace build' \
		if proj_path.startswith('tests/unit/') else 'kernel-only'
	what = ('This builds the klist-port KUnit suite file %s (%s, '
		'the project\'s %s), suites: %s.' %
		(os.path.basename(tree_path), origin, proj_path, names))
	lines = [
		'config %s' % sym,
		'\t%s "KUnit tests for %s" if !KUNIT_ALL_TESTS' %
		('tristate' if modular else 'bool', names),
		'\tdepends on %s' % ' && '.join(deps),
		'\tdefault KUNIT_ALL_TESTS',
		'\thelp',
	]
	lines += ['\t  ' + l for l in textwrap.wrap(what, 64, break_on_hyphens=False,
						    break_long_words=False)]
	lines += [
		'',
		'\t  KUnit tests run during boot and output the results to the',
		'\t  debug log in KTAP format.  Only useful for kernel developers',
		'\t  running the KUnit test harness, not for production builds.',
		'',
		'\t  If unsure, say N.',
		'',
	]
	return sym, '\n'.join(lines) + '\n'


def kunit_message(subject, files, suites_meta):
	def fill(text, indent=''):
		return textwrap.fill(text, 72, initial_indent=indent,
				     subsequent_indent=' ' * len(indent),
				     break_on_hyphens=False)

	def suites_of(t):
		return [n for n, m in sorted(suites_meta.items())
			if m['file'] == t]

	paras = [fill(KUNIT_INTRO)]
	shared = [n for p, t in files if p.startswith('tests/unit/')
		  for n in suites_of(t)]
	if shared:
		paras.append(fill(KUNIT_SHARED % ', '.join(shared)))
	only = [(p, t) for p, t in files if p.startswith('tests/qemu/')]
	if only:
		items = [fill(KUNIT_KERNEL_ONLY)]
		for p, t in only:
			desc = KERNEL_ONLY_DESC.get(os.path.basename(p),
						    'see the file')
			items.append(fill('%s (%s): %s.' %
					  (', '.join(suites_of(t)),
					   os.path.basename(t), desc), ' - '))
		paras.append('\n\n'.join(items))
	return subject + '\n\n' + '\n\n'.join(paras) + '\n'


# --- edits of pristine tree files ------------------------------------------

def insert_after_line(text, anchor_re, new, what):
	m = re.search(anchor_re, text, re.M)
	if not m:
		die('cannot find the anchor for %s' % what)
	end = text.index('\n', m.end()) + 1
	return text[:end] + new + text[end:]


def insert_before_next_config(text, sym, new):
	"""Insert new before the config entry following 'config sym'."""
	m = re.search(r'^config %s\n' % re.escape(sym), text, re.M)
	if not m:
		die('cannot find config %s' % sym)
	n = re.search(r'^(config|menuconfig|endmenu|endif|if|menu|source)\b',
		      text[m.end():], re.M)
	if not n:
		die('cannot find the entry after config %s' % sym)
	pos = m.end() + n.start()
	return text[:pos] + new + text[pos:]


def maintainers_entry(text, patterns):
	"""Add or replace our MAINTAINERS entry, placed in alphabetic order."""
	entry = [MAINTAINERS_ENTRY,
		 'M:\t%s' % AUTHOR,
		 'S:\tMaintained']
	entry += ['F:\t%s' % p for p in sorted(patterns)]
	block = '\n'.join(entry) + '\n\n'
	key = MAINTAINERS_ENTRY.upper()
	lines = text.split('\n')
	# drop a previous version of our entry
	if MAINTAINERS_ENTRY in lines:
		i = lines.index(MAINTAINERS_ENTRY)
		j = i
		while lines[j] != '':
			j += 1
		del lines[i:j + 1]
	# The list is not strictly sorted: put the entry after the entry
	# whose header is the greatest one below ours (case-insensitive).
	start = lines.index('Maintainers List')
	pos = best = None
	for i in range(start + 2, len(lines) - 1):
		if not (lines[i - 1] == '' and re.match(r'^[A-Z0-9]', lines[i])
			and re.match(r'^[A-Z]:\t', lines[i + 1])):
			continue
		h = lines[i].upper()
		if h < key and (best is None or h > best):
			best, pos = h, i
	if pos is not None:
		while lines[pos] != '':
			pos += 1
		pos += 1
	if pos is None:
		die('cannot place the MAINTAINERS entry')
	text = '\n'.join(lines[:pos]) + '\n' + block + '\n'.join(lines[pos:])
	return text


def read(path):
	with open(path, encoding='utf-8', newline='') as f:
		return f.read()


def write(path, text):
	os.makedirs(os.path.dirname(path), exist_ok=True)
	with open(path, 'w', encoding='utf-8', newline='') as f:
		f.write(text)


# --- git -------------------------------------------------------------------

def git(repo, *args, **kw):
	env = dict(os.environ)
	for k in list(env):
		if k.startswith('GIT_'):
			del env[k]
	env.update({
		'GIT_CONFIG_NOSYSTEM': '1',
		'GIT_CONFIG_GLOBAL': os.devnull,
		'GIT_AUTHOR_NAME': AUTHOR_NAME,
		'GIT_AUTHOR_EMAIL': AUTHOR_EMAIL,
		'GIT_AUTHOR_DATE': FIXED_DATE,
		'GIT_COMMITTER_NAME': AUTHOR_NAME,
		'GIT_COMMITTER_EMAIL': AUTHOR_EMAIL,
		'GIT_COMMITTER_DATE': FIXED_DATE,
		'LC_ALL': 'C',
		'TZ': 'UTC',
	})
	env.pop('COLUMNS', None)
	return subprocess.run(['git', '-C', repo] + list(args), env=env,
			      check=True, stdout=subprocess.PIPE,
			      universal_newlines=True, **kw).stdout


# --- the patches: files, build hooks, message ------------------------------
#
# Each hook edits the scratch tree `repo` (Kconfig, Makefiles) after the
# patch's files are copied in, and returns the commit message.

DDM_MAKEFILE = """\
# SPDX-License-Identifier: GPL-2.0
#
# The klist-port ddm binding core (include/linux/ddm.h): dd.c is the
# 2005 driver-model locking work's drivers/base/dd.c.

ifdef CONFIG_GCOV_PROFILE_DDM
GCOV_PROFILE := y
endif

obj-y += %s
"""

DDM_KCONFIG = """\
config DDM
	bool "klist-port ddm driver binding core"
	help
	  The binding core of the klist-port project: buses, devices and
	  drivers kept on klists, bound and unbound under the driver-model
	  locking rules.  It is independent of the driver core in
	  drivers/base/ and only used by its KUnit suites.

	  If unsure, say N.

config GCOV_PROFILE_DDM
	bool "Enable gcov profiling of the ddm binding core"
	depends on DDM && GCOV_KERNEL
	help
	  Build the objects in lib/ddm/ with gcov profiling, the way
	  GCOV_PROFILE_FTRACE does for kernel/trace/, so that the ddm
	  binding core's coverage can be measured without profiling the
	  whole kernel.  The counters appear under /sys/kernel/debug/gcov.

	  If unsure, say N.

"""


def hook_klist(repo, root, files, ctx):
	return MSG_KLIST


def hook_ddm(repo, root, files, ctx):
	objs = ' '.join(os.path.basename(t)[:-2] + '.o'
			for _, t in files if t.endswith('.c'))
	write(os.path.join(repo, 'lib/ddm/Makefile'), DDM_MAKEFILE % objs)
	kc = os.path.join(repo, 'lib/Kconfig')
	write(kc, insert_before_next_config(read(kc), 'OBJAGG', DDM_KCONFIG))
	mk = os.path.join(repo, 'lib/Makefile')
	write(mk, insert_after_line(
		read(mk), r'^obj-\$\(CONFIG_OBJAGG\) \+= objagg\.o$',
		'\n# klist-port binding core\nobj-$(CONFIG_DDM) += ddm/\n',
		'lib/Makefile'))
	ctx['kconfig'].append('CONFIG_DDM=y')
	return MSG_DDM + '\n' + textwrap.fill(
		'Files: %s, lib/ddm/Makefile.' % ', '.join(t for _, t in files),
		72, break_on_hyphens=False) + '\n'


SUBDIR_MAKEFILE = """\
# SPDX-License-Identifier: GPL-2.0
#
# klist-port KUnit suite %s, linked with the code it shares with the
# project's explorer (its families, generator and sequential-model check).

obj-$(CONFIG_%s) += %s.o
%s-y := %s
"""


def hook_kunit(repo, root, files, ctx):
	entries = ''
	objs = ''
	for p, t, tested in files:
		if not t.endswith('.c') or tested == PART:
			continue
		suites = [(n, m['cases']) for n, m in ctx['suites'].items()
			  if m['file'] == t]
		sym, entry = kconfig_entry(root, p, t, tested, suites)
		entries += entry
		sub = os.path.relpath(os.path.dirname(t), 'lib')
		if sub == '.':
			objs += 'obj-$(CONFIG_%s) += %s\n' % (
				sym, os.path.basename(t)[:-2] + '.o')
		else:
			parts = [os.path.basename(x)[:-2] + '.o'
				 for _, x, k in files
				 if x.endswith('.c') and os.path.dirname(x) ==
				 os.path.dirname(t)]
			mod = os.path.basename(t)[:-2].replace('-test', '-kunit')
			write(os.path.join(repo, 'lib', sub, 'Makefile'),
			      SUBDIR_MAKEFILE % (os.path.basename(t), sym, mod,
						 mod, ' '.join(parts)))
			objs += 'obj-$(CONFIG_%s) += %s/\n' % (sym, sub)
		ctx['kconfig'].append('CONFIG_%s=y' % sym)
	kd = os.path.join(repo, 'lib/Kconfig.debug')
	write(kd, insert_before_next_config(read(kd), 'LIST_KUNIT_TEST', entries))
	mk = os.path.join(repo, 'lib/Makefile')
	write(mk, insert_after_line(
		read(mk), r'^obj-\$\(CONFIG_LIST_KUNIT_TEST\) \+= list-test\.o$',
		objs, 'lib/Makefile'))
	return kunit_message('klist, ddm: add KUnit suites',
			     [(p, t) for p, t, _ in files], ctx['suites'])


PATCHES = [
	{'files': KLIST_FILES, 'hook': hook_klist},
	{'files': DDM_HEADERS + DDM_SOURCES, 'hook': hook_ddm},
	{'files': KUNIT_FILES, 'hook': hook_kunit},
]

# Tree files the hooks edit or create, besides the copies.
EDITED = ['lib/Kconfig', 'lib/Kconfig.debug', 'lib/Makefile',
	  'lib/ddm/Makefile', 'lib/klist-gen/Makefile', 'MAINTAINERS']


def kunit_suites_meta(root, pristine):
	"""Suite name -> {file, source, cases} for every KUnit test file."""
	meta = {}
	for p, t, tested in KUNIT_FILES:
		if os.path.exists(os.path.join(pristine, t)):
			die('%s would overwrite the tree\'s own %s' % (p, t))
		if not t.endswith('.c') or tested == PART:
			continue
		for name, cases in kunit_suites(os.path.join(root, p)):
			if name in meta:
				die('suite %s declared twice' % name)
			meta[name] = {'file': t, 'source': p, 'cases': cases}
	return meta


def main():
	here = os.path.dirname(os.path.abspath(__file__))
	ap = argparse.ArgumentParser()
	ap.add_argument('--project', default=os.path.dirname(here))
	ap.add_argument('--pristine')
	ap.add_argument('--out')
	ap.add_argument('--meta')
	ap.add_argument('--list-files', action='store_true')
	args = ap.parse_args()
	root = os.path.abspath(args.project)

	seen = {}
	for patch in PATCHES:
		check_files(root, patch['files'])
		for entry in patch['files']:
			p, t = entry[0], entry[1]
			if t in seen:
				die('%s and %s both map to %s' % (seen[t], p, t))
			seen[t] = p

	if args.list_files:
		for patch in PATCHES:
			for entry in patch['files']:
				print(entry[0], entry[1])
		return 0

	if not args.pristine:
		die('--pristine TREE is required')
	pristine = os.path.abspath(args.pristine)
	if not os.path.isfile(os.path.join(pristine, 'lib/klist.c')):
		die('%s does not look like a kernel tree' % pristine)
	out = os.path.abspath(args.out or os.path.join(root, 'kernel-patches'))

	ctx = {'suites': kunit_suites_meta(root, pristine), 'kconfig': []}
	copied = [t for t in seen]

	tmp = tempfile.mkdtemp(prefix='gen-kernel-patches.')
	try:
		repo = os.path.join(tmp, 'repo')
		os.mkdir(repo)
		git(repo, 'init', '-q')
		git(repo, 'config', 'core.abbrev', '12')
		git(repo, 'config', 'core.autocrlf', 'false')
		for t in sorted(set(EDITED + copied)):
			src = os.path.join(pristine, t)
			if os.path.exists(src):
				os.makedirs(os.path.dirname(os.path.join(repo, t)),
					    exist_ok=True)
				shutil.copyfile(src, os.path.join(repo, t))
		git(repo, 'add', '-A')
		git(repo, 'commit', '-q', '-m', 'pristine linux-source-6.1 files')
		base = git(repo, 'rev-parse', 'HEAD').strip()

		new_files = []
		for patch in PATCHES:
			files = patch['files']
			for entry in files:
				dst = os.path.join(repo, entry[1])
				os.makedirs(os.path.dirname(dst), exist_ok=True)
				shutil.copyfile(os.path.join(root, entry[0]), dst)
			msg = patch['hook'](repo, root, files, ctx)
			added = [e[1] for e in files
				 if not os.path.exists(os.path.join(pristine, e[1]))]
			if added:
				new_files += added
				mt = os.path.join(repo, 'MAINTAINERS')
				write(mt, maintainers_entry(read(mt), new_files))
			msg += '\nSigned-off-by: %s\n' % AUTHOR
			git(repo, 'add', '-A')
			if not git(repo, 'status', '--porcelain'):
				# the sources equal the pristine files
				sys.stderr.write('gen-kernel-patches: "%s" changes '
						 'nothing, skipped\n' %
						 msg.split('\n')[0])
				continue
			git(repo, 'commit', '-q', '--cleanup=verbatim', '-F', '-',
			    input=msg)

		gen = os.path.join(tmp, 'out')
		git(repo, 'format-patch', '-q', '--numbered', '--zero-commit',
		    '--no-signature', '--stat=72', '--subject-prefix=PATCH',
		    '-o', gen, '%s..HEAD' % base)
		produced = sorted(os.listdir(gen))

		os.makedirs(out, exist_ok=True)
		for name in sorted(os.listdir(out)):
			if name.endswith('.patch') and name not in produced:
				os.remove(os.path.join(out, name))
		for name in produced:
			data = read(os.path.join(gen, name))
			dst = os.path.join(out, name)
			if not os.path.exists(dst) or read(dst) != data:
				write(dst, data)
	finally:
		shutil.rmtree(tmp)

	if args.meta:
		meta = os.path.abspath(args.meta)
		os.makedirs(meta, exist_ok=True)
		write(os.path.join(meta, 'suites.json'),
		      json.dumps(ctx['suites'], indent=1, sort_keys=True) + '\n')
		write(os.path.join(meta, 'kunitconfig.suites'),
		      '\n'.join(ctx['kconfig']) + '\n')
	return 0


if __name__ == '__main__':
	sys.exit(main())

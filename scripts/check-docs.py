#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""Check that the commands the documentation prints still exist.

Reads the fenced ```sh blocks of the given Markdown files (default:
README.md and docs/*.md) and checks, against the source tree and one
configured build directory, that every

  - CMake preset (configure, build, test, workflow) is in CMakePresets.json,
  - build target (--target) is a target of the build, or is defined in
    the CMake sources when this build's options leave it out,
  - ctest label (-L, -LE) is a label of the build, or is named by a
    LABELS property in the CMake sources when this build leaves it out,
  - ctest -R regular expression selects at least one test of the build,
  - -DNAME= cache variable is set somewhere in the CMake sources,
  - script or build-directory program exists (and a script is
    executable), and each --option given to it appears in its source
    or in the program's binary; a program this build leaves out must
    be a target of the CMake sources,

and that every relative Markdown link of those files resolves. With
--run it also runs the cheap ones: each script that has a --help with
--help, and each program given --list or --help alone as printed.

Exit status: 0 all found, 1 something named is missing, 2 usage error.
"""

import argparse
import glob
import json
import os
import re
import shlex
import subprocess
import sys

BUILD_DIR_RE = re.compile(r'^build(-[A-Za-z0-9_]+)?/')
CMAKE_BUILTIN_VARS = re.compile(r'^(CMAKE_|BUILD_SHARED_LIBS$)')


def sh_blocks(path):
    """Yield (line number, command text) of each command in ```sh blocks."""
    inside = False
    pending = ''
    start = 0
    with open(path, encoding='utf-8') as f:
        for no, line in enumerate(f, 1):
            stripped = line.strip()
            if stripped.startswith('```'):
                if inside:
                    inside = False
                elif stripped[3:].strip() in ('sh', 'bash', 'shell'):
                    inside = True
                continue
            if not inside:
                continue
            if not pending:
                start = no
            if stripped.endswith('\\'):
                pending += stripped[:-1] + ' '
                continue
            text = pending + stripped
            pending = ''
            if text:
                yield start, text


def simple_commands(text):
    """Split a shell line into simple commands (lists of words)."""
    lex = shlex.shlex(text, posix=True, punctuation_chars=';&|')
    lex.whitespace_split = True
    lex.commenters = '#'
    cmd = []
    for tok in lex:
        if tok and set(tok) <= set(';&|'):
            if cmd:
                yield cmd
            cmd = []
        else:
            cmd.append(tok)
    if cmd:
        yield cmd


class Project:
    def __init__(self, source, build):
        self.source = source
        self.build = build
        self.cmake_text = self._cmake_sources()
        self.presets = self._presets()
        self.targets = self._build_targets()
        self.labels = self._build_labels()
        self.tests = self._build_tests()

    def _cmake_sources(self):
        texts = []
        for root, dirs, files in os.walk(self.source):
            dirs[:] = [d for d in dirs
                       if not d.startswith('.') and not BUILD_DIR_RE.match(d + '/')]
            for name in files:
                if name == 'CMakeLists.txt' or name.endswith('.cmake'):
                    with open(os.path.join(root, name), encoding='utf-8') as f:
                        texts.append(f.read())
        return '\n'.join(texts)

    def _presets(self):
        with open(os.path.join(self.source, 'CMakePresets.json')) as f:
            data = json.load(f)
        kinds = {}
        for kind in ('configure', 'build', 'test', 'workflow'):
            kinds[kind] = {p['name'] for p in data.get(kind + 'Presets', [])}
        return kinds

    def _run(self, argv):
        res = subprocess.run(argv, capture_output=True, text=True)
        if res.returncode:
            sys.exit('check-docs: %s failed: %s' % (' '.join(argv), res.stderr.strip()))
        return res.stdout

    def _build_targets(self):
        out = self._run(['cmake', '--build', self.build, '--target', 'help'])
        return {m.group(1) for m in re.finditer(r'^\.\.\. (\S+)', out, re.M)}

    def _build_labels(self):
        out = self._run(['ctest', '--test-dir', self.build, '--print-labels'])
        return set(re.findall(r'^  (\S+)$', out, re.M))

    def _build_tests(self):
        out = self._run(['ctest', '--test-dir', self.build, '-N'])
        return re.findall(r'^\s*Test\s+#\d+: (\S+)', out, re.M)

    def target_defined(self, name):
        if name in self.targets:
            return True
        pat = r'\badd_(custom_target|executable|library)\(\s*%s[\s)]' % re.escape(name)
        return re.search(pat, self.cmake_text) is not None

    def label_defined(self, name):
        """A label of this build, or one a LABELS property (or a list of
        tools whose names become labels) names in the CMake sources."""
        if name in self.labels:
            return True
        word = re.compile(r'(?<![\w.${-])%s(?![\w.}-])' % re.escape(name))
        for line in self.cmake_text.splitlines():
            if ('LABELS' in line or re.search(r'\bset\(\w*TOOLS\b', line)) \
                    and word.search(line):
                return True
        return False

    def cache_var_defined(self, name):
        if CMAKE_BUILTIN_VARS.match(name):
            return True
        pat = r'\b(option|set|cmake_dependent_option)\(\s*%s\b' % re.escape(name)
        return re.search(pat, self.cmake_text) is not None


class Checker:
    def __init__(self, project, run):
        self.p = project
        self.run = run
        self.findings = []
        self.checked = 0
        self.ran = 0

    def fail(self, where, msg):
        self.findings.append('%s: %s' % (where, msg))

    def option_values(self, argv, names):
        """Values of the options in names, given as '-X V' or '-X=V'."""
        vals = []
        for i, tok in enumerate(argv):
            for n in names:
                if tok == n and i + 1 < len(argv):
                    vals.append(argv[i + 1])
                elif tok.startswith(n + '='):
                    vals.append(tok[len(n) + 1:])
        return vals

    def check_cmake(self, where, argv):
        if '--workflow' in argv:
            kind = 'workflow'
        elif '--build' in argv:
            kind = 'build'
        elif '--install' in argv:
            kind = None
        else:
            kind = 'configure'
        for preset in self.option_values(argv, ['--preset']):
            self.checked += 1
            if kind and preset not in self.p.presets[kind]:
                self.fail(where, 'no %s preset "%s"' % (kind, preset))
        for target in self.option_values(argv, ['--target', '-t']):
            self.checked += 1
            if not self.p.target_defined(target):
                self.fail(where, 'no build target "%s"' % target)
        for tok in argv:
            if tok.startswith('-D') and len(tok) > 2:
                name = re.split(r'[:=]', tok[2:])[0]
                self.checked += 1
                if not self.p.cache_var_defined(name):
                    self.fail(where, 'no CMake cache variable "%s"' % name)

    def check_ctest(self, where, argv):
        for preset in self.option_values(argv, ['--preset']):
            self.checked += 1
            if preset not in self.p.presets['test']:
                self.fail(where, 'no test preset "%s"' % preset)
        for regex in self.option_values(argv, ['-L', '-LE', '--label-regex',
                                               '--label-exclude']):
            for label in regex.strip('^$').split('|'):
                self.checked += 1
                if not self.p.label_defined(label):
                    self.fail(where, 'no ctest label "%s"' % label)
        for regex in self.option_values(argv, ['-R', '--tests-regex']):
            self.checked += 1
            if not any(re.search(regex, t) for t in self.p.tests):
                self.fail(where, 'ctest -R "%s" selects no test of %s'
                          % (regex, self.p.build))

    def long_options(self, argv):
        return [tok.split('=')[0] for tok in argv[1:]
                if tok.startswith('--') and len(tok) > 2]

    def check_program(self, where, argv):
        prog = argv[0]
        if BUILD_DIR_RE.match(prog):
            path = os.path.join(self.p.build, BUILD_DIR_RE.sub('', prog))
            kind = 'program'
        else:
            path = os.path.join(self.p.source, prog)
            kind = 'script'
        self.checked += 1
        if not os.path.isfile(path):
            # A program this build's options leave out (the explorer
            # under TSan) must still be a target of the sources.
            if kind == 'program' and self.p.target_defined(os.path.basename(prog)):
                return
            self.fail(where, 'no %s "%s" (looked for %s)' % (kind, prog, path))
            return
        if not os.access(path, os.X_OK):
            self.fail(where, '%s "%s" is not executable' % (kind, prog))
            return
        with open(path, 'rb') as f:
            body = f.read()
        for opt in self.long_options(argv):
            self.checked += 1
            if opt.encode() not in body:
                self.fail(where, '%s "%s" has no option "%s"' % (kind, prog, opt))
        if not self.run:
            return
        probe = None
        if kind == 'script' and (b'--help' in body or b'argparse' in body):
            probe = [path, '--help']
        elif kind == 'program' and argv[1:] in (['--list'], ['--help']):
            probe = [path] + argv[1:]
        if probe:
            self.ran += 1
            try:
                res = subprocess.run(probe, capture_output=True, timeout=60)
                rc = res.returncode
            except subprocess.TimeoutExpired:
                rc = 'a timeout'
            if rc != 0:
                self.fail(where, '"%s" exited with %s'
                          % (' '.join([prog] + probe[1:]), rc))

    def check_command(self, where, argv):
        while argv and re.match(r'^[A-Za-z_][A-Za-z0-9_]*=', argv[0]):
            argv = argv[1:]
        if not argv:
            return
        if argv[0] == 'cmake':
            self.check_cmake(where, argv)
        elif argv[0] == 'ctest':
            self.check_ctest(where, argv)
        elif '/' in argv[0] and not argv[0].startswith(('/', '~', '$')):
            self.check_program(where, argv)

    def check_links(self, path):
        text = open(path, encoding='utf-8').read()
        base = os.path.dirname(path)
        for m in re.finditer(r'\]\(([^)\s]+)\)', text):
            target = m.group(1).split('#')[0]
            if not target or re.match(r'^[a-z]+:', target):
                continue
            self.checked += 1
            if not os.path.exists(os.path.join(base, target)):
                line = text.count('\n', 0, m.start()) + 1
                self.fail('%s:%d' % (os.path.relpath(path, self.p.source), line),
                          'link to "%s", which does not exist' % target)

    def check_file(self, path):
        rel = os.path.relpath(path, self.p.source)
        for no, text in sh_blocks(path):
            try:
                cmds = list(simple_commands(text))
            except ValueError as e:
                self.fail('%s:%d' % (rel, no), 'cannot parse "%s": %s' % (text, e))
                continue
            for argv in cmds:
                self.check_command('%s:%d' % (rel, no), argv)
        self.check_links(path)


def main():
    ap = argparse.ArgumentParser(description=__doc__.split('\n')[0])
    ap.add_argument('--source', required=True, help='the source tree')
    ap.add_argument('--build', required=True, help='a configured build directory')
    ap.add_argument('--run', action='store_true',
                    help='also run each script --help and each program --list/--help shown alone')
    ap.add_argument('--expect-findings', type=int, metavar='N',
                    help='exit 0 only if exactly N things are missing (for the self-test)')
    ap.add_argument('files', nargs='*', help='Markdown files (default README.md docs/*.md)')
    args = ap.parse_args()
    for d in (args.source, args.build):
        if not os.path.isdir(d):
            print('check-docs: no directory %s' % d, file=sys.stderr)
            sys.exit(2)
    if not os.path.isfile(os.path.join(args.build, 'CTestTestfile.cmake')):
        print('check-docs: %s is not a configured build directory' % args.build,
              file=sys.stderr)
        sys.exit(2)
    files = args.files or ([os.path.join(args.source, 'README.md')] +
                           sorted(glob.glob(os.path.join(args.source, 'docs', '*.md'))))
    for f in files:
        if not os.path.isfile(f):
            print('check-docs: no file %s' % f, file=sys.stderr)
            sys.exit(2)

    checker = Checker(Project(os.path.abspath(args.source),
                              os.path.abspath(args.build)), args.run)
    for f in files:
        checker.check_file(os.path.abspath(f))
    for line in checker.findings:
        print(line)
    print('check-docs: %d files, %d names checked, %d commands run, %d missing'
          % (len(files), checker.checked, checker.ran, len(checker.findings)))
    if args.expect_findings is not None:
        sys.exit(0 if len(checker.findings) == args.expect_findings else 1)
    sys.exit(1 if checker.findings else 0)


if __name__ == '__main__':
    main()

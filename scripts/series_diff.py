# SPDX-License-Identifier: GPL-2.0
"""A file's change as a git-style diff, for the small series that
qemu-kernel-klist.sh and qemu-kernel-bench.sh hand to kernel-tree.sh
sync (imported by their inline Python)."""

import difflib


def diff(path, old, new):
    """The diff that turns @old (None: no file) into @new at @path."""
    a = "a/" + path if old is not None else "/dev/null"
    lines = difflib.unified_diff((old or "").splitlines(True),
                                 new.splitlines(True), a, "b/" + path)
    return "diff --git a/%s b/%s\n" % (path, path) + "".join(lines)

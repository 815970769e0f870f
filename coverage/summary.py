#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""Print line, function and branch coverage per file and per world.

usage: summary.py OUT_DIR WORLD[:TRACEFILE]...
Each WORLD reads OUT_DIR/WORLD.info unless a tracefile name is given.
A tracefile may hold several test names (TN:), each with its own record
of a file: a line, function or branch counts as hit if any test hit it.
"""
import os
import sys


def read_info(path):
    """basename -> {"lines": {line: hit}, "funcs": {...}, "branches": {...}}"""
    files, cur = {}, None
    with open(path) as f:
        for raw in f:
            key, _, val = raw.strip().partition(":")
            if key == "SF":
                cur = files.setdefault(os.path.basename(val),
                                       {"lines": {}, "funcs": {}, "branches": {}})
            elif cur is None:
                continue
            elif key == "DA":
                line, count = val.split(",")[:2]
                cur["lines"][line] = cur["lines"].get(line, False) or int(count) > 0
            elif key == "FNDA":
                count, name = val.split(",", 1)
                cur["funcs"][name] = cur["funcs"].get(name, False) or int(count) > 0
            elif key == "BRDA":
                line, block, branch, taken = val.split(",")
                k = (line, block, branch)
                cur["branches"][k] = cur["branches"].get(k, False) or taken not in ("-", "0")
    return files


def pct(d):
    if not d:
        return "   -  ", "0/0"
    hit = sum(1 for v in d.values() if v)
    return f"{100.0 * hit / len(d):5.1f}%", f"{hit}/{len(d)}"


def main():
    out, worlds = sys.argv[1], sys.argv[2:]
    print(f"{'file':<14} {'world':<10} {'lines':>7} {'funcs':>7} {'branches':>8}  "
          f"{'lines hit':>10} {'branches hit':>12}")
    for w in worlds:
        name, _, base = w.partition(":")
        path = os.path.join(out, (base or name) + ".info")
        if not os.path.exists(path):
            continue
        files = read_info(path)
        total = {"lines": {}, "funcs": {}, "branches": {}}
        for fname in sorted(files):
            for kind in total:
                total[kind].update({(fname, k): v for k, v in files[fname][kind].items()})
        for fname, d in sorted(files.items()) + [("total", total)]:
            (lp, lh), (fp, _), (bp, bh) = pct(d["lines"]), pct(d["funcs"]), pct(d["branches"])
            print(f"{fname:<14} {name:<10} {lp:>7} {fp:>7} {bp:>8}  {lh:>10} {bh:>12}")


if __name__ == "__main__":
    main()

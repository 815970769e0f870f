#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Kernel tree helper for the klist-port kernel checks.
#
#   kernel-tree.sh unpack TARBALL DIR
#	Unpack the Debian linux-source tarball into DIR (giving
#	DIR/linux-source-6.1), once: a stamp records which tarball it came
#	from, a second call with the same tarball does nothing.
#
#   kernel-tree.sh sync SERIES PRISTINE WORK
#	Make the tree WORK equal PRISTINE plus the series in SERIES/*.patch,
#	rewriting only files whose content changes, so that make rebuilds
#	only what the change affects.  The series is applied to a scratch
#	copy of the pristine files it touches; a file that differs from the
#	one in WORK is copied over, a file an earlier series touched and the
#	current one does not is restored from PRISTINE (or removed if
#	PRISTINE has none).  The list of touched files is kept in
#	WORK.series-files.
#
#   kernel-tree.sh apply SERIES PRISTINE OUT
#	Apply the series to a copy of the pristine files it touches in the
#	new directory OUT (nothing else is copied).
#
#   kernel-tree.sh prepare PROJECT TARBALL WORK
#	What every kernel run starts with (qemu-check, the coverage
#	kernel): unpack TARBALL as WORK/pristine and WORK/src (cached),
#	generate the series from PROJECT's sources into WORK/series, and
#	sync WORK/src to it.  The caller holds WORK's build lock.

set -euo pipefail

die() {
	echo "kernel-tree: $*" >&2
	exit 1
}

series_files() {
	# every path a patch in the series touches
	local p
	for p in "$1"/*.patch; do
		[ -e "$p" ] || continue
		sed -n 's|^diff --git a/\([^ ]*\) b/\([^ ]*\)$|\1\n\2|p' "$p"
	done | sort -u
}

apply_series() {
	local series=$1 pristine=$2 out=$3 f p
	mkdir -p "$out"
	for f in $(series_files "$series") ${4:-}; do
		if [ -e "$pristine/$f" ] && [ ! -e "$out/$f" ]; then
			mkdir -p "$out/$(dirname "$f")"
			cp "$pristine/$f" "$out/$f"
		fi
	done
	for p in "$series"/*.patch; do
		[ -e "$p" ] || continue
		# patch(1), not git apply: OUT may sit inside a git work tree,
		# where git apply takes paths relative to that tree's top.
		# No fuzz: a series that does not apply exactly is an error.
		patch -d "$out" -p1 -F0 -s --batch --no-backup-if-mismatch \
			--reject-file=- -i "$p" ||
			die "$(basename "$p") does not apply"
	done
}

cmd_unpack() {
	local tarball=$1 dir=$2 stamp id
	if [ ! -f "$tarball" ]; then
		echo "kernel-tree: $tarball not found." >&2
		echo "kernel-tree: install it with: apt-get install linux-source-6.1" >&2
		exit 1
	fi
	mkdir -p "$dir"
	stamp=$dir/.unpacked
	id="$(stat -c '%n %s %Y' "$tarball")"
	exec 9>"$dir/.lock"
	flock 9
	if [ -f "$stamp" ] && [ "$(cat "$stamp")" = "$id" ]; then
		return 0
	fi
	echo "kernel-tree: unpacking $tarball into $dir"
	rm -rf "$dir/.tmp" "$dir/linux-source-6.1"
	mkdir "$dir/.tmp"
	tar -xJf "$tarball" -C "$dir/.tmp"
	[ -f "$dir/.tmp/linux-source-6.1/Makefile" ] ||
		die "$tarball has no linux-source-6.1/Makefile"
	mv "$dir/.tmp/linux-source-6.1" "$dir/linux-source-6.1"
	rmdir "$dir/.tmp"
	echo "$id" > "$stamp"
}

cmd_sync() {
	local series=$1 pristine=$2 work=$3
	local state=$work.series-files f changed=0
	[ -f "$work/Makefile" ] || die "$work is not a kernel tree"
	scratch=$(mktemp -d "${TMPDIR:-/tmp}/kernel-sync.XXXXXX")
	trap 'rm -rf "$scratch"' EXIT
	apply_series "$series" "$pristine" "$scratch"
	{ series_files "$series"; if [ -f "$state" ]; then cat "$state"; fi; } |
		sort -u > "$scratch/.all"
	while read -r f; do
		[ -n "$f" ] || continue
		if [ -e "$scratch/$f" ]; then
			if ! cmp -s "$scratch/$f" "$work/$f"; then
				mkdir -p "$work/$(dirname "$f")"
				cp "$scratch/$f" "$work/$f"
				echo "kernel-tree: updated $f"
				changed=$((changed + 1))
			fi
		elif [ -e "$pristine/$f" ]; then
			if ! cmp -s "$pristine/$f" "$work/$f"; then
				cp "$pristine/$f" "$work/$f"
				echo "kernel-tree: restored $f"
				changed=$((changed + 1))
			fi
		elif [ -e "$work/$f" ]; then
			rm -f "$work/$f"
			echo "kernel-tree: removed $f"
			changed=$((changed + 1))
		fi
	done < "$scratch/.all"
	series_files "$series" > "$state"
	echo "kernel-tree: $changed file(s) changed in $work"
}

cmd_apply() {
	[ ! -e "$3" ] || die "$3 exists"
	apply_series "$1" "$2" "$3"
}

cmd_prepare() {
	local project=$1 tarball=$2 work=$3 here pristine src
	here=$(cd "$(dirname "$0")" && pwd)
	pristine=$work/pristine/linux-source-6.1
	src=$work/src/linux-source-6.1

	echo "kernel-tree: unpacking (cached)"
	cmd_unpack "$tarball" "$work/pristine"
	cmd_unpack "$tarball" "$work/src"
	echo "kernel-tree: generating the series from $project"
	rm -rf "$work/series.new"
	python3 "$here/gen-kernel-patches.py" --project "$project" \
		--pristine "$pristine" --out "$work/series.new" \
		--meta "$work/series.new"
	rm -rf "$work/series"
	mv "$work/series.new" "$work/series"
	printf "  %s\n" "$work"/series/*.patch
	echo "kernel-tree: syncing $src"
	cmd_sync "$work/series" "$pristine" "$src"
}

abs() {
	# absolute path of an existing or to-be-created path
	echo "$(cd "$(dirname "$1")" && pwd)/$(basename "$1")"
}

case "${1:-}" in
unpack)	[ $# -eq 3 ] || die "usage: $0 unpack TARBALL DIR"
	cmd_unpack "$2" "$3" ;;
sync)	[ $# -eq 4 ] || die "usage: $0 sync SERIES PRISTINE WORK"
	cmd_sync "$(abs "$2")" "$(abs "$3")" "$(abs "$4")" ;;
apply)	[ $# -eq 4 ] || die "usage: $0 apply SERIES PRISTINE OUT"
	cmd_apply "$(abs "$2")" "$(abs "$3")" "$(abs "$4")" ;;
prepare) [ $# -eq 4 ] || die "usage: $0 prepare PROJECT TARBALL WORK"
	cmd_prepare "$(abs "$2")" "$3" "$(abs "$4")" ;;
*)	die "usage: $0 unpack|sync|apply|prepare ..." ;;
esac

#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# docs/install.md, word for word: its commands and CMakeLists.txt, taken
# from the page itself (the blocks marked "<!-- install: NAME -->"), run
# as a new user would, for each flavour alone: configure the libraries
# (checking that CMake chose and said Release), build and install only
# that flavour into a home of its own, then build and run a program
# through pkg-config and through CMake, and a kernel-style one through
# the compat flags and targets.  prog.c is docs/library.md's example,
# ported.c examples/klist-walk.c.
#
#   install-guide.sh SRC WORK
set -eu
src=$(cd "$1" && pwd)
work=$2
guide=$src/docs/install.md
. "$(dirname "$0")/guide-blocks.sh"

rm -rf "$work"
mkdir -p "$work"
work=$(cd "$work" && pwd)
ln -s "$src" "$work/klist-port"
sed -n '/^<!-- example: registry.c -->$/,/^```$/p' "$src/docs/library.md" | sed '1,2d;$d' \
	> "$work/prog.c"
export CMAKE_BUILD_PARALLEL_LEVEL=${CMAKE_BUILD_PARALLEL_LEVEL:-2}

# Configure once, as the page says: no build type given.
(cd "$work" && run_block configure) > "$work/configure.log" 2>&1 ||
	{ cat "$work/configure.log"; echo "install.md: configure failed"; exit 1; }
grep -q "klist-port: no CMAKE_BUILD_TYPE given: building Release" "$work/configure.log" ||
	{ cat "$work/configure.log"; echo "install.md: CMake did not say Release"; exit 1; }
grep -q '^CMAKE_BUILD_TYPE:STRING=Release$' "$work/klist-port-build/CMakeCache.txt" ||
	{ echo "install.md: the library-only build is not Release"; exit 1; }

for flavour in klist-port-fast klist-port; do
	case $flavour in
	klist-port-fast) install=fast; other=klist-port ;;
	*) install=checked; other=klist-port-fast ;;
	esac
	home=$work/home-$install
	app=$work/app-$install
	mkdir -p "$home" "$app"
	# A shell of the user's: HOME of its own, the page's blocks in order.
	(
		export HOME="$home"
		cd "$work"
		run_block "$install" >"$app/install.log" 2>&1 ||
			{ cat "$app/install.log"; echo "install.md: installing $flavour failed"; exit 1; }
		eval "$(block env)"
		# Alone: nothing of the other flavour in the prefix.
		! find "$home/.local" -name "*$other.pc" -o -name "lib$other.so*" |
			grep -q . || { echo "$flavour: $other installed too"; exit 1; }
		use_flavour $flavour "$app" "$work/prog.c" "$src/examples/klist-walk.c"
	) || exit 1
	echo "install.md, $flavour alone: Release library, pkg-config, CMake (shared, static), compat (pkg-config, CMake shared and static): ok"
done

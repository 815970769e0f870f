# SPDX-License-Identifier: GPL-2.0
# Sourced by the install tests: the blocks of docs/install.md ($guide)
# marked "<!-- install: NAME -->".  block NAME prints one; run_block
# NAME runs it with sh -e, in the caller's directory and environment.
block() {
	awk -v want="<!-- install: $1 -->" '
		$0 == want { found = 1; next }
		found == 1 && /^```/ { found = 2; next }
		found == 2 && /^```/ { exit }
		found == 2 { print }' "$guide" | grep . ||
		{ echo "no block '$1' in $guide" >&2; return 1; }
}

run_block() {
	block "$1" > "${TMPDIR:-/tmp}/install-block.$$" || return 1
	sh -e "${TMPDIR:-/tmp}/install-block.$$"
}

# use_flavour FLAVOUR DIR PROG PORTED: install.md's "Building a program
# against it" for FLAVOUR (klist-port-fast or klist-port), in DIR, with
# the environment the caller set (PKG_CONFIG_PATH, CMAKE_PREFIX_PATH,
# LD_LIBRARY_PATH): pkg-config, CMake shared and static, and the compat
# flags and targets, each program run.  The page gives the compat words
# of the fast flavour and names the checked flavour's in its text.
use_flavour() {
	uf_flavour=$1
	uf_dir=$2
	mkdir -p "$uf_dir/pc" "$uf_dir/cmake" "$uf_dir/compat"
	(
		cd "$uf_dir/pc"
		cp "$3" prog.c
		run_block "pkg-config $uf_flavour"
		cd "$uf_dir/cmake"
		cp "$3" prog.c
		block "CMakeLists.txt $uf_flavour" > CMakeLists.txt
		run_block "cmake build" > cmake.log 2>&1 ||
			{ cat cmake.log; echo "install.md: CMake, $uf_flavour, failed"; exit 1; }
		grep "^registry:" cmake.log
		cd "$uf_dir/compat"
		cp "$4" ported.c
		if [ "$uf_flavour" = klist-port-fast ]; then
			run_block "compat pkg-config klist-port-fast"
			block "compat CMakeLists.txt klist-port-fast" > CMakeLists.txt
		else
			block "compat pkg-config klist-port-fast" |
				sed 's/klist-port-fast/klist-port/g' > run.sh
			sh -e run.sh
			block "compat CMakeLists.txt klist-port-fast" |
				sed 's/klist-port-fast-compat/klist-port-compat/g' > CMakeLists.txt
		fi
		cmake -S . -B build >/dev/null
		cmake --build build >/dev/null
		./build/ported
		./build/ported-static
	)
}

#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# The Debian packages from a clean tree (git archive of HEAD):
# dpkg-buildpackage -us -uc -b, lintian without errors, the packages
# unpacked into a scratch root, and docs/library.md's example built and
# run against the unpacked files through pkg-config and find_package.
# Then each flavour's two packages unpacked alone into a root of their
# own, and docs/install.md's commands for that flavour run against it
# (pkg-config, CMake shared and static, compat): a -dev package needs
# nothing of the other flavour.
set -eu
src=$1
work=$2
guide=$3
rm -rf "$work"
mkdir -p "$work/klist-port" "$work/root"
git -C "$src" archive HEAD | tar -x -C "$work/klist-port"
(cd "$work/klist-port" && dpkg-buildpackage -us -uc -b >"$work/build.log" 2>&1) ||
	{ tail -40 "$work/build.log"; echo "dpkg-buildpackage failed"; exit 1; }
lintian --fail-on error "$work"/klist-port_*.changes 2>&1 | grep -v "root privileges" |
	tee "$work/lintian.log"
for deb in "$work"/*.deb; do
	case $deb in *dbgsym*) continue ;; esac
	dpkg-deb -x "$deb" "$work/root"
done
multiarch=$(dpkg-architecture -qDEB_HOST_MULTIARCH)
libdir=$work/root/usr/lib/$multiarch
sed -n '/^<!-- example: registry.c -->$/,/^```$/p' "$guide" | sed '1,2d;$d' > "$work/registry.c"
export PKG_CONFIG_PATH=$libdir/pkgconfig
for pc in klist-port klist-port-fast; do
	${CC:-cc} -std=c11 -Wall -Wextra -Werror $(pkg-config --cflags $pc) \
		-o "$work/registry-$pc" "$work/registry.c" $(pkg-config --libs $pc)
	LD_LIBRARY_PATH=$libdir "$work/registry-$pc"
done
# The packaged fast flavour under the sanitizers: ASan+UBSan, and TSan
# with 0 reports (the packaged library is not instrumented).
pc=klist-port-fast
for san in address,undefined thread; do
	${CC:-cc} -std=c11 -g -O1 -fsanitize=$san -fno-sanitize-recover=undefined \
		$(pkg-config --cflags $pc) -o "$work/registry-$san" "$work/registry.c" \
		$(pkg-config --libs $pc)
	LD_LIBRARY_PATH=$libdir TSAN_OPTIONS=exitcode=66 "$work/registry-$san" \
		> "$work/registry-$san.log" 2>&1 ||
		{ cat "$work/registry-$san.log"; echo "-fsanitize=$san: failed"; exit 1; }
	if grep -q Sanitizer "$work/registry-$san.log"; then
		cat "$work/registry-$san.log"; echo "-fsanitize=$san: reports"; exit 1
	fi
done
mkdir -p "$work/cmake-user"
cp "$work/registry.c" "$work/cmake-user/"
cat > "$work/cmake-user/CMakeLists.txt" <<'CMAKE'
cmake_minimum_required(VERSION 3.25)
project(registry LANGUAGES C)
find_package(klist-port 0.1 CONFIG REQUIRED)
add_executable(registry-fast registry.c)
target_link_libraries(registry-fast PRIVATE klist-port::klist-port-fast)
add_executable(registry-checked registry.c)
target_link_libraries(registry-checked PRIVATE klist-port::klist-port)
CMAKE
cmake -S "$work/cmake-user" -B "$work/cmake-user/build" \
	-DCMAKE_PREFIX_PATH="$work/root/usr" >/dev/null
cmake --build "$work/cmake-user/build" >/dev/null
LD_LIBRARY_PATH=$libdir "$work/cmake-user/build/registry-fast"
LD_LIBRARY_PATH=$libdir "$work/cmake-user/build/registry-checked"

# Each -dev package alone, with its runtime package, as install.md has it.
guide=$src/docs/install.md
. "$(dirname "$0")/guide-blocks.sh"
for flavour in klist-port-fast klist-port; do
	case $flavour in
	klist-port-fast) pkgs="libklist-port-fast-dev libklist-port-fast0" ;;
	*) pkgs="libklist-port-dev libklist-port0" ;;
	esac
	root=$work/root-$flavour
	mkdir -p "$root"
	for p in $pkgs; do
		dpkg-deb -x "$(ls "$work"/${p}_*.deb)" "$root"
	done
	(
		export PKG_CONFIG_PATH=$root/usr/lib/$multiarch/pkgconfig
		export CMAKE_PREFIX_PATH=$root/usr
		export LD_LIBRARY_PATH=$root/usr/lib/$multiarch
		use_flavour $flavour "$work/alone-$flavour" "$work/registry.c" \
			"$src/examples/klist-walk.c"
	) || { echo "$flavour: its -dev package alone does not work"; exit 1; }
	echo "$pkgs alone: install.md's pkg-config, CMake and compat commands: ok"
done
echo "Debian packages: built, lintian clean of errors, example through pkg-config (also ASan+UBSan, TSan) and find_package, each -dev package alone: ok"

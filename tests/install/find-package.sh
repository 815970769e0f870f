#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# Install into a scratch prefix, then configure, build and run a scratch
# project that uses find_package(klist-port) and its exported targets,
# both flavours, shared and static, with a system <linux/...> header beside klist's.
set -eu
build=$1
example=$2
syshdr=$3
prefix=$build/install-test-cmake
scratch=$build/find-package-test
rm -rf "$prefix" "$scratch"
mkdir -p "$scratch"
cmake --install "$build" --prefix "$prefix" >/dev/null
cp "$example" "$scratch/walk.c"
cp "$syshdr" "$scratch/system-headers.c"
cat > "$scratch/CMakeLists.txt" <<'CMAKE'
cmake_minimum_required(VERSION 3.25)
project(find-klist-port LANGUAGES C)
find_package(klist-port 0.1 CONFIG REQUIRED)
add_executable(walk-shared walk.c)
target_link_libraries(walk-shared PRIVATE klist-port::klist-port-compat)
add_executable(walk-static walk.c)
target_link_libraries(walk-static PRIVATE klist-port::klist-port-compat-static)
add_executable(system-headers system-headers.c)
target_compile_options(system-headers PRIVATE -Wall -Wextra -Werror)
target_link_libraries(system-headers PRIVATE klist-port::klist-port-compat)
# The fast flavour, from the same package.
add_executable(walk-fast-shared walk.c)
target_link_libraries(walk-fast-shared PRIVATE klist-port::klist-port-fast-compat)
add_executable(walk-fast-static walk.c)
target_link_libraries(walk-fast-static PRIVATE klist-port::klist-port-fast-compat-static)
add_executable(system-headers-fast system-headers.c)
target_compile_options(system-headers-fast PRIVATE -Wall -Wextra -Werror)
target_link_libraries(system-headers-fast PRIVATE klist-port::klist-port-fast-compat)
CMAKE
cmake -S "$scratch" -B "$scratch/build" -DCMAKE_PREFIX_PATH="$prefix" \
	-DCMAKE_C_COMPILER="${CC:-cc}" -DCMAKE_C_FLAGS="${CFLAGS:-}" >/dev/null
cmake --build "$scratch/build" >/dev/null
"$scratch/build/walk-shared"
"$scratch/build/walk-static"
"$scratch/build/system-headers"
"$scratch/build/walk-fast-shared"
"$scratch/build/walk-fast-static"
"$scratch/build/system-headers-fast"
# Static really static: no libklist-port*.so needed.
for t in walk-static walk-fast-static; do
	! ldd "$scratch/build/$t" | grep -q libklist-port ||
		{ echo "$t links a shared klist-port library"; exit 1; }
done
# An incompatible version must not be found.
mkdir -p "$scratch/v9"
cat > "$scratch/v9/CMakeLists.txt" <<'CMAKE'
cmake_minimum_required(VERSION 3.25)
project(find-klist-port-9 LANGUAGES C)
find_package(klist-port 9.0 CONFIG REQUIRED)
CMAKE
if cmake -S "$scratch/v9" -B "$scratch/v9/build" -DCMAKE_PREFIX_PATH="$prefix" \
	>/dev/null 2>&1; then
	echo "find_package(klist-port 9.0) found version $(cat "$prefix"/lib*/cmake/klist-port/klist-portConfigVersion.cmake | sed -n 's/.*PACKAGE_VERSION "\(.*\)".*/\1/p' | head -1)"
	exit 1
fi
echo "find_package(klist-port): checked and fast flavours, shared, static, system headers: ok"

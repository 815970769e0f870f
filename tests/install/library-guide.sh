#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# The example of docs/library.md, taken from the guide itself, built
# against the installed libraries through pkg-config and run: both
# flavours; the fast one also under ASan+UBSan and under ThreadSanitizer
# (0 reports), and with a planted race that TSan must report (the id
# written after the add has published the device).
set -eu
build=$1
guide=$2
. "$(dirname "$0")/install-prefix.sh"
install_into "$build" install-test-guide
src=$prefix/registry.c
sed -n '/^<!-- example: registry.c -->$/,/^```$/p' "$guide" | sed '1,2d;$d' > "$src"
grep -q 'int main' "$src" || { echo "no example in $guide"; exit 1; }

# The planted race: the id set after klist_add_tail() instead of before.
racy=$prefix/registry-racy.c
awk '/before the add: walkers may see it/ { held = $0; next }
     { print }
     /klist_add_tail\(&d->node/ && held != "" { print held; held = "" }' "$src" > "$racy"
cmp -s "$src" "$racy" && { echo "could not plant the race"; exit 1; }

cc=${CC:-cc}
warn="-std=c11 -Wall -Wextra -Werror -pedantic -g -O1"
for pc in klist-port klist-port-fast; do
	libdir=$(pkg-config --variable=libdir $pc)
	$cc $warn $(pkg-config --cflags $pc) -o "$prefix/registry-$pc" "$src" \
		$(pkg-config --libs $pc)
	LD_LIBRARY_PATH=$libdir "$prefix/registry-$pc"
done

pc=klist-port-fast
cflags=$(pkg-config --cflags $pc)
libs=$(pkg-config --libs $pc)
libdir=$(pkg-config --variable=libdir $pc)
$cc $warn -fsanitize=address,undefined -fno-sanitize-recover=undefined $cflags \
	-o "$prefix/registry-asan" "$src" $libs
LD_LIBRARY_PATH=$libdir "$prefix/registry-asan"
echo "ASan+UBSan: ok"

$cc $warn -fsanitize=thread $cflags -o "$prefix/registry-tsan" "$src" $libs
$cc $warn -fsanitize=thread $cflags -o "$prefix/registry-racy-tsan" "$racy" $libs
if ! LD_LIBRARY_PATH=$libdir TSAN_OPTIONS=exitcode=66 \
	"$prefix/registry-tsan" > "$prefix/tsan.log" 2>&1 ||
	grep -q ThreadSanitizer "$prefix/tsan.log"; then
	cat "$prefix/tsan.log"
	echo "ThreadSanitizer: reports on the correct program"
	exit 1
fi
echo "ThreadSanitizer, correct program: 0 reports"
# A race is seen only when a walker reads the id while the adder writes
# it: on a loaded machine that takes more than one run now and then (4
# runs in 10 reported it, one run each, on a load average of 7).  Up to
# 20 runs; the first report ends it.
tries=0
while [ $tries -lt 20 ]; do
	tries=$((tries + 1))
	LD_LIBRARY_PATH=$libdir "$prefix/registry-racy-tsan" > "$prefix/tsan-racy.log" 2>&1 || true
	grep -q "WARNING: ThreadSanitizer: data race" "$prefix/tsan-racy.log" && break
done
if ! grep -q "WARNING: ThreadSanitizer: data race" "$prefix/tsan-racy.log"; then
	cat "$prefix/tsan-racy.log"
	echo "ThreadSanitizer: the planted race was not reported in $tries runs"
	exit 1
fi
echo "ThreadSanitizer, planted race: reported (run $tries)"

#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# coverage/kernel-boot.sh BUILD_DIR BOOT_DIR TIMEOUT
#
# Boot the gcov kernel of BUILD_DIR (coverage/kernel.sh) under QEMU/TCG
# with a busybox initramfs whose /init (coverage/initramfs-init) copies the
# gcov counters onto a 9p share and powers off.  The KUnit suites are
# built in and run before /init.  Leaves in BOOT_DIR:
#   console.log   the serial console (for tests/qemu/scan-console.py)
#   share/gcda/   every .gcda, at its path under /sys/kernel/debug/gcov
#                 (the absolute path of the build's .gcda)
# Fails when QEMU does not finish within TIMEOUT seconds or /init did not
# finish the copy.
#
# We boot QEMU ourselves rather than through kunit.py run: kunit.py adds
# kunit_shutdown=reboot, which ends the machine before /init ever runs.

set -euo pipefail

here=$(cd "$(dirname "$0")" && pwd)
build=$1
boot=$2
timeout=$3
busybox=/bin/busybox

[ -x "$busybox" ] || {
	echo "kernel-boot: $busybox missing: apt-get install busybox-static" >&2
	exit 1
}
# The initramfs has no libraries: the busybox must be static.
if readelf -l "$busybox" | grep -q 'program interpreter'; then
	echo "kernel-boot: $busybox is not static: apt-get install busybox-static" >&2
	exit 1
fi

rm -rf "$boot"
mkdir -p "$boot/share"

# gen_init_cpio comes with the kernel build (CONFIG_BLK_DEV_INITRD): it
# makes /dev/console without root, which cpio(1) would need mknod for.
cat > "$boot/initramfs.list" <<EOF
dir /bin 0755 0 0
dir /dev 0755 0 0
nod /dev/console 0600 0 0 c 5 1
dir /proc 0755 0 0
dir /sys 0755 0 0
dir /mnt 0755 0 0
file /bin/busybox $busybox 0755 0 0
slink /bin/sh busybox 0777 0 0
file /init $here/initramfs-init 0755 0 0
EOF
"$build/usr/gen_init_cpio" "$boot/initramfs.list" > "$boot/initramfs.cpio"

# TCG only (-accel tcg): no KVM here, and nothing is loaded into the
# host's kernel.  -no-reboot with panic=-1: a panic ends QEMU at once.
set +e
timeout --kill-after=10 "$timeout" qemu-system-x86_64 \
	-nodefaults -accel tcg -m 1G -smp 2 -no-reboot -display none \
	-bios qboot.rom \
	-kernel "$build/arch/x86/boot/bzImage" \
	-initrd "$boot/initramfs.cpio" \
	-append "console=ttyS0 rdinit=/init panic=-1" \
	-serial "file:$boot/console.log" \
	-virtfs "local,path=$boot/share,mount_tag=gcov,security_model=none" \
	< /dev/null
rc=$?
set -e
if [ $rc -eq 124 ] || [ $rc -eq 137 ]; then
	echo "kernel-boot: QEMU did not finish within $timeout s" >&2
	exit 1
fi
if [ $rc -ne 0 ]; then
	echo "kernel-boot: QEMU exited with $rc" >&2
	exit 1
fi
if [ ! -s "$boot/share/gcda-count" ]; then
	echo "kernel-boot: /init did not finish copying the counters;" \
		"end of $boot/console.log:" >&2
	tail -30 "$boot/console.log" >&2
	exit 1
fi
echo "kernel-boot: $(cat "$boot/share/gcda-count") .gcda file(s) copied"

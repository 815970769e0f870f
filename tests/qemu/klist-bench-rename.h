/* SPDX-License-Identifier: GPL-2.0 */
/*
 * klist-bench: Linux 6.1's klist under other names, so that it links
 * beside this kernel's own.  Forced (-include) into 6.1's lib/klist.c,
 * which is compiled unchanged, and included first by klist-bench-61.c.
 * The 13 exported functions become kernel_klist_*() through the
 * userspace bench's tests/bench/klist-rename.h; the rest of 6.1's
 * klist.c is static.  6.1's klist.h is included here, after the
 * renames, so its prototypes are renamed too and its include guard
 * keeps our klist.h out of the file.
 */
#ifndef _KLIST_BENCH_RENAME_H
#define _KLIST_BENCH_RENAME_H

#define KLIST_BENCH_PREFIX	kernel_
/* The userspace bench's list of the 13, copied into lib/ by the script. */
#include "klist-rename.h"

/* 6.1's include/linux/klist.h, extracted by scripts/qemu-kernel-bench.sh */
#include "klist-bench-61-klist.h"

#endif

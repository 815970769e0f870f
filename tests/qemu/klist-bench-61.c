// SPDX-License-Identifier: GPL-2.0
/*
 * klist-bench: the measured walk on Linux 6.1's own klist, compiled into
 * the same kernel under other names.  klist-bench-rename.h renames its 13
 * exported functions to kernel_klist_*() and includes 6.1's klist.h,
 * which scripts/qemu-kernel-bench.sh extracts from the pristine tree at
 * build time (lib/klist-bench-61-klist.h, beside 6.1's lib/klist.c as
 * lib/klist-bench-61-klist.c, built with the same header forced in).
 *
 * With qemu-kernel-bench.sh --aa-control the script extracts our own
 * klist.c and klist.h there instead, and names this side "ours-copy":
 * the same code on both sides, built two ways, which the harness
 * should find equal (ratio 1).
 */
#include "klist-bench-rename.h"
#include "klist-bench.h"

#define KLIST_BENCH_OPS		klist_bench_61_ops
#ifdef KLIST_BENCH_AA_CONTROL
#define KLIST_BENCH_NAME	"ours-copy"
#else
#define KLIST_BENCH_NAME	"6.1"
#endif
#include "klist-bench-impl.h"

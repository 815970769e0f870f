// SPDX-License-Identifier: GPL-2.0
/*
 * klist-bench: the measured walk on this kernel's klist, the project's
 * lib/klist.c and include/linux/klist.h (patch 1 of its series).
 */
#include <linux/klist.h>
#include "klist-bench.h"

#define KLIST_BENCH_OPS		klist_bench_ours_ops
#define KLIST_BENCH_NAME	"ours"
#include "klist-bench-impl.h"

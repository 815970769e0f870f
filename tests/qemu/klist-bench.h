/* SPDX-License-Identifier: GPL-2.0 */
/*
 * klist-bench: what the KUnit benchmark suite (klist-bench-test.c) sees
 * of the two klists it measures in one kernel.  Our klist.h and 6.1's
 * share the include guard _LINUX_KLIST_H, so each implementation's walk
 * is compiled in its own file (klist-bench-ours.c, klist-bench-61.c,
 * both from klist-bench-impl.h) and the suite reaches it through this
 * table, without including either klist.h.
 */
#ifndef _KLIST_BENCH_H
#define _KLIST_BENCH_H

struct klist_bench_list;

struct klist_bench_ops {
	const char *name;
	/* a klist of @nr nodes, or NULL if out of memory */
	struct klist_bench_list *(*create)(unsigned int nr);
	void (*destroy)(struct klist_bench_list *l);
	/* walk the whole list @walks times; returns the nodes visited */
	unsigned long (*walk)(struct klist_bench_list *l, unsigned int walks);
};

extern const struct klist_bench_ops klist_bench_ours_ops;
extern const struct klist_bench_ops klist_bench_61_ops;

#endif

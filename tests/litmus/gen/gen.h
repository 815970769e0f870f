/* SPDX-License-Identifier: GPL-2.0 */
/*
 * klist-litmus-gen: LKMM C litmus tests from cycles of relations, as
 * diy7 makes them.  A cycle is a ring of threads; each thread holds one
 * access, or two joined by an internal edge to another location (po,
 * smp_mb(), smp_wmb(), smp_rmb(), an addr, data or ctrl dependency);
 * each thread's last access is joined to the next thread's first by an
 * external edge (rfe W->R, fre R->W, coe W->W, fixed by the two
 * directions).  Reads are READ_ONCE() or smp_load_acquire(), writes
 * WRITE_ONCE() or smp_store_release().  The test asks whether the
 * cycle can happen: every read sees the write the cycle says, every
 * location with two writes or more ends with the last.
 */
#ifndef _LITMUS_GEN_H
#define _LITMUS_GEN_H

#include <stdbool.h>
#include <stdio.h>

#define GEN_MAX_THREADS	4

enum gen_dir { GEN_R, GEN_W };
enum gen_iedge { GEN_PO, GEN_MB, GEN_WMB, GEN_RMB, GEN_ADDR, GEN_DATA, GEN_CTRL,
		 GEN_NIEDGES };
enum gen_ann { GEN_ONCE, GEN_ACQREL };	/* acquire for R, release for W */

struct gen_thread {
	int nev;			/* 1 or 2 */
	enum gen_dir dir[2];
	enum gen_ann ann[2];
	enum gen_iedge edge;		/* nev == 2: what joins the two */
};

struct gen_cycle {
	int nthreads;
	struct gen_thread t[GEN_MAX_THREADS];
};

/* Is @c a cycle (directions, locations) in its canonical rotation? */
bool gen_valid(const struct gen_cycle *c);
/* The cycle in diy7's words, with annotations ("PodWWOnceRelease Rfe...") */
void gen_cycle_name(const struct gen_cycle *c, char *buf, size_t len);
/* Its shape: the same without the annotations ("PodWW Rfe PodRR Fre") */
void gen_shape(const struct gen_cycle *c, char *buf, size_t len);
/* The C litmus test of @c named @name, to @f. */
void gen_write(const struct gen_cycle *c, const char *name, bool declare, FILE *f);
/* The @i-th cycle of the deterministic sequence of @seed (may be invalid). */
void gen_nth(unsigned long long seed, unsigned long long i, struct gen_cycle *c);

#endif

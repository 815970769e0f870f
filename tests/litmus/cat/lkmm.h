/* SPDX-License-Identifier: GPL-2.0 */
/*
 * lkmm: the Linux-kernel memory model of the 6.1 tree
 * (tools/memory-model/linux-kernel.{bell,cat}, lock.cat), transcribed
 * into C as an axiomatic checker of one candidate execution.
 *
 * A candidate execution is its events (each with its thread, location,
 * value and the annotations herd7 gives it), program order (the order
 * of a thread's events in the array), and the relations chosen or
 * tracked outside the model: rf, co (over the writes but unlock events,
 * as lock.cat has herd7 generate it), rmw of the atomic operations, and
 * the dependencies addr, data, ctrl.  lkmm_check() derives every other
 * relation as the cat file does and says which axiom, if any, the
 * execution breaks, and which flags (data-race, ...) it raises.
 * README.md beside this file maps each line of the cat file to the code.
 */
#ifndef _LKMM_H
#define _LKMM_H

#include <stdbool.h>
#include "rel.h"

/* Event classes and annotations (linux-kernel.bell, lock.cat). */
enum {
	LKMM_R		= 1 << 0,	/* a read (herd7's R) */
	LKMM_W		= 1 << 1,	/* a write (herd7's W) */
	LKMM_F		= 1 << 2,	/* a fence */
	LKMM_IW		= 1 << 3,	/* an initial write */
	LKMM_ONCE	= 1 << 4,
	LKMM_ACQUIRE	= 1 << 5,
	LKMM_RELEASE	= 1 << 6,
	LKMM_NORETURN	= 1 << 7,	/* the read of a void RMW */
	LKMM_RMW	= 1 << 8,	/* part of an atomic RMW instruction */
	/* fences: F[...] */
	LKMM_MB		= 1 << 9,
	LKMM_RMB	= 1 << 10,
	LKMM_WMB	= 1 << 11,
	LKMM_BARRIER	= 1 << 12,
	LKMM_RCU_LOCK	= 1 << 13,
	LKMM_RCU_UNLOCK	= 1 << 14,
	LKMM_SYNC_RCU	= 1 << 15,
	LKMM_BEFORE_ATOMIC = 1 << 16,
	LKMM_AFTER_ATOMIC = 1 << 17,
	LKMM_AFTER_SPINLOCK = 1 << 18,
	LKMM_AFTER_UNLOCK_LOCK = 1 << 19,
	/* lock events (lock.cat): none of them is R or W in herd7 */
	LKMM_LKR	= 1 << 20,
	LKMM_LKW	= 1 << 21,
	LKMM_UL		= 1 << 22,
	LKMM_LF		= 1 << 23,
	LKMM_RL		= 1 << 24,
	LKMM_RU		= 1 << 25,
	/* SRCU events (bell: instructions SRCU[SRCU]), on their srcu_struct */
	LKMM_SRCU_LOCK	= 1 << 26,
	LKMM_SRCU_UNLOCK = 1 << 27,
	LKMM_SYNC_SRCU	= 1 << 28,
};

struct lkmm_event {
	int thread;		/* -1: an initial write */
	int loc;		/* -1: a fence */
	long long val;
	unsigned int tags;
};

struct lkmm_exec {
	int n;
	struct lkmm_event ev[LKMM_MAX_EVENTS];
	/* Chosen: rf (to R, LF, RL, RU; lock.cat derives LKR's), co
	 * (a total order per location over W and LKW, IW first). */
	struct rel rf, co;
	/* Tracked by the interpreter: the atomic rmw pairs, dependencies. */
	struct rel rmw, addr, data, ctrl;
	/*
	 * Locations whose rf and co are not chosen yet (bit per location,
	 * 0: a complete candidate).  Every axiom but co0 only grows false
	 * as rf and co grow location by location, so a partial execution
	 * that breaks one has no consistent completion: the enumerator
	 * asks early and prunes.  co0 is not checked on open locations.
	 */
	unsigned long long open_locs;
};

/* The axioms, in the order the cat file states them. */
enum lkmm_axiom {
	LKMM_OK,
	LKMM_CO0,		/* lock.cat: co extends co0 */
	LKMM_LOCK_NEST,		/* lock.cat */
	LKMM_UNMATCHED_LOCKS,	/* lock.cat */
	LKMM_COHERENCE,
	LKMM_ATOMIC,
	LKMM_HAPPENS_BEFORE,
	LKMM_PROPAGATION,
	LKMM_RCU,
	LKMM_PLAIN_COHERENCE,
	LKMM_NAXIOMS,
};

/* The flags (raised, never forbidding). */
enum {
	LKMM_FLAG_DATA_RACE		= 1 << 0,
	LKMM_FLAG_MIXED_ACCESSES	= 1 << 1,
	LKMM_FLAG_UNBALANCED_RCU	= 1 << 2,
	LKMM_FLAG_MIXED_LOCK_ACCESSES	= 1 << 3,
	LKMM_FLAG_UNPAIRED_LOCK		= 1 << 4,
	LKMM_FLAG_LOCK_FINAL		= 1 << 5,
	LKMM_FLAG_UNMATCHED_UNLOCK	= 1 << 6,
	LKMM_FLAG_UNBALANCED_SRCU	= 1 << 7,
	LKMM_FLAG_INVALID_SLEEP		= 1 << 8,
	LKMM_FLAG_SRCU_BAD_NESTING	= 1 << 9,
	LKMM_NFLAGS			= 10,
};

extern const char *const lkmm_axiom_name[LKMM_NAXIOMS];
extern const char *const lkmm_flag_name[LKMM_NFLAGS];

/*
 * Check @x against the model: the first axiom it breaks, or LKMM_OK;
 * *@flags gets the flags it raises (only meaningful when LKMM_OK).
 */
enum lkmm_axiom lkmm_check(const struct lkmm_exec *x, unsigned int *flags);

/*
 * lock.cat's generated rf for the lock reads that do not succeed: may
 * @w be what LF or RL event @r reads (rfi-lf, all-possible-rfe-lf), or
 * what RU event @r reads (all-possible-rf-ru)?  The enumerator asks it
 * for each candidate; the answer is lock.cat's, transcribed.
 */
bool lkmm_lock_rf_allowed(const struct lkmm_exec *x, int w, int r);

#endif

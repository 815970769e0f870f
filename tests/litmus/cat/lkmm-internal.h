/* SPDX-License-Identifier: GPL-2.0 */
/*
 * What lkmm-bell.c (the bell file, lock.cat, herd7's built-in sets)
 * hands lkmm-cat.c (linux-kernel.cat itself): the sets and relations
 * of one candidate execution, named as the cat file names them.
 */
#ifndef _LKMM_INTERNAL_H
#define _LKMM_INTERNAL_H

#include "lkmm.h"

struct lkmm_ctx {
	const struct lkmm_exec *x;
	/* Sets (after lock.cat has put the lock events in their classes). */
	lkmm_set all, R, W, M, F, IW, Once, Acquire, Release, Noreturn;
	lkmm_set RMW, Marked, Plain;
	lkmm_set Mb, Rmb, Wmb, Barrier, Rcu_lock, Rcu_unlock, Sync_rcu;
	lkmm_set Before_atomic, After_atomic, After_spinlock,
		 After_unlock_lock;
	lkmm_set LKR, LKW, UL, LF, RL, RU;
	lkmm_set Srcu_lock, Srcu_unlock, Sync_srcu;
	/* Built-in relations. */
	struct rel id, po, loc, po_loc, intr, ext;
	struct rel rmw, addr, data, ctrl;
	/* The communication relations (lock.cat's, final). */
	struct rel rf, rfe, rfi, co, coe, coi, fr, fre, fri;
	struct rel rcu_rscs, srcu_rscs;
	unsigned int flags;
};

/* The sets and relations of @x into @c; an axiom of lock.cat if one fails. */
enum lkmm_axiom lkmm_bell(const struct lkmm_exec *x, struct lkmm_ctx *c);

/* fencerel(S) = (po ; [S]) ; po */
struct rel lkmm_fencerel(const struct lkmm_ctx *c, lkmm_set s);

#endif

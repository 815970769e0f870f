/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The interpreter of one litmus process (litmus-cat.c), shared by the
 * checker, which runs every path of a process with every value a load
 * may return, and by the graph engine's front end (litmus-graph.c),
 * which replays a process with its loads returning given values.
 */
#ifndef _LITMUS_INTERP_H
#define _LITMUS_INTERP_H

#include <stdint.h>
#include "litmus.h"

#define LIT_MAX_TEV	40		/* events of one process */

/* One event of a process, its dependencies as sets of its own events. */
struct tev {
	unsigned int tags;	/* LKMM_* of cat/lkmm.h */
	int loc;
	long long val;
	uint64_t addr, data, ctrl;
	uint64_t cond;		/* the loads of every condition before it: its
				 * place in po may depend on them (the graph
				 * engine's dependencies; not herd7's ctrl) */
	int rmw_with;		/* the other half of an atomic RMW, -1 */
};

struct trace {
	int nev;
	struct tev ev[LIT_MAX_TEV];
	long long reg[LIT_MAX_REGS];
};

enum lit_replay_end {
	LIT_REPLAY_DONE,	/* the process finished */
	LIT_REPLAY_READ,	/* its last event reads a value not given */
	LIT_REPLAY_BLOCKED,	/* spin_lock() read the lock held */
	LIT_REPLAY_DEAD,	/* a value that is no address: no execution */
	LIT_REPLAY_ERROR,	/* what the interpreter cannot run */
};

/*
 * Process @pi of @p with its reads (loads, the reads of RMWs and of the
 * lock primitives, in program order) returning @vals[0..@nvals-1]: its
 * events into @t, up to the first read past those values (included:
 * its location and kind known, its value not).  spin_trylock() and
 * spin_is_locked() succeed or fail by the value their read gets,
 * spin_lock() waits on a held lock (0 is unlocked).  @error gets the
 * reason of LIT_REPLAY_ERROR.
 */
enum lit_replay_end lit_replay(const struct lit_prog *p, int pi, const long long *vals,
			       int nvals, struct trace *t, const char **error);

/* Is this trace event a read (the ones lit_replay() gives values to)? */
bool lit_tev_reads(const struct tev *e);

/* The address of variable @v, as the interpreter computes it. */
long long lit_addr_of(int v);

/* Does @k hold, @regs[i] process i's registers, @final the variables? */
bool lit_holds(const struct lit_cond *k, const long long *const *regs,
	       const long long *final);

#endif

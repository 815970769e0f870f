/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The explorer's files share this: what the parent asks of a run (the
 * plan) and what the child records of it (its choices and steps), in
 * one block of shared memory mapped before the fork.
 *
 * A step is one scheduling point: the task that reached it, what it did
 * there and where.  A choice is a step at which more than one task could
 * run next; only choices are recorded for the strategies, and a schedule
 * is the list of choices that differ from the default (keep running the
 * current task, else the lowest-numbered runnable one).
 */
#ifndef _SHIM_EXPLORE_INTERNAL_H
#define _SHIM_EXPLORE_INTERNAL_H

#include <stdint.h>
#include <stdio.h>
#include <shim/explore.h>

#define CTL_MAX_TASKS	16
#define CTL_MAX_STEPS	20000
#define CTL_MAX_CHOICES	8192
#define CTL_MAX_DEV	256

enum ctl_mode { CTL_FOLLOW, CTL_PCT, CTL_RANDOM, CTL_DPOR };

struct ctl_choice {
	uint16_t enabled;	/* bit per task that could run (a value: option) */
	uint16_t sleep;		/* DPOR: the sleep set on arrival */
	int8_t cur;		/* the task that ran, if still runnable; else -1 */
	int8_t chosen;
	bool value;		/* a value (ctl_choose_value()), not a task */
};

/*
 * What a transition (a task's run from one point to its next) touches,
 * for the partial-order reduction: its dependency class and object.
 * The table in README.md says which pairs are dependent and why.
 */
enum ctl_dep {
	CTL_DEP_NONE,	/* no effect another task can see (barrier, yield) */
	CTL_DEP_READ,	/* reads obj */
	CTL_DEP_WRITE,	/* modifies obj */
	/*
	 * Takes lock obj.  Takes of different locks commute (#37): the
	 * lock-order edges a run adds (each lock taken, with what its task
	 * already holds) are the same for every schedule of its trace, so
	 * whether lockdep finds a cycle in them is too; only which
	 * acquisition closes it, and so the report's wording, may differ.
	 */
	CTL_DEP_LOCK,
	CTL_DEP_ALL,	/* cannot be named: dependent with everything */
};

struct ctl_label {
	const void *obj;
	/*
	 * A channel the transition also signalled, modified: a wake-up of
	 * its sleepers (a task's exit wakes its joiner); under wmm the
	 * model's global view, which a full barrier joins.  NULL: none.
	 * Two: a body's tail under wmm names its last operation's object,
	 * the view (its exit's barrier) and its joiner's channel.
	 */
	const void *also, *also2;
	uint8_t dep;
};

/* @x (not NULL) is one of the objects @b names. */
static inline bool ctl_names(struct ctl_label b, const void *x)
{
	return x && (x == b.obj || x == b.also || x == b.also2);
}

static inline bool ctl_dependent(struct ctl_label a, struct ctl_label b)
{
	if (a.dep == CTL_DEP_ALL || b.dep == CTL_DEP_ALL)
		return true;
	if (ctl_names(b, a.also) || ctl_names(b, a.also2) ||
	    ctl_names(a, b.also) || ctl_names(a, b.also2))
		return true;
	if (a.dep == CTL_DEP_NONE || b.dep == CTL_DEP_NONE)
		return false;
	return a.obj == b.obj &&
	       (a.dep != CTL_DEP_READ || b.dep != CTL_DEP_READ);
}

struct ctl_step {
	const char *file;	/* a string literal: valid in the parent too */
	const void *obj;	/* what the operation after the point touches */
	int line;
	int8_t task;
	uint8_t op;
	bool ro;		/* ... and whether it only reads it */
	int8_t next;		/* the task that ran after the point, or -1 */
	uint16_t enabled;	/* the tasks that could run there */
	int16_t choice;		/* index of the choice made here, or -1 */
	/* The transition @next made from here: its own last point's label. */
	struct ctl_label ev;
};

/* What a step of the weak-memory model did (explore-wmm.c), for the trace. */
struct ctl_wnote {
	uint8_t kind;		/* 0: none, 1: read, 2: store, 3: rmw */
	int8_t from;		/* the task whose store was read (-1: initial) */
	int16_t pos;		/* the choice: 0 newest / at the end */
	long long val;
};

struct ctl_shared {
	/* the plan */
	int mode;
	bool wmm;		/* the weak-memory model, else SC */
	unsigned long long seed;
	int pct_depth, pct_steps;
	int nforced;
	int8_t forced[CTL_MAX_CHOICES];	/* -1: the default */
	uint16_t dpor_sleep;	/* DPOR: the sleep set after the last forced choice */

	/* DPOR: the first choice at which every runnable task slept, or -1 */
	int dpor_blocked;

	/* the record */
	int nchoices, nsteps, ntasks;
	bool failed, diverged;
	unsigned long fingerprint;	/* the scenario's, of its final state */
	char title[512];
	char names[CTL_MAX_TASKS][16];
	struct ctl_choice ch[CTL_MAX_CHOICES];
	struct ctl_step st[CTL_MAX_STEPS];
	struct ctl_wnote wnote[CTL_MAX_STEPS];
};

/* explore.c: the controlled scheduler, in the child */
void shim_ctl_start(struct ctl_shared *sh);
/*
 * The running transition also modified @obj, which its label does not
 * name (the weak-memory model's global view, joined by a full barrier).
 */
void ctl_touch(const void *obj);
void shim_ctl_stop(void);
void shim_ctl_fail(const char *file, int line, const char *title);
const char *shim_op_name(int op);
/* The calling task's slot (-1: not under control), and the run's record. */
int ctl_self(void);
/* The same, cheaply, for the access hooks: -1 off the controlling thread. */
int ctl_self_fast(void);
/* Tasks in the run. */
int ctl_ntasks(void);
struct ctl_shared *ctl_shared_now(void);
/*
 * A step of the calling task that chooses among @n options (a store to
 * read, a place in the order): recorded as a choice when @n > 1, with
 * option 0 the default.  Returns the option taken.
 */
int ctl_choose_value(unsigned int n, int op, const char *file, int line);

/* explore-wmm.c: the weak-memory model, in the child */
void ctl_wmm_start(bool on);
void ctl_wmm_task_new(int parent, int slot);
void ctl_wmm_stop(void);
/* What every full barrier modifies: the model's global view. */
const void *ctl_wmm_fence_obj(void);

/* explore-race.c: data races as verdicts, in the child */
void ctl_race_instrumented(void);	/* explore-tsan.c is linked */
bool ctl_race_on(void);		/* ... so plain accesses are checked */
/* The running transition made a plain access no label can name. */
void ctl_widen_all(void);
void ctl_race_start(void);
void ctl_race_task_new(int parent, int slot);
/* @t's transition begins with the operation @ev labels. */
void ctl_race_transition(int t, struct ctl_label ev);
void ctl_race_release(int t, const void *obj);
void ctl_race_acquire(int t, const void *obj);
void ctl_race_forget(const void *p, unsigned long size);
/* kfree() of the block @p: a write of its @size bytes by the calling task. */
void ctl_race_free(const void *p, unsigned long size, const char *file,
		   int line);
/* A plain access by the calling task (@pc: its site), or a marked one. */
void ctl_race_access(const volatile void *p, unsigned int size, bool write,
		     const void *pc);
void ctl_race_marked(const volatile void *p, unsigned int size, bool write,
		     const char *file, int line);

/* explore-strategy.c */
void ctl_strategy_begin(struct ctl_shared *sh);
int ctl_strategy_choose(struct ctl_shared *sh, int idx, unsigned int enabled,
			int cur, int running);
int ctl_default_choice(unsigned int enabled, int cur);

/* The DFS stack, in the parent. */
struct dfs_frame {
	uint16_t enabled, tried;
	int8_t cur, chosen;
	uint16_t pre;		/* preemptions before this choice */
};
struct dfs {
	unsigned int bound;
	int n;
	struct dfs_frame f[CTL_MAX_CHOICES];
};
void dfs_reset(struct dfs *d, unsigned int bound);
/* Take a run's choices from where its plan ended; false if it diverged. */
bool dfs_record(struct dfs *d, const struct ctl_shared *sh);
/* Next plan into @sh; false when the bounded space is exhausted. */
bool dfs_next(struct dfs *d, struct ctl_shared *sh);
int ctl_preemptions(const struct ctl_shared *sh);

/* explore-dpor.c: source-DPOR with sleep sets, in the parent */
struct dpor_frame {
	uint16_t enabled, backtrack, done, sleep;
	int8_t cur, chosen;
	bool value;		/* options of one transition: all explored */
};
#define DPOR_SEEN	(1u << 18)	/* distinct traces counted, at most */
struct dpor {
	int n;
	unsigned long blocked;		/* runs that ended sleep-set blocked */
	unsigned long traces;		/* distinct traces among the runs */
	bool seen_full;
	struct dpor_frame f[CTL_MAX_CHOICES];
	unsigned long long seen[DPOR_SEEN];	/* trace ids, 0: empty */
};
void dpor_reset(struct dpor *d, struct ctl_shared *sh);
/* Take a run's record: new frames, races, sleep; false if it diverged. */
bool dpor_record(struct dpor *d, const struct ctl_shared *sh);
/* The share of the search tree run so far (0..1], for an estimate. */
double dpor_progress(const struct dpor *d);
/* Next plan into @sh; false when every backtrack point was explored. */
bool dpor_next(struct dpor *d, struct ctl_shared *sh);
/*
 * The label of the operation after a point; @size is the bytes a marked
 * access covers (0: not one, or unknown: its first byte).
 */
struct ctl_label ctl_label_of(int op, const void *obj, unsigned int size,
			      bool ro);

/* explore-run.c: the plan and record shared with the children */
struct ctl_shared *ctl_shared_get(void);
/* One run of the plan in ctl_shared_get(), in a fresh child; true if it failed. */
bool ctl_run_fresh(const struct shim_scenario *sc);
/* A run's outcome; adds it to @set (sorted, at most @max); false if full. */
struct shim_explore_outcome ctl_outcome(const struct ctl_shared *sh);
bool ctl_outcome_add(struct shim_explore_outcome *set, unsigned int *n,
		     unsigned int max, struct shim_explore_outcome o);

/* explore-trace.c */
int ctl_encode(const char *name, const struct ctl_shared *sh, char *buf,
	       size_t len);
/* Parses "NAME/..." into a follow plan; NULL on success, else the error. */
const char *ctl_decode(const char *s, const char *name, struct ctl_shared *sh);
void ctl_render(const struct ctl_shared *sh, FILE *out);
unsigned long ctl_hash(const struct ctl_shared *sh);

#endif

/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Shim kind: custom - the explorer: scenarios run under a controlled,
 * deterministic scheduler.
 *
 * A scenario is a set-up, two to four task bodies and a final check.
 * shim_explore() runs it many times, each run (a "schedule") in a
 * forked child with fresh state, its tasks one at a time: every shim
 * synchronisation point (locks, atomics, barriers, READ_ONCE and
 * WRITE_ONCE, sleeps and wake-ups, completions, kmalloc/kfree, kthread
 * create/stop, simulated interrupts) is a scheduling decision.  Blocked
 * tasks are not runnable; when no task can run, the deadlock is reported
 * at once, naming every task and where it waits.  Time is simulated.
 *
 * Strategies: depth-first up to a preemption bound (iterative context
 * bounding, as CHESS), source-DPOR with sleep sets (Abdulla et al.,
 * POPL 2014: every Mazurkiewicz trace, no bound), PCT with depth d
 * (Burckhardt et al., ASPLOS 2010), or random from a seed.  Every failure prints a schedule string
 * which replays it exactly (SHIM_SCHEDULE=... or opts.replay), and its
 * minimised interleaving: one line per step, a column per task.
 */
#ifndef _SHIM_EXPLORE_H
#define _SHIM_EXPLORE_H

#include <stdbool.h>
#include <shim/shim.h>
#include <shim/ctl-hook.h>

#define SHIM_EXPLORE_MAX_BODIES	4
/* A schedule string's longest: every one of the 8192 choices a deviation. */
#define SHIM_EXPLORE_SCHEDULE_MAX	(64 + 8192 * 8)

struct shim_scenario {
	const char *name;
	/* Runs in the first task before the bodies start; returns their context. */
	void *(*setup)(void);
	void (*body[SHIM_EXPLORE_MAX_BODIES])(void *ctx);
	/* Runs after every body returned: check, then free what set-up made. */
	void (*check)(void *ctx);
	/* Optional: the final state, as a number (before check). */
	unsigned long (*fingerprint)(void *ctx);
};

/* What a run ended in: its final state and its report (0: passed). */
struct shim_explore_outcome {
	unsigned long fingerprint;
	unsigned long report;		/* hash of the title, addresses masked */
};
#define SHIM_EXPLORE_MAX_OUTCOMES	64

enum shim_explore_strategy {
	SHIM_EXPLORE_DFS,	/* exhaustive up to the preemption bound */
	SHIM_EXPLORE_PCT,	/* PCT, depth d, one seed per schedule */
	SHIM_EXPLORE_RANDOM,	/* a random choice at every point */
	SHIM_EXPLORE_REPLAY,	/* one schedule, from opts.replay */
	SHIM_EXPLORE_DPOR,	/* source-DPOR with sleep sets: every trace, no bound */
};

/* Which memory model a run's marked accesses follow (shim/explore/README.md). */
enum shim_explore_model {
	SHIM_EXPLORE_MODEL_DEFAULT,	/* SHIM_EXPLORE_MODEL=sc|wmm, else sc */
	SHIM_EXPLORE_MODEL_SC,		/* every load reads the last store */
	SHIM_EXPLORE_MODEL_WMM,		/* the weak-memory model (<shim/ctl-wmm.h>) */
};

struct shim_explore_opts {
	enum shim_explore_strategy strategy;
	enum shim_explore_model model;
	unsigned int bound;		/* DFS: at most this many preemptions */
	bool iterate;			/* DFS: bounds 0, 1, .. bound in turn */
	unsigned int depth;		/* PCT: d (default 3) */
	unsigned long long seed;	/* PCT, random: first seed */
	unsigned long max_schedules;	/* 0: 100000 */
	unsigned int max_ms;		/* wall-clock budget, 0: 20000 */
	bool stop_on_failure;		/* stop at the first failing schedule */
	bool quiet;			/* no result line */
	const char *replay;		/* schedule string for REPLAY */
	bool outcomes;			/* collect the distinct outcomes */
};

struct shim_explore_result {
	unsigned long schedules;	/* runs made */
	unsigned long failures;
	unsigned long first_failure;	/* 1-based run number, 0: none */
	double first_failure_ms;
	double ms;
	int bound_done;			/* DFS: highest bound fully covered, -1 none */
	bool covered;			/* DFS: the whole bounded space was run; DPOR: every trace */
	unsigned long space;		/* DFS: schedules run at the last bound */
	unsigned long traces;		/* DPOR: distinct Mazurkiewicz traces run */
	bool traces_overflow;		/* ... more than it could count */
	unsigned long sleep_blocked;	/* DPOR: runs that repeated a trace */
	double estimate;		/* DPOR, not covered: schedules in all, estimated */
	unsigned int max_steps;		/* longest run, in scheduling points */
	bool wmm;			/* the runs used the weak-memory model */
	char title[512];		/* first failure's report */
	char schedule[SHIM_EXPLORE_SCHEDULE_MAX];	/* its schedule (minimised) */
	unsigned long trace_hash;	/* hash of its steps: replays must match */
	bool fault;			/* a failure a fresh child did not replay */
	bool diverged;			/* REPLAY: the schedule did not fit the run */
	/* opts.outcomes: the distinct outcomes of the runs made (sorted) */
	unsigned int noutcomes;
	bool outcomes_overflow;
	struct shim_explore_outcome outcomes[SHIM_EXPLORE_MAX_OUTCOMES];
};

/*
 * Explore @sc; fills @r and prints one result line (strategy, schedules,
 * bound, failures, covered or not, wall time).  On the first failure,
 * prints the report, the schedule string, how to replay it and the
 * minimised interleaving.  Returns the number of failing schedules.
 * SHIM_SCHEDULE="NAME/..." in the environment replays that schedule of
 * scenario NAME instead of exploring.
 */
unsigned long shim_explore(const struct shim_scenario *sc,
			   const struct shim_explore_opts *o,
			   struct shim_explore_result *r);

/*
 * The independent check of "covered": every schedule of @sc, with no
 * bound, enumerated simply (each run in a fresh child; explore-brute.c,
 * no DFS code), at most @max_runs.  Fills r[k].outcomes, for k below
 * @nbounds, with the distinct outcomes of the runs with at most k
 * preemptions; r[k].schedules with the runs made, r[k].covered if the
 * enumeration finished.
 */
void shim_explore_brute(const struct shim_scenario *sc, unsigned long max_runs,
			struct shim_explore_result *r, unsigned int nbounds);

/*
 * Data races (#37): true if this program's lib/ and scenarios are built
 * with the access hooks (-fsanitize=thread, served by the explorer), so
 * that a data race fails the run.  A scenario that races on a field by
 * design says so, with the reason, for the run it is called in
 * (SHIM_EXPLORE_RACY(c->field, "why")): a race on those bytes is no
 * failure.
 */
bool shim_explore_sees_accesses(void);
void shim_explore_race_ok(const void *p, unsigned long size, const char *why);
#define SHIM_EXPLORE_RACY(field, why)					\
	shim_explore_race_ok(&(field), sizeof(field), (why))

/* The model @o asks for, after SHIM_EXPLORE_MODEL; false for a bad value. */
bool shim_explore_model_of(const struct shim_explore_opts *o, bool *wmm);

/* NULL if @schedule is a well-formed schedule string of @sc, else why not. */
const char *shim_explore_schedule_error(const struct shim_scenario *sc,
					const char *schedule);

/* A failed check in a scenario: a report, so it is a failing schedule. */
#define SHIM_EXPLORE_CHECK(cond, fmt, ...) do {				\
	if (!(cond))							\
		shim_report(__FILE__, __LINE__,				\
			    "explore check failed: %s: " fmt, #cond,	\
			    ##__VA_ARGS__);				\
} while (0)

/* --- what the rest of the shim calls (shim/src only) ---------------------- */

struct task_struct;

/* Blocked until shim_ctl_signal(@chan); the caller re-checks its condition. */
void shim_ctl_block(const void *chan, enum shim_op op, const char *file,
		    int line, const char *func);
/* The same with a timeout in simulated ms; true if it expired. */
bool shim_ctl_block_timed(const void *chan, long ms, enum shim_op op,
			  const char *file, int line, const char *func);
void shim_ctl_signal(const void *chan);
/* True if the calling task runs under the explorer. */
bool shim_ctl_on(void);
bool shim_ctl_task_new(struct task_struct *p, void (*fn)(struct task_struct *p));
void shim_ctl_task_exit(struct task_struct *p);
long shim_ctl_now_ms(void);

#endif

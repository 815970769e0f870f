// SPDX-License-Identifier: GPL-2.0
/*
 * The explorer's strategies: who runs next at a choice, and, in the
 * parent, which schedule to run next.
 *
 * - follow: the plan's forced choices, then the default (keep running
 *   the current task, else the lowest-numbered runnable one).  Replays
 *   and the depth-first search use it.
 * - PCT (Burckhardt, Kothari, Musuvathi, Nagarakatte, ASPLOS 2010): each
 *   task gets a random priority above d; d-1 change points are drawn
 *   among the run's expected choices; the highest-priority runnable task
 *   runs, and at the i-th change point the running task drops to
 *   priority i.  A bug of depth d is found by one run with probability
 *   at least 1/(n k^(d-1)) for n tasks and k steps.
 * - random: a uniform choice among the runnable tasks at every choice.
 * - DPOR (explore-dpor.c): the plan's forced choices, then the default
 *   among the tasks not in the sleep set.
 * - depth-first with a preemption bound (iterative context bounding,
 *   Musuvathi and Qadeer, PLDI 2007): every schedule with at most k
 *   preemptions, a preemption being a switch away from a task that
 *   could have gone on.  Switches at a block or exit are free.
 */
/* Bookkeeping here is no scheduling point (<shim/ctl-hook.h>). */
#define SHIM_INTERNAL

#include <string.h>

#include "explore-internal.h"

static unsigned long long rng;
static unsigned long long prio[CTL_MAX_TASKS];
static int change_at[8];

static unsigned long long splitmix64(unsigned long long *x)
{
	unsigned long long z = (*x += 0x9e3779b97f4a7c15ULL);

	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
	return z ^ (z >> 31);
}

int ctl_default_choice(unsigned int enabled, int cur)
{
	if (cur >= 0 && (enabled & (1u << cur)))
		return cur;
	return __builtin_ctz(enabled);
}

void ctl_strategy_begin(struct ctl_shared *sh)
{
	int d = sh->pct_depth, i;

	rng = sh->seed * 0x2545f4914f6cdd1dULL + 1;
	/* Priorities d+1 and up, in a random order (ties are negligible). */
	for (i = 0; i < CTL_MAX_TASKS; i++)
		prio[i] = (unsigned long long)d + 1 + (splitmix64(&rng) >> 8);
	for (i = 0; i < (int)(sizeof(change_at) / sizeof(change_at[0])); i++)
		change_at[i] = i < d - 1 && sh->pct_steps > 0 ?
			(int)(splitmix64(&rng) % (unsigned long long)sh->pct_steps) : -1;
}

static int pct_choose(struct ctl_shared *sh, int idx, unsigned int enabled,
		      int running)
{
	unsigned long long best = 0;
	int i, c = -1;

	for (i = 0; i < sh->pct_depth - 1 && i < 8; i++)
		if (change_at[i] == idx && running >= 0)
			prio[running] = (unsigned long long)i + 1;
	for (i = 0; i < CTL_MAX_TASKS; i++) {
		if ((enabled & (1u << i)) && prio[i] > best) {
			best = prio[i];
			c = i;
		}
	}
	return c;
}

int ctl_strategy_choose(struct ctl_shared *sh, int idx, unsigned int enabled,
			int cur, int running)
{
	switch (sh->mode) {
	case CTL_PCT:
		return pct_choose(sh, idx, enabled, running);
	case CTL_RANDOM: {
		int n = __builtin_popcount(enabled), k;

		k = (int)(splitmix64(&rng) % (unsigned long long)n);
		while (k--)
			enabled &= enabled - 1;
		return __builtin_ctz(enabled);
	}
	case CTL_DPOR: {
		unsigned int awake = enabled & ~(unsigned int)sh->ch[idx].sleep;

		if (idx < sh->nforced && sh->forced[idx] >= 0)
			return sh->forced[idx];
		if (sh->ch[idx].value)
			return 0;	/* options, not tasks: none sleeps */
		/*
		 * Past the plan: the default among the tasks not asleep.  If
		 * all are, every continuation is one already explored; the run
		 * goes on (it must end cleanly) but is analysed only up to here.
		 */
		if (!awake) {
			if (sh->dpor_blocked < 0)
				sh->dpor_blocked = idx;
			awake = enabled;
		}
		return ctl_default_choice(awake, cur);
	}
	default:
		if (idx < sh->nforced && sh->forced[idx] >= 0)
			return sh->forced[idx];
		return ctl_default_choice(enabled, cur);
	}
}

/* --- depth-first, preemption-bounded, in the parent ------------------- */

static bool preempts(int cur, int c)
{
	return cur >= 0 && c != cur;
}

int ctl_preemptions(const struct ctl_shared *sh)
{
	int i, n = 0;

	for (i = 0; i < sh->nchoices; i++)
		n += preempts(sh->ch[i].cur, sh->ch[i].chosen);
	return n;
}

void dfs_reset(struct dfs *d, unsigned int bound)
{
	d->bound = bound;
	d->n = 0;
}

bool dfs_record(struct dfs *d, const struct ctl_shared *sh)
{
	int i;

	if (sh->diverged)
		return false;
	for (i = 0; i < d->n && i < sh->nchoices; i++)
		if (sh->ch[i].enabled != d->f[i].enabled ||
		    sh->ch[i].chosen != d->f[i].chosen)
			return false;
	for (i = d->n; i < sh->nchoices; i++) {
		struct dfs_frame *f = &d->f[i];

		f->enabled = sh->ch[i].enabled;
		f->cur = sh->ch[i].cur;
		f->chosen = sh->ch[i].chosen;
		f->tried = (uint16_t)(1u << f->chosen);
		f->pre = (uint16_t)(i ? d->f[i - 1].pre +
			preempts(d->f[i - 1].cur, d->f[i - 1].chosen) : 0);
	}
	d->n = sh->nchoices;
	return true;
}

bool dfs_next(struct dfs *d, struct ctl_shared *sh)
{
	while (d->n > 0) {
		struct dfs_frame *f = &d->f[d->n - 1];
		unsigned int left = f->enabled & ~f->tried;

		while (left) {
			int c = __builtin_ctz(left);

			left &= left - 1;
			f->tried |= (uint16_t)(1u << c);
			if (f->pre + preempts(f->cur, c) > d->bound)
				continue;
			f->chosen = (int8_t)c;
			sh->mode = CTL_FOLLOW;
			sh->nforced = d->n;
			for (int i = 0; i < d->n; i++)
				sh->forced[i] = d->f[i].chosen;
			return true;
		}
		d->n--;
	}
	return false;
}

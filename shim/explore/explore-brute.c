// SPDX-License-Identifier: GPL-2.0
/*
 * The independent check of "covered": every schedule of a scenario,
 * with no preemption bound, enumerated as simply as can be, and none of
 * the depth-first code (explore-strategy.c) used.  A schedule is the
 * list of choices made at the points where more than one task could
 * run.  Run a prefix of forced choices, the default after it; then for
 * every choice point past the prefix and every other task enabled
 * there, that run's choices up to the point plus the other task is a
 * new prefix.  Each schedule is run once, in a fresh child.
 *
 * The outcomes (final state fingerprint, report) of the runs with at
 * most @bound preemptions must be those the bounded DFS reached when it
 * said "covered": explore-test.c, suite explore_brute.
 */
/* Bookkeeping here is no scheduling point (<shim/ctl-hook.h>). */
#define SHIM_INTERNAL

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "explore-internal.h"

struct prefix {
	int len;
	int8_t choice[];
};

struct worklist {
	struct prefix **p;
	size_t n, cap;
};

static void push(struct worklist *w, const struct ctl_shared *sh, int len,
		 int last)
{
	struct prefix *p = malloc(sizeof(*p) + (size_t)len + 1);
	int i;

	if (!p)
		abort();
	for (i = 0; i < len; i++)
		p->choice[i] = sh->ch[i].chosen;
	p->choice[len] = (int8_t)last;
	p->len = len + 1;
	if (w->n == w->cap) {
		w->cap = w->cap ? 2 * w->cap : 256;
		w->p = realloc(w->p, w->cap * sizeof(*w->p));
		if (!w->p)
			abort();
	}
	w->p[w->n++] = p;
}

void shim_explore_brute(const struct shim_scenario *sc, unsigned long max_runs,
			struct shim_explore_result *r, unsigned int nbounds)
{
	struct ctl_shared *sh = ctl_shared_get();
	struct worklist w = { NULL, 0, 0 };
	struct prefix *p = NULL;
	unsigned long runs = 0, failures = 0;
	bool fault = false;
	unsigned int k;

	/* The model of SHIM_EXPLORE_MODEL, as shim_explore() would take it. */
	if (!shim_explore_model_of(&(struct shim_explore_opts){ 0 }, &sh->wmm))
		sh->wmm = false;
	for (k = 0; k < nbounds; k++) {
		memset(&r[k], 0, sizeof(r[k]));
		r[k].bound_done = -1;
	}
	for (;;) {
		int i, t;

		sh->mode = CTL_FOLLOW;
		sh->nforced = p ? p->len : 0;
		for (i = 0; i < sh->nforced; i++)
			sh->forced[i] = p->choice[i];
		ctl_run_fresh(sc);
		runs++;
		failures += sh->failed;
		/* A prefix this program does not take: a bug of ours. */
		fault |= sh->diverged;
		for (k = ctl_preemptions(sh); k < nbounds; k++)
			if (!ctl_outcome_add(r[k].outcomes, &r[k].noutcomes,
					     SHIM_EXPLORE_MAX_OUTCOMES,
					     ctl_outcome(sh)))
				r[k].outcomes_overflow = true;
		for (i = sh->nchoices - 1; i >= sh->nforced; i--)
			for (t = 0; t < CTL_MAX_TASKS; t++)
				if ((sh->ch[i].enabled & (1u << t)) &&
				    t != sh->ch[i].chosen)
					push(&w, sh, i, t);
		free(p);
		p = NULL;
		if (!w.n || runs >= max_runs)
			break;
		p = w.p[--w.n];
	}
	for (k = 0; k < nbounds; k++) {
		r[k].schedules = runs;
		r[k].failures = failures;
		r[k].covered = !w.n;
		r[k].fault = fault;
		if (fault)
			snprintf(r[k].title, sizeof(r[k].title),
				 "EXPLORER FAULT: brute force: a prefix diverged");
	}
	while (w.n)
		free(w.p[--w.n]);
	free(w.p);
}

// SPDX-License-Identifier: GPL-2.0
/*
 * Source-DPOR with sleep sets (Abdulla, Aronis, Jonsson, Sagonas, POPL
 * 2014): at least one schedule of every Mazurkiewicz trace of a scenario,
 * with no preemption bound.
 *
 * A run is a sequence of events, one per step: the transition the task
 * chosen there made, labelled with what its pending operation touches
 * (struct ctl_label; the points come before their effects, so each
 * paused task's next operation is known).  After each run, in the batch
 * child that made it (or the parent, for a failed one):
 *
 * - happens-before is computed with a vector clock per event: program
 *   order, and every earlier dependent event (ctl_dependent());
 * - each race e_i < e_j (dependent, different tasks, no other event
 *   between them in happens-before) is reversed at the choice made
 *   before e_i: if no task of the initials of notdep(e_i).e_j (the events
 *   after e_i that do not happen after it, then e_j) is in that choice's
 *   backtrack set, one is added (e_j's task if it is one);
 * - the next plan is the deepest choice with a backtrack task neither
 *   explored there nor asleep.  The tasks explored there before it, and
 *   those asleep on arrival, start the new branch's sleep set; the child
 *   wakes a sleeper as soon as a dependent event runs (explore.c) and
 *   never picks one past the plan.  A run in which every runnable task
 *   sleeps repeats a trace already explored: it is analysed up to there.
 *
 * Why source-DPOR and not optimal DPOR: wakeup trees need the child to
 * follow a whole inserted sequence, not one choice, and their bookkeeping
 * is the costly part; source sets with sleep sets already explore few
 * redundant schedules here, which the distinct trace count below
 * measures (README.md).
 *
 * Every run keeps the plain schedule string (choices and tasks), so a
 * DPOR failure replays and minimises as any other.
 */
/* Bookkeeping here is no scheduling point (<shim/ctl-hook.h>). */
#define SHIM_INTERNAL

#include <string.h>

#include "explore-internal.h"

/*
 * A transition is its point's operation and the plain code after it, up
 * to the task's next point.  The plain code is taken to touch what the
 * operation names (or what it protects, or the task's own data); where
 * the operation names nothing (a task's start; without the access hooks
 * a barrier, a yield, an allocation, a free, an interrupt window, the
 * tail of a body up to its exit: explore.c; a timed block's retry) the
 * transition is dependent with everything.
 */
#define CTL_GRAIN	8	/* a marked access is labelled by its 8-byte words */

/* What kthread_create() modifies: the pids and task slots, in their order. */
static const char ctl_task_table;

struct ctl_label ctl_label_of(int op, const void *obj, unsigned int size,
			      bool ro)
{
	uintptr_t first, last;

	switch (op) {
	case SHIM_OP_READ_ONCE:
	case SHIM_OP_WRITE_ONCE:
	case SHIM_OP_ACQUIRE:
	case SHIM_OP_RELEASE:
	case SHIM_OP_ATOMIC:
	case SHIM_OP_REFCOUNT:	/* its counter: refcount_read() is an atomic_read() */
		/*
		 * By the bytes it covers: WRITE_ONCE(u.whole) and
		 * READ_ONCE(u.half[1]) start at different addresses and
		 * overlap.  Each access names the aligned words it
		 * touches (errs toward dependence: two fields in one word
		 * are one object); one that spans more than two, all.
		 */
		if (!obj)
			break;
		first = (uintptr_t)obj & ~(uintptr_t)(CTL_GRAIN - 1);
		last = ((uintptr_t)obj + (size ? size : 1) - 1) &
		       ~(uintptr_t)(CTL_GRAIN - 1);
		if (last - first > CTL_GRAIN)
			return (struct ctl_label){ .dep = CTL_DEP_ALL };
		return (struct ctl_label){
			.obj = (const void *)first,
			.also = last != first ? (const void *)last : NULL,
			.dep = ro ? CTL_DEP_READ : CTL_DEP_WRITE };
	case SHIM_OP_SPIN_LOCK:
	case SHIM_OP_MUTEX_LOCK:
	case SHIM_OP_TRYLOCK:
		if (obj)
			return (struct ctl_label){ .obj = obj, .dep = CTL_DEP_LOCK };
		break;
	}
	/*
	 * An operation that names nothing, whose effect no other task sees
	 * (an allocation, a barrier under sc, a yield, an interrupt window,
	 * whose handler's operations are points of their own), or whose
	 * effect is accesses the race detector sees (kfree(): a write of the
	 * block's bytes): the plain code after it is what made it dependent
	 * with everything.  With plain accesses checked (explore-race.c)
	 * that code is either ordered by what the labels name or a reported
	 * data race: it names nothing.
	 */
	if (!obj && ctl_race_on() &&
	    (op == SHIM_OP_KMALLOC || op == SHIM_OP_KFREE ||
	     op == SHIM_OP_BARRIER || op == SHIM_OP_YIELD || op == SHIM_OP_IRQ))
		return (struct ctl_label){ .dep = CTL_DEP_NONE };
	/*
	 * kthread_create() (its point names no task: the task does not
	 * exist yet): it takes the next pid and the explorer's next task
	 * slot, so two creations are dependent; nothing else reads those.
	 * The new task's first run is labelled by the task (its wake-up).
	 */
	if (!obj && ctl_race_on() && op == SHIM_OP_KTHREAD)
		return (struct ctl_label){ .obj = &ctl_task_table,
					   .dep = CTL_DEP_WRITE };
	if (!obj)
		return (struct ctl_label){ .dep = CTL_DEP_ALL };
	return (struct ctl_label){ .obj = obj,
				   .dep = ro ? CTL_DEP_READ : CTL_DEP_WRITE };
}

/* --- per run: happens-before and races --------------------------------- */

#define OBJ_SLOTS	8192	/* distinct objects in one run, at most */

/* An object's last access and last modification by each task (event index). */
struct obj_entry {
	const void *obj;
	unsigned int gen;
	int any[CTL_MAX_TASKS], write[CTL_MAX_TASKS];
};

static struct obj_entry objs[OBJ_SLOTS];
static unsigned int gen;
/* Per event: its vector clock (events of each task before it, itself counted). */
static uint16_t vc[CTL_MAX_STEPS][CTL_MAX_TASKS];
static uint16_t posn[CTL_MAX_STEPS];	/* its place in its task, from 1 */

static struct obj_entry *lookup(const void *obj, int ntasks)
{
	unsigned long h = (unsigned long)obj;
	unsigned int i, n;

	h = (h ^ (h >> 17)) * 0x9e3779b97f4a7c15UL;
	i = (unsigned int)(h >> 40) & (OBJ_SLOTS - 1);
	for (n = 0; n < OBJ_SLOTS; n++, i = (i + 1) & (OBJ_SLOTS - 1)) {
		struct obj_entry *e = &objs[i];

		if (e->gen == gen && e->obj == obj)
			return e;
		if (e->gen != gen) {
			e->gen = gen;
			e->obj = obj;
			memset(e->any, 0xff, sizeof(e->any[0]) * ntasks);
			memset(e->write, 0xff, sizeof(e->write[0]) * ntasks);
			return e;
		}
	}
	return NULL;	/* full: the caller takes the event as touching all */
}

static int later(int a, int b)
{
	return a > b ? a : b;
}

/*
 * The race e_i < e_j, reversed at the choice made before e_i: unless a
 * task whose first event in notdep(e_i).e_j nothing there precedes is
 * in its backtrack set already, add one.
 */
static void reverse(struct dpor *d, const struct ctl_shared *sh, int i, int j,
		    int ntasks)
{
	int node = sh->st[i].choice, ti = sh->st[i].next, pj = sh->st[j].next;
	int first[CTL_MAX_TASKS];
	unsigned int initials = 0;
	struct dpor_frame *f;
	int k, w;

	if (node < 0 || node >= d->n)
		return;		/* one task could run there: nothing to reverse */
	/*
	 * e_i made e_j's task runnable (a wake-up, an unlock, a complete,
	 * an exit: its channel): e_j cannot come first.  The race that
	 * decides the order is its block's, with what it waited for.
	 */
	if (!(sh->st[i].enabled & (1u << pj)) && i + 1 < sh->nsteps &&
	    (sh->st[i + 1].enabled & (1u << pj)))
		return;
	f = &d->f[node];
	for (w = 0; w < ntasks; w++)
		first[w] = -1;
	for (k = i + 1; k <= j; k++) {
		int u = sh->st[k].next;
		bool initial = true;

		if (u < 0 || first[u] >= 0)
			continue;
		if (k < j && vc[k][ti] >= posn[i])
			continue;	/* happens after e_i */
		first[u] = k;
		for (w = 0; w < ntasks && initial; w++)
			if (w != u && first[w] >= 0 && first[w] != k &&
			    vc[k][w] >= posn[first[w]])
				initial = false;
		if (!initial)
			continue;
		if (f->backtrack & (1u << u))
			return;
		initials |= 1u << u;
	}
	initials &= f->enabled;
	if (!initials)
		f->backtrack |= f->enabled;	/* cannot tell: every task */
	else if (initials & (1u << pj))
		f->backtrack |= (uint16_t)(1u << pj);
	else
		f->backtrack |= (uint16_t)(initials & -initials);
}

static unsigned long long mix(unsigned long long z)
{
	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
	return z ^ (z >> 31);
}

/* The trace's id: its events (task, place) with their clocks, in any order. */
static void count_trace(struct dpor *d, unsigned long long id)
{
	unsigned int i, n;

	if (!id)
		id = 1;
	i = (unsigned int)id & (DPOR_SEEN - 1);
	for (n = 0; n < DPOR_SEEN; n++, i = (i + 1) & (DPOR_SEEN - 1)) {
		if (d->seen[i] == id)
			return;
		if (!d->seen[i]) {
			d->seen[i] = id;
			d->traces++;
			return;
		}
	}
	d->seen_full = true;
}

/* Happens-before over the run's first @limit steps, and its races. */
static void analyse(struct dpor *d, const struct ctl_shared *sh, int limit,
		    bool whole)
{
	int last[CTL_MAX_TASKS], lastdep[CTL_MAX_TASKS];
	int lastall[CTL_MAX_TASKS];
	uint16_t count[CTL_MAX_TASKS];
	int ntasks = sh->ntasks, k, q;
	unsigned long long id = 0;

	if (ntasks > CTL_MAX_TASKS)
		ntasks = CTL_MAX_TASKS;
	for (q = 0; q < ntasks; q++) {
		last[q] = lastdep[q] = lastall[q] = -1;
		count[q] = 0;
	}
	if (!++gen) {
		memset(objs, 0, sizeof(objs));
		gen = 1;
	}
	for (k = 0; k < limit; k++) {
		const struct ctl_step *s = &sh->st[k];
		struct ctl_label ev = s->ev;
		struct obj_entry *e = NULL, *a = NULL, *a2 = NULL;
		int cand[CTL_MAX_TASKS];
		bool racing[CTL_MAX_TASKS];
		uint16_t *v = vc[k];
		int p = s->next;

		if (p < 0 || p >= ntasks) {
			/*
			 * A value choice (the store a load read, a store's
			 * place): part of the execution, so of its id.
			 */
			if (whole && s->choice >= 0 && s->task >= 0 &&
			    s->task < ntasks && sh->ch[s->choice].value)
				id += mix((unsigned long long)s->task << 48 |
					  (unsigned long long)count[(int)s->task] << 16 |
					  (unsigned long long)(uint8_t)sh->ch[s->choice].chosen);
			continue;
		}
		if (last[p] >= 0)
			memcpy(v, vc[last[p]], sizeof(v[0]) * ntasks);
		else
			memset(v, 0, sizeof(v[0]) * ntasks);
		v[p] = ++count[p];
		posn[k] = count[p];
		if (ev.dep != CTL_DEP_NONE && ev.dep != CTL_DEP_ALL) {
			e = lookup(ev.obj, ntasks);
			if (!e)
				ev.dep = CTL_DEP_ALL;
		}
		if (ev.also && ev.dep != CTL_DEP_ALL) {
			a = lookup(ev.also, ntasks);
			if (!a)
				ev.dep = CTL_DEP_ALL;
		}
		if (ev.also2 && ev.dep != CTL_DEP_ALL) {
			a2 = lookup(ev.also2, ntasks);
			if (!a2)
				ev.dep = CTL_DEP_ALL;
		}
		/* Each other task's last event dependent with this one. */
		for (q = 0; q < ntasks; q++) {
			cand[q] = -1;
			if (q == p)
				continue;
			if (ev.dep == CTL_DEP_ALL) {
				cand[q] = lastdep[q];
				continue;
			}
			if (e)
				cand[q] = ev.dep == CTL_DEP_READ ? e->write[q] : e->any[q];
			if (a)
				cand[q] = later(cand[q], a->any[q]);
			if (a2)
				cand[q] = later(cand[q], a2->any[q]);
			if (e || a || a2)
				cand[q] = later(cand[q], lastall[q]);
		}
		/*
		 * A race unless the candidate happens before this event
		 * through another: program order or another task's candidate.
		 */
		for (q = 0; q < ntasks; q++) {
			int i = cand[q], r;

			if (i < 0)
				continue;
			racing[q] = !(last[p] >= 0 && vc[last[p]][q] >= posn[i]);
			for (r = 0; r < ntasks && racing[q]; r++)
				racing[q] = !(r != q && cand[r] >= 0 &&
					      vc[cand[r]][q] >= posn[i]);
		}
		for (q = 0; q < ntasks; q++) {
			int r;

			if (cand[q] < 0)
				continue;
			for (r = 0; r < ntasks; r++)
				if (vc[cand[q]][r] > v[r])
					v[r] = vc[cand[q]][r];
		}
		/* With this event's whole clock: the initials need it. */
		for (q = 0; q < ntasks; q++)
			if (cand[q] >= 0 && racing[q])
				reverse(d, sh, cand[q], k, ntasks);
		last[p] = k;
		if (ev.dep != CTL_DEP_NONE || a || a2)
			lastdep[p] = k;
		if (ev.dep == CTL_DEP_ALL) {
			lastall[p] = k;
		} else {
			if (e) {
				e->any[p] = k;
				if (ev.dep != CTL_DEP_READ)
					e->write[p] = k;
			}
			if (a)
				a->any[p] = a->write[p] = k;
			if (a2)
				a2->any[p] = a2->write[p] = k;
		}
		if (whole) {
			unsigned long long h = mix((unsigned long long)p << 32 | posn[k]);

			for (q = 0; q < ntasks; q++)
				h = mix(h ^ ((unsigned long long)v[q] << 8 | (unsigned long long)q));
			id += h;
		}
	}
	if (whole)
		count_trace(d, id);
}

/* --- the search, in the parent's shared memory ------------------------- */

void dpor_reset(struct dpor *d, struct ctl_shared *sh)
{
	d->n = 0;
	d->blocked = 0;
	d->traces = 0;
	d->seen_full = false;
	memset(d->seen, 0, sizeof(d->seen));
	sh->mode = CTL_DPOR;
	sh->nforced = 0;
	sh->dpor_sleep = 0;
}

bool dpor_record(struct dpor *d, const struct ctl_shared *sh)
{
	int i, end = sh->nchoices, limit = sh->nsteps;
	bool blocked = sh->dpor_blocked >= 0 && sh->dpor_blocked < end;

	if (sh->diverged)
		return false;
	for (i = 0; i < d->n && i < sh->nchoices; i++)
		if (sh->ch[i].enabled != d->f[i].enabled ||
		    sh->ch[i].chosen != d->f[i].chosen)
			return false;
	if (blocked) {
		end = sh->dpor_blocked;
		d->blocked++;
		for (limit = 0; limit < sh->nsteps; limit++)
			if (sh->st[limit].choice == end)
				break;
	}
	for (i = d->n; i < end; i++) {
		struct dpor_frame *f = &d->f[i];

		f->enabled = sh->ch[i].enabled;
		f->cur = sh->ch[i].cur;
		f->chosen = sh->ch[i].chosen;
		f->value = sh->ch[i].value;
		f->done = (uint16_t)(1u << f->chosen);
		f->backtrack = f->value ? f->enabled : f->done;
		f->sleep = sh->ch[i].sleep;
	}
	if (end > d->n)
		d->n = end;
	analyse(d, sh, limit, !blocked);
	return true;
}

/*
 * The branches of @f still to run: its backtrack tasks neither explored
 * nor asleep; of a value choice, every option not yet taken (its sleep
 * set is of tasks, passed on to each option's branch).
 */
static unsigned int todo(const struct dpor_frame *f)
{
	if (f->value)
		return f->enabled & ~(unsigned int)f->done;
	return f->backtrack & f->enabled & ~(unsigned int)(f->done | f->sleep);
}

/*
 * How much of the search tree the runs so far covered, as a fraction:
 * the branches finished below each choice of the current path, weighted
 * by the share of the tree each stands for (Kilby, Slaney, Thiebaux,
 * Walsh, AAAI 2006); runs / progress estimates the total.  Checked on
 * scenarios that finish, stopped at 20-40% of their runs: 1.25 to 2.5
 * times the true count (docs/explore.md), so an order of magnitude.
 */
double dpor_progress(const struct dpor *d)
{
	double share = 1, progress = 0;
	int i;

	for (i = 0; i < d->n; i++) {
		const struct dpor_frame *f = &d->f[i];
		int done = __builtin_popcount(f->done);
		int branches = done + __builtin_popcount(todo(f));

		share /= branches;
		progress += share * (done - 1);
	}
	return progress + share;
}

bool dpor_next(struct dpor *d, struct ctl_shared *sh)
{
	while (d->n > 0) {
		struct dpor_frame *f = &d->f[d->n - 1];
		unsigned int left = todo(f);
		int c, i;

		if (!left) {
			d->n--;
			continue;
		}
		c = __builtin_ctz(left);
		/*
		 * Asleep in the new branch: what this choice explored
		 * already; after a value, the transition's own sleep set.
		 */
		if (f->value)
			sh->dpor_sleep = f->sleep;
		else
			sh->dpor_sleep = (uint16_t)((f->sleep | f->done) & ~(1u << c));
		f->done |= (uint16_t)(1u << c);
		f->chosen = (int8_t)c;
		sh->mode = CTL_DPOR;
		sh->nforced = d->n;
		for (i = 0; i < d->n; i++)
			sh->forced[i] = d->f[i].chosen;
		return true;
	}
	return false;
}

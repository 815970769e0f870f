// SPDX-License-Identifier: GPL-2.0
/*
 * The explorer's weak-memory model (wmm mode): an operational, view-based
 * model of the Linux-kernel memory model's core, in the style of the
 * promising semantics without promises (Kang et al., POPL 2017) and of
 * C11Tester (Luo and Demsky, ASPLOS 2021).
 *
 * Every location keeps its stores (messages) in modification order, each
 * with a timestamp.  Every task has a view: for each location, the
 * newest timestamp it has seen.  A load may read any message not older
 * than its task's view of the location; a store goes at any place in the
 * order after its task's view (never between a read-modify-write and the
 * store it read).  Each such choice with more than one option is a
 * decision of the schedule (ctl_choose_value()), so a weak behaviour is
 * a schedule string that replays, and the interleaving shows the value
 * each load read and whose store it was.  Choice 0 is always the newest
 * message or the end of the order: the default schedule is the
 * sequentially consistent one, and every other choice counts as a
 * preemption for the bound.
 *
 * Ordering, as views carried by messages and joined by their readers:
 *  - relaxed store: carries the task's release view (set by smp_wmb,
 *    smp_mb, a lock); relaxed load: its message's view goes into the
 *    task's acquire view, taken by a later smp_rmb or smp_mb;
 *  - smp_store_release: carries the task's whole view (A-cumulative);
 *    smp_load_acquire: takes the message's view;
 *  - smp_wmb: the release view takes the task's own stores (not
 *    A-cumulative); smp_rmb: the view takes the acquire view;
 *  - smp_mb: both, and a global view every smp_mb joins both ways (the
 *    strong fence's order);
 *  - read-modify-writes read the newest message; value-returning ones
 *    are smp_mb; rmw; smp_mb;
 *  - lock: an acquire read-modify-write of the lock's location that
 *    also makes what preceded the unlock it read (or this task's
 *    earlier unlocks) travel with later stores (po-unlock-lock-po is a
 *    cumul-fence); unlock: a release store to it;
 *  - an address dependency (shim_ctl_load()'s @dep): the load takes the
 *    view of the message its address came from.
 * A plain store between two marked accesses of a location (the model
 * finds memory changed) becomes that location's only message, visible
 * to all: plain accesses stay sequentially consistent.
 */
/* Bookkeeping here is no scheduling point (<shim/ctl-hook.h>). */
#define SHIM_INTERNAL

#include <stdint.h>
#include <string.h>

#include <shim/ctl-wmm.h>
#include <linux/kernel.h>
#include "explore-internal.h"
#include "explore-graph.h"	/* #38 native graph front end */

#define WMM_LOCS	256	/* locations per run */
#define WMM_LOC_MSGS	64	/* messages kept per location */
#define WMM_MSGS	32768	/* messages per run */
#define WMM_VIEWS	4096	/* carried views per run */

struct wmm_view {
	double t[WMM_LOCS];
};

struct wmm_msg {
	double ts;
	unsigned long long val;
	int view;		/* the view it carries, -1: none */
	int8_t task;		/* who stored it, -1: the initial value */
	bool rmw;
};

struct wmm_loc {
	uintptr_t addr;
	unsigned int size;
	bool shadow;		/* no memory behind it (a lock's) */
	int n;
	int msg[WMM_LOC_MSGS];	/* in modification order */
};

struct wmm_task {
	struct wmm_view cur;	/* what the task has seen */
	struct wmm_view acq;	/* what its relaxed loads' messages carried */
	struct wmm_view own;	/* its own stores */
	struct wmm_view unl;	/* its view at its unlocks */
	int rel;		/* the view its relaxed stores carry, -1: none */
	int rcu_depth;
	unsigned int rcu_gen;
};

int shim_ctl_wmm;
/* #38: set only in explore-graph.c's children, which take every access */
const struct shim_graph_hook *shim_graph_hook;
void (*shim_graph_plain)(const volatile void *p, unsigned int size, bool write);

static struct {
	int nlocs, nmsgs, nviews, ntasks_seen;
	struct wmm_loc loc[WMM_LOCS];
	struct wmm_msg msg[WMM_MSGS];
	struct wmm_view view[WMM_VIEWS];
	struct wmm_task task[CTL_MAX_TASKS];
	struct wmm_view sc;		/* joined by every smp_mb */
	struct wmm_view gp;		/* what preceded each grace period's start */
	struct wmm_view rcu_done;	/* what ended read-side sections saw */
	int rcu_chan;
} w;

static void join(struct wmm_view *a, const struct wmm_view *b)
{
	int i;

	for (i = 0; i < w.nlocs; i++)
		if (b->t[i] > a->t[i])
			a->t[i] = b->t[i];
}

/* The view a message makes known: what it carries, and itself. */
static void join_msg(struct wmm_view *a, int loc, int m)
{
	if (w.msg[m].view >= 0)
		join(a, &w.view[w.msg[m].view]);
	if (w.msg[m].ts > a->t[loc])
		a->t[loc] = w.msg[m].ts;
}

static int new_view(const struct wmm_view *v)
{
	if (w.nviews == WMM_VIEWS) {
		shim_report(__FILE__, __LINE__,
			    "explore: wmm: more than %d carried views in one run",
			    WMM_VIEWS);
		return -1;
	}
	memcpy(&w.view[w.nviews], v, sizeof(*v));
	return w.nviews++;
}

static int new_msg(double ts, unsigned long long val, int view, int task,
		   bool rmw)
{
	struct wmm_msg *m;

	if (w.nmsgs == WMM_MSGS) {
		shim_report(__FILE__, __LINE__,
			    "explore: wmm: more than %d stores in one run", WMM_MSGS);
		shim_ctl_fail(__FILE__, __LINE__, "explore: wmm: out of messages");
	}
	m = &w.msg[w.nmsgs];
	m->ts = ts;
	m->val = val;
	m->view = view;
	m->task = (int8_t)task;
	m->rmw = rmw;
	return w.nmsgs++;
}

static unsigned long long mem_read(uintptr_t addr, unsigned int size)
{
	unsigned long long v = 0;

	memcpy(&v, (const void *)addr, size);
	return v;
}

static int task_slot(void)
{
	int self = ctl_self();

	return self < 0 ? 0 : self;
}

/*
 * The location at @p, made on first use with memory's value as its
 * initial message.  If memory no longer holds the newest message's
 * value, a plain store came between: it becomes the only message.
 */
static int loc_of(const volatile void *p, unsigned int size, bool shadow)
{
	uintptr_t a = (uintptr_t)p;
	struct wmm_loc *l;
	int i;

	for (i = 0; i < w.nlocs; i++) {
		l = &w.loc[i];
		if (l->addr != a)
			continue;
		if (!l->shadow && l->size == size &&
		    w.msg[l->msg[l->n - 1]].val == mem_read(a, size))
			return i;
		if (l->shadow)
			return i;
		break;
	}
	if (i == w.nlocs) {
		if (w.nlocs == WMM_LOCS) {
			shim_report(__FILE__, __LINE__,
				    "explore: wmm: more than %d locations in one run",
				    WMM_LOCS);
			shim_ctl_fail(__FILE__, __LINE__,
				      "explore: wmm: out of locations");
		}
		w.nlocs++;
	}
	l = &w.loc[i];
	l->addr = a;
	l->size = size;
	l->shadow = shadow;
	l->n = 1;
	/* Visible to all: a timestamp no view is below. */
	l->msg[0] = new_msg(0, shadow ? 0 : mem_read(a, size), -1, -1, false);
	for (int t = 0; t < CTL_MAX_TASKS; t++) {
		w.task[t].cur.t[i] = 0;
		w.task[t].acq.t[i] = 0;
		w.task[t].own.t[i] = 0;
		w.task[t].unl.t[i] = 0;
	}
	w.sc.t[i] = w.gp.t[i] = w.rcu_done.t[i] = 0;
	return i;
}

/* Room for one more message at @l: drop the oldest nobody can read. */
static void make_room(int li)
{
	struct wmm_loc *l = &w.loc[li];
	double oldest_view = 1e300;
	int t;

	if (l->n < WMM_LOC_MSGS)
		return;
	for (t = 0; t < CTL_MAX_TASKS; t++)
		if (w.task[t].cur.t[li] < oldest_view)
			oldest_view = w.task[t].cur.t[li];
	if (w.msg[l->msg[1]].ts > oldest_view) {
		shim_report(__FILE__, __LINE__,
			    "explore: wmm: more than %d readable stores to one location",
			    WMM_LOC_MSGS);
		shim_ctl_fail(__FILE__, __LINE__, "explore: wmm: out of room");
	}
	memmove(&l->msg[0], &l->msg[1], sizeof(l->msg[0]) * (size_t)(l->n - 1));
	l->n--;
}

static void note(int kind, unsigned long long val, int from, int pos)
{
	struct ctl_shared *sh = ctl_shared_now();

	if (!sh->nsteps)
		return;
	sh->wnote[sh->nsteps - 1].kind = (uint8_t)kind;
	sh->wnote[sh->nsteps - 1].from = (int8_t)from;
	sh->wnote[sh->nsteps - 1].pos = (int16_t)pos;
	sh->wnote[sh->nsteps - 1].val = (long long)val;
}

static void fence_mb(struct wmm_task *t)
{
	/* The global view: full barriers are ordered among themselves (DPOR). */
	ctl_touch(&w.sc);
	join(&t->cur, &t->acq);
	join(&t->cur, &w.sc);
	join(&w.sc, &t->cur);
	join(&t->acq, &t->cur);
	t->rel = new_view(&t->cur);
}

static void do_fence(struct wmm_task *t, enum shim_fence f)
{
	switch (f) {
	case SHIM_FENCE_MB:
		fence_mb(t);
		break;
	case SHIM_FENCE_RMB:
		join(&t->cur, &t->acq);
		break;
	case SHIM_FENCE_WMB: {
		struct wmm_view v = t->own;

		if (t->rel >= 0)
			join(&v, &w.view[t->rel]);
		t->rel = new_view(&v);
		break;
	}
	}
}

static int op_of_load(enum shim_mo mo)
{
	return mo == SHIM_MO_ACQUIRE ? SHIM_OP_ACQUIRE : SHIM_OP_READ_ONCE;
}

/* The load proper, after its point: choose, take the views, return. */
static int load(int li, enum shim_mo mo, int dep, unsigned long long *val,
		int op, const char *file, int line)
{
	struct wmm_task *t = &w.task[task_slot()];
	struct wmm_loc *l = &w.loc[li];
	double floor = t->cur.t[li];
	int n = 0, c, m;

	if (dep >= 0) {
		/* An address dependency: the load is ordered after @dep's. */
		struct wmm_view v = t->cur;

		for (int i = 0; i < w.nlocs; i++)
			v.t[i] = 0;
		if (w.msg[dep].view >= 0)
			join(&v, &w.view[w.msg[dep].view]);
		if (v.t[li] > floor)
			floor = v.t[li];
		join(&t->cur, &v);
	}
	while (n < l->n && n < 16 && w.msg[l->msg[l->n - 1 - n]].ts >= floor)
		n++;
	c = ctl_choose_value((unsigned int)n, op, file, line);
	m = l->msg[l->n - 1 - c];
	if (w.msg[m].ts > t->cur.t[li])
		t->cur.t[li] = w.msg[m].ts;
	join_msg(&t->acq, li, m);
	if (mo == SHIM_MO_ACQUIRE)
		join_msg(&t->cur, li, m);
	*val = w.msg[m].val;
	note(1, w.msg[m].val, w.msg[m].task, c);
	return m;
}

/* Where a store may go: after the task's view, never right before an rmw. */
static int store(int li, unsigned long long val, enum shim_mo mo, bool rmw,
		 int carried, int op, const char *file, int line)
{
	int self = task_slot();
	struct wmm_task *t = &w.task[self];
	struct wmm_loc *l;
	int pos[16], n = 0, c, i, m, view;
	double ts;

	make_room(li);
	l = &w.loc[li];
	/* pos[k]: insert before l->msg[pos[k]]; l->n means at the end. */
	pos[n++] = l->n;
	for (i = l->n - 1; !rmw && i >= 1 && n < 16; i--) {
		if (w.msg[l->msg[i - 1]].ts < t->cur.t[li])
			break;
		if (w.msg[l->msg[i]].rmw)
			continue;
		pos[n++] = i;
	}
	c = rmw ? 0 : ctl_choose_value((unsigned int)n, op, file, line);
	i = pos[c];
	ts = i == l->n ? w.msg[l->msg[l->n - 1]].ts + 1 :
		(w.msg[l->msg[i - 1]].ts + w.msg[l->msg[i]].ts) / 2;
	t->cur.t[li] = ts;
	t->own.t[li] = ts;
	if (mo == SHIM_MO_RELEASE || mo == SHIM_MO_MB) {
		view = new_view(&t->cur);
	} else if (carried >= 0 && t->rel >= 0) {
		struct wmm_view v = w.view[carried];

		join(&v, &w.view[t->rel]);
		view = new_view(&v);
	} else {
		view = carried >= 0 ? carried : t->rel;
	}
	m = new_msg(ts, val, view, self, rmw);
	memmove(&l->msg[i + 1], &l->msg[i], sizeof(l->msg[0]) * (size_t)(l->n - i));
	l->msg[i] = m;
	l->n++;
	if (i == l->n - 1 && !l->shadow)
		memcpy((void *)l->addr, &val, l->size);
	if (!rmw)
		note(2, val, self, c);
	return m;
}

int shim_ctl_load(const volatile void *p, unsigned int size, void *val,
		  enum shim_mo mo, int dep, const char *file, int line)
{
	unsigned long long v;
	int op = op_of_load(mo), m;

	if (shim_graph_hook) {		/* #38 graph */
		shim_graph_hook->load(p, size, val, mo);
		return -1;
	}
	shim_ctl_point_sized(op, (const void *)p, size, true, file, line);
	if (!shim_ctl_wmm) {
		v = mem_read((uintptr_t)p, size);
		memcpy(val, &v, size);
		return -1;
	}
	m = load(loc_of(p, size, false), mo, dep, &v, op, file, line);
	memcpy(val, &v, size);
	return m;
}

unsigned long long shim_ctl_load_val(const volatile void *p, unsigned int size,
				     int line)
{
	unsigned long long v = 0;

	shim_ctl_load(p, size, &v, SHIM_MO_ONCE, -1, "atomic_read", line);
	return v;
}

void shim_ctl_store(volatile void *p, unsigned int size, const void *val,
		    enum shim_mo mo, const char *file, int line)
{
	unsigned long long v = 0;
	int op = mo == SHIM_MO_RELEASE ? SHIM_OP_RELEASE : SHIM_OP_WRITE_ONCE;

	memcpy(&v, val, size);
	if (shim_graph_hook) {		/* #38 graph */
		shim_graph_hook->store(p, size, val, mo);
		return;
	}
	shim_ctl_point_sized(op, (const void *)p, size, false, file, line);
	if (!shim_ctl_wmm) {
		memcpy((void *)p, &v, size);
		return;
	}
	store(loc_of(p, size, false), v, mo, false, -1, op, file, line);
}

static void rmw_at(int li, enum shim_rmw op, unsigned long long a,
		   unsigned long long b, unsigned long long *old,
		   enum shim_mo mo, const char *file, int line)
{
	struct wmm_task *t = &w.task[task_slot()];
	struct wmm_loc *l = &w.loc[li];
	int m = l->msg[l->n - 1];
	unsigned long long nv;

	if (mo == SHIM_MO_MB)
		fence_mb(t);
	*old = w.msg[m].val;
	if (w.msg[m].ts > t->cur.t[li])
		t->cur.t[li] = w.msg[m].ts;
	join_msg(&t->acq, li, m);
	if (mo == SHIM_MO_ACQUIRE || mo == SHIM_MO_MB)
		join_msg(&t->cur, li, m);
	if (shim_rmw_new(op, *old, a, b, l->size, &nv)) {
		/* Its message carries on what it read (a release sequence). */
		store(li, nv, mo, true, w.msg[m].view, SHIM_OP_ATOMIC, file, line);
		note(3, nv, w.msg[m].task, 0);
	} else {
		note(1, *old, w.msg[m].task, 0);
	}
	if (mo == SHIM_MO_MB)
		fence_mb(t);
}

void shim_ctl_rmw(volatile void *p, unsigned int size, enum shim_rmw op,
		  unsigned long long a, unsigned long long b, void *old,
		  enum shim_mo mo, const char *file, int line)
{
	unsigned long long o, nv;

	if (shim_graph_hook) {		/* #38 graph */
		shim_graph_hook->rmw(p, size, op, a, b, old, mo);
		return;
	}
	shim_ctl_point_sized(SHIM_OP_ATOMIC, (const void *)p, size, false, file, line);
	if (!shim_ctl_wmm) {
		o = mem_read((uintptr_t)p, size);
		if (shim_rmw_new(op, o, a, b, size, &nv))
			memcpy((void *)p, &nv, size);
	} else {
		ctl_choose_value(1, SHIM_OP_ATOMIC, file, line);
		rmw_at(loc_of(p, size, false), op, a, b, &o, mo, file, line);
	}
	if (old)
		memcpy(old, &o, size);
}

void shim_ctl_fence(enum shim_fence f, const char *file, int line)
{
	/*
	 * smp_rmb and smp_wmb change only their task's views, which no
	 * other task sees before its next access: no point of their own.
	 * smp_mb joins the global view, so where it falls matters.
	 */
	if (shim_graph_hook) {		/* #38 graph */
		shim_graph_hook->fence(f);
		return;
	}
	if (f == SHIM_FENCE_MB || !shim_ctl_wmm)
		shim_ctl_point(SHIM_OP_BARRIER, NULL, true, file, line);
	if (shim_ctl_wmm)
		do_fence(&w.task[task_slot()], f);
}

void shim_ctl_wmm_mb(void)
{
	if (shim_ctl_wmm && ctl_self() >= 0)
		fence_mb(&w.task[task_slot()]);
}

/*
 * The lock's location holds 1 while it is held.  Called with the lock
 * just taken (the shim's lock is mutual exclusion already): the rmw
 * reads the newest message, the last unlock's.
 */
void shim_ctl_wmm_lock(const void *lock, const char *file, int line)
{
	struct wmm_task *t;
	struct wmm_view v;
	unsigned long long old;
	int li, m;

	if (!shim_ctl_wmm || ctl_self() < 0)
		return;
	t = &w.task[task_slot()];
	li = loc_of(lock, 1, true);
	m = w.loc[li].msg[w.loc[li].n - 1];
	ctl_choose_value(1, SHIM_OP_SPIN_LOCK, file, line);
	rmw_at(li, SHIM_RMW_XCHG, 1, 0, &old, SHIM_MO_ACQUIRE, file, line);
	/* po-unlock-lock-po: what preceded an unlock travels with later stores. */
	v = t->unl;
	if (w.msg[m].view >= 0)
		join(&v, &w.view[w.msg[m].view]);
	join(&t->cur, &v);
	if (t->rel >= 0)
		join(&v, &w.view[t->rel]);
	t->rel = new_view(&v);
}

void shim_ctl_wmm_unlock(const void *lock, const char *file, int line)
{
	struct wmm_task *t;
	int li;

	if (!shim_ctl_wmm || ctl_self() < 0)
		return;
	t = &w.task[task_slot()];
	li = loc_of(lock, 1, true);
	ctl_choose_value(1, SHIM_OP_UNLOCK, file, line);
	/* Never placed before the lock's own message: its task has seen it. */
	store(li, 0, SHIM_MO_RELEASE, true, -1, SHIM_OP_UNLOCK, file, line);
	note(2, 0, task_slot(), 0);
	join(&t->unl, &t->cur);
}

bool shim_ctl_wmm_is_locked(const void *lock, const char *file, int line)
{
	unsigned long long v;

	if (shim_graph_hook)		/* #38 graph */
		return shim_graph_hook->is_locked(lock);
	shim_ctl_point(SHIM_OP_READ_ONCE, lock, true, file, line);
	if (!shim_ctl_wmm)
		return false;
	load(loc_of(lock, 1, true), SHIM_MO_ONCE, -1, &v, SHIM_OP_READ_ONCE,
	     file, line);
	return v != 0;
}

void shim_ctl_rcu_read_lock(const char *file, int line)
{
	struct wmm_task *t;

	if (shim_graph_hook) {		/* #38 graph */
		shim_graph_hook->rcu(0);
		return;
	}
	t = &w.task[task_slot()];
	shim_ctl_point(SHIM_OP_BARRIER, NULL, true, file, line);
	if (!t->rcu_depth++ && shim_ctl_wmm)
		join(&t->cur, &w.gp);
}

void shim_ctl_rcu_read_unlock(const char *file, int line)
{
	struct wmm_task *t;

	if (shim_graph_hook) {		/* #38 graph */
		shim_graph_hook->rcu(1);
		return;
	}
	t = &w.task[task_slot()];
	shim_ctl_point(SHIM_OP_BARRIER, NULL, true, file, line);
	if (t->rcu_depth > 0 && !--t->rcu_depth) {
		if (shim_ctl_wmm) {
			join(&w.rcu_done, &t->cur);
			join(&w.rcu_done, &t->acq);
		}
		t->rcu_gen++;
		shim_ctl_signal(&w.rcu_chan);
	}
}

void shim_ctl_synchronize_rcu(const char *file, int line)
{
	int self;
	struct wmm_task *t;
	unsigned int gen[CTL_MAX_TASKS];
	bool in[CTL_MAX_TASKS];
	int i;

	if (shim_graph_hook) {		/* #38 graph */
		shim_graph_hook->rcu(2);
		return;
	}
	self = task_slot();
	t = &w.task[self];
	shim_ctl_point(SHIM_OP_BARRIER, NULL, true, file, line);
	if (shim_ctl_wmm) {
		fence_mb(t);
		join(&w.gp, &t->cur);
	}
	for (i = 0; i < CTL_MAX_TASKS; i++) {
		in[i] = i != self && w.task[i].rcu_depth > 0;
		gen[i] = w.task[i].rcu_gen;
	}
	for (i = 0; i < CTL_MAX_TASKS; i++) {
		while (in[i] && w.task[i].rcu_gen == gen[i])
			shim_ctl_block(&w.rcu_chan, SHIM_OP_WAIT, file, line,
				       "synchronize_rcu");
	}
	if (shim_ctl_wmm) {
		join(&t->cur, &w.rcu_done);
		fence_mb(t);
	}
}

const void *ctl_wmm_fence_obj(void)
{
	return &w.sc;
}

/* A new run: no locations; wmm or not for its whole length. */
void ctl_wmm_start(bool on)
{
	w.nlocs = 0;
	w.nmsgs = 0;
	w.nviews = 0;
	memset(w.task, 0, sizeof(w.task));
	for (int i = 0; i < CTL_MAX_TASKS; i++)
		w.task[i].rel = -1;
	shim_ctl_wmm = on;
}

/* A task made by @parent starts with what its parent has seen. */
void ctl_wmm_task_new(int parent, int slot)
{
	struct wmm_task *c = &w.task[slot];

	memset(c, 0, sizeof(*c));
	c->rel = -1;
	if (parent >= 0 && shim_ctl_wmm) {
		c->cur = w.task[parent].cur;
		c->acq = w.task[parent].cur;
	}
}

/*
 * Every task but the caller has exited: memory holds each location's
 * newest store, which is what the caller's check reads from here on.
 */
void ctl_wmm_stop(void)
{
	shim_ctl_wmm = 0;
}

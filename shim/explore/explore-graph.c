// SPDX-License-Identifier: GPL-2.0
/*
 * explore-graph: the explorer's native-C runs driven by the graph engine
 * (#38; explore-graph.h says how, docs/explore-graph-native.md why).
 *
 * Events: every marked access (READ_ONCE, WRITE_ONCE, acquire/release,
 * atomics: a read, then a write if it stores), each spin lock or mutex
 * (a read of the lock's word that must see 0, else the thread waits,
 * then the write of 1, as one RMW), each unlock (the write of 0).  A
 * location is an address, numbered by first use; a location first met
 * in a child stops the exploration, which starts again knowing it.
 */
#include <errno.h>
#include <stdarg.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include <shim/shim.h>
#include <shim/ctl-hook.h>
#include "explore-graph.h"
#include "graph.h"

/* Event tags (graph_event.tags). */
#define GT_RMW		0x1	/* the write of an RMW (its read is po-before) */
#define GT_LOCK_R	0x2	/* spin_lock()'s read of the lock word */
#define GT_LOCK_W	0x4	/* ... its write of 1 */
#define GT_UNLOCK	0x8	/* spin_unlock()'s write of 0 */

enum { ST_NONE, ST_EVENT, ST_DONE, ST_BLOCKED, ST_ERROR, ST_NEWLOC, ST_COMPLETE };

/* What a child says, in memory shared with the parent. */
struct shared {
	int status;
	struct graph_event ev;		/* ST_EVENT: kind, loc, val, tags */
	uintptr_t addr;			/* ST_NEWLOC */
	unsigned int size;
	long long init;
	bool lock;
	unsigned long fingerprint;	/* ST_COMPLETE */
	bool failed;
	char title[256];		/* the report, or the error */
};

struct loc {
	uintptr_t addr;
	unsigned int size;
	bool lock;
	long long init;
};

static struct drv {
	const struct shim_scenario *sc;
	int nbodies;
	struct loc loc[GRAPH_MAX_LOCS];
	int nlocs;
	struct shared *sh;
	struct shim_graph_result *r;
	struct timespec t0;
	unsigned int max_ms;
	bool newloc;			/* the exploration must start again */
	bool stop;
	char error[256];
} d;

/* --- the child ------------------------------------------------------- */

static struct {
	const struct graph *g;
	int t;				/* the thread running */
	int k;				/* its next event's place */
	bool complete;			/* every body, to the end */
} c;

static void child_end(int status)
{
	d.sh->status = status;
	_exit(0);
}

static void __attribute__((format(printf, 1, 2))) child_error(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(d.sh->title, sizeof(d.sh->title), fmt, ap);
	va_end(ap);
	child_end(ST_ERROR);
}

static void child_fail(const char *file, int line, const char *title)
{
	snprintf(d.sh->title, sizeof(d.sh->title), "%s", title);
	d.sh->failed = true;
	/* a report ends the thread: in a complete run, the run */
	child_end(c.complete ? ST_COMPLETE : ST_DONE);
}

static int loc_of(const volatile void *p, unsigned int size, bool lock)
{
	uintptr_t a = (uintptr_t)p;

	for (int l = 0; l < d.nlocs; l++)
		if (d.loc[l].addr == a) {
			if (d.loc[l].size != size && !lock)
				child_error("a location accessed with two sizes (%u, %u bytes at %p)",
					    d.loc[l].size, size, (void *)p);
			return l;
		}
	for (int l = 0; l < d.nlocs; l++)
		if (a < d.loc[l].addr + d.loc[l].size && d.loc[l].addr < a + size)
			child_error("overlapping locations at %p (not supported)", (void *)p);
	if (c.complete)
		child_error("a location the exploration did not see (%p)", (void *)p);
	d.sh->addr = a;
	d.sh->size = size;
	d.sh->lock = lock;
	d.sh->init = 0;
	if (!lock)
		memcpy(&d.sh->init, (const void *)p, size);
	child_end(ST_NEWLOC);
	return -1;
}

/* The graph's event at the thread's next place, of this kind and location. */
static const struct graph_event *next_event(enum graph_kind kind, int l, long long val,
					    unsigned short tags)
{
	const struct graph_event *e;

	if (c.k == c.g->tlen[c.t]) {
		if (c.complete)
			child_error("thread %d goes past its graph (a run that is not the graph's)", c.t);
		d.sh->ev = (struct graph_event){ .kind = kind, .loc = l, .val = val,
						 .tags = tags };
		child_end(ST_EVENT);
	}
	e = &c.g->ev[c.g->tev[c.t][c.k]];
	if (e->kind != kind || e->loc != l || (kind == GRAPH_WRITE && e->val != val) ||
	    e->tags != tags)
		child_error("thread %d's event %d is not the graph's (a run that depends on more than its reads' values)",
			    c.t, c.k);
	c.k++;
	return e;
}

static unsigned long long mask(unsigned int size)
{
	return size >= 8 ? ~0ULL : (1ULL << (size * 8)) - 1;
}

static long long rd(int l, unsigned short tags)
{
	return next_event(GRAPH_READ, l, 0, tags)->val;
}

static void wr(int l, long long v, unsigned short tags)
{
	next_event(GRAPH_WRITE, l, v, tags);
	/* the thread's own later plain reads see it */
	if (!d.loc[l].lock)
		memcpy((void *)d.loc[l].addr, &v, d.loc[l].size);
}

static void h_load(const volatile void *p, unsigned int size, void *val, enum shim_mo mo)
{
	unsigned long long v = (unsigned long long)rd(loc_of(p, size, false), 0) & mask(size);

	memcpy(val, &v, size);
}

static void h_store(volatile void *p, unsigned int size, const void *val, enum shim_mo mo)
{
	unsigned long long v = 0;

	memcpy(&v, val, size);
	wr(loc_of(p, size, false), (long long)v, 0);
}

static void h_rmw(volatile void *p, unsigned int size, enum shim_rmw op,
		  unsigned long long a, unsigned long long b, void *old, enum shim_mo mo)
{
	int l = loc_of(p, size, false);
	unsigned long long o = (unsigned long long)rd(l, 0) & mask(size), nv = 0;

	if (shim_rmw_new(op, o, a, b, size, &nv))
		wr(l, (long long)nv, GT_RMW);
	if (old)
		memcpy(old, &o, size);
}

static void h_fence(enum shim_fence f)
{
	/* sc: a fence orders nothing more */
}

static bool h_is_locked(const void *lock)
{
	return rd(loc_of(lock, 1, true), 0) != 0;
}

static void h_rcu(int what)
{
	if (what == 2)
		child_error("synchronize_rcu() (the sc axiom has no grace period)");
}

static const struct shim_graph_hook hook = {
	.load = h_load, .store = h_store, .rmw = h_rmw, .fence = h_fence,
	.is_locked = h_is_locked, .rcu = h_rcu,
};

/* The shim's other operations: the ones with no event are refused. */
static void o_point(enum shim_op op, const void *obj, unsigned int size, bool ro,
		    const char *file, int line)
{
	switch (op) {
	case SHIM_OP_NONE:
	case SHIM_OP_SPIN_LOCK:
	case SHIM_OP_MUTEX_LOCK:
	case SHIM_OP_UNLOCK:
	case SHIM_OP_ATOMIC:
	case SHIM_OP_BARRIER:
	case SHIM_OP_ACQUIRE:
	case SHIM_OP_RELEASE:
	case SHIM_OP_READ_ONCE:
	case SHIM_OP_WRITE_ONCE:
	case SHIM_OP_YIELD:
	case SHIM_OP_START:
	case SHIM_OP_EXIT:
		return;
	case SHIM_OP_KMALLOC:
		/* a thread's block has another address in each child */
		child_error("kmalloc() in a body at %s:%d (allocation is no graph event yet)",
			    file, line);
		break;
	default:
		child_error("an operation with no graph event yet (shim op %d at %s:%d)",
			    (int)op, file, line);
	}
}

static void o_block(const void *chan, enum shim_op op, const char *file, int line,
		    const char *func)
{
	child_error("%s blocks at %s:%d (waiting other than on a lock: no graph event yet)",
		    func, file, line);
}

static bool o_block_timed(const void *chan, long ms, enum shim_op op, const char *file,
			  int line, const char *func)
{
	o_block(chan, op, file, line, func);
	return false;
}

static void o_signal(const void *chan) { }
/* true: the shim blocks through o_block(), which refuses */
static bool o_on(void) { return true; }

static bool o_task_new(struct task_struct *p, void (*fn)(struct task_struct *p))
{
	child_error("a kthread (no graph thread for it yet)");
	return false;
}

static void o_alloc(const void *p, unsigned long size) { }
static long o_now_ms(void) { return 0; }

static void o_lock(const void *lock, const char *file, int line)
{
	int l = loc_of(lock, 1, true);

	if (rd(l, GT_LOCK_R))
		child_end(ST_BLOCKED);
	wr(l, 1, GT_LOCK_W | GT_RMW);
}

static void o_unlock(const void *lock, const char *file, int line)
{
	wr(loc_of(lock, 1, true), 0, GT_UNLOCK);
}

static void o_mb(void) { }

static const struct shim_ctl_ops ops = {
	.point = o_point, .block = o_block, .block_timed = o_block_timed,
	.signal = o_signal, .on = o_on, .task_new = o_task_new, .alloc = o_alloc,
	.now_ms = o_now_ms, .wmm_lock = o_lock, .wmm_unlock = o_unlock, .wmm_mb = o_mb,
};

/*
 * Plain accesses are no events: a word that two bodies access plainly,
 * one of them writing, would take its value from the order the complete
 * run ran them in, not from the graph.  The complete run refuses it.
 */
#define PLAIN_SLOTS	(1 << 16)
static struct plain { uintptr_t word; uint8_t readers, writers; } plain[PLAIN_SLOTS];
static uintptr_t stack_top;	/* the bodies' frames are below it */

static void h_plain(const volatile void *p, unsigned int size, bool write)
{
	uintptr_t a = (uintptr_t)p;

	if (a < stack_top && a > stack_top - ((uintptr_t)64 << 20))
		return;		/* a body's local */
	/* a location with events, accessed plainly: its value is memory's,
	 * not the graph's, unless no other body has events there */
	for (int l = 0; c.complete && l < d.nlocs; l++) {
		if (d.loc[l].lock || a >= d.loc[l].addr + d.loc[l].size ||
		    d.loc[l].addr >= a + size)
			continue;
		for (int e = 0; e < c.g->n; e++)
			if (c.g->ev[e].loc == l && c.g->ev[e].thread >= 0 &&
			    c.g->ev[e].thread != c.t && c.g->ev[e].kind != GRAPH_OTHER)
				child_error("a plain access to %p, where another body has marked accesses (plain accesses are no graph events yet)",
					    (void *)a);
	}
	for (uintptr_t w = a & ~(uintptr_t)7; w < a + size; w += 8) {
		size_t i = (size_t)((w >> 3) * 0x9e3779b97f4a7c15ULL >> 48) % PLAIN_SLOTS;
		struct plain *s;

		for (; plain[i].word && plain[i].word != w; i = (i + 1) % PLAIN_SLOTS)
			;
		s = &plain[i];
		s->word = w;
		if (write)
			s->writers |= (uint8_t)(1u << c.t);
		else
			s->readers |= (uint8_t)(1u << c.t);
		if (c.complete && s->writers &&
		    __builtin_popcount((unsigned int)(s->readers | s->writers)) > 1)
			child_error("plain accesses by two bodies to %p, one a write (plain accesses are no graph events yet)",
				    (void *)w);
	}
}

/* In the child: the set-up, then body @t (or all, in turn). */
static void child(const struct graph *g, int t, bool complete)
{
	void *ctx;
	char anchor;

	stack_top = (uintptr_t)&anchor + 4096;
	c.g = g;
	c.complete = complete;
	shim_test_begin(d.sc->name);
	shim_set_fail_handler(child_fail);
	ctx = d.sc->setup ? d.sc->setup() : NULL;
	shim_ctl_ops = &ops;
	shim_ctl_active = 1;
	shim_ctl_wmm = 1;
	shim_graph_hook = &hook;
	shim_graph_plain = h_plain;
	for (int b = complete ? 0 : t; b < (complete ? d.nbodies : t + 1); b++) {
		c.t = b;
		c.k = 0;
		d.sc->body[b](ctx);
		if (c.k != g->tlen[b] && complete)
			child_error("thread %d ends before its graph's events", b);
	}
	shim_graph_hook = NULL;
	shim_graph_plain = NULL;
	shim_ctl_wmm = 0;
	shim_ctl_active = 0;
	if (!complete)
		child_end(ST_DONE);
	/* the final state: each location's co-last write */
	for (int l = 0; l < d.nlocs; l++) {
		long long v = g->ev[g->co[l][g->nco[l] - 1]].val;

		if (!d.loc[l].lock)
			memcpy((void *)d.loc[l].addr, &v, d.loc[l].size);
	}
	d.sh->fingerprint = d.sc->fingerprint ? d.sc->fingerprint(ctx) : 0;
	if (d.sc->check)
		d.sc->check(ctx);
	child_end(ST_COMPLETE);
}

/* Fork a child for @g; its status (the shared record says the rest). */
static int run_child(const struct graph *g, int t, bool complete)
{
	pid_t pid;
	int ws;

	memset(d.sh, 0, sizeof(*d.sh));
	fflush(NULL);
	pid = fork();
	if (pid < 0) {
		snprintf(d.error, sizeof(d.error), "fork: %s", strerror(errno));
		return ST_ERROR;
	}
	if (!pid)
		child(g, t, complete);
	d.r->children++;
	while (waitpid(pid, &ws, 0) < 0 && errno == EINTR)
		;
	if (d.sh->status == ST_NONE) {
		snprintf(d.sh->title, sizeof(d.sh->title), "the child died (%s %d)",
			 WIFSIGNALED(ws) ? "signal" : "exit",
			 WIFSIGNALED(ws) ? WTERMSIG(ws) : WEXITSTATUS(ws));
		return ST_ERROR;
	}
	return d.sh->status;
}

/* --- the engine's callbacks -------------------------------------------- */

static bool over_budget(void)
{
	struct timespec now;

	clock_gettime(CLOCK_MONOTONIC, &now);
	return (now.tv_sec - d.t0.tv_sec) * 1000 + (now.tv_nsec - d.t0.tv_nsec) / 1000000 >
	       (long)d.max_ms;
}

static enum graph_next next(void *ctx, const struct graph *g, int t, struct graph_event *e)
{
	if (d.stop)
		return GRAPH_NEXT_ERROR;
	if (over_budget()) {
		snprintf(d.error, sizeof(d.error), "budget of %u ms spent", d.max_ms);
		d.stop = true;
		return GRAPH_NEXT_ERROR;
	}
	switch (run_child(g, t, false)) {
	case ST_EVENT:
		e->kind = d.sh->ev.kind;
		e->loc = d.sh->ev.loc;
		e->val = d.sh->ev.val;
		e->tags = d.sh->ev.tags;
		return GRAPH_NEXT_EVENT;
	case ST_DONE:
		return GRAPH_NEXT_DONE;
	case ST_BLOCKED:
		return GRAPH_NEXT_BLOCKED;
	case ST_NEWLOC:
		if (d.nlocs == GRAPH_MAX_LOCS) {
			snprintf(d.error, sizeof(d.error), "more than %d locations", GRAPH_MAX_LOCS);
		} else {
			d.loc[d.nlocs++] = (struct loc){ d.sh->addr, d.sh->size, d.sh->lock,
							 d.sh->init };
			d.newloc = true;
		}
		d.stop = true;
		return GRAPH_NEXT_ERROR;
	default:
		if (!d.error[0])
			snprintf(d.error, sizeof(d.error), "%s", d.sh->title);
		d.stop = true;
		return GRAPH_NEXT_ERROR;
	}
}

static uint64_t bit(int i)
{
	return (uint64_t)1 << i;
}

static bool consistent(void *ctx, const struct graph *g)
{
	uint64_t rmw = 0, wait = 0;

	for (int e = 0; e < g->n; e++) {
		if (g->ev[e].thread < 0)
			continue;
		if ((g->ev[e].tags & GT_LOCK_R) && g->ev[e].val)
			wait |= bit(e);
		if (g->ev[e].kind == GRAPH_WRITE && (g->ev[e].tags & GT_RMW))
			rmw |= bit(e);
	}
	return graph_sc_consistent(g, rmw, wait);
}

/* --- the string of a graph: every event, then each location's co ------- */

static void encode(const struct graph *g, char *s, size_t len)
{
	size_t n = 0;

#define PUT(...) (n += (size_t)snprintf(s + (n < len ? n : len), n < len ? len - n : 0, __VA_ARGS__))
	PUT("g%d.%d/", g->nthreads, g->nlocs);
	for (int e = 0; e < g->n; e++) {
		const struct graph_event *v = &g->ev[e];

		PUT("%d.%d.%c%d.%lld.%d.%x;", v->thread, v->po,
		    v->kind == GRAPH_READ ? 'R' : v->kind == GRAPH_WRITE ? 'W' : 'O',
		    v->loc, v->val, v->rf, v->tags);
	}
	PUT("/");
	for (int l = 0; l < g->nlocs; l++) {
		for (int i = 0; i < g->nco[l]; i++)
			PUT("%s%d", i ? "." : "", g->co[l][i]);
		PUT(";");
	}
#undef PUT
	if (n >= len && len)
		s[0] = 0;
}

static int decode(const char *s, struct graph *g)
{
	int n, th, po, loc, rf, tags;
	long long val;
	char k;

	memset(g, 0, sizeof(*g));
	if (sscanf(s, "g%d.%d/%n", &g->nthreads, &g->nlocs, &n) != 2 || g->nthreads < 0 ||
	    g->nthreads > GRAPH_MAX_THREADS || g->nlocs < 0 || g->nlocs > GRAPH_MAX_LOCS)
		return -1;
	s += n;
	while (*s != '/') {
		struct graph_event *v;

		if (g->n == GRAPH_MAX_EVENTS ||
		    sscanf(s, "%d.%d.%c%d.%lld.%d.%x;%n", &th, &po, &k, &loc, &val, &rf, &tags,
			   &n) != 7)
			return -1;
		v = &g->ev[g->n];
		*v = (struct graph_event){ .thread = th, .po = po, .loc = loc, .val = val,
					   .rf = rf, .tags = (unsigned short)tags, .placed = true,
					   .kind = k == 'R' ? GRAPH_READ :
						   k == 'W' ? GRAPH_WRITE : GRAPH_OTHER };
		if (th >= 0) {
			if (th >= g->nthreads || po != g->tlen[th])
				return -1;
			g->tev[th][g->tlen[th]++] = (signed char)g->n;
		}
		g->n++;
		s += n;
	}
	s++;
	for (int l = 0; l < g->nlocs; l++) {
		while (*s && *s != ';') {
			if (g->nco[l] == GRAPH_MAX_EVENTS ||
			    sscanf(s, "%d%n", &rf, &n) != 1 || rf < 0 || rf >= g->n)
				return -1;
			g->co[l][g->nco[l]++] = (signed char)rf;
			s += n;
			if (*s == '.')
				s++;
		}
		if (*s++ != ';' || !g->nco[l])
			return -1;
	}
	return 0;
}

static void complete(void *ctx, const struct graph *g)
{
	struct shim_graph_result *r = d.r;
	unsigned int i;

	if (d.stop)
		return;
	if (run_child(g, 0, true) != ST_COMPLETE) {
		if (!d.error[0])
			snprintf(d.error, sizeof(d.error), "a complete run: %.200s", d.sh->title);
		d.stop = true;
		return;
	}
	for (i = 0; i < r->noutcomes; i++)
		if (r->outcome[i] == d.sh->fingerprint)
			break;
	if (i == r->noutcomes) {
		if (i == SHIM_GRAPH_MAX_OUTCOMES) {
			r->outcomes_overflow = true;
		} else {
			r->outcome[r->noutcomes++] = d.sh->fingerprint;
			r->outcome_count[i] = 0;
		}
	}
	if (i < SHIM_GRAPH_MAX_OUTCOMES)
		r->outcome_count[i]++;
	if (d.sh->failed && !r->failures++) {
		snprintf(r->title, sizeof(r->title), "%s", d.sh->title);
		encode(g, r->string, sizeof(r->string));
	}
}

int shim_explore_graph_replay(const struct shim_scenario *sc, const char *s,
			      char *title, size_t len)
{
	static struct graph g;

	if (decode(s, &g) || g.nlocs != d.nlocs || d.sc != sc)
		return -1;
	title[0] = 0;
	if (run_child(&g, 0, true) != ST_COMPLETE) {
		snprintf(title, len, "EXPLORER FAULT: the replay did not complete: %s",
			 d.sh->title);
		return 0;
	}
	if (d.sh->failed)
		snprintf(title, len, "%s", d.sh->title);
	return 0;
}

int shim_explore_graph(const struct shim_scenario *sc, const struct shim_graph_opts *o,
		       struct shim_graph_result *r)
{
	static const struct graph_ops gops = {
		.next = next, .consistent = consistent, .complete = complete,
	};
	struct graph_stats st;
	long long init[GRAPH_MAX_LOCS];
	struct timespec t1;
	int ret;

	memset(r, 0, sizeof(*r));
	if (!(o && o->no_plain_sharing) && !shim_explore_sees_accesses()) {
		snprintf(r->error, sizeof(r->error),
			 "no access hooks in this build (a sanitizer preset): plain accesses unseen");
		return -1;
	}
	if (!d.sh) {
		d.sh = mmap(NULL, sizeof(*d.sh), PROT_READ | PROT_WRITE,
			    MAP_SHARED | MAP_ANONYMOUS, -1, 0);
		if (d.sh == MAP_FAILED) {
			d.sh = NULL;
			snprintf(r->error, sizeof(r->error), "mmap: %s", strerror(errno));
			return -1;
		}
	}
	d.sc = sc;
	d.r = r;
	d.nlocs = 0;
	d.max_ms = o && o->max_ms ? o->max_ms : 60000;
	d.nbodies = 0;
	while (d.nbodies < SHIM_EXPLORE_MAX_BODIES && sc->body[d.nbodies])
		d.nbodies++;
	clock_gettime(CLOCK_MONOTONIC, &d.t0);
	/* each pass knows the locations the ones before met */
	do {
		unsigned long long children = r->children;
		unsigned int restarts = r->restarts;

		memset(r, 0, sizeof(*r));
		r->children = children;
		r->restarts = restarts;
		d.newloc = d.stop = false;
		d.error[0] = 0;
		for (int l = 0; l < d.nlocs; l++)
			init[l] = d.loc[l].init;
		ret = graph_explore(d.nbodies, d.nlocs, init, &gops, NULL, &st);
		if (d.newloc)
			r->restarts++;
	} while (d.newloc);
	clock_gettime(CLOCK_MONOTONIC, &t1);
	r->seconds = (double)(t1.tv_sec - d.t0.tv_sec) + (t1.tv_nsec - d.t0.tv_nsec) / 1e9;
	r->nlocs = d.nlocs;
	r->explored = st.explored;
	r->executions = st.executions;
	r->blocked = st.blocked;
	r->pruned = st.pruned;
	r->revisits = st.revisits;
	r->max_events = st.max_events;
	if (d.error[0] || ret) {
		snprintf(r->error, sizeof(r->error), "%s", d.error[0] ? d.error : st.error);
		return -1;
	}
	if (r->failures) {
		char again[256];

		/* shown only if a fresh child gives it again */
		if (shim_explore_graph_replay(sc, r->string, again, sizeof(again)) ||
		    strcmp(again, r->title))
			r->fault = true;
	}
	if (!(o && o->quiet)) {
		printf("%s: graph (sc): %llu executions (%llu explored, %llu blocked), %u locations, %d events at most, %llu runs, %.3f s",
		       sc->name, r->executions, r->explored, r->blocked, r->nlocs,
		       r->max_events, r->children, r->seconds);
		if (r->failures)
			printf("; FAILED in %llu: %s%s\n  graph %s", r->failures, r->title,
			       r->fault ? " (EXPLORER FAULT: a fresh child does not give it)" : "",
			       r->string);
		printf("\n");
	}
	return 0;
}

// SPDX-License-Identifier: GPL-2.0
/*
 * klist-litmus's default engine: every candidate execution of a test,
 * each judged by the axiomatic checker of cat/ (linux-kernel.cat in C).
 *
 * First each process alone: its code is interpreted with every value a
 * load may return (the values some store of the test may write to that
 * location, found by a fixed point from the initial values and the
 * constants), every branch of a spin_trylock(), spin_is_locked() and
 * cmpxchg(), giving the thread's possible event sequences, each with
 * its registers and its dependencies (addr, data, ctrl: the loads each
 * value, address and branch condition was computed from, as herd7
 * tracks them, syntactically).  Then every combination of one sequence
 * per process, every rf (a read from a write of the same location and
 * value; lock.cat's choices for failed lock reads) and every co (a
 * total order of each location's writes, the initial write first) is a
 * candidate; lkmm_check() keeps the consistent ones, whose final states
 * give the verdict, as herd7 gives it.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <shim/ctl-wmm.h>
#include "litmus.h"
#include "litmus-interp.h"
#include "cat/lkmm.h"

#define ADDR_BASE	(1LL << 40)	/* the address of variable v: ADDR_BASE + v */
#define MAX_DOMAIN	32		/* values a location may hold */
#define MAX_TEV		LIT_MAX_TEV
#define MAX_CHOICES	64
#define MAX_TRACES	4096
#define SRCU_BASE	(1LL << 36)	/* srcu_read_lock()'s values */

static long long addr_of(int v)
{
	return ADDR_BASE + v;
}

long long lit_addr_of(int v)
{
	return addr_of(v);
}

static int var_at(const struct lit_prog *p, long long a)
{
	if (a < ADDR_BASE || a >= ADDR_BASE + p->nvars)
		return -1;
	return (int)(a - ADDR_BASE);
}

/* The values each location may hold. */
struct domain {
	int n[LIT_MAX_VARS];
	long long v[LIT_MAX_VARS][MAX_DOMAIN];
	bool overflow, changed;
};

static bool dom_add(struct domain *d, int loc, long long v)
{
	for (int i = 0; i < d->n[loc]; i++)
		if (d->v[loc][i] == v)
			return false;
	if (d->n[loc] == MAX_DOMAIN) {
		d->overflow = true;
		return false;
	}
	d->v[loc][d->n[loc]++] = v;
	d->changed = true;
	return true;
}

/* The interpreter of one process, one path at a time. */
struct run {
	const struct lit_prog *p;
	const struct domain *dom;
	struct domain *stored;	/* what the stores of this pass wrote */
	int pi;
	struct trace t;
	uint64_t regdep[LIT_MAX_REGS];
	uint64_t ctrl;		/* the loads the enclosing conditions read */
	uint64_t cond;		/* ... and every condition before */
	/* the path: the choice made at each choice point, and how many */
	int nch, ch[MAX_CHOICES], nopt[MAX_CHOICES];
	int pos;
	bool dead;		/* this path is impossible (a bad address) */
	int nw, maxw;		/* writes on this path, on the longest */
	const char *error;	/* an error: the test is not run */
	/* lit_replay(): the reads' values, given; NULL: choose them */
	const long long *given;
	int ngiven, nread;
	bool pending;		/* a read past them: record it, then halt */
	bool halted, blocked;
};

static int choose(struct run *r, int nopt)
{
	if (nopt <= 0) {
		r->dead = true;
		return 0;
	}
	if (r->pos == MAX_CHOICES) {
		r->error = "more than 64 choices in one process";
		return 0;
	}
	if (r->pos == r->nch) {
		r->ch[r->nch] = 0;
		r->nopt[r->nch++] = nopt;
	}
	return r->ch[r->pos++];
}

static int emit(struct run *r, unsigned int tags, int loc, long long val,
		uint64_t addr, uint64_t data)
{
	struct tev *e;

	if (r->halted)
		return -1;
	if (r->t.nev == MAX_TEV) {
		r->error = "more than 40 events in one process";
		return 0;
	}
	e = &r->t.ev[r->t.nev];
	e->tags = tags;
	e->loc = loc;
	e->val = val;
	e->addr = addr;
	e->data = data;
	e->ctrl = r->ctrl;
	e->cond = r->cond;
	e->rmw_with = -1;
	if ((tags & LKMM_W) && loc >= 0 && r->stored)
		dom_add(r->stored, loc, val);
	if (tags & LKMM_W)
		r->nw++;
	if (r->pending) {
		/* the read with no value: recorded, and the process stops */
		r->halted = true;
		r->dead = true;
	}
	return r->t.nev++;
}

static uint64_t evbit(int i)
{
	return (uint64_t)1 << i;
}

static long long eval(struct run *r, const struct lit_node *n, uint64_t *dep);

/* The location of a primitive's argument @i: *E or E, an address. */
static int location(struct run *r, const struct lit_node *call, int i, uint64_t *dep)
{
	const struct lit_node *a = call->arg[i];
	int v;

	if (a->kind == LN_DEREF)
		a = a->a;
	v = var_at(r->p, eval(r, a, dep));
	if (v < 0)
		r->dead = true;
	return v;
}

static unsigned int mo_tags(int mo)
{
	switch (mo) {
	case SHIM_MO_ACQUIRE: return LKMM_ACQUIRE;
	case SHIM_MO_RELEASE: return LKMM_RELEASE;
	default: return LKMM_ONCE;
	}
}

/* A load's value: one of what the location may hold; or the given. */
static long long load_value(struct run *r, int v)
{
	int k;

	if (r->given) {
		if (r->nread < r->ngiven)
			return r->given[r->nread++];
		r->pending = true;
		return 0;
	}
	k = choose(r, r->dom->n[v]);

	return r->dead ? 0 : r->dom->v[v][k];
}

static long long rmw(struct run *r, const struct lit_node *n, uint64_t *dep)
{
	const struct lit_prim *p = n->prim;
	uint64_t adep = 0, vdep = 0, d2 = 0;
	long long a = 1, b = 0, old, new;
	unsigned int rtag, wtag;
	bool does;
	int v, re, we;

	v = location(r, n, p->ptr_arg, &adep);
	if (p->op == SHIM_RMW_CMPXCHG || (p->op == SHIM_RMW_ADD_UNLESS && n->nargs == 3)) {
		a = eval(r, n->arg[1], &vdep);
		b = eval(r, n->arg[2], &d2);
		vdep |= d2;
	} else if (n->nargs == 2) {
		a = eval(r, n->arg[1 - p->ptr_arg], &vdep);
	}
	if (p->neg)
		a = -a;
	if (r->dead || r->error)
		return 0;
	if (r->p->var[v].kind == LIT_LOCK) {
		r->error = "an atomic operation on a spinlock_t";
		return 0;
	}
	old = load_value(r, v);
	if (r->dead)
		return 0;
	switch (p->op) {
	case SHIM_RMW_XCHG:
		does = true;
		new = a;
		break;
	case SHIM_RMW_CMPXCHG:
		does = old == a;
		new = b;
		break;
	case SHIM_RMW_ADD_UNLESS:
		/* atomic_add_unless(v, a, u); atomic_inc_not_zero(v) */
		if (n->nargs == 1) {
			a = 1;
			b = 0;
		}
		does = old != b;
		new = old + a;
		break;
	default:
		does = true;
		new = old + a;
		break;
	}
	/* herd7's events (tools/memory-model's herd representation):
	 * value-returning, fully ordered: F[mb] R*[once] W*[once] F[mb];
	 * _relaxed: R*[once] W*[once]; _acquire: R*[acquire] W*[once];
	 * _release: R*[once] W*[release]; void: R*[noreturn] W*[once];
	 * a conditional one that fails: R*[once] alone. */
	rtag = LKMM_R | LKMM_RMW;
	wtag = LKMM_W | LKMM_RMW | LKMM_ONCE;
	if (p->kind == LP_RMW_VOID)
		rtag |= LKMM_NORETURN;
	else if (p->mo == SHIM_MO_ACQUIRE && does)
		rtag |= LKMM_ACQUIRE;
	else
		rtag |= LKMM_ONCE;
	if (p->mo == SHIM_MO_RELEASE && does)
		wtag = LKMM_W | LKMM_RMW | LKMM_RELEASE;
	if (p->mo == SHIM_MO_MB && does)
		emit(r, LKMM_F | LKMM_MB, -1, 0, 0, 0);
	re = emit(r, rtag, v, old, adep, 0);
	if (re < 0)
		return 0;
	*dep = evbit(re);
	if (does && !r->halted) {
		we = emit(r, wtag, v, new, adep, vdep);
		r->t.ev[re].rmw_with = we;
		r->t.ev[we].rmw_with = re;
		if (p->mo == SHIM_MO_MB)
			emit(r, LKMM_F | LKMM_MB, -1, 0, 0, 0);
	}
	switch (p->ret) {
	case LR_NEW:
		return new;
	case LR_NEW_IS_ZERO:
		return new == 0;
	case LR_NEW_IS_NEG:
		return new < 0;
	case LR_DONE:
		return does;
	default:
		return old;
	}
}

/* F[...]: the fence annotation linux-kernel.def gives each primitive. */
static unsigned int fence_tags(const char *name)
{
	static const struct { const char *name; unsigned int tag; } f[] = {
		{ "smp_mb", LKMM_MB },
		{ "smp_rmb", LKMM_RMB },
		{ "smp_wmb", LKMM_WMB },
		{ "smp_mb__before_atomic", LKMM_BEFORE_ATOMIC },
		{ "smp_mb__after_atomic", LKMM_AFTER_ATOMIC },
		{ "smp_mb__after_spinlock", LKMM_AFTER_SPINLOCK },
		{ "smp_mb__after_unlock_lock", LKMM_AFTER_UNLOCK_LOCK },
	};

	for (size_t i = 0; i < sizeof(f) / sizeof(f[0]); i++)
		if (!strcmp(f[i].name, name))
			return f[i].tag;
	return LKMM_BARRIER;
}

/*
 * lit_replay()'s lock primitives: each reads the lock word (0 unlocked,
 * 1 held) and does what the value it is given says: spin_lock() takes
 * it or waits, spin_trylock() takes it (LKR LKW) or fails (LF),
 * spin_is_locked() says RL or RU.  A read past the given values is
 * recorded as LKR (trylock), RU, or LKR, and the process halts.
 */
static long long lock_read(struct run *r, enum lit_prim_kind kind, int v, uint64_t adep)
{
	long long val = load_value(r, v);

	if (kind == LP_IS_LOCKED) {
		emit(r, val ? LKMM_RL : LKMM_RU, v, val, adep, 0);
		return val != 0;
	}
	if (kind == LP_TRYLOCK && val) {
		emit(r, LKMM_LF, v, val, adep, 0);
		return 0;
	}
	emit(r, LKMM_LKR, v, val, adep, 0);
	if (val && !r->halted) {
		r->blocked = true;
		r->dead = true;
		return 0;
	}
	emit(r, LKMM_LKW, v, 1, adep, 0);
	return 1;
}

static long long prim(struct run *r, const struct lit_node *n, uint64_t *dep)
{
	const struct lit_prim *p = n->prim;
	uint64_t adep = 0, vdep = 0;
	long long val;
	int v, e;

	*dep = 0;
	switch (p->kind) {
	case LP_LOAD:
		v = location(r, n, 0, &adep);
		if (r->dead)
			return 0;
		if (r->p->var[v].kind == LIT_LOCK) {
			r->error = "a load of a spinlock_t";
			return 0;
		}
		val = load_value(r, v);
		if (r->dead)
			return 0;
		e = emit(r, LKMM_R | mo_tags(p->mo), v, val, adep, 0);
		*dep = e < 0 ? 0 : evbit(e);
		return val;
	case LP_STORE:
	case LP_STORE_MB:
		v = location(r, n, 0, &adep);
		val = eval(r, n->arg[1], &vdep);
		if (r->dead)
			return 0;
		if (r->p->var[v].kind == LIT_LOCK) {
			r->error = "a store to a spinlock_t";
			return 0;
		}
		emit(r, LKMM_W | mo_tags(p->mo), v, val, adep, vdep);
		if (p->kind == LP_STORE_MB)
			emit(r, LKMM_F | LKMM_MB, -1, 0, 0, 0);
		return 0;
	case LP_FENCE:
		emit(r, LKMM_F | fence_tags(p->name), -1, 0, 0, 0);
		return 0;
	case LP_NOOP:
		emit(r, LKMM_F | LKMM_BARRIER, -1, 0, 0, 0);
		return 0;
	case LP_RMW:
	case LP_RMW_VOID:
		return rmw(r, n, dep);
	case LP_LOCK:
	case LP_UNLOCK:
	case LP_TRYLOCK:
	case LP_IS_LOCKED:
		v = location(r, n, 0, &adep);
		if (r->dead)
			return 0;
		if (r->p->var[v].kind != LIT_LOCK) {
			r->error = "a lock operation on a variable not declared spinlock_t";
			return 0;
		}
		if (p->kind == LP_UNLOCK) {
			emit(r, LKMM_UL, v, 0, adep, 0);
			return 0;
		}
		if (r->given)
			return lock_read(r, p->kind, v, adep);
		if (p->kind == LP_IS_LOCKED) {
			/* RL (true) or RU (false) */
			if (choose(r, 2) == 0) {
				emit(r, LKMM_RL, v, 1, adep, 0);
				return 1;
			}
			emit(r, LKMM_RU, v, 0, adep, 0);
			return 0;
		}
		if (p->kind == LP_TRYLOCK && choose(r, 2) == 1) {
			emit(r, LKMM_LF, v, 1, adep, 0);
			return 0;
		}
		emit(r, LKMM_LKR, v, 0, adep, 0);
		emit(r, LKMM_LKW, v, 1, adep, 0);
		return 1;
	case LP_RCU_LOCK:
		emit(r, LKMM_F | LKMM_RCU_LOCK, -1, 0, 0, 0);
		return 0;
	case LP_RCU_UNLOCK:
		emit(r, LKMM_F | LKMM_RCU_UNLOCK, -1, 0, 0, 0);
		return 0;
	case LP_SYNC_RCU:
		emit(r, LKMM_F | LKMM_SYNC_RCU, -1, 0, 0, 0);
		return 0;
	case LP_SRCU_LOCK:
	case LP_SRCU_UNLOCK:
	case LP_SYNC_SRCU:
		/* SRCU[srcu-lock], SRCU[srcu-unlock], SRCU[sync-srcu] on the
		 * srcu_struct; each lock returns a value of its own (its
		 * process and place), the unlock carries the value it is
		 * given: srcu-bad-nesting compares them */
		v = location(r, n, 0, &adep);
		val = p->kind == LP_SRCU_UNLOCK ? eval(r, n->arg[1], &vdep) :
		      SRCU_BASE + r->pi * MAX_TEV + r->t.nev;
		if (r->dead)
			return 0;
		emit(r, p->kind == LP_SRCU_LOCK ? LKMM_SRCU_LOCK :
			p->kind == LP_SRCU_UNLOCK ? LKMM_SRCU_UNLOCK : LKMM_SYNC_SRCU,
		     v, val, adep, 0);
		return p->kind == LP_SRCU_LOCK ? val : 0;
	}
	return 0;
}

static long long eval(struct run *r, const struct lit_node *n, uint64_t *dep)
{
	uint64_t d2 = 0;
	long long l, val;
	int v, e;

	*dep = 0;
	if (r->dead || r->error)
		return 0;
	switch (n->kind) {
	case LN_NUM:
		return n->num;
	case LN_REG:
		*dep = r->regdep[n->idx];
		return r->t.reg[n->idx];
	case LN_VAR:
		return addr_of(n->idx);
	case LN_ADDR:
		return addr_of(n->a->idx);
	case LN_CALL:
		return prim(r, n, dep);
	case LN_DEREF:
		/* a plain load: *E */
		v = var_at(r->p, eval(r, n->a, &d2));
		if (v < 0) {
			r->dead = true;
			return 0;
		}
		if (r->p->var[v].kind == LIT_LOCK) {
			r->error = "a plain access to a spinlock_t";
			return 0;
		}
		val = load_value(r, v);
		if (r->dead)
			return 0;
		e = emit(r, LKMM_R, v, val, d2, 0);
		*dep = e < 0 ? 0 : evbit(e);
		return val;
	case LN_UNARY:
		l = eval(r, n->a, dep);
		return n->op == '!' ? !l : n->op == '-' ? -l : ~l;
	case LN_BIN:
		/* && and || evaluate both sides: the litmus tests' conditions
		 * have no side effects a short circuit would skip but loads,
		 * and herd7 reads both (its C is not lazy either) */
		l = eval(r, n->a, dep);
		if (n->op == (('&' << 8) | '&'))
			l = (eval(r, n->b, &d2) && l);
		else if (n->op == (('|' << 8) | '|'))
			l = (eval(r, n->b, &d2) || l);
		else
			l = lit_binop(n->op, l, eval(r, n->b, &d2));
		*dep |= d2;
		return l;
	default:
		r->error = "an expression the checker does not evaluate";
		return 0;
	}
}

static void exec(struct run *r, const struct lit_node *s)
{
	uint64_t dep, d2, saved;
	long long c, val;
	int v;

	for (; s && !r->dead && !r->error; s = s->next) {
		switch (s->kind) {
		case LS_EXPR:
			eval(r, s->a, &dep);
			break;
		case LS_ASSIGN:
			val = eval(r, s->a, &dep);
			r->t.reg[s->idx] = val;
			r->regdep[s->idx] = dep;
			break;
		case LS_STORE:
			/* a plain store: *E = V */
			v = var_at(r->p, eval(r, s->a, &dep));
			val = eval(r, s->b, &d2);
			if (r->dead || r->error)
				break;
			if (v < 0) {
				r->dead = true;
				break;
			}
			if (r->p->var[v].kind == LIT_LOCK) {
				r->error = "a plain access to a spinlock_t";
				break;
			}
			emit(r, LKMM_W, v, val, dep, d2);
			break;
		case LS_IF:
			/* ctrl: from the condition's loads to the events of
			 * either branch (not past the if: LKMM's ctrl stops
			 * where the branches join) */
			c = eval(r, s->a, &dep);
			saved = r->ctrl;
			r->ctrl |= dep;
			r->cond |= dep;
			if (c)
				exec(r, s->b);
			else if (s->c)
				exec(r, s->c);
			r->ctrl = saved;
			break;
		case LS_BLOCK:
			exec(r, s->a);
			break;
		default:
			break;
		}
	}
}

/* The registers at the process's start. */
static void init_regs(struct run *r)
{
	const struct lit_proc *pr = &r->p->proc[r->pi];

	for (int i = 0; i < LIT_MAX_REGS; i++) {
		r->t.reg[i] = pr->reg_init_addr_of[i] >= 0 ?
			      addr_of(pr->reg_init_addr_of[i]) : pr->reg_init[i];
		r->regdep[i] = 0;
	}
}

enum lit_replay_end lit_replay(const struct lit_prog *p, int pi, const long long *vals,
			       int nvals, struct trace *t, const char **error)
{
	static struct run r;

	memset(&r, 0, sizeof(r));
	r.p = p;
	r.pi = pi;
	r.given = vals;
	r.ngiven = nvals;
	init_regs(&r);
	exec(&r, p->proc[pi].body);
	*t = r.t;
	if (r.error) {
		*error = r.error;
		return LIT_REPLAY_ERROR;
	}
	if (r.halted)
		return LIT_REPLAY_READ;
	if (r.blocked)
		return LIT_REPLAY_BLOCKED;
	return r.dead ? LIT_REPLAY_DEAD : LIT_REPLAY_DONE;
}

bool lit_tev_reads(const struct tev *e)
{
	return e->tags & (LKMM_R | LKMM_LKR | LKMM_LF | LKMM_RL | LKMM_RU);
}

/* Every path of process @pi: its traces into @out (NULL: just stores). */
static int paths(const struct lit_prog *p, int pi, const struct domain *dom,
		 struct domain *stored, struct trace *out, int max,
		 const char **error, int *maxw)
{
	static struct run r;
	int count = 0;

	memset(&r, 0, sizeof(r));
	r.p = p;
	r.dom = dom;
	r.stored = stored;
	r.pi = pi;
	for (;;) {
		r.pos = 0;
		r.dead = false;
		r.t.nev = 0;
		r.ctrl = 0;
		r.cond = 0;
		r.nw = 0;
		init_regs(&r);
		exec(&r, p->proc[pi].body);
		if (r.error) {
			*error = r.error;
			return -1;
		}
		if (!r.dead) {
			if (maxw && r.nw > *maxw)
				*maxw = r.nw;
			if (out) {
				if (count == max) {
					*error = "more than 4096 paths in one process";
					return -1;
				}
				out[count] = r.t;
			}
			count++;
		}
		/* the next path: the last choice with options left */
		r.nch = r.pos < r.nch ? r.pos : r.nch;
		while (r.nch > 0 && r.ch[r.nch - 1] + 1 >= r.nopt[r.nch - 1])
			r.nch--;
		if (!r.nch)
			return count;
		r.ch[r.nch - 1]++;
	}
}

/* --- the candidate executions -------------------------------------------- */

struct cand {
	const struct lit_prog *p;
	struct trace *tr[LIT_MAX_PROCS];	/* each process's traces */
	int ntr[LIT_MAX_PROCS];
	int pick[LIT_MAX_PROCS];
	struct lkmm_exec x;
	int first[LIT_MAX_PROCS];		/* each process's first event */
	/* rf: each read's possible writes */
	int nreads, read[LKMM_MAX_EVENTS];
	int nsrc[LKMM_MAX_EVENTS], src[LKMM_MAX_EVENTS][LKMM_MAX_EVENTS];
	int rfk[LKMM_MAX_EVENTS];
	/* co: each location's writes (IW first), as a permutation */
	int nw[LIT_MAX_VARS], w[LIT_MAX_VARS][LKMM_MAX_EVENTS];
	/* counts */
	unsigned long long execs, consistent, yes, no, filtered;
	unsigned long long consistent_porf, yes_porf, no_porf;
	unsigned int flags_porf;
	unsigned long long ptry[LIT_MAX_VARS], pprune[LIT_MAX_VARS];
	unsigned long long rejected[LKMM_NAXIOMS];
	unsigned int flags;
	const char *error;
};

/* Lay the chosen traces out as events: initial writes, then P0, P1... */
static bool build(struct cand *c)
{
	const struct lit_prog *p = c->p;
	struct lkmm_exec *x = &c->x;
	int n = 0;

	memset(x, 0, sizeof(*x));
	for (int v = 0; v < p->nvars; v++) {
		const struct lit_var *var = &p->var[v];
		struct lkmm_event *e = &x->ev[n++];

		e->thread = -1;
		e->loc = v;
		e->tags = LKMM_W | LKMM_IW;
		e->val = var->kind == LIT_LOCK ? 0 :
			 var->init_addr_of >= 0 ? addr_of(var->init_addr_of) : var->init;
	}
	for (int t = 0; t < p->nprocs; t++) {
		const struct trace *tr = &c->tr[t][c->pick[t]];

		c->first[t] = n;
		if (n + tr->nev > LKMM_MAX_EVENTS) {
			c->error = "more than 64 events";
			return false;
		}
		for (int i = 0; i < tr->nev; i++) {
			const struct tev *te = &tr->ev[i];
			struct lkmm_event *e = &x->ev[n + i];

			e->thread = t;
			e->loc = te->loc;
			e->val = te->val;
			e->tags = te->tags;
		}
		n += tr->nev;
	}
	x->n = n;
	rel_n = n;
	rel_zero(&x->rmw);
	rel_zero(&x->addr);
	rel_zero(&x->data);
	rel_zero(&x->ctrl);
	for (int t = 0; t < p->nprocs; t++) {
		const struct trace *tr = &c->tr[t][c->pick[t]];
		int f = c->first[t];

		for (int i = 0; i < tr->nev; i++) {
			const struct tev *te = &tr->ev[i];

			for (int j = 0; j < i; j++) {
				if (te->addr & evbit(j))
					rel_add(&x->addr, f + j, f + i);
				if (te->data & evbit(j))
					rel_add(&x->data, f + j, f + i);
				if (te->ctrl & evbit(j))
					rel_add(&x->ctrl, f + j, f + i);
			}
			if (te->rmw_with > i)
				rel_add(&x->rmw, f + i, f + te->rmw_with);
		}
	}
	/* rf choices */
	c->nreads = 0;
	for (int r = 0; r < n; r++) {
		const struct lkmm_event *re = &x->ev[r];
		int k = 0;

		if (!(re->tags & (LKMM_R | LKMM_LF | LKMM_RL | LKMM_RU)))
			continue;
		for (int w = 0; w < n; w++) {
			const struct lkmm_event *we = &x->ev[w];

			if (re->tags & LKMM_R) {
				if ((we->tags & LKMM_W) && we->loc == re->loc &&
				    we->val == re->val && w != r)
					c->src[c->nreads][k++] = w;
			} else if (lkmm_lock_rf_allowed(x, w, r)) {
				c->src[c->nreads][k++] = w;
			}
		}
		if (!k)
			return false;	/* a value no write gives: no candidate */
		c->read[c->nreads] = r;
		c->nsrc[c->nreads++] = k;
	}
	/* co: the writes of each location, LKW but not UL (lock.cat) */
	for (int v = 0; v < p->nvars; v++)
		c->nw[v] = 0;
	for (int i = 0; i < n; i++)
		if (x->ev[i].tags & (LKMM_W | LKMM_LKW))
			c->w[x->ev[i].loc][c->nw[x->ev[i].loc]++] = i;
	return true;
}

bool lit_holds(const struct lit_cond *k, const long long *const *regs,
	       const long long *final)
{
	long long have, want;

	switch (k->kind) {
	case LC_TRUE:
		return true;
	case LC_NOT:
		return !lit_holds(k->a, regs, final);
	case LC_AND:
		return lit_holds(k->a, regs, final) && lit_holds(k->b, regs, final);
	case LC_OR:
		return lit_holds(k->a, regs, final) || lit_holds(k->b, regs, final);
	case LC_EQ:
		have = k->proc >= 0 ? regs[k->proc][k->idx] : final[k->idx];
		want = k->val_addr_of >= 0 ? addr_of(k->val_addr_of) : k->val;
		if (k->val_proc >= 0)
			want = regs[k->val_proc][k->val_reg];
		return have == want;
	}
	return false;
}

/*
 * Is po | rf acyclic in the candidate (the executions an explorer that
 * adds events in po and rf order can build: no load buffering)?  The
 * rf of lock acquisitions, which lock.cat derives, is left out.
 */
static bool porf_acyclic(const struct cand *c)
{
	const struct lkmm_exec *x = &c->x;
	struct rel t;

	rel_n = x->n;
	t = x->rf;
	for (int i = 0; i + 1 < x->n; i++)
		if (x->ev[i].thread >= 0 && x->ev[i].thread == x->ev[i + 1].thread)
			rel_add(&t, i, i + 1);
	return rel_acyclic(&t);
}

/* Judge the candidate with its rf and co set in c->x. */
static void judge(struct cand *c)
{
	const struct lit_prog *p = c->p;
	const long long *regs[LIT_MAX_PROCS];
	long long final[LIT_MAX_VARS];
	unsigned int flags;
	enum lkmm_axiom a;
	bool porf;

	c->execs++;
	a = lkmm_check(&c->x, &flags);
	if (a != LKMM_OK) {
		c->rejected[a]++;
		return;
	}
	c->consistent++;
	for (int v = 0; v < p->nvars; v++)
		final[v] = c->x.ev[c->w[v][c->nw[v] - 1]].val;
	for (int t = 0; t < p->nprocs; t++)
		regs[t] = c->tr[t][c->pick[t]].reg;
	porf = porf_acyclic(c);
	c->consistent_porf += porf;
	if (p->filter && !lit_holds(p->filter, regs, final)) {
		c->filtered++;
		return;
	}
	c->flags |= flags;
	if (porf)
		c->flags_porf |= flags;
	if (lit_holds(p->cond, regs, final)) {
		c->yes++;
		c->yes_porf += porf;
	} else {
		c->no++;
		c->no_porf += porf;
	}
}

/*
 * Coherence and atomicity restricted to location @v, the rf and co of
 * its events chosen: the cat's coherence and atomic axioms hold on the
 * whole execution only if they hold on each location alone (po-loc,
 * rf, co, fr never link two locations), so a choice that breaks them
 * here is dropped before the other locations are chosen.  Lock
 * locations are left to the checker (lock.cat derives their rf and co).
 */
static bool loc_ok(struct cand *c, int v)
{
	const struct lkmm_exec *x = &c->x;
	lkmm_set mine = 0;
	struct rel t;

	if (c->p->var[v].kind == LIT_LOCK)
		return true;
	for (int i = 0; i < x->n; i++)
		if (x->ev[i].loc == v)
			mine |= set_bit(i);
	rel_n = x->n;
	rel_zero(&t);
	for (int i = 0; i < x->n; i++) {
		if (!(mine & set_bit(i)))
			continue;
		t.r[i] |= x->co.r[i] | (x->rf.r[i] & mine);
		for (int j = i + 1; j < x->n; j++)
			if ((mine & set_bit(j)) && x->ev[j].thread == x->ev[i].thread &&
			    x->ev[i].thread >= 0)
				rel_add(&t, i, j);
	}
	for (int k = 0; k < c->nreads; k++) {
		int r = c->read[k], w = c->src[k][c->rfk[k]];

		if (!(mine & set_bit(r)))
			continue;
		/* fr: r -> the writes co-after the one it read */
		t.r[r] |= x->co.r[w];
		/* atomic: no write of another thread between an rmw's read's
		 * write (fre) and its own write (coe) */
		if (x->rmw.r[r]) {
			int wr = __builtin_ctzll(x->rmw.r[r]);
			lkmm_set fre = x->co.r[w];

			while (fre) {
				int e = __builtin_ctzll(fre);

				fre &= fre - 1;
				if (x->ev[e].thread != x->ev[r].thread &&
				    x->ev[e].thread != x->ev[wr].thread &&
				    (x->co.r[e] & set_bit(wr)))
					return false;
			}
		}
	}
	return rel_acyclic(&t);
}

static void each_loc(struct cand *c, int v);

/*
 * Every co of location @v: its writes after IW in every order that
 * keeps each thread's writes in program order (any other order breaks
 * coherence: po-loc ; co^-1 would be a cycle), built position by
 * position from @pos; then the next location.
 */
static void each_co(struct cand *c, int v, int pos, lkmm_set left)
{
	struct lkmm_exec *x = &c->x;
	int *w = c->w[v];

	if (!left) {
		for (int a = 0; a < c->nw[v]; a++) {
			x->co.r[w[a]] = 0;
			for (int b = a + 1; b < c->nw[v]; b++)
				x->co.r[w[a]] |= set_bit(w[b]);
		}
		if (loc_ok(c, v))
			each_loc(c, v + 1);
		return;
	}
	for (lkmm_set l = left; l; l &= l - 1) {
		int e = __builtin_ctzll(l);
		bool first = true;

		/* e's thread has no write still to place before e */
		for (lkmm_set o = left & (set_bit(e) - 1); o; o &= o - 1)
			if (x->ev[__builtin_ctzll(o)].thread == x->ev[e].thread)
				first = false;
		if (!first)
			continue;
		w[pos] = e;
		each_co(c, v, pos + 1, left & ~set_bit(e));
	}
}

/* Every rf of the reads of location @v from the k-th read on. */
static void each_rf(struct cand *c, int v, int k)
{
	while (k < c->nreads && c->x.ev[c->read[k]].loc != v)
		k++;
	if (k == c->nreads) {
		lkmm_set left = 0;

		/* w[0] is the initial write; the others are placed anew */
		for (int i = 1; i < c->nw[v]; i++)
			left |= set_bit(c->w[v][i]);
		each_co(c, v, 1, left);
		return;
	}
	for (int j = 0; j < c->nsrc[k]; j++) {
		int r = c->read[k], w = c->src[k][j];

		c->rfk[k] = j;
		c->x.rf.r[w] |= set_bit(r);
		each_rf(c, v, k + 1);
		c->x.rf.r[w] &= ~set_bit(r);
	}
}

/* Location by location: its rf and co, then the next; then judge. */
static void each_loc(struct cand *c, int v)
{
	unsigned int flags;

	if (v == c->p->nvars) {
		c->x.open_locs = 0;
		judge(c);
		return;
	}
	/* The locations chosen so far already break an axiom: every
	 * completion does (lkmm.h, open_locs).  Checked from the second
	 * location on, where the first may have closed a cycle, and at a
	 * level only while it pays: after 64 checks there with nothing
	 * pruned, no more (a count, not a clock: the same on every run). */
	if (v > 1 && (c->ptry[v] < 64 || c->pprune[v])) {
		c->ptry[v]++;
		/* (the open locations' co rows hold an earlier branch's) */
		for (int u = v; u < c->p->nvars; u++)
			for (int i = 0; i < c->nw[u]; i++)
				c->x.co.r[c->w[u][i]] = 0;
		c->x.open_locs = ~0ULL << v;
		if (lkmm_check(&c->x, &flags) != LKMM_OK) {
			c->pprune[v]++;
			return;
		}
	}
	each_rf(c, v, 0);
}

/*
 * The constants the program assigns or stores (r1 = 1; WRITE_ONCE(*x, 2)):
 * herd7 solves a test's values as equations over its rf, so a value may
 * justify itself around an rf cycle that no dependency forbids (a store
 * of 1 guarded by a load of 1 that reads it).  The least fixed point
 * from the initial values never meets such a value; seeding every
 * location with these constants does, as herd7 would.  A value no path
 * stores costs nothing: no write gives it, no candidate reads it.
 */
static void constants(const struct lit_node *n, struct domain *d,
		      const struct lit_prog *p, bool value)
{
	for (; n; n = n->next) {
		if (value && n->kind == LN_NUM)
			for (int v = 0; v < p->nvars; v++)
				if (p->var[v].kind == LIT_INT)
					dom_add(d, v, n->num);
		switch (n->kind) {
		case LS_ASSIGN:
			constants(n->a, d, p, true);
			break;
		case LS_STORE:
			constants(n->b, d, p, true);
			break;
		case LN_CALL:
			if (n->prim && (n->prim->kind == LP_STORE ||
					n->prim->kind == LP_STORE_MB) && n->nargs == 2)
				constants(n->arg[1], d, p, true);
			break;
		case LS_IF:
			constants(n->b, d, p, false);
			constants(n->c, d, p, false);
			break;
		case LS_BLOCK:
			constants(n->a, d, p, false);
			break;
		case LS_EXPR:
			constants(n->a, d, p, false);
			break;
		default:
			break;
		}
	}
}

int lit_cat_check(struct lit_prog *p, struct lit_cat_result *res)
{
	static struct trace traces[LIT_MAX_PROCS][MAX_TRACES];
	static struct domain dom, stored;
	static struct cand c;
	const char *error = NULL;
	struct timespec t0, t1;
	int round, rounds = 1;

	clock_gettime(CLOCK_MONOTONIC, &t0);
	memset(res, 0, sizeof(*res));
	memset(&dom, 0, sizeof(dom));
	/* The values: from the initial ones to every value some path may
	 * store, to a fixed point or for as many rounds as an execution has
	 * writes: a value some execution writes is computed from values
	 * written before it by other writes of that execution, a chain of
	 * at most that many (atomic_inc() would otherwise count forever) */
	for (int v = 0; v < p->nvars; v++)
		dom_add(&dom, v, p->var[v].init_addr_of >= 0 ?
			addr_of(p->var[v].init_addr_of) : p->var[v].init);
	for (int t = 0; t < p->nprocs; t++)
		constants(p->proc[t].body, &dom, p, false);
	for (round = 0; round < rounds; round++) {
		int maxw[LIT_MAX_PROCS] = { 0 };

		stored = dom;
		stored.changed = false;
		rounds = 1;
		for (int t = 0; t < p->nprocs; t++) {
			if (paths(p, t, &dom, &stored, NULL, 0, &error, &maxw[t]) < 0)
				goto err;
			rounds += maxw[t];
		}
		if (stored.overflow) {
			error = "a location that may hold more than 32 values";
			goto err;
		}
		if (!stored.changed)
			break;
		dom = stored;
	}
	memset(&c, 0, sizeof(c));
	c.p = p;
	for (int t = 0; t < p->nprocs; t++) {
		c.tr[t] = traces[t];
		c.ntr[t] = paths(p, t, &dom, NULL, traces[t], MAX_TRACES, &error, NULL);
		if (c.ntr[t] < 0)
			goto err;
		if (!c.ntr[t])
			goto done;
	}
	/* every combination of one trace per process */
	for (;;) {
		int t;

		if (build(&c))
			each_loc(&c, 0);
		if (c.error) {
			error = c.error;
			goto err;
		}
		for (t = p->nprocs - 1; t >= 0; t--) {
			if (++c.pick[t] < c.ntr[t])
				break;
			c.pick[t] = 0;
		}
		if (t < 0)
			break;
	}
done:
	res->executions = c.execs;
	res->consistent = c.consistent;
	res->consistent_porf = c.consistent_porf;
	res->yes_porf = c.yes_porf;
	res->no_porf = c.no_porf;
	res->flags_porf = c.flags_porf;
	res->yes = c.yes;
	res->no = c.no;
	res->filtered = c.filtered;
	res->flags = c.flags;
	for (int a = 0; a < LKMM_NAXIOMS; a++)
		res->rejected[a] = c.rejected[a];
	clock_gettime(CLOCK_MONOTONIC, &t1);
	res->seconds = (double)(t1.tv_sec - t0.tv_sec) + (t1.tv_nsec - t0.tv_nsec) / 1e9;
	return 0;
err:
	snprintf(res->error, sizeof(res->error), "%s", error);
	return -1;
}

const char *lit_cat_verdict(const struct lit_cat_result *r)
{
	return r->yes && r->no ? "Sometimes" : r->yes ? "Always" : "Never";
}

int lit_cat_run(struct lit_prog *p, const struct lit_opts *o)
{
	static struct lit_cat_result r;
	const char *verdict;
	bool race;
	int ret = 0;

	if (p->unsupported[0]) {
		printf("%s Unsupported %s\n", p->name, p->unsupported);
		return o->expect;
	}
	if (lit_cat_check(p, &r)) {
		printf("%s Unsupported %s\n", p->name, r.error);
		return o->expect;
	}
	verdict = lit_cat_verdict(&r);
	race = r.flags & LKMM_FLAG_DATA_RACE;
	printf("%s %s%s (%llu consistent executions of %llu candidates",
	       p->name, verdict, race ? " DATARACE" : "", r.consistent, r.executions);
	for (int f = 1; f < LKMM_NFLAGS; f++)
		if (r.flags & 1u << f)
			printf(", flag %s", lkmm_flag_name[f]);
	if (o->verbose) {
		printf(", %.4f s", r.seconds);
		for (int a = 1; a < LKMM_NAXIOMS; a++)
			if (r.rejected[a])
				printf(", %s %llu", lkmm_axiom_name[a], r.rejected[a]);
	}
	printf(")");
	if (o->expect && (strcmp(verdict, p->expected) || race != p->expected_race)) {
		printf(" MISMATCH: herd7 says %s%s", p->expected[0] ? p->expected : "nothing",
		       p->expected_race ? " DATARACE" : "");
		ret = 1;
	}
	printf("\n");
	return ret;
}

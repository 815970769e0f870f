// SPDX-License-Identifier: GPL-2.0
/*
 * A litmus test as an explorer scenario: P0..Pn are its bodies, which
 * interpret the parsed processes; the shared variables are cells whose
 * every marked access goes through the explorer's memory model
 * (<shim/ctl-wmm.h>), the same calls the kernel headers make for klist;
 * its locks are the shim's spinlocks.  The depth-first search with no
 * effective bound visits every execution the model allows; the final
 * condition is the run's fingerprint (0: filtered out, 1: false,
 * 2: true), so the set of outcomes gives herd7's verdict: Always,
 * Sometimes or Never.  The search is source-DPOR (every trace of the
 * model's executions, a load's choice of store a branch of its own) or,
 * with --search dfs, the depth-first search with no effective bound;
 * --diff runs both and compares every final state they reached.
 */
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include <linux/kernel.h>
#include <linux/spinlock.h>
#include <shim/explore.h>
#include <shim/ctl-wmm.h>
#include "litmus.h"
#include "explore-graph.h"	/* #38 native */

static struct lit_prog *prog;
static long long cell[LIT_MAX_VARS];
static spinlock_t lock[LIT_MAX_VARS];
static struct {
	long long val;
	int dep;		/* the load the value came from, -1: none */
} reg[LIT_EXPLORE_MAX_PROCS][LIT_MAX_REGS];
static bool wmm_mode;

static long long addr_of(int v)
{
	if (prog->var[v].kind == LIT_LOCK)
		return (long long)(intptr_t)&lock[v];
	return (long long)(intptr_t)&cell[v];
}

static int var_at(long long a, const struct lit_node *n)
{
	for (int i = 0; i < prog->nvars; i++)
		if (addr_of(i) == a)
			return i;
	shim_report(prog->path, n->line, "litmus: %s:%d: not a shared variable's address",
		    prog->path, n->line);
	return -1;
}

static long long eval(int pi, const struct lit_node *n, int *dep);

/* The location a primitive works on: argument @i, *E or E. */
static int location(int pi, const struct lit_node *call, int i, int *dep)
{
	const struct lit_node *a = call->arg[i];
	long long addr;

	if (a->kind == LN_DEREF)
		a = a->a;
	addr = eval(pi, a, dep);
	return var_at(addr, call);
}

static long long prim(int pi, const struct lit_node *n, int *dep)
{
	const struct lit_prim *p = n->prim;
	const char *f = prog->path;
	int line = n->line, adep = -1, v, vdep = -1;
	long long val = 0, old = 0, a = 1, b = 0;

	*dep = -1;
	switch (p->kind) {
	case LP_LOAD:
		v = location(pi, n, 0, &adep);
		if (v < 0)
			return 0;
		*dep = shim_ctl_load(&cell[v], sizeof(cell[v]), &val, p->mo, adep,
				     f, line);
		return val;
	case LP_STORE:
	case LP_STORE_MB:
		v = location(pi, n, 0, &adep);
		val = eval(pi, n->arg[1], &vdep);
		if (v < 0)
			return 0;
		shim_ctl_store(&cell[v], sizeof(cell[v]), &val, p->mo, f, line);
		if (p->kind == LP_STORE_MB)
			shim_ctl_fence(SHIM_FENCE_MB, f, line);
		return 0;
	case LP_FENCE:
		shim_ctl_fence(p->op, f, line);
		return 0;
	case LP_NOOP:
		return 0;
	case LP_RMW:
	case LP_RMW_VOID:
		v = location(pi, n, p->ptr_arg, &adep);
		if (p->op == SHIM_RMW_CMPXCHG ||
		    (p->op == SHIM_RMW_ADD_UNLESS && n->nargs == 3)) {
			a = eval(pi, n->arg[1], &vdep);
			b = eval(pi, n->arg[2], &vdep);
		} else if (n->nargs == 2) {
			a = eval(pi, n->arg[1 - p->ptr_arg], &vdep);
		}
		if (p->neg)
			a = -a;
		if (v < 0)
			return 0;
		shim_ctl_rmw(&cell[v], sizeof(cell[v]), p->op, (unsigned long long)a,
			     (unsigned long long)b, &old, p->mo, f, line);
		switch (p->ret) {
		case LR_NEW:
			return old + a;
		case LR_NEW_IS_ZERO:
			return old + a == 0;
		case LR_NEW_IS_NEG:
			return old + a < 0;
		case LR_DONE:
			return old != b;
		default:
			return old;
		}
	case LP_LOCK:
	case LP_UNLOCK:
	case LP_TRYLOCK:
	case LP_IS_LOCKED:
		v = location(pi, n, 0, &adep);
		if (v < 0)
			return 0;
		if (prog->var[v].kind != LIT_LOCK) {
			shim_report(f, line, "litmus: %s:%d: %s of a variable not declared spinlock_t",
				    f, line, p->name);
			return 0;
		}
		if (p->kind == LP_LOCK)
			shim_lock_acquire(&lock[v].l, SHIM_SPIN, 0, f, line, "P");
		else if (p->kind == LP_UNLOCK)
			shim_lock_release(&lock[v].l, SHIM_SPIN, f, line);
		else if (p->kind == LP_TRYLOCK)
			return shim_lock_try(&lock[v].l, SHIM_SPIN, f, line);
		else if (wmm_mode)
			return shim_ctl_wmm_is_locked(&lock[v].l, f, line);
		else {
			shim_ctl_point(SHIM_OP_READ_ONCE, &lock[v].l, true, f, line);
			return spin_is_locked(&lock[v]);
		}
		return 0;
	case LP_RCU_LOCK:
		shim_ctl_rcu_read_lock(f, line);
		return 0;
	case LP_RCU_UNLOCK:
		shim_ctl_rcu_read_unlock(f, line);
		return 0;
	case LP_SYNC_RCU:
		shim_ctl_synchronize_rcu(f, line);
		return 0;
	case LP_SRCU_LOCK:
	case LP_SRCU_UNLOCK:
	case LP_SYNC_SRCU:
		/* explore_unsupported() keeps SRCU from the explorer */
		return 0;
	}
	return 0;
}

static long long eval(int pi, const struct lit_node *n, int *dep)
{
	int d2 = -1;
	long long l;

	*dep = -1;
	switch (n->kind) {
	case LN_NUM:
		return n->num;
	case LN_REG:
		*dep = reg[pi][n->idx].dep;
		return reg[pi][n->idx].val;
	case LN_VAR:
		return addr_of(n->idx);
	case LN_ADDR:
		return addr_of(n->a->idx);
	case LN_CALL:
		return prim(pi, n, dep);
	case LN_UNARY:
		l = eval(pi, n->a, dep);
		return n->op == '!' ? !l : n->op == '-' ? -l : ~l;
	case LN_BIN:
		l = eval(pi, n->a, dep);
		if (n->op == (('&' << 8) | '&'))
			return l && eval(pi, n->b, &d2);
		if (n->op == (('|' << 8) | '|'))
			return l || eval(pi, n->b, &d2);
		l = lit_binop(n->op, l, eval(pi, n->b, &d2));
		if (*dep < 0)
			*dep = d2;
		return l;
	default:
		shim_report(prog->path, n->line, "litmus: %s:%d: plain access",
			    prog->path, n->line);
		return 0;
	}
}

static void exec(int pi, const struct lit_node *s)
{
	int dep;

	for (; s; s = s->next) {
		switch (s->kind) {
		case LS_EXPR:
			eval(pi, s->a, &dep);
			break;
		case LS_ASSIGN:
			reg[pi][s->idx].val = eval(pi, s->a, &dep);
			reg[pi][s->idx].dep = dep;
			break;
		case LS_IF:
			if (eval(pi, s->a, &dep))
				exec(pi, s->b);
			else if (s->c)
				exec(pi, s->c);
			break;
		case LS_BLOCK:
			exec(pi, s->a);
			break;
		default:
			break;
		}
	}
}

static void body0(void *ctx) { exec(0, prog->proc[0].body); }
static void body1(void *ctx) { exec(1, prog->proc[1].body); }
static void body2(void *ctx) { exec(2, prog->proc[2].body); }
static void body3(void *ctx) { exec(3, prog->proc[3].body); }

static void *setup(void)
{
	for (int i = 0; i < prog->nvars; i++) {
		const struct lit_var *v = &prog->var[i];

		cell[i] = v->init_addr_of >= 0 ? addr_of(v->init_addr_of) : v->init;
		if (v->kind == LIT_LOCK)
			spin_lock_init(&lock[i]);
	}
	for (int p = 0; p < prog->nprocs; p++) {
		for (int r = 0; r < LIT_MAX_REGS; r++) {
			reg[p][r].val = prog->proc[p].reg_init_addr_of[r] >= 0 ?
					addr_of(prog->proc[p].reg_init_addr_of[r]) :
					prog->proc[p].reg_init[r];
			reg[p][r].dep = -1;
		}
	}
	return NULL;
}

static bool holds(const struct lit_cond *c)
{
	long long have, want;

	switch (c->kind) {
	case LC_TRUE:
		return true;
	case LC_NOT:
		return !holds(c->a);
	case LC_AND:
		return holds(c->a) && holds(c->b);
	case LC_OR:
		return holds(c->a) || holds(c->b);
	case LC_EQ:
		have = c->proc >= 0 ? reg[c->proc][c->idx].val : cell[c->idx];
		want = c->val_addr_of >= 0 ? addr_of(c->val_addr_of) : c->val;
		if (c->val_proc >= 0)
			want = reg[c->val_proc][c->val_reg].val;
		return have == want;
	}
	return false;
}

/* 0: the filter drops the run; 1: the condition is false; 2: true. */
static unsigned long verdict_of_run(void *ctx)
{
	if (prog->filter && !holds(prog->filter))
		return 0;
	return holds(prog->cond) ? 2 : 1;
}

static unsigned long long mix(unsigned long long h, unsigned long long v)
{
	h ^= v + 0x9e3779b97f4a7c15ULL + (h << 6) + (h >> 2);
	h = (h ^ (h >> 30)) * 0xbf58476d1ce4e5b9ULL;
	return h ^ (h >> 27);
}

/* --diff: the whole final state (verdict, every register and variable). */
static unsigned long state_of_run(void *ctx)
{
	unsigned long long h = verdict_of_run(ctx);

	for (int p = 0; p < prog->nprocs; p++)
		for (int r = 0; r < prog->proc[p].nregs; r++)
			h = mix(h, (unsigned long long)reg[p][r].val);
	for (int v = 0; v < prog->nvars; v++)
		if (prog->var[v].kind == LIT_INT)
			h = mix(h, (unsigned long long)cell[v]);
	return (unsigned long)(h | 1);
}

/* --witness: an execution where the condition holds is a "failure",
 * so the explorer prints its minimised interleaving and schedule. */
static void witness_check(void *ctx)
{
	SHIM_EXPLORE_CHECK(verdict_of_run(ctx) != 2,
			   "the condition of %s holds", prog->name);
}

/* @sc runs @p under the model asked for: its bodies are @p's processes. */
static void lit_scenario(struct lit_prog *p, bool wmm, struct shim_scenario *sc)
{
	static void (*const bodies[LIT_EXPLORE_MAX_PROCS])(void *) = {
		body0, body1, body2, body3,
	};

	prog = p;
	wmm_mode = wmm;
	for (int i = 0; i < p->nprocs; i++)
		sc->body[i] = bodies[i];
}

static enum shim_explore_strategy search_of(const struct lit_opts *lo)
{
	return lo->dpor ? SHIM_EXPLORE_DPOR : SHIM_EXPLORE_DFS;
}

static enum shim_explore_model model_of(const struct lit_opts *lo)
{
	return lo->wmm ? SHIM_EXPLORE_MODEL_WMM : SHIM_EXPLORE_MODEL_SC;
}

/* What the explorer's engine does not run, said as a verdict. */
static const char *explore_unsupported(const struct lit_prog *p)
{
	if (p->unsupported[0])
		return p->unsupported;
	if (p->has_plain)
		return "plain access (the explorer's engine: --engine cat reads it)";
	if (p->has_srcu)
		return "srcu (the explorer's engine: --engine cat reads it)";
	if (p->nprocs > LIT_EXPLORE_MAX_PROCS)
		return "more than 4 processes (the explorer's engine)";
	return NULL;
}

int lit_witness(struct lit_prog *p, const struct lit_opts *lo)
{
	struct shim_scenario sc = {
		.name = p->name, .setup = setup, .check = witness_check,
	};
	struct shim_explore_opts o = {
		.strategy = search_of(lo), .model = model_of(lo),
		.bound = 1000, .max_schedules = 5000000, .max_ms = 600000,
		.stop_on_failure = true,
	};
	static struct shim_explore_result r;

	if (explore_unsupported(p))
		return 0;
	lit_scenario(p, lo->wmm, &sc);
	shim_explore(&sc, &o, &r);
	return 0;
}

/* Every final state of @p under @lo's model by @strategy into @r. */
static void all_states(struct lit_prog *p, const struct lit_opts *lo,
		       enum shim_explore_strategy strategy,
		       struct shim_explore_result *r)
{
	struct shim_scenario sc = {
		.name = p->name, .setup = setup, .fingerprint = state_of_run,
	};
	struct shim_explore_opts o = {
		.strategy = strategy, .model = model_of(lo),
		.bound = 1000,		/* DFS: no bound, every execution */
		.max_schedules = 5000000,
		.max_ms = 250000,	/* twice within ctest's 600 s */
		.quiet = true,
		.outcomes = true,
	};

	lit_scenario(p, lo->wmm, &sc);
	shim_explore(&sc, &o, r);
}

int lit_diff(struct lit_prog *p, const struct lit_opts *lo)
{
	static struct shim_explore_result dfs, dpor;
	const char *model = lo->wmm ? "wmm" : "sc";
	unsigned int i;

	if (explore_unsupported(p)) {
		printf("%s Unsupported %s\n", p->name, explore_unsupported(p));
		return 0;
	}
	all_states(p, lo, SHIM_EXPLORE_DFS, &dfs);
	all_states(p, lo, SHIM_EXPLORE_DPOR, &dpor);
	if (dfs.failures || dpor.failures) {
		printf("%s Error %s\n", p->name,
		       dfs.failures ? dfs.title : dpor.title);
		return 1;
	}
	if (!dfs.covered || !dpor.covered) {
		printf("%s Undecided: %s did not finish (%lu executions)\n", p->name,
		       dfs.covered ? "DPOR" : "DFS",
		       dfs.covered ? dpor.schedules : dfs.schedules);
		return 1;
	}
	if (dfs.outcomes_overflow || dpor.outcomes_overflow) {
		printf("%s Undecided: more than %d final states\n", p->name,
		       SHIM_EXPLORE_MAX_OUTCOMES);
		return 1;
	}
	/* Both sets are sorted (ctl_outcome_add()). */
	for (i = 0; i < dfs.noutcomes && i < dpor.noutcomes; i++)
		if (dfs.outcomes[i].fingerprint != dpor.outcomes[i].fingerprint)
			break;
	if (i < dfs.noutcomes || i < dpor.noutcomes) {
		printf("%s DIFFERS (%s): DFS reached %u final states in %lu executions, DPOR %u in %lu; first difference at state %u\n",
		       p->name, model, dfs.noutcomes, dfs.schedules,
		       dpor.noutcomes, dpor.schedules, i);
		return 1;
	}
	printf("%s Same (%s): %u final states; DFS %lu executions in %.3f s, DPOR %lu (%lu traces) in %.3f s\n",
	       p->name, model, dfs.noutcomes, dfs.schedules, dfs.ms / 1e3,
	       dpor.schedules, dpor.traces, dpor.ms / 1e3);
	return 0;
}

static bool two_kinds(const struct shim_explore_result *r)
{
	bool yes = false, no = false;

	for (unsigned int i = 0; i < r->noutcomes; i++) {
		yes |= r->outcomes[i].fingerprint == 2;
		no |= r->outcomes[i].fingerprint == 1;
	}
	return yes && no;
}

/* lit_run()'s line, unless quiet; its verdict for the caller who asks. */
static void __attribute__((format(printf, 3, 4)))
say(const struct lit_opts *lo, const char *verdict, const char *fmt, ...)
{
	va_list ap;

	if (lo->verdict_out)
		snprintf(lo->verdict_out, 32, "%s", verdict);
	if (lo->quiet)
		return;
	va_start(ap, fmt);
	vprintf(fmt, ap);
	va_end(ap);
}

int lit_run(struct lit_prog *p, const struct lit_opts *lo)
{
	struct shim_scenario sc = {
		.name = p->name, .setup = setup, .fingerprint = verdict_of_run,
	};
	struct shim_explore_opts o = {
		.strategy = search_of(lo), .model = model_of(lo),
		.bound = 1000,		/* DFS: no bound, every execution */
		.max_schedules = 5000000,
		/* ctest gives each test 600 s: say Undecided well before */
		.max_ms = lo->max_ms ? lo->max_ms : 400000,
		.quiet = true,
		.outcomes = true,
	};
	static struct shim_explore_result r;
	bool yes = false, no = false;
	const char *verdict;
	char extra[192] = "";
	int ret = 0;

	bool wmm = lo->wmm, expect = lo->expect;

	if (explore_unsupported(p)) {
		say(lo, "Unsupported", "%s Unsupported %s\n", p->name, explore_unsupported(p));
		return expect;
	}
	lit_scenario(p, wmm, &sc);
	/*
	 * A short first pass: if it sees both outcomes the verdict is
	 * Sometimes already, and the full search (which only Never and
	 * Always need) is spared.
	 */
	o.max_schedules = 3000;
	shim_explore(&sc, &o, &r);
	if (!r.failures && !r.covered && !two_kinds(&r)) {
		o.max_schedules = 5000000;
		shim_explore(&sc, &o, &r);
	}
	if (r.failures) {
		say(lo, "Error", "%s Error %s (schedule %s)\n", p->name, r.title, r.schedule);
		return 1;
	}
	for (unsigned int i = 0; i < r.noutcomes; i++) {
		yes |= r.outcomes[i].fingerprint == 2;
		no |= r.outcomes[i].fingerprint == 1;
	}
	/*
	 * Never and Always need every execution; Sometimes needs one of
	 * each kind, so it stands even when the budget ran out first.
	 */
	if ((!r.covered || r.outcomes_overflow) && !(yes && no)) {
		say(lo, "Undecided", "%s Undecided: %lu executions, budget spent%s\n", p->name,
		    r.schedules, expect ? " MISMATCH: not judged" : "");
		return 1;
	}
	if (!r.covered)
		snprintf(extra + strlen(extra), sizeof(extra) - strlen(extra),
			 " (both outcomes seen in %lu executions, not all run)",
			 r.schedules);
	verdict = yes && no ? "Sometimes" : yes ? "Always" : "Never";
	if (lo->verbose)
		snprintf(extra + strlen(extra), sizeof(extra) - strlen(extra),
			 " (%s, %s: %lu executions, %.3f s)",
			 wmm ? "wmm" : "sc", lo->dpor ? "dpor" : "dfs",
			 r.schedules, r.ms / 1e3);
	if (expect && strcmp(verdict, p->expected)) {
		snprintf(extra + strlen(extra), sizeof(extra) - strlen(extra),
			 " MISMATCH: herd7 says %s", p->expected[0] ? p->expected : "nothing");
		ret = 1;
	}
	say(lo, verdict, "%s %s%s\n", p->name, verdict, extra);
	return ret;
}

/*
 * #38 native: the same scenario through the graph engine
 * (shim/explore/explore-graph.c) under sc: each execution once, each
 * run a forked child whose reads return the graph's values.
 */
int lit_graph_native(struct lit_prog *p, const struct lit_opts *lo)
{
	struct shim_scenario sc = {
		.name = p->name, .setup = setup, .fingerprint = verdict_of_run,
	};
	struct shim_graph_opts o = {
		.quiet = true, .max_ms = lo->max_ms ? (unsigned int)lo->max_ms : 250000,
		.no_plain_sharing = true,	/* explore_unsupported() refuses them */
	};
	static struct shim_graph_result r;
	static struct lit_graph_result g;
	unsigned long long yes = 0, no = 0, filtered = 0;
	const char *v, *gv;
	int ret = 0;

	if (explore_unsupported(p)) {
		printf("%s Unsupported %s\n", p->name, explore_unsupported(p));
		return lo->compare;
	}
	/* wmm_mode: spin_is_locked() is the model's load, the graph's read */
	lit_scenario(p, true, &sc);
	if (shim_explore_graph(&sc, &o, &r)) {
		printf("%s Unsupported %s (graph, sc)", p->name, r.error);
		if (lo->compare) {
			/* the in-process front end must refuse it too */
			if (lit_graph_check(p, true, &g) == 0) {
				printf(" WRONG: --engine graph --model sc runs it\n");
				return 1;
			}
			printf("; --engine graph --model sc: Unsupported %s\n", g.error);
			return 0;
		}
		printf("\n");
		return 1;
	}
	for (unsigned int i = 0; i < r.noutcomes; i++) {
		if (r.outcome[i] == 2)
			yes += r.outcome_count[i];
		else if (r.outcome[i] == 1)
			no += r.outcome_count[i];
		else
			filtered += r.outcome_count[i];
	}
	v = yes && no ? "Sometimes" : yes ? "Always" : "Never";
	printf("%s %s (graph, sc: %llu executions of %llu explored, %llu blocked, %d locations, %d events at most, %llu runs, %.3f s)",
	       p->name, v, r.executions, r.explored, r.blocked, r.nlocs, r.max_events,
	       r.children, r.seconds);
	if (r.failures) {
		printf(" FAILED: %s", r.title);
		ret = 1;
	}
	if (lo->compare) {
		if (lit_graph_check(p, true, &g)) {
			printf("; --engine graph --model sc: Unsupported %s WRONG\n", g.error);
			return 1;
		}
		gv = g.yes && g.no ? "Sometimes" : g.yes ? "Always" : "Never";
		printf("; in-process %s (%llu executions, %llu yes, %llu no, %llu filtered, %.3f s)",
		       gv, g.consistent, g.yes, g.no, g.filtered, g.seconds);
		if (g.consistent != r.executions || g.yes != yes || g.no != no ||
		    g.filtered != filtered || strcmp(v, gv)) {
			printf(" WRONG: not the in-process front end's executions (%llu yes, %llu no, %llu filtered)",
			       yes, no, filtered);
			ret = 1;
		} else {
			printf(" same");
		}
	}
	printf("\n");
	return ret;
}

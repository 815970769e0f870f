// SPDX-License-Identifier: GPL-2.0
/*
 * The reader of herd7's C litmus tests: "C NAME", an optional doc
 * string, the init block, the processes P0..Pn, then "locations [...]",
 * "filter COND" and one of "exists", "~exists", "forall" with its
 * condition.  Comments: (* ... *), /+ ... +/ and //.  A process body is
 * the subset of C the kernel's litmus tests use: declarations,
 * assignments to registers, calls of the primitives, if/else, blocks.
 * Between the name and the init block: a doc string and diy7's header
 * lines (Cycle=..., Relax=..., Safe=..., Prefetch=..., Com=...,
 * Orig=..., any KEY=VALUE line), skipped as herd7 skips them.  A
 * register may be used without a declaration (diy7 writes none), as
 * herd7 allows.  Plain accesses (*x, *x = v) are read.  Anything else
 * in a body is a parse error (exit 2) or, if it is C herd7's LKMM does
 * not take (loops, goto, switch) or the tool does not run (SRCU),
 * "Unsupported".
 */
#include <ctype.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <setjmp.h>

#include <shim/ctl-wmm.h>
#include "litmus.h"

#define P(n, k, na, mo, op, pa, neg, ret, deref) \
	{ n, k, na, mo, op, pa, neg, ret, deref }
#define ONCE	SHIM_MO_ONCE
#define ACQ	SHIM_MO_ACQUIRE
#define REL	SHIM_MO_RELEASE
#define MB	SHIM_MO_MB

/* The LKMM's primitives as tools/memory-model/linux-kernel.def names them. */
static const struct lit_prim prims[] = {
	P("READ_ONCE", LP_LOAD, 1, ONCE, 0, 0, 0, LR_OLD, true),
	P("WRITE_ONCE", LP_STORE, 2, ONCE, 0, 0, 0, LR_NONE, true),
	P("smp_load_acquire", LP_LOAD, 1, ACQ, 0, 0, 0, LR_OLD, false),
	P("smp_store_release", LP_STORE, 2, REL, 0, 0, 0, LR_NONE, false),
	P("rcu_dereference", LP_LOAD, 1, ONCE, 0, 0, 0, LR_OLD, true),
	P("rcu_assign_pointer", LP_STORE, 2, REL, 0, 0, 0, LR_NONE, true),
	P("smp_store_mb", LP_STORE_MB, 2, ONCE, 0, 0, 0, LR_NONE, true),
	P("atomic_read", LP_LOAD, 1, ONCE, 0, 0, 0, LR_OLD, false),
	P("atomic_set", LP_STORE, 2, ONCE, 0, 0, 0, LR_NONE, false),
	P("atomic_read_acquire", LP_LOAD, 1, ACQ, 0, 0, 0, LR_OLD, false),
	P("atomic_set_release", LP_STORE, 2, REL, 0, 0, 0, LR_NONE, false),

	P("smp_mb", LP_FENCE, 0, 0, SHIM_FENCE_MB, 0, 0, LR_NONE, false),
	P("smp_rmb", LP_FENCE, 0, 0, SHIM_FENCE_RMB, 0, 0, LR_NONE, false),
	P("smp_wmb", LP_FENCE, 0, 0, SHIM_FENCE_WMB, 0, 0, LR_NONE, false),
	P("smp_mb__before_atomic", LP_FENCE, 0, 0, SHIM_FENCE_MB, 0, 0, LR_NONE, false),
	P("smp_mb__after_atomic", LP_FENCE, 0, 0, SHIM_FENCE_MB, 0, 0, LR_NONE, false),
	P("smp_mb__after_spinlock", LP_FENCE, 0, 0, SHIM_FENCE_MB, 0, 0, LR_NONE, false),
	P("smp_mb__after_unlock_lock", LP_FENCE, 0, 0, SHIM_FENCE_MB, 0, 0, LR_NONE, false),
	P("barrier", LP_NOOP, 0, 0, 0, 0, 0, LR_NONE, false),

	P("xchg", LP_RMW, 2, MB, SHIM_RMW_XCHG, 0, 0, LR_OLD, false),
	P("xchg_relaxed", LP_RMW, 2, ONCE, SHIM_RMW_XCHG, 0, 0, LR_OLD, false),
	P("xchg_acquire", LP_RMW, 2, ACQ, SHIM_RMW_XCHG, 0, 0, LR_OLD, false),
	P("xchg_release", LP_RMW, 2, REL, SHIM_RMW_XCHG, 0, 0, LR_OLD, false),
	P("cmpxchg", LP_RMW, 3, MB, SHIM_RMW_CMPXCHG, 0, 0, LR_OLD, false),
	P("cmpxchg_relaxed", LP_RMW, 3, ONCE, SHIM_RMW_CMPXCHG, 0, 0, LR_OLD, false),
	P("cmpxchg_acquire", LP_RMW, 3, ACQ, SHIM_RMW_CMPXCHG, 0, 0, LR_OLD, false),
	P("cmpxchg_release", LP_RMW, 3, REL, SHIM_RMW_CMPXCHG, 0, 0, LR_OLD, false),
	P("atomic_xchg", LP_RMW, 2, MB, SHIM_RMW_XCHG, 0, 0, LR_OLD, false),
	P("atomic_xchg_relaxed", LP_RMW, 2, ONCE, SHIM_RMW_XCHG, 0, 0, LR_OLD, false),
	P("atomic_xchg_acquire", LP_RMW, 2, ACQ, SHIM_RMW_XCHG, 0, 0, LR_OLD, false),
	P("atomic_xchg_release", LP_RMW, 2, REL, SHIM_RMW_XCHG, 0, 0, LR_OLD, false),
	P("atomic_cmpxchg", LP_RMW, 3, MB, SHIM_RMW_CMPXCHG, 0, 0, LR_OLD, false),
	P("atomic_cmpxchg_relaxed", LP_RMW, 3, ONCE, SHIM_RMW_CMPXCHG, 0, 0, LR_OLD, false),
	P("atomic_cmpxchg_acquire", LP_RMW, 3, ACQ, SHIM_RMW_CMPXCHG, 0, 0, LR_OLD, false),
	P("atomic_cmpxchg_release", LP_RMW, 3, REL, SHIM_RMW_CMPXCHG, 0, 0, LR_OLD, false),

	/* (V, X): the value first */
	P("atomic_add", LP_RMW_VOID, 2, ONCE, SHIM_RMW_ADD, 1, 0, LR_NONE, false),
	P("atomic_sub", LP_RMW_VOID, 2, ONCE, SHIM_RMW_ADD, 1, 1, LR_NONE, false),
	P("atomic_add_return", LP_RMW, 2, MB, SHIM_RMW_ADD, 1, 0, LR_NEW, false),
	P("atomic_add_return_relaxed", LP_RMW, 2, ONCE, SHIM_RMW_ADD, 1, 0, LR_NEW, false),
	P("atomic_add_return_acquire", LP_RMW, 2, ACQ, SHIM_RMW_ADD, 1, 0, LR_NEW, false),
	P("atomic_add_return_release", LP_RMW, 2, REL, SHIM_RMW_ADD, 1, 0, LR_NEW, false),
	P("atomic_sub_return", LP_RMW, 2, MB, SHIM_RMW_ADD, 1, 1, LR_NEW, false),
	P("atomic_sub_return_relaxed", LP_RMW, 2, ONCE, SHIM_RMW_ADD, 1, 1, LR_NEW, false),
	P("atomic_sub_return_acquire", LP_RMW, 2, ACQ, SHIM_RMW_ADD, 1, 1, LR_NEW, false),
	P("atomic_sub_return_release", LP_RMW, 2, REL, SHIM_RMW_ADD, 1, 1, LR_NEW, false),
	P("atomic_fetch_add", LP_RMW, 2, MB, SHIM_RMW_ADD, 1, 0, LR_OLD, false),
	P("atomic_fetch_add_relaxed", LP_RMW, 2, ONCE, SHIM_RMW_ADD, 1, 0, LR_OLD, false),
	P("atomic_fetch_add_acquire", LP_RMW, 2, ACQ, SHIM_RMW_ADD, 1, 0, LR_OLD, false),
	P("atomic_fetch_add_release", LP_RMW, 2, REL, SHIM_RMW_ADD, 1, 0, LR_OLD, false),
	P("atomic_fetch_sub", LP_RMW, 2, MB, SHIM_RMW_ADD, 1, 1, LR_OLD, false),
	P("atomic_fetch_sub_relaxed", LP_RMW, 2, ONCE, SHIM_RMW_ADD, 1, 1, LR_OLD, false),
	P("atomic_fetch_sub_acquire", LP_RMW, 2, ACQ, SHIM_RMW_ADD, 1, 1, LR_OLD, false),
	P("atomic_fetch_sub_release", LP_RMW, 2, REL, SHIM_RMW_ADD, 1, 1, LR_OLD, false),
	P("atomic_sub_and_test", LP_RMW, 2, MB, SHIM_RMW_ADD, 1, 1, LR_NEW_IS_ZERO, false),
	P("atomic_add_negative", LP_RMW, 2, MB, SHIM_RMW_ADD, 1, 0, LR_NEW_IS_NEG, false),

	/* (X): one increment or decrement; the value is implied */
	P("atomic_inc", LP_RMW_VOID, 1, ONCE, SHIM_RMW_ADD, 0, 0, LR_NONE, false),
	P("atomic_dec", LP_RMW_VOID, 1, ONCE, SHIM_RMW_ADD, 0, 1, LR_NONE, false),
	P("atomic_inc_return", LP_RMW, 1, MB, SHIM_RMW_ADD, 0, 0, LR_NEW, false),
	P("atomic_inc_return_relaxed", LP_RMW, 1, ONCE, SHIM_RMW_ADD, 0, 0, LR_NEW, false),
	P("atomic_inc_return_acquire", LP_RMW, 1, ACQ, SHIM_RMW_ADD, 0, 0, LR_NEW, false),
	P("atomic_inc_return_release", LP_RMW, 1, REL, SHIM_RMW_ADD, 0, 0, LR_NEW, false),
	P("atomic_dec_return", LP_RMW, 1, MB, SHIM_RMW_ADD, 0, 1, LR_NEW, false),
	P("atomic_dec_return_relaxed", LP_RMW, 1, ONCE, SHIM_RMW_ADD, 0, 1, LR_NEW, false),
	P("atomic_dec_return_acquire", LP_RMW, 1, ACQ, SHIM_RMW_ADD, 0, 1, LR_NEW, false),
	P("atomic_dec_return_release", LP_RMW, 1, REL, SHIM_RMW_ADD, 0, 1, LR_NEW, false),
	P("atomic_fetch_inc", LP_RMW, 1, MB, SHIM_RMW_ADD, 0, 0, LR_OLD, false),
	P("atomic_fetch_inc_relaxed", LP_RMW, 1, ONCE, SHIM_RMW_ADD, 0, 0, LR_OLD, false),
	P("atomic_fetch_inc_acquire", LP_RMW, 1, ACQ, SHIM_RMW_ADD, 0, 0, LR_OLD, false),
	P("atomic_fetch_inc_release", LP_RMW, 1, REL, SHIM_RMW_ADD, 0, 0, LR_OLD, false),
	P("atomic_fetch_dec", LP_RMW, 1, MB, SHIM_RMW_ADD, 0, 1, LR_OLD, false),
	P("atomic_fetch_dec_relaxed", LP_RMW, 1, ONCE, SHIM_RMW_ADD, 0, 1, LR_OLD, false),
	P("atomic_fetch_dec_acquire", LP_RMW, 1, ACQ, SHIM_RMW_ADD, 0, 1, LR_OLD, false),
	P("atomic_fetch_dec_release", LP_RMW, 1, REL, SHIM_RMW_ADD, 0, 1, LR_OLD, false),
	P("atomic_dec_and_test", LP_RMW, 1, MB, SHIM_RMW_ADD, 0, 1, LR_NEW_IS_ZERO, false),
	P("atomic_inc_and_test", LP_RMW, 1, MB, SHIM_RMW_ADD, 0, 0, LR_NEW_IS_ZERO, false),
	/* (X, A, U): add A unless the value is U; fully ordered if it adds */
	P("atomic_add_unless", LP_RMW, 3, MB, SHIM_RMW_ADD_UNLESS, 0, 0, LR_DONE, false),
	P("atomic_inc_not_zero", LP_RMW, 1, MB, SHIM_RMW_ADD_UNLESS, 0, 0, LR_DONE, false),

	P("spin_lock", LP_LOCK, 1, 0, 0, 0, 0, LR_NONE, false),
	P("spin_unlock", LP_UNLOCK, 1, 0, 0, 0, 0, LR_NONE, false),
	P("spin_trylock", LP_TRYLOCK, 1, 0, 0, 0, 0, LR_NONE, false),
	P("spin_is_locked", LP_IS_LOCKED, 1, 0, 0, 0, 0, LR_NONE, false),
	P("rcu_read_lock", LP_RCU_LOCK, 0, 0, 0, 0, 0, LR_NONE, false),
	P("rcu_read_unlock", LP_RCU_UNLOCK, 0, 0, 0, 0, 0, LR_NONE, false),
	P("synchronize_rcu", LP_SYNC_RCU, 0, 0, 0, 0, 0, LR_NONE, false),
	P("synchronize_rcu_expedited", LP_SYNC_RCU, 0, 0, 0, 0, 0, LR_NONE, false),
	P("srcu_read_lock", LP_SRCU_LOCK, 1, 0, 0, 0, 0, LR_OLD, false),
	P("srcu_read_unlock", LP_SRCU_UNLOCK, 2, 0, 0, 0, 0, LR_NONE, false),
	P("synchronize_srcu", LP_SYNC_SRCU, 1, 0, 0, 0, 0, LR_NONE, false),
	P("synchronize_srcu_expedited", LP_SYNC_SRCU, 1, 0, 0, 0, 0, LR_NONE, false),
};

/* What herd7 knows and this tool does not run: "Unsupported NAME". */
static const char *const unsupported_prims[] = {
	"srcu_dereference", "call_rcu",
	"rcu_barrier", NULL,
};

enum tok_kind { T_EOF, T_ID, T_NUM, T_PUNCT, T_STR };

struct lexer {
	const char *path;
	const char *s;
	int line;
	enum tok_kind kind;
	char text[64];
	long long num;
	int tline;
	jmp_buf fail;
	char *err;
	unsigned long errlen;
	struct lit_prog *p;
	int proc;		/* the process being read, -1: outside */
	bool unsup_fail;	/* the failure is C the tool does not run */
};

static void __attribute__((format(printf, 2, 3), noreturn))
fail(struct lexer *lx, const char *fmt, ...)
{
	va_list ap;
	int n;

	n = snprintf(lx->err, lx->errlen, "%s:%d: ", lx->path, lx->tline);
	va_start(ap, fmt);
	vsnprintf(lx->err + n, lx->errlen - (unsigned long)n, fmt, ap);
	va_end(ap);
	longjmp(lx->fail, 1);
}

static void skip_space(struct lexer *lx)
{
	for (;;) {
		const char *s = lx->s;

		if (*s == '\n') {
			lx->line++;
			lx->s++;
		} else if (isspace((unsigned char)*s)) {
			lx->s++;
		} else if (s[0] == '/' && s[1] == '/') {
			while (*lx->s && *lx->s != '\n')
				lx->s++;
		} else if ((s[0] == '/' && s[1] == '*') ||
			   (s[0] == '(' && s[1] == '*' &&
			    (isspace((unsigned char)s[2]) || s[2] == '*' ||
			     lx->proc < 0))) {
			char close = s[0] == '/' ? '/' : ')';

			lx->tline = lx->line;
			lx->s += 2;
			while (*lx->s && !(lx->s[0] == '*' && lx->s[1] == close)) {
				if (*lx->s == '\n')
					lx->line++;
				lx->s++;
			}
			if (!*lx->s)
				fail(lx, "unterminated comment");
			lx->s += 2;
		} else {
			return;
		}
	}
}

static const char *const puncts[] = {
	"/\\", "\\/", "==", "!=", "<=", ">=", "&&", "||", "<<", ">>", NULL,
};

static void next(struct lexer *lx)
{
	const char *s;
	int i;

	skip_space(lx);
	s = lx->s;
	lx->tline = lx->line;
	if (!*s) {
		lx->kind = T_EOF;
		strcpy(lx->text, "end of file");
		return;
	}
	if (isalpha((unsigned char)*s) || *s == '_') {
		size_t n = 0;

		while (isalnum((unsigned char)s[n]) || s[n] == '_' || s[n] == '.')
			n++;
		if (n >= sizeof(lx->text))
			fail(lx, "name too long");
		memcpy(lx->text, s, n);
		lx->text[n] = '\0';
		lx->kind = T_ID;
		lx->s += n;
		return;
	}
	if (isdigit((unsigned char)*s)) {
		char *end;

		lx->num = strtoll(s, &end, 0);
		snprintf(lx->text, sizeof(lx->text), "%.*s", (int)(end - s), s);
		lx->kind = T_NUM;
		lx->s = end;
		return;
	}
	if (*s == '"') {
		const char *e = strchr(s + 1, '"');

		if (!e)
			fail(lx, "unterminated string");
		for (const char *c = s; c < e; c++)
			lx->line += *c == '\n';
		lx->kind = T_STR;
		strcpy(lx->text, "string");
		lx->s = e + 1;
		return;
	}
	for (i = 0; puncts[i]; i++) {
		if (!strncmp(s, puncts[i], 2)) {
			memcpy(lx->text, s, 2);
			lx->text[2] = '\0';
			lx->kind = T_PUNCT;
			lx->s += 2;
			return;
		}
	}
	if (!strchr("{}()[];,*&=+-!~:<>|^%/", *s))
		fail(lx, "unexpected character '%c'", *s);
	lx->text[0] = *s;
	lx->text[1] = '\0';
	lx->kind = T_PUNCT;
	lx->s++;
}

static bool is(struct lexer *lx, const char *t)
{
	return (lx->kind == T_PUNCT || lx->kind == T_ID) && !strcmp(lx->text, t);
}

static bool accept(struct lexer *lx, const char *t)
{
	if (!is(lx, t))
		return false;
	next(lx);
	return true;
}

static void expect(struct lexer *lx, const char *t)
{
	if (!accept(lx, t))
		fail(lx, "expected '%s', found '%s'", t, lx->text);
}

static void unsupported(struct lexer *lx, const char *fmt, const char *what)
{
	if (!lx->p->unsupported[0])
		snprintf(lx->p->unsupported, sizeof(lx->p->unsupported), fmt, what);
}

static int var_find(struct lit_prog *p, const char *name)
{
	for (int i = 0; i < p->nvars; i++)
		if (!strcmp(p->var[i].name, name))
			return i;
	return -1;
}

static int var_get(struct lexer *lx, const char *name)
{
	struct lit_prog *p = lx->p;
	int i = var_find(p, name);

	if (i >= 0)
		return i;
	if (p->nvars == LIT_MAX_VARS)
		fail(lx, "more than %d shared variables", LIT_MAX_VARS);
	i = p->nvars++;
	snprintf(p->var[i].name, sizeof(p->var[i].name), "%.31s", name);
	p->var[i].init_addr_of = -1;
	return i;
}

static int reg_find(struct lit_proc *pr, const char *name)
{
	for (int i = 0; i < pr->nregs; i++)
		if (!strcmp(pr->reg[i], name))
			return i;
	return -1;
}

static int reg_get(struct lexer *lx, struct lit_proc *pr, const char *name)
{
	int i = reg_find(pr, name);

	if (i >= 0)
		return i;
	if (pr->nregs == LIT_MAX_REGS)
		fail(lx, "more than %d registers", LIT_MAX_REGS);
	if (strlen(name) >= sizeof(pr->reg[0]))
		fail(lx, "register name too long: %s", name);
	i = pr->nregs++;
	strcpy(pr->reg[i], name);
	return i;
}

static struct lit_node *node(struct lexer *lx, enum lit_node_kind k)
{
	struct lit_node *n = calloc(1, sizeof(*n));

	if (!n) {
		perror("klist-litmus");
		exit(2);
	}
	n->alloc_next = lx->p->nodes;	/* lit_free() frees the chain */
	lx->p->nodes = n;
	n->kind = k;
	n->line = lx->tline;
	return n;
}

static bool is_type_word(const char *s)
{
	static const char *const words[] = {
		"int", "long", "unsigned", "char", "short", "atomic_t",
		"atomic_long_t", "spinlock_t", "intptr_t", "u32", "u64", "bool",
		"const", "volatile", "struct", "void", NULL,
	};

	for (int i = 0; words[i]; i++)
		if (!strcmp(s, words[i]))
			return true;
	return false;
}

/* --- expressions ------------------------------------------------------- */

static struct lit_node *expr(struct lexer *lx);

static const struct lit_prim *prim_find(const char *name)
{
	for (size_t i = 0; i < sizeof(prims) / sizeof(prims[0]); i++)
		if (!strcmp(prims[i].name, name))
			return &prims[i];
	return NULL;
}

static struct lit_node *call(struct lexer *lx, const char *name)
{
	const struct lit_prim *pr = prim_find(name);
	struct lit_node *n = node(lx, LN_CALL);

	if (!pr) {
		for (int i = 0; unsupported_prims[i]; i++)
			if (!strcmp(unsupported_prims[i], name))
				unsupported(lx, "%s", name);
		if (!lx->p->unsupported[0])
			unsupported(lx, "%s", name);
	}
	n->prim = pr;
	if (pr && (pr->kind == LP_SRCU_LOCK || pr->kind == LP_SRCU_UNLOCK ||
		   pr->kind == LP_SYNC_SRCU))
		lx->p->has_srcu = true;
	expect(lx, "(");
	while (!is(lx, ")")) {
		if (n->nargs == LIT_MAX_ARGS)
			fail(lx, "too many arguments to %s", name);
		n->arg[n->nargs++] = expr(lx);
		if (!accept(lx, ","))
			break;
	}
	expect(lx, ")");
	if (pr && n->nargs != pr->nargs)
		fail(lx, "%s takes %d argument(s), not %d", name, pr->nargs,
		     n->nargs);
	if (pr && pr->deref && n->nargs && n->arg[0]->kind != LN_DEREF)
		fail(lx, "%s takes *LOCATION", name);
	return n;
}

static struct lit_node *primary(struct lexer *lx)
{
	struct lit_proc *pr = &lx->p->proc[lx->proc];
	struct lit_node *n;
	char name[64];

	if (lx->kind == T_NUM) {
		n = node(lx, LN_NUM);
		n->num = lx->num;
		next(lx);
		return n;
	}
	if (accept(lx, "(")) {
		/* A cast: (void), (int), (int *) are no-ops here. */
		if (lx->kind == T_ID && is_type_word(lx->text)) {
			while (lx->kind == T_ID || is(lx, "*"))
				next(lx);
			expect(lx, ")");
			return primary(lx);
		}
		n = expr(lx);
		expect(lx, ")");
		return n;
	}
	if (lx->kind != T_ID)
		fail(lx, "expected an expression, found '%s'", lx->text);
	snprintf(name, sizeof(name), "%s", lx->text);
	next(lx);
	if (is(lx, "("))
		return call(lx, name);
	if (reg_find(pr, name) < 0 && var_find(lx->p, name) < 0 && is(lx, "="))
		reg_get(lx, pr, name);	/* a register herd7 declares itself */
	if (reg_find(pr, name) >= 0) {
		n = node(lx, LN_REG);
		n->idx = reg_find(pr, name);
		return n;
	}
	if (var_find(lx->p, name) >= 0) {
		n = node(lx, LN_VAR);
		n->idx = var_find(lx->p, name);
		return n;
	}
	fail(lx, "unknown name '%s'", name);
}

static struct lit_node *unary(struct lexer *lx)
{
	struct lit_node *n;

	if (is(lx, "*") || is(lx, "&") || is(lx, "!") || is(lx, "-") ||
	    is(lx, "~")) {
		int op = lx->text[0];

		next(lx);
		if (op == '*') {
			n = node(lx, LN_DEREF);
		} else if (op == '&') {
			n = node(lx, LN_ADDR);
		} else {
			n = node(lx, LN_UNARY);
			n->op = op;
		}
		n->a = unary(lx);
		if (op == '&' && n->a->kind != LN_VAR)
			fail(lx, "& of something not a shared variable");
		return n;
	}
	return primary(lx);
}

/* Binary operators by precedence, loosest first. */
static const char *const levels[][5] = {
	{ "||", NULL }, { "&&", NULL }, { "|", NULL }, { "^", NULL },
	{ "&", NULL }, { "==", "!=", NULL }, { "<", ">", "<=", ">=", NULL },
	{ "<<", ">>", NULL }, { "+", "-", NULL }, { "*", "/", "%", NULL },
};
#define NLEVELS	((int)(sizeof(levels) / sizeof(levels[0])))

static int op_code(const char *t)
{
	return t[1] ? (t[0] << 8) | t[1] : t[0];
}

static struct lit_node *binary(struct lexer *lx, int level)
{
	struct lit_node *l;

	if (level == NLEVELS)
		return unary(lx);
	l = binary(lx, level + 1);
	for (;;) {
		const char *const *o;
		struct lit_node *n;

		if (lx->kind != T_PUNCT)
			return l;
		for (o = levels[level]; *o && strcmp(*o, lx->text); o++)
			;
		if (!*o)
			return l;
		n = node(lx, LN_BIN);
		n->op = op_code(*o);
		next(lx);
		n->a = l;
		n->b = binary(lx, level + 1);
		l = n;
	}
}

static struct lit_node *expr(struct lexer *lx)
{
	return binary(lx, 0);
}

/* --- statements -------------------------------------------------------- */

static struct lit_node *statement(struct lexer *lx);

static struct lit_node *block(struct lexer *lx)
{
	struct lit_node *b = node(lx, LS_BLOCK), **tail = &b->a;

	expect(lx, "{");
	while (!is(lx, "}")) {
		if (lx->kind == T_EOF)
			fail(lx, "missing '}'");
		*tail = statement(lx);
		while (*tail)
			tail = &(*tail)->next;
	}
	expect(lx, "}");
	return b;
}

/* int r0; int *r1 = 0; ...: registers of the process. */
static struct lit_node *declaration(struct lexer *lx)
{
	struct lit_proc *pr = &lx->p->proc[lx->proc];
	struct lit_node *first = NULL, **tail = &first;

	while (lx->kind == T_ID && is_type_word(lx->text))
		next(lx);
	for (;;) {
		int r;

		while (accept(lx, "*"))
			;
		if (lx->kind != T_ID)
			fail(lx, "expected a register name, found '%s'", lx->text);
		r = reg_get(lx, pr, lx->text);
		next(lx);
		if (accept(lx, "=")) {
			struct lit_node *a = node(lx, LS_ASSIGN);

			a->idx = r;
			a->a = expr(lx);
			*tail = a;
			tail = &a->next;
		}
		if (!accept(lx, ","))
			break;
	}
	expect(lx, ";");
	return first ? first : node(lx, LS_NOP);
}

static struct lit_node *statement(struct lexer *lx)
{
	struct lit_node *n;

	if (is(lx, "{"))
		return block(lx);
	if (accept(lx, ";"))
		return node(lx, LS_NOP);
	if (lx->kind == T_ID && is_type_word(lx->text))
		return declaration(lx);
	if (is(lx, "while") || is(lx, "for") || is(lx, "do") ||
	    is(lx, "goto") || is(lx, "switch")) {
		unsupported(lx, "loop or jump (%s)", lx->text);
		lx->unsup_fail = true;
		fail(lx, "'%s' is not read", lx->text);
	}
	if (accept(lx, "if")) {
		n = node(lx, LS_IF);
		expect(lx, "(");
		n->a = expr(lx);
		expect(lx, ")");
		n->b = statement(lx);
		if (accept(lx, "else"))
			n->c = statement(lx);
		return n;
	}
	n = node(lx, LS_EXPR);
	n->a = expr(lx);
	if (accept(lx, "=")) {
		struct lit_node *lhs = n->a;

		if (lhs->kind == LN_DEREF) {
			n->kind = LS_STORE;
			n->a = lhs->a;
			n->b = expr(lx);
			lx->p->has_plain = true;
		} else if (lhs->kind == LN_REG) {
			n->kind = LS_ASSIGN;
			n->idx = lhs->idx;
			n->a = expr(lx);
		} else {
			fail(lx, "cannot assign to this");
		}
	}
	expect(lx, ";");
	return n;
}

/* --- the test ---------------------------------------------------------- */

/* x = 1, int *y = &x, atomic_t v = ATOMIC_INIT(1), 0:r0 = 2, p = y */
static void init_item(struct lexer *lx)
{
	struct lit_prog *p = lx->p;
	char name[64] = "";
	int proc = -1, v;
	bool lock = false;

	while (lx->kind == T_ID && is_type_word(lx->text)) {
		lock |= !strcmp(lx->text, "spinlock_t");
		next(lx);
	}
	while (accept(lx, "*"))
		;
	if (lx->kind == T_NUM) {
		proc = (int)lx->num;
		next(lx);
		expect(lx, ":");
	}
	if (lx->kind != T_ID)
		fail(lx, "expected a name in the init block, found '%s'", lx->text);
	snprintf(name, sizeof(name), "%s", lx->text);
	next(lx);
	if (proc >= 0) {
		int r;

		if (proc >= LIT_MAX_PROCS)
			fail(lx, "no process P%d", proc);
		r = reg_get(lx, &p->proc[proc], name);
		/* int 0:r1; declares it; 0:r1 = 2 or 0:r4 = y (y's address) */
		if (!accept(lx, "="))
			return;
		if (lx->kind == T_ID) {
			p->proc[proc].reg_init_addr_of[r] = var_get(lx, lx->text);
			next(lx);
			return;
		}
		if (accept(lx, "&")) {
			if (lx->kind != T_ID)
				fail(lx, "expected a variable after '&'");
			p->proc[proc].reg_init_addr_of[r] = var_get(lx, lx->text);
			next(lx);
			return;
		}
		{
			bool neg = accept(lx, "-");

			if (lx->kind != T_NUM)
				fail(lx, "a register starts as a number or an address");
			p->proc[proc].reg_init[r] = neg ? -lx->num : lx->num;
		}
		next(lx);
		return;
	}
	v = var_get(lx, name);
	if (lock)
		p->var[v].kind = LIT_LOCK;
	if (!accept(lx, "="))
		return;
	if (accept(lx, "&") || (lx->kind == T_ID && strcmp(lx->text, "ATOMIC_INIT"))) {
		if (lx->kind != T_ID)
			fail(lx, "expected a variable after '&'");
		p->var[v].init_addr_of = var_get(lx, lx->text);
		next(lx);
		return;
	}
	if (accept(lx, "ATOMIC_INIT")) {
		expect(lx, "(");
		v = v;
		if (lx->kind != T_NUM)
			fail(lx, "expected a number in ATOMIC_INIT()");
		p->var[v].init = lx->num;
		next(lx);
		expect(lx, ")");
		return;
	}
	if (accept(lx, "-")) {
		if (lx->kind != T_NUM)
			fail(lx, "expected a number");
		p->var[v].init = -lx->num;
		next(lx);
		return;
	}
	if (lx->kind != T_NUM)
		fail(lx, "expected an initial value, found '%s'", lx->text);
	p->var[v].init = lx->num;
	next(lx);
}

/* A *E outside a primitive that takes *LOCATION is a plain access. */
static void check_plain(struct lexer *lx, const struct lit_node *n, bool arg)
{
	for (; n; n = n->next) {
		if (n->kind == LN_DEREF && !arg)
			lx->p->has_plain = true;
		if (n->kind == LN_DEREF) {
			check_plain(lx, n->a, false);
			continue;
		}
		for (int i = 0; i < n->nargs; i++)
			check_plain(lx, n->arg[i], n->prim && n->prim->deref && i == 0);
		check_plain(lx, n->a, false);
		check_plain(lx, n->b, false);
		check_plain(lx, n->c, false);
		if (n->kind != LS_BLOCK && n->kind != LS_EXPR &&
		    n->kind != LS_ASSIGN && n->kind != LS_IF && n->kind != LS_NOP &&
		    n->kind != LS_STORE)
			return;
	}
}

static void process(struct lexer *lx, int n)
{
	struct lit_prog *p = lx->p;

	if (n != p->nprocs)
		fail(lx, "P%d out of order (expected P%d)", n, p->nprocs);
	if (n >= LIT_MAX_PROCS) {
		unsupported(lx, "more than %s processes", "16");
		lx->unsup_fail = true;
		fail(lx, "more than %d processes", LIT_MAX_PROCS);
	}
	p->nprocs++;
	lx->proc = n;
	expect(lx, "(");
	while (!is(lx, ")")) {
		/* TYPE WORDS... [*...] NAME: the last name is the variable's. */
		char name[64] = "";
		bool lock = false;
		int v;

		while (lx->kind == T_ID || is(lx, "*")) {
			lock |= !strcmp(lx->text, "spinlock_t");
			if (lx->kind == T_ID)
				snprintf(name, sizeof(name), "%s", lx->text);
			next(lx);
		}
		if (!name[0])
			fail(lx, "expected a parameter, found '%s'", lx->text);
		v = var_get(lx, name);
		if (lock)
			p->var[v].kind = LIT_LOCK;
		if (!accept(lx, ","))
			break;
	}
	expect(lx, ")");
	p->proc[n].body = block(lx);
	check_plain(lx, p->proc[n].body, false);
	lx->proc = -1;
}

static long long cond_value(struct lexer *lx, int *addr_of)
{
	long long v;
	bool neg = accept(lx, "-");

	*addr_of = -1;
	if (lx->kind == T_ID && !neg) {
		int i = var_find(lx->p, lx->text);

		if (i < 0)
			fail(lx, "unknown variable '%s' in the condition", lx->text);
		*addr_of = i;
		next(lx);
		return 0;
	}
	if (lx->kind != T_NUM)
		fail(lx, "expected a value in the condition, found '%s'", lx->text);
	v = lx->num;
	next(lx);
	return neg ? -v : v;
}

static struct lit_cond *cond_or(struct lexer *lx);

static struct lit_cond *cond_new(struct lexer *lx, enum lit_cond_kind k)
{
	struct lit_cond *c = calloc(1, sizeof(*c));

	if (!c) {
		perror("klist-litmus");
		exit(2);
	}
	c->kind = k;
	c->alloc_next = lx->p->conds;	/* lit_free() frees the chain */
	lx->p->conds = c;
	return c;
}

static struct lit_cond *cond_atom(struct lexer *lx)
{
	struct lit_cond *c;
	bool ne;

	if (accept(lx, "~") || accept(lx, "not")) {
		c = cond_new(lx, LC_NOT);
		c->a = cond_atom(lx);
		return c;
	}
	if (accept(lx, "(")) {
		c = cond_or(lx);
		expect(lx, ")");
		return c;
	}
	if (accept(lx, "true"))
		return cond_new(lx, LC_TRUE);
	if (accept(lx, "false")) {
		c = cond_new(lx, LC_NOT);
		c->a = cond_new(lx, LC_TRUE);
		return c;
	}
	c = cond_new(lx, LC_EQ);
	c->proc = -1;
	if (lx->kind == T_NUM) {
		c->proc = (int)lx->num;
		next(lx);
		expect(lx, ":");
		if (c->proc < 0 || c->proc >= lx->p->nprocs || lx->kind != T_ID ||
		    reg_find(&lx->p->proc[c->proc], lx->text) < 0)
			fail(lx, "no register %d:%s", c->proc, lx->text);
		c->idx = reg_find(&lx->p->proc[c->proc], lx->text);
	} else if (lx->kind == T_ID && var_find(lx->p, lx->text) >= 0) {
		c->idx = var_find(lx->p, lx->text);
		/* lock.cat flags it (lock-final): a lock's value is no value */
		if (lx->p->var[c->idx].kind == LIT_LOCK)
			unsupported(lx, "%s", "a condition on a spinlock_t (herd7: flag lock-final)");
	} else {
		fail(lx, "expected N:REG or a variable in the condition, found '%s'",
		     lx->text);
	}
	next(lx);
	ne = is(lx, "!=");
	if (!accept(lx, "=") && !accept(lx, "==") && !accept(lx, "!="))
		fail(lx, "expected '=' in the condition, found '%s'", lx->text);
	c->val_proc = -1;
	if (lx->kind == T_NUM && lx->s[0] == ':') {
		/* 1:r1=1:r1, a register against a register */
		int vp = (int)lx->num;

		next(lx);
		expect(lx, ":");
		if (vp < 0 || vp >= lx->p->nprocs || lx->kind != T_ID ||
		    reg_find(&lx->p->proc[vp], lx->text) < 0)
			fail(lx, "no register %d:%s", vp, lx->text);
		c->val_proc = vp;
		c->val_reg = reg_find(&lx->p->proc[vp], lx->text);
		c->val_addr_of = -1;
		next(lx);
	} else {
		c->val = cond_value(lx, &c->val_addr_of);
	}
	if (ne) {
		struct lit_cond *n = cond_new(lx, LC_NOT);

		n->a = c;
		return n;
	}
	return c;
}

static struct lit_cond *cond_and(struct lexer *lx)
{
	struct lit_cond *l = cond_atom(lx);

	while (accept(lx, "/\\")) {
		struct lit_cond *c = cond_new(lx, LC_AND);

		c->a = l;
		c->b = cond_atom(lx);
		l = c;
	}
	return l;
}

static struct lit_cond *cond_or(struct lexer *lx)
{
	struct lit_cond *l = cond_and(lx);

	while (accept(lx, "\\/")) {
		struct lit_cond *c = cond_new(lx, LC_OR);

		c->a = l;
		c->b = cond_and(lx);
		l = c;
	}
	return l;
}

static char *read_all(const char *path, char *err, unsigned long len)
{
	FILE *f = fopen(path, "r");
	char *buf;
	long n;

	if (!f) {
		snprintf(err, len, "%s: cannot open", path);
		return NULL;
	}
	fseek(f, 0, SEEK_END);
	n = ftell(f);
	fseek(f, 0, SEEK_SET);
	buf = malloc((size_t)n + 1);
	if (!buf || fread(buf, 1, (size_t)n, f) != (size_t)n) {
		snprintf(err, len, "%s: cannot read", path);
		fclose(f);
		free(buf);
		return NULL;
	}
	buf[n] = '\0';
	fclose(f);
	return buf;
}

/* "Result: Never" in the comments: herd7's verdict, kept for --expect. */
static void find_result(struct lit_prog *p, const char *text)
{
	const char *r = strstr(text, "Result:");

	if (r) {
		char more[32] = "";

		if (sscanf(r + 7, " %31s %31s", p->expected, more) == 2)
			p->expected_race = !strcmp(more, "DATARACE");
	}
}

/* The doc string and diy7's KEY=VALUE lines between the name and '{'. */
static void skip_header_lines(struct lexer *lx)
{
	for (;;) {
		const char *s;
		size_t n = 0;

		skip_space(lx);
		s = lx->s;
		if (*s == '"') {
			const char *e = strchr(s + 1, '"');

			if (!e)
				fail(lx, "unterminated string");
			for (const char *c = s; c < e; c++)
				lx->line += *c == '\n';
			lx->s = e + 1;
			continue;
		}
		while (isalnum((unsigned char)s[n]) || s[n] == '_' || s[n] == '-')
			n++;
		if (!n || s[n] != '=')
			return;
		while (*lx->s && *lx->s != '\n')
			lx->s++;
	}
}

/* The test in lx->s into lx->p; false (lx->err says why) on an error. */
static bool __attribute__((noinline)) parse_test(struct lexer *lx)
{
	struct lit_prog *p = lx->p;

	if (setjmp(lx->fail))
		return false;
	next(lx);
	if (!is(lx, "C"))
		fail(lx, "a C litmus test starts with 'C NAME', not '%s'", lx->text);
	/* The name is the rest of the first line's word: it may hold +, -. */
	skip_space(lx);
	{
		size_t n = strcspn(lx->s, " \t\r\n");

		if (!n || n >= sizeof(p->name))
			fail(lx, "no test name after 'C'");
		memcpy(p->name, lx->s, n);
		p->name[n] = '\0';
		lx->s += n;
	}
	skip_header_lines(lx);
	next(lx);
	expect(lx, "{");
	while (!accept(lx, "}")) {
		if (lx->kind == T_EOF)
			fail(lx, "missing '}' after the init block");
		if (accept(lx, ";"))
			continue;
		init_item(lx);
		if (!is(lx, "}"))
			expect(lx, ";");
	}
	while (lx->kind == T_ID && lx->text[0] == 'P' &&
	       isdigit((unsigned char)lx->text[1])) {
		int n = atoi(lx->text + 1);

		next(lx);
		process(lx, n);
	}
	if (!p->nprocs)
		fail(lx, "no process P0");
	for (int i = 0; i < p->nvars; i++)
		if (p->var[i].init_addr_of >= 0 &&
		    p->var[p->var[i].init_addr_of].kind == LIT_LOCK)
			fail(lx, "a pointer to a lock");
	if (accept(lx, "locations")) {
		expect(lx, "[");
		while (!accept(lx, "]")) {
			if (lx->kind == T_EOF)
				fail(lx, "missing ']'");
			next(lx);
		}
		accept(lx, ";");
	}
	if (accept(lx, "filter"))
		p->filter = cond_or(lx);
	if (accept(lx, "exists")) {
		p->quant = LQ_EXISTS;
	} else if (accept(lx, "~")) {
		expect(lx, "exists");
		p->quant = LQ_NOT_EXISTS;
	} else if (accept(lx, "forall")) {
		p->quant = LQ_FORALL;
	} else {
		fail(lx, "expected exists, ~exists or forall, found '%s'", lx->text);
	}
	p->cond = cond_or(lx);
	accept(lx, ";");
	if (lx->kind != T_EOF)
		fail(lx, "unexpected '%s' after the condition", lx->text);
	return true;
}

struct lit_prog *lit_parse(const char *path, char *err, unsigned long len)
{
	struct lexer lx = { .path = path, .line = 1, .tline = 1, .err = err,
			    .errlen = len, .proc = -1 };
	struct lit_prog *p = calloc(1, sizeof(*p));
	char *text = read_all(path, err, len);
	bool ok;

	if (!p || !text) {
		free(p);
		free(text);
		return NULL;
	}
	p->path = path;
	for (int i = 0; i < LIT_MAX_PROCS; i++)
		for (int r = 0; r < LIT_MAX_REGS; r++)
			p->proc[i].reg_init_addr_of[r] = -1;
	lx.p = p;
	lx.s = text;
	find_result(p, text);
	ok = parse_test(&lx);
	free(text);
	/* Unsupported C is a verdict, not a parse error. */
	if (!ok && !lx.unsup_fail) {
		lit_free(p);
		return NULL;
	}
	return p;
}

long long lit_binop(int op, long long l, long long r)
{
	switch (op) {
	case '+': return l + r;
	case '-': return l - r;
	case '*': return l * r;
	case '/': return r ? l / r : 0;
	case '%': return r ? l % r : 0;
	case '&': return l & r;
	case '|': return l | r;
	case '^': return l ^ r;
	case '<': return l < r;
	case '>': return l > r;
	case ('<' << 8) | '=': return l <= r;
	case ('>' << 8) | '=': return l >= r;
	case ('=' << 8) | '=': return l == r;
	case ('!' << 8) | '=': return l != r;
	/* A shift past the width is C's undefined behaviour: not the test's. */
	case ('<' << 8) | '<': return l << (r & 63);
	case ('>' << 8) | '>': return l >> (r & 63);
	}
	return 0;
}

void lit_free(struct lit_prog *p)
{
	while (p->nodes) {
		struct lit_node *n = p->nodes;

		p->nodes = n->alloc_next;
		free(n);
	}
	while (p->conds) {
		struct lit_cond *c = p->conds;

		p->conds = c->alloc_next;
		free(c);
	}
	free(p);
}

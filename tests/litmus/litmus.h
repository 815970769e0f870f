/* SPDX-License-Identifier: GPL-2.0 */
/*
 * klist-litmus: herd7's C litmus tests run under the explorer.
 *
 * litmus-parse.c reads a test (its init block, its processes P0..Pn
 * written with the kernel's primitives, its final condition) into a
 * program; litmus-exec.c makes it a struct shim_scenario whose bodies
 * interpret the processes, every marked access going through the
 * explorer's memory model (<shim/ctl-wmm.h>), and judges the condition
 * over every execution the explorer reaches.
 */
#ifndef _LITMUS_H
#define _LITMUS_H

#include <stdbool.h>

#define LIT_MAX_PROCS	16
#define LIT_EXPLORE_MAX_PROCS	4	/* the explorer's bodies */
#define LIT_MAX_VARS	16
#define LIT_MAX_REGS	16
#define LIT_MAX_ARGS	3

enum lit_var_kind { LIT_INT, LIT_LOCK };

struct lit_var {
	char name[32];
	enum lit_var_kind kind;
	long long init;
	int init_addr_of;	/* init is the address of this var, -1: a number */
};

/* Expression and statement nodes. */
enum lit_node_kind {
	LN_NUM, LN_REG, LN_VAR,		/* a register; a shared var's address */
	LN_DEREF,			/* *E: a plain load */
	LN_ADDR,			/* &x */
	LN_CALL, LN_BIN, LN_UNARY,
	LS_EXPR, LS_ASSIGN, LS_IF, LS_BLOCK, LS_NOP,
	LS_STORE,			/* *a = b: a plain store */
};

struct lit_prim;

struct lit_node {
	enum lit_node_kind kind;
	int line;
	long long num;
	int idx;			/* register or var */
	int op;				/* LN_BIN, LN_UNARY: the operator */
	const struct lit_prim *prim;	/* LN_CALL */
	int nargs;
	struct lit_node *arg[LIT_MAX_ARGS];
	struct lit_node *a, *b, *c;	/* operands; if: cond, then, else */
	struct lit_node *next;		/* statement lists */
	struct lit_node *alloc_next;	/* every node of the program */
};

struct lit_proc {
	int nregs;
	char reg[LIT_MAX_REGS][16];
	long long reg_init[LIT_MAX_REGS];
	int reg_init_addr_of[LIT_MAX_REGS];	/* starts as this var's address, -1 */
	struct lit_node *body;
};

/* The final condition: a proposition over registers and shared vars. */
enum lit_cond_kind { LC_TRUE, LC_EQ, LC_NOT, LC_AND, LC_OR };
struct lit_cond {
	enum lit_cond_kind kind;
	int proc;			/* LC_EQ: -1 for a shared var */
	int idx;			/* register or var */
	long long val;
	int val_addr_of;		/* the value is this var's address, -1: val */
	int val_proc, val_reg;		/* the value is register val_proc:val_reg,
					 * val_proc -1: not a register */
	struct lit_cond *a, *b;
	struct lit_cond *alloc_next;	/* every proposition of the program */
};

enum lit_quant { LQ_EXISTS, LQ_NOT_EXISTS, LQ_FORALL };

struct lit_prog {
	const char *path;
	char name[128];
	char expected[32];		/* the Result: line's verdict, if any */
	bool expected_race;		/* ... followed by DATARACE */
	bool has_plain;			/* a plain access (*x, *x = v) */
	bool has_srcu;			/* an SRCU primitive */
	int nvars, nprocs;
	struct lit_var var[LIT_MAX_VARS];
	struct lit_proc proc[LIT_MAX_PROCS];
	enum lit_quant quant;
	struct lit_cond *cond, *filter;
	/* Set when the test uses what the tool does not run: why. */
	char unsupported[128];
	struct lit_node *nodes;		/* what lit_free() frees */
	struct lit_cond *conds;
};

/* Parse @path; NULL on error, with the error (and its line) in @err. */
struct lit_prog *lit_parse(const char *path, char *err, unsigned long len);
/* Free what lit_parse() made. */
void lit_free(struct lit_prog *p);
/* The value of an expression's binary operator (op as the parser codes it). */
long long lit_binop(int op, long long l, long long r);

/* The primitives, by name (litmus-parse.c). */
enum lit_prim_kind {
	LP_LOAD, LP_STORE, LP_FENCE, LP_RMW, LP_RMW_VOID, LP_LOCK, LP_UNLOCK,
	LP_TRYLOCK, LP_IS_LOCKED, LP_RCU_LOCK, LP_RCU_UNLOCK, LP_SYNC_RCU,
	LP_STORE_MB, LP_NOOP, LP_SRCU_LOCK, LP_SRCU_UNLOCK, LP_SYNC_SRCU,
};
/* How an rmw's result is given back. */
enum lit_ret { LR_OLD, LR_NEW, LR_NEW_IS_ZERO, LR_NEW_IS_NEG, LR_DONE, LR_NONE };

struct lit_prim {
	const char *name;
	enum lit_prim_kind kind;
	int nargs;
	int mo;			/* enum shim_mo */
	int op;			/* enum shim_rmw, or enum shim_fence */
	int ptr_arg;		/* which argument is the location */
	int neg;		/* rmw: subtract the value */
	enum lit_ret ret;
	bool deref;		/* the location is written *E */
};

/* How klist-litmus runs a test (litmus-main.c's options). */
struct lit_opts {
	bool explore;		/* --engine explore: the explorer, else the cat */
	bool wmm;		/* the weak-memory model, else sc */
	bool dpor;		/* source-DPOR, else depth-first, no bound */
	bool verbose;		/* executions and time */
	bool expect;		/* compare with the Result: line */
	bool quiet;		/* lit_run(): no line printed */
	bool graph;		/* --engine graph: the execution-graph engine */
	bool compare;		/* --compare: the graph engine against the cat */
	unsigned long max_ms;	/* lit_run(): the explorer's budget, 0: 400 s */
	char *verdict_out;	/* lit_run(): its verdict's first word (32 bytes) */
	bool native_graph;	/* #38 native: --search graph (litmus-exec.c) */
};

/* Explore @p as @o says; prints its line; 0 judged, 1 otherwise. */
int lit_run(struct lit_prog *p, const struct lit_opts *o);

/*
 * Explore @p twice under @o's model, by DPOR and by depth-first search
 * with no bound, and compare the final states each reached (every
 * register and variable); prints its line; 0 the same, 1 otherwise.
 */
int lit_diff(struct lit_prog *p, const struct lit_opts *o);

/*
 * The axiomatic engine (litmus-cat.c): every candidate execution of @p
 * checked against linux-kernel.cat (cat/); the counts in @r.  0, or -1
 * with r->error saying what the test uses that the engine cannot run.
 */
struct lit_cat_result {
	unsigned long long executions;	/* candidates checked */
	unsigned long long consistent;	/* allowed by the model */
	/* the same over the consistent executions with po | rf acyclic
	 * (no load buffering): what TruSt's prefix finds; the graph
	 * engine, with HMC's, finds them all (--compare says how many
	 * have a cycle) */
	unsigned long long consistent_porf, yes_porf, no_porf;
	unsigned int flags_porf;
	unsigned long long yes, no;	/* consistent: the condition holds, not */
	unsigned long long filtered;	/* consistent, dropped by the filter */
	unsigned long long rejected[16];	/* per axiom (enum lkmm_axiom) */
	unsigned int flags;		/* LKMM_FLAG_*, over the consistent */
	double seconds;
	char error[128];
};
int lit_cat_check(struct lit_prog *p, struct lit_cat_result *r);

/* The verdict of @r, as herd7 says it: Always, Sometimes, Never. */
const char *lit_cat_verdict(const struct lit_cat_result *r);

/* Judge @p with the cat engine; prints its line; 0 judged, 1 otherwise. */
int lit_cat_run(struct lit_prog *p, const struct lit_opts *o);

/*
 * The execution-graph engine (litmus-graph.c, shim/explore/graph.h):
 * every consistent execution (load buffering too), each once, under the
 * LKMM checker or (@sc) sequential consistency.  0, or -1 with r->error.
 */
struct lit_graph_result {
	unsigned long long explored;	/* graphs where no thread goes on */
	unsigned long long consistent;	/* ... executions: all finished */
	unsigned long long blocked;	/* ... a thread waits */
	unsigned long long pruned;	/* inconsistent graphs cut */
	unsigned long long revisits, not_maximal;
	unsigned long long lb_revisits;	/* ... of a read po-before the write */
	unsigned long long duplicates;	/* executions reached twice: a bug */
	unsigned long long yes, no, filtered;
	unsigned int flags;		/* LKMM_FLAG_* */
	double seconds;
	char error[128];
};
int lit_graph_check(struct lit_prog *p, bool sc, struct lit_graph_result *r);

/*
 * Judge @p with the graph engine; prints its line; with o->compare the
 * checker's too, and 1 unless the engine found exactly the checker's
 * consistent executions, once each, within twice its count.
 */
int lit_graph_run(struct lit_prog *p, const struct lit_opts *o);

/*
 * #38 native: @p as an explorer scenario (litmus-exec.c) through the
 * graph engine under sc (shim/explore/explore-graph.c); with
 * o->compare, 1 unless its executions and verdict are those of
 * lit_graph_check(p, sc).  Prints its line.
 */
int lit_graph_native(struct lit_prog *p, const struct lit_opts *o);

/* Print the interleaving of one execution where the condition holds. */
int lit_witness(struct lit_prog *p, const struct lit_opts *o);

#endif

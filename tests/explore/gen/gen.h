/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Generated scenarios (Lincheck for kernel C): a family (klist, ddm)
 * declares its operations, its small initial states and a sequential
 * model; the generator makes every pair (and triple) of operations on
 * every state into a struct shim_scenario at run time, the explorer runs
 * it, and the check after every schedule asks whether some order of the
 * operations consistent with real time explains what they returned,
 * what their walks saw, the reports the misuse gave and the final state.
 *
 * Names replay: gen:klist:del-n1+remove-n1@2nodes is one scenario, and
 * a schedule string of it replays from the `explore` command.
 *
 * Two runners: the explorer's (gen.c, userspace: every schedule to a
 * bound) and the KUnit suites' (tests/unit/gen-pairs-test.c, in both
 * worlds: the operations on real kthreads, many rounds).  The families,
 * the generator (gen-enum.c) and the check (gen-check.c) are kernel C
 * and ship in the kernel series unchanged.
 */
#ifndef _EXPLORE_GEN_H
#define _EXPLORE_GEN_H

#include <linux/types.h>

struct shim_scenario;

#define GEN_MAX_OPS	3
#define GEN_MAX_EVENTS	4	/* events of one operation (struct gen_opdef) */
#define GEN_MAX_SEEN	8	/* ids one walk may return */
#define GEN_MAX_IDS	8	/* objects a family names in a scenario */
#define GEN_MAX_KINDS	16	/* kinds of misuse report of a family */
#define GEN_NAME_MAX	160

/* What an operation's arguments name. */
enum gen_arg {
	GEN_ARG_NONE,
	GEN_ARG_NODE,		/* klist: an initial node, n0.. */
	GEN_ARG_DEV,		/* ddm: a device, d0 d1 */
	GEN_ARG_DRV,		/* ddm: a driver, r0 r1 */
	GEN_ARG_CDEV,		/* hotplug: a class device, c0 c1 */
};

struct gen_opdef {
	const char *name;
	enum gen_arg arg;
	bool walk;		/* not atomic: checked against the walk spec */
	/*
	 * Not atomic either: this many events (0: 1, a walk 2), at most
	 * GEN_MAX_EVENTS.  Their meaning is the family model's.
	 */
	int events;
};

/* One operation of a scenario: its kind and its target (-1: none). */
struct gen_op {
	int kind;
	int arg;
};

struct gen_spec {
	const struct gen_family *fam;
	int state;
	int nops;
	struct gen_op op[GEN_MAX_OPS];
};

/* What one operation returned and saw, stamped in real (logical) time. */
struct gen_rec {
	int start, end;		/* before its first point, after its last */
	long ret;
	int nseen;
	int seen[GEN_MAX_SEEN];	/* a walk: the ids returned, in order */
	bool stopped;		/* a walk that stopped by its own choice */
	int from_head;		/* walk_from: unused by the check, for messages */
};

/* The final state, read with no task running. */
struct gen_final {
	int nlist[2];
	int list[2][GEN_MAX_IDS];	/* a family's one or two lists, in order */
	int attr[GEN_MAX_IDS];		/* per object: a family's summary */
	int warned[GEN_MAX_KINDS];	/* reports of each misuse kind */
};

struct gen_run;

/*
 * A family.  The model half (model_*) is plain C with no locks; it
 * replays one order of events and says whether it explains the records.
 */
struct gen_family {
	const char *name;
	const struct gen_opdef *ops;
	int nops;
	const char *const *states;
	int nstates;
	const char *const *kinds;	/* substring of each misuse report */
	int nkinds;
	/* Objects of @arg's type in @state (targets 0..n-1). */
	int (*targets)(int state, enum gen_arg arg);
	/* False for a combination outside the API's contract (documented). */
	bool (*allowed)(const struct gen_spec *s);
	/*
	 * True if some order of the operations misuses the API (a delete
	 * that loses, an unregister of what is not registered): the loser
	 * is reported, which only the explorer's runner counts.
	 */
	bool (*misuse)(const struct gen_spec *s);
	void *(*setup)(const struct gen_spec *s);
	void (*run)(struct gen_run *r, int i);
	void (*final)(struct gen_run *r, struct gen_final *f);
	void (*teardown)(struct gen_run *r);
	/*
	 * The model: does this order of events explain @r and @f?  @ev
	 * lists op indices; a walk's index appears twice (begin, end), an
	 * op's with .events that many times.
	 */
	bool (*explain)(const struct gen_run *r, const struct gen_final *f,
			const int *ev, int nev);
};

struct gen_run {
	struct gen_spec spec;
	int clock;
	struct gen_rec rec[GEN_MAX_OPS];
	void *fctx;		/* the family's objects */
	struct gen_final fin;
	bool fin_done;
};

extern const struct gen_family gen_klist_family;
extern const struct gen_family gen_ddm_family;
extern const struct gen_family gen_hotplug_family;
/* Every family, in the order runners take them; NULL-terminated. */
extern const struct gen_family *const gen_families[];

/* --- the runner's (gen.c for the explorer, the KUnit suite's own) -------- */

/* A report of @kind may come (a misuse's loser); counted, not a failure. */
void gen_misuse_expect(const char *kind);
/* How many reports of @kind came since the set-up. */
int gen_misuse_reported(const char *kind);
/*
 * A mistake planted in a model on purpose (GEN_MODEL_MUTANT=@name): the
 * proof that the check fails when the model and lib/ disagree.
 */
bool gen_mutant(const char *name);

/* --- the generator (gen-enum.c) ------------------------------------------- */

/* A target's letter in a name, by its type: n0, d1, r0. */
extern const char gen_arg_prefix[];

/* Every scenario of @fam with @nops operations, in a fixed order: calls @fn. */
unsigned long gen_enumerate(const struct gen_family *fam, int nops,
			    void (*fn)(const struct gen_spec *s, void *arg),
			    void *arg);
void gen_name(const struct gen_spec *s, char *buf, size_t len);
/*
 * With the two objects of @type starting @alike, is @s the mirror image
 * of another scenario (it names object 1 and not object 0)?  Families
 * leave those out.
 */
bool gen_mirrored(const struct gen_spec *s, enum gen_arg type, bool alike);

/* --- the explorer's runner (gen.c) ---------------------------------------- */

/* Parses a name; false (and why, in @err) if it names no scenario. */
bool gen_parse(const char *name, struct gen_spec *s, char *err, size_t len);
/*
 * The scenario of @s, made current: its bodies, set-up and check read
 * the spec from a global the explorer's children inherit.  Valid until
 * the next call.
 */
const struct shim_scenario *gen_scenario(const struct gen_spec *s);
/* The scenario named @name (gen:... or gen/...), or NULL; for the `explore` CLI. */
const struct shim_scenario *gen_find(const char *name);

/* --- the check (gen-check.c) -------------------------------------------- */

/* Some order consistent with real time explains the run: true. */
bool gen_linearizable(const struct gen_run *r, const struct gen_final *f);
/* An outcome's fingerprint: what each operation returned and saw, the final state. */
unsigned long gen_outcome(const struct gen_run *r, const struct gen_final *f);
/* The records as text, for the failure report. */
void gen_describe(const struct gen_run *r, const struct gen_final *f,
		  char *buf, size_t len);

/*
 * The walk specification, shared by the families.  A node's life in
 * event indices: live after @added (-1: from the start) until @deleted
 * (a large number: never); @pos its place in the list's order, which
 * never changes while it is linked (dead nodes keep their place).
 */
struct gen_life {
	int added, deleted;
	int pos;
};
#define GEN_NEVER	1000

/*
 * @rec is a walk that began at event @tb and ended at @te.  With
 * @from >= 0 it started after node @from (or at the head if @from was
 * deleted before the walk ended).  True if it meets the spec: each node
 * live for the whole walk (and in its window: after @from, before the
 * stop) returned exactly once; nodes returned in list order (@forward);
 * none returned that was not live at some moment of the walk; none
 * twice.
 */
bool gen_walk_ok(const struct gen_rec *rec, const struct gen_life *life,
		 int nids, int tb, int te, bool forward, int from);

#endif

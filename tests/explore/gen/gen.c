// SPDX-License-Identifier: GPL-2.0
/*
 * The explorer's runner of generated scenarios: a name parsed back into
 * its scenario, and a scenario made into a struct shim_scenario at run
 * time (plain data: a set-up, one body per operation, a fingerprint and
 * the check against the family's sequential model).  The misuse reports
 * are the shim's, counted.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <linux/slab.h>
#include <shim/explore.h>
#include <shim/shim.h>

#include "gen.h"


bool gen_parse(const char *name, struct gen_spec *s, char *err, size_t len)
{
	char buf[GEN_NAME_MAX], *ops, *at, *tok, *save;
	const struct gen_family *fam = NULL;
	size_t i;
	int k;

	memset(s, 0, sizeof(*s));
	if ((strncmp(name, "gen/", 4) && strncmp(name, "gen:", 4)) ||
	    strlen(name) >= sizeof(buf)) {
		snprintf(err, len, "not a generated scenario name");
		return false;
	}
	snprintf(buf, sizeof(buf), "%s", name + 4);
	ops = strchr(buf, name[3]);
	at = strrchr(buf, '@');
	if (!ops || !at || at < ops) {
		snprintf(err, len, "expected gen:FAMILY:OP+OP@STATE");
		return false;
	}
	*ops++ = '\0';
	*at++ = '\0';
	for (i = 0; gen_families[i]; i++)
		if (!strcmp(gen_families[i]->name, buf))
			fam = gen_families[i];
	if (!fam) {
		snprintf(err, len, "no family %s", buf);
		return false;
	}
	s->fam = fam;
	s->state = -1;
	for (k = 0; k < fam->nstates; k++)
		if (!strcmp(fam->states[k], at))
			s->state = k;
	if (s->state < 0) {
		snprintf(err, len, "no state %s in %s", at, fam->name);
		return false;
	}
	for (tok = strtok_r(ops, "+", &save); tok; tok = strtok_r(NULL, "+", &save)) {
		char *dash = strchr(tok, '-');
		const struct gen_opdef *d = NULL;

		if (s->nops == GEN_MAX_OPS) {
			snprintf(err, len, "more than %d operations", GEN_MAX_OPS);
			return false;
		}
		if (dash)
			*dash++ = '\0';
		for (k = 0; k < fam->nops; k++)
			if (!strcmp(fam->ops[k].name, tok))
				d = &fam->ops[k];
		if (!d) {
			snprintf(err, len, "no operation %s in %s", tok, fam->name);
			return false;
		}
		s->op[s->nops].kind = (int)(d - fam->ops);
		s->op[s->nops].arg = -1;
		if (d->arg != GEN_ARG_NONE) {
			char *end;
			long v;

			if (!dash || dash[0] != gen_arg_prefix[d->arg] || !dash[1]) {
				snprintf(err, len, "%s needs a target %c0..", tok,
					 gen_arg_prefix[d->arg]);
				return false;
			}
			v = strtol(dash + 1, &end, 10);
			if (*end || v < 0 || v >= fam->targets(s->state, d->arg)) {
				snprintf(err, len, "no target %s in state %s", dash,
					 fam->states[s->state]);
				return false;
			}
			s->op[s->nops].arg = (int)v;
		} else if (dash) {
			snprintf(err, len, "%s takes no target", tok);
			return false;
		}
		s->nops++;
	}
	if (s->nops < 2) {
		snprintf(err, len, "at least two operations");
		return false;
	}
	if (!fam->allowed(s)) {
		snprintf(err, len, "outside the API's contract (never generated)");
		return false;
	}
	return true;
}

bool gen_mutant(const char *name)
{
	const char *m = getenv("GEN_MODEL_MUTANT");

	return m && !strcmp(m, name);
}

void gen_misuse_expect(const char *kind)
{
	shim_expect_report(kind);
}

int gen_misuse_reported(const char *kind)
{
	return shim_expect_report_withdraw(kind);
}

/* --- the scenario ------------------------------------------------------- */

static void *setup_spec(const struct gen_spec *s)
{
	struct gen_run *r = kzalloc(sizeof(*r), GFP_KERNEL);

	r->spec = *s;
	r->fctx = s->fam->setup(s);
	/* The record's clock, not the code under test: see body(). */
	SHIM_EXPLORE_RACY(r->clock, "a logical clock the bodies share without a lock on purpose: it orders their records, it is not the code under test");
	return r;
}

static void body(void *ctx, int i)
{
	struct gen_run *r = ctx;

	/* Coroutines on one thread: the clock is no point and needs no lock. */
	r->rec[i].start = ++r->clock;
	r->spec.fam->run(r, i);
	r->rec[i].end = ++r->clock;
}

static void body0(void *ctx) { body(ctx, 0); }
static void body1(void *ctx) { body(ctx, 1); }
static void body2(void *ctx) { body(ctx, 2); }

static struct gen_final *final_state(struct gen_run *r)
{
	if (!r->fin_done) {
		r->spec.fam->final(r, &r->fin);
		r->fin_done = true;
	}
	return &r->fin;
}

/* An outcome: what every operation returned and saw, and the final state. */
static unsigned long fingerprint(void *ctx)
{
	struct gen_run *r = ctx;

	return gen_outcome(r, final_state(r));
}

static void check(void *ctx)
{
	struct gen_run *r = ctx;
	struct gen_final *f = final_state(r);

	if (!gen_linearizable(r, f)) {
		char what[400];

		gen_describe(r, f, what, sizeof(what));
		SHIM_EXPLORE_CHECK(false, "no order of the operations explains: %s", what);
	}
	r->spec.fam->teardown(r);
	kfree(r);
}

/*
 * Slots: set-up takes no argument, so each scenario made has its own
 * set-up function reading its own spec (the explorer's children inherit
 * them).  The CLI may name several generated scenarios at once.
 */
#define GEN_SLOTS	16
static struct gen_spec slot_spec[GEN_SLOTS];
static struct shim_scenario slot_sc[GEN_SLOTS];
static char slot_name[GEN_SLOTS][GEN_NAME_MAX];
static int next_slot;

#define SLOT_SETUP(n) static void *setup_##n(void) { return setup_spec(&slot_spec[n]); }
SLOT_SETUP(0) SLOT_SETUP(1) SLOT_SETUP(2) SLOT_SETUP(3)
SLOT_SETUP(4) SLOT_SETUP(5) SLOT_SETUP(6) SLOT_SETUP(7)
SLOT_SETUP(8) SLOT_SETUP(9) SLOT_SETUP(10) SLOT_SETUP(11)
SLOT_SETUP(12) SLOT_SETUP(13) SLOT_SETUP(14) SLOT_SETUP(15)
static void *(*const slot_setup[GEN_SLOTS])(void) = {
	setup_0, setup_1, setup_2, setup_3, setup_4, setup_5, setup_6, setup_7,
	setup_8, setup_9, setup_10, setup_11, setup_12, setup_13, setup_14, setup_15,
};

const struct shim_scenario *gen_scenario(const struct gen_spec *s)
{
	static void (*const bodies[GEN_MAX_OPS])(void *) = { body0, body1, body2 };
	int n = next_slot++ % GEN_SLOTS, i;
	struct shim_scenario *sc = &slot_sc[n];

	slot_spec[n] = *s;
	gen_name(s, slot_name[n], GEN_NAME_MAX);
	memset(sc, 0, sizeof(*sc));
	sc->name = slot_name[n];
	sc->setup = slot_setup[n];
	for (i = 0; i < s->nops; i++)
		sc->body[i] = bodies[i];
	sc->check = check;
	sc->fingerprint = fingerprint;
	return sc;
}

const struct shim_scenario *gen_find(const char *name)
{
	struct gen_spec s;
	char err[128];

	if (!gen_parse(name, &s, err, sizeof(err)))
		return NULL;
	return gen_scenario(&s);
}

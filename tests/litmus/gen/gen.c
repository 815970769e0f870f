// SPDX-License-Identifier: GPL-2.0
/*
 * Cycles of relations and their litmus tests (gen.h).
 */
#include <string.h>

#include "gen.h"

static const char *const iedge_name[GEN_NIEDGES] = {
	[GEN_PO] = "Pod", [GEN_MB] = "FenceMbd", [GEN_WMB] = "FenceWmbd",
	[GEN_RMB] = "FenceRmbd", [GEN_ADDR] = "DpAddrd", [GEN_DATA] = "DpDatad",
	[GEN_CTRL] = "DpCtrld",
};

static char dirc(enum gen_dir d)
{
	return d == GEN_R ? 'R' : 'W';
}

static const char *ann_name(enum gen_dir d, enum gen_ann a)
{
	return a == GEN_ONCE ? "Once" : d == GEN_R ? "Acquire" : "Release";
}

static enum gen_dir first_dir(const struct gen_thread *t)
{
	return t->dir[0];
}

static enum gen_dir last_dir(const struct gen_thread *t)
{
	return t->dir[t->nev - 1];
}

static bool iedge_ok(const struct gen_thread *t)
{
	enum gen_dir a = t->dir[0], b = t->dir[1];

	switch (t->edge) {
	case GEN_PO:
	case GEN_MB:
		return true;
	case GEN_WMB:
		return a == GEN_W && b == GEN_W;
	case GEN_RMB:
		return a == GEN_R && b == GEN_R;
	case GEN_ADDR:
	case GEN_CTRL:
		return a == GEN_R;
	case GEN_DATA:
		return a == GEN_R && b == GEN_W;
	default:
		return false;
	}
}

static unsigned int code(const struct gen_thread *t)
{
	unsigned int k = (unsigned int)t->nev;

	k = k * 2 + t->dir[0];
	k = k * 2 + t->ann[0];
	if (t->nev == 2) {
		k = k * 2 + t->dir[1];
		k = k * 2 + t->ann[1];
		k = k * GEN_NIEDGES + t->edge;
	}
	return k;
}

bool gen_valid(const struct gen_cycle *c)
{
	int n = c->nthreads, internal = 0;

	if (n < 2 || n > GEN_MAX_THREADS)
		return false;
	for (int i = 0; i < n; i++) {
		const struct gen_thread *t = &c->t[i];

		/* the external edge to the next thread: rfe, fre or coe */
		if (last_dir(t) == GEN_R && first_dir(&c->t[(i + 1) % n]) == GEN_R)
			return false;
		if (t->nev == 2) {
			internal++;
			if (!iedge_ok(t))
				return false;
		}
	}
	/* each internal edge moves to the next location: at least two */
	if (internal < 2)
		return false;
	/* canonical: the rotation whose codes are least comes first */
	for (int r = 1; r < n; r++) {
		for (int i = 0; i < n; i++) {
			unsigned int a = code(&c->t[i]), b = code(&c->t[(i + r) % n]);

			if (b < a)
				return false;
			if (b > a)
				break;
		}
	}
	return true;
}

static const char *xedge(enum gen_dir from, enum gen_dir to)
{
	return from == GEN_W ? (to == GEN_R ? "Rfe" : "Wse") : "Fre";
}

static void name(const struct gen_cycle *c, char *buf, size_t len, bool ann)
{
	size_t n = 0;

	buf[0] = '\0';
	for (int i = 0; i < c->nthreads && n < len; i++) {
		const struct gen_thread *t = &c->t[i];
		const struct gen_thread *u = &c->t[(i + 1) % c->nthreads];

		if (t->nev == 2)
			n += (size_t)snprintf(buf + n, len - n, "%s%c%c%s%s ",
					      iedge_name[t->edge], dirc(t->dir[0]), dirc(t->dir[1]),
					      ann ? ann_name(t->dir[0], t->ann[0]) : "",
					      ann ? ann_name(t->dir[1], t->ann[1]) : "");
		if (n < len)
			n += (size_t)snprintf(buf + n, len - n, "%s%s%s ",
					      xedge(last_dir(t), first_dir(u)),
					      ann ? ann_name(last_dir(t), t->ann[t->nev - 1]) : "",
					      ann ? ann_name(first_dir(u), u->ann[0]) : "");
	}
	if (n && n < len)
		buf[n - 1] = '\0';
}

void gen_cycle_name(const struct gen_cycle *c, char *buf, size_t len)
{
	name(c, buf, len, true);
}

void gen_shape(const struct gen_cycle *c, char *buf, size_t len)
{
	name(c, buf, len, false);
}

/* One event as C: its access, on location @loc, writing @val. */
static void access(FILE *f, const struct gen_thread *t, int e, int loc, int val,
		   int reg, int dep_reg)
{
	char where[64], what[64];
	bool addr = e == 1 && t->edge == GEN_ADDR;

	/* a dependency that is only syntactic: (r & 0), as diy7 writes */
	if (addr)
		snprintf(where, sizeof(where), "(x%d + (r%d & 0))", loc, dep_reg);
	else
		snprintf(where, sizeof(where), "x%d", loc);
	if (t->dir[e] == GEN_R) {
		if (t->ann[e] == GEN_ACQREL)
			fprintf(f, "\tr%d = smp_load_acquire(%s);\n", reg, where);
		else
			fprintf(f, "\tr%d = READ_ONCE(*%s);\n", reg, where);
		return;
	}
	if (e == 1 && t->edge == GEN_DATA)
		snprintf(what, sizeof(what), "%d + (r%d & 0)", val, dep_reg);
	else
		snprintf(what, sizeof(what), "%d", val);
	if (t->ann[e] == GEN_ACQREL)
		fprintf(f, "\tsmp_store_release(%s, %s);\n", where, what);
	else
		fprintf(f, "\tWRITE_ONCE(*%s, %s);\n", where, what);
}

void gen_write(const struct gen_cycle *c, const char *tname, bool declare, FILE *f)
{
	int n = c->nthreads, nloc = 0, loc[GEN_MAX_THREADS][2] = { { 0 } };
	int val[GEN_MAX_THREADS][2] = { { 0 } }, reads[GEN_MAX_THREADS][2] = { { 0 } };
	int lastw[GEN_MAX_THREADS * 2], nwrites[GEN_MAX_THREADS * 2];
	char cyc[512];
	bool first = true;

	/* Locations: thread 0's first access is on x0; each internal edge
	 * moves to the next location, external edges stay. */
	for (int i = 0, l = 0; i < n; i++) {
		loc[i][0] = l;
		if (c->t[i].nev == 2)
			l++;
		loc[i][1] = l;
		nloc = l;
	}
	for (int i = 0; i < n; i++)
		for (int e = 0; e < 2; e++)
			loc[i][e] %= nloc;
	/* Values: a location's writes are 1, 2, ... in the cycle's order,
	 * which is their coherence order; a read sees the write before it
	 * on its location in the cycle, or the initial 0.  The cycle is
	 * walked from the first event after an internal edge, where a
	 * location's run starts. */
	memset(lastw, 0, sizeof(lastw));
	memset(nwrites, 0, sizeof(nwrites));
	{
		int start = 0;

		while (c->t[start].nev != 2)
			start++;
		/* the run after thread start's internal edge begins at its
		 * second event */
		for (int k = 0; k <= n; k++) {
			int i = (start + k) % n;

			for (int e = k == 0 ? 1 : 0; e < c->t[i].nev; e++) {
				int l = loc[i][e];

				if (k == n && e == 1)
					break;
				if (c->t[i].dir[e] == GEN_W) {
					val[i][e] = ++nwrites[l];
					lastw[l] = val[i][e];
				} else {
					reads[i][e] = lastw[l];
				}
			}
		}
	}
	gen_cycle_name(c, cyc, sizeof(cyc));
	fprintf(f, "C %s\n\"%s\"\nCycle=%s\nGenerator=klist-litmus-gen\n{\n}\n\n",
		tname, cyc, cyc);
	for (int i = 0; i < n; i++) {
		const struct gen_thread *t = &c->t[i];

		fprintf(f, "P%d(", i);
		for (int l = 0; l < nloc; l++)
			fprintf(f, "%sint *x%d", l ? ", " : "", l);
		fprintf(f, ")\n{\n");
		if (declare) {
			for (int e = 0; e < t->nev; e++)
				if (t->dir[e] == GEN_R)
					fprintf(f, "\tint r%d;\n", e);
			fprintf(f, "\n");
		}
		access(f, t, 0, loc[i][0], val[i][0], 0, 0);
		if (t->nev == 2) {
			switch (t->edge) {
			case GEN_MB:
				fprintf(f, "\tsmp_mb();\n");
				break;
			case GEN_WMB:
				fprintf(f, "\tsmp_wmb();\n");
				break;
			case GEN_RMB:
				fprintf(f, "\tsmp_rmb();\n");
				break;
			default:
				break;
			}
			if (t->edge == GEN_CTRL) {
				fprintf(f, "\tif (r0 >= 0) {\n\t");
				access(f, t, 1, loc[i][1], val[i][1], 1, 0);
				fprintf(f, "\t}\n");
			} else {
				access(f, t, 1, loc[i][1], val[i][1], 1, 0);
			}
		}
		fprintf(f, "}\n\n");
	}
	fprintf(f, "exists (");
	for (int i = 0; i < n; i++) {
		for (int e = 0; e < c->t[i].nev; e++) {
			if (c->t[i].dir[e] != GEN_R)
				continue;
			fprintf(f, "%s%d:r%d=%d", first ? "" : " /\\ ", i, e, reads[i][e]);
			first = false;
		}
	}
	for (int l = 0; l < nloc; l++) {
		if (nwrites[l] < 2)
			continue;
		fprintf(f, "%sx%d=%d", first ? "" : " /\\ ", l, lastw[l]);
		first = false;
	}
	fprintf(f, ")\n");
}

/* A small deterministic generator (splitmix64): the same tests on
 * every machine, whatever its libc's rand(). */
static unsigned long long mix(unsigned long long x)
{
	x += 0x9e3779b97f4a7c15ULL;
	x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9ULL;
	x = (x ^ (x >> 27)) * 0x94d049bb133111ebULL;
	return x ^ (x >> 31);
}

void gen_nth(unsigned long long seed, unsigned long long i, struct gen_cycle *c)
{
	unsigned long long h = mix(seed * 0x100000001b3ULL + i);

	memset(c, 0, sizeof(*c));
	c->nthreads = 2 + (int)(i % 3);		/* 2, 3, 4 threads in turn */
	for (int k = 0; k < c->nthreads; k++) {
		struct gen_thread *t = &c->t[k];

		h = mix(h);
		/* two accesses three times in four */
		t->nev = h % 4 ? 2 : 1;
		h >>= 2;
		for (int e = 0; e < 2; e++) {
			t->dir[e] = h & 1 ? GEN_W : GEN_R;
			h >>= 1;
			/* acquire or release one time in four */
			t->ann[e] = h % 4 ? GEN_ONCE : GEN_ACQREL;
			h >>= 2;
		}
		if (t->nev == 1)
			t->dir[1] = t->dir[0], t->ann[1] = t->ann[0];
		t->edge = (enum gen_iedge)(h % GEN_NIEDGES);
	}
}

// SPDX-License-Identifier: GPL-2.0
/*
 * Data races as verdicts (#37): every access the instrumented code makes
 * (lib/ and the scenarios, built with GCC's -fsanitize=thread; the
 * explorer, not libtsan, defines the __tsan_* hooks: explore-tsan.c) is
 * an event of the transition that makes it, with its address, size and
 * site, and no scheduling point.  Two conflicting accesses (overlapping
 * bytes, different tasks, at least one a write), at least one of them
 * plain, that happens-before does not order, are a data race: the run
 * fails with both sites, and its schedule replays it.
 *
 * Happens-before, in the child that makes the run, by vector clocks:
 * program order; a kthread's creation (the child starts with its
 * parent's clock); and each shim operation as what its label names
 * (struct ctl_label): a transition acquires the clock its object has
 * released and, unless it only reads it, releases its own to it.  So an
 * unlock orders what preceded it before the next lock of that lock, a
 * complete() before the wait that returns, a wake-up before the woken
 * task's retry, an exit before its join, and a marked store before the
 * marked load of the same word that follows it: marked accesses are
 * taken as sequentially consistent atomics, which is stronger than the
 * LKMM (a READ_ONCE() that reads a WRITE_ONCE() orders no plain access
 * there unless a barrier or a dependency does): a race that only the
 * LKMM's weaker order exposes is not reported.  A signal (a wake-up of a
 * channel) releases too.  Barriers, kmalloc and kfree order nothing.
 *
 * kfree() is an access: a write of every byte of the block, by the task
 * that frees it (ctl_race_free()).  So an access to the block that
 * happens-before does not order with its kfree() is a race, reported as
 * a use-after-free race, whichever of the two ran first; one it orders
 * is ordered by the operations the labels name, whose orders DPOR
 * explores.  That is why kfree() names nothing else (explore-dpor.c).
 *
 * The shadow keeps, per aligned 8-byte word, each task's last read and
 * last write (epoch, bytes, marked or plain, site); a kmalloc()ed
 * block's words are forgotten, so a reused address starts clean.
 * Limits, each a failure of the run when reached, never silent: 4096
 * words, 1024 synchronisation objects, 16 declared ranges per run.
 */
/* Bookkeeping here is no scheduling point (<shim/ctl-hook.h>). */
#define SHIM_INTERNAL
#define _GNU_SOURCE	/* dladdr() */

#include <dlfcn.h>
#include <stdio.h>
#include <string.h>
#include <sys/mman.h>

#include "../src/shim-explore-api.h"
#include "explore-graph.h"	/* #38 graph */
#include "explore-internal.h"

#define RACE_WORDS	4096
#define RACE_SYNCS	1024
#define RACE_DECLARED	16

#define RACE_MARKED	1	/* READ_ONCE() and the rest, atomics */
#define RACE_FREED	2	/* kfree(): a write of the whole block */

/* 16 bytes: the shadow is touched on every access, page faults count. */
struct race_acc {
	uint32_t epoch;		/* 0: none */
	uint8_t mask;		/* the bytes of the word */
	uint8_t kind;		/* RACE_MARKED, RACE_FREED: else plain */
	uint16_t line;		/* 0: @site is the pc, else the file */
	const void *site;
};

struct race_word {
	uintptr_t addr;
	unsigned int gen;
	struct race_acc r[CTL_MAX_TASKS], w[CTL_MAX_TASKS];
};

struct race_sync {
	const void *obj;
	unsigned int gen;
	uint32_t vc[CTL_MAX_TASKS];
};

static struct {
	bool on;		/* accesses are instrumented in this program */
	bool reported;		/* this run's race is reported */
	unsigned int gen;
	int ndeclared;
	struct {
		uintptr_t lo, hi;
	} declared[RACE_DECLARED];
	uint32_t vc[CTL_MAX_TASKS][CTL_MAX_TASKS];
	struct race_word *words;
	struct race_sync syncs[RACE_SYNCS];
} rc;

void ctl_race_instrumented(void)
{
	rc.on = true;
}

bool shim_explore_sees_accesses(void)
{
	return rc.on;
}

bool ctl_race_on(void)
{
	return rc.on;
}

void ctl_race_start(void)
{
	if (!rc.on)
		return;
	if (!rc.words) {
		rc.words = mmap(NULL, sizeof(*rc.words) * RACE_WORDS,
				PROT_READ | PROT_WRITE,
				MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
		if (rc.words == MAP_FAILED) {
			rc.words = NULL;
			shim_ctl_fail(__FILE__, __LINE__, "explore: no memory for the race shadow");
		}
	}
	if (!++rc.gen) {
		memset(rc.words, 0, sizeof(*rc.words) * RACE_WORDS);
		memset(rc.syncs, 0, sizeof(rc.syncs));
		rc.gen = 1;
	}
	rc.reported = false;
	rc.ndeclared = 0;
	memset(rc.vc, 0, sizeof(rc.vc));
	rc.vc[0][0] = 1;
}

static void join(uint32_t *dst, const uint32_t *src)
{
	int i;

	for (i = 0; i < CTL_MAX_TASKS; i++)
		if (src[i] > dst[i])
			dst[i] = src[i];
}

void ctl_race_task_new(int parent, int slot)
{
	if (!rc.on || parent < 0)
		return;
	memcpy(rc.vc[slot], rc.vc[parent], sizeof(rc.vc[slot]));
	rc.vc[slot][slot] = 1;
	/* What the parent does next is not before the child's start. */
	rc.vc[parent][parent]++;
}

static struct race_sync *sync_of(const void *obj)
{
	unsigned long h = (unsigned long)obj;
	unsigned int i, n;

	h = (h ^ (h >> 17)) * 0x9e3779b97f4a7c15UL;
	i = (unsigned int)(h >> 40) & (RACE_SYNCS - 1);
	for (n = 0; n < RACE_SYNCS; n++, i = (i + 1) & (RACE_SYNCS - 1)) {
		struct race_sync *s = &rc.syncs[i];

		if (s->gen == rc.gen && s->obj == obj)
			return s;
		if (s->gen != rc.gen) {
			s->gen = rc.gen;
			s->obj = obj;
			memset(s->vc, 0, sizeof(s->vc));
			return s;
		}
	}
	shim_ctl_fail(__FILE__, __LINE__,
		      "explore: more than 1024 synchronisation objects in one run (race detector)");
	return NULL;
}

static void acquire(int t, const void *obj)
{
	if (obj)
		join(rc.vc[t], sync_of(obj)->vc);
}

static void release(int t, const void *obj)
{
	if (obj)
		join(sync_of(obj)->vc, rc.vc[t]);
}

void ctl_race_transition(int t, struct ctl_label ev)
{
	if (!rc.on || t < 0)
		return;
	if (ev.dep != CTL_DEP_NONE && ev.dep != CTL_DEP_ALL) {
		acquire(t, ev.obj);
		acquire(t, ev.also);
		acquire(t, ev.also2);
		if (ev.dep != CTL_DEP_READ)
			release(t, ev.obj);
		release(t, ev.also);
		release(t, ev.also2);
	}
	rc.vc[t][t]++;
}

void ctl_race_release(int t, const void *obj)
{
	if (!rc.on || t < 0)
		return;
	release(t, obj);
	rc.vc[t][t]++;
}

void ctl_race_acquire(int t, const void *obj)
{
	if (!rc.on || t < 0)
		return;
	acquire(t, obj);
}

void shim_explore_race_ok(const void *p, unsigned long size, const char *why)
{
	(void)why;	/* for the reader: a declaration names its reason */
	if (!rc.on || !shim_ctl_active || ctl_self() < 0)
		return;
	if (rc.ndeclared == RACE_DECLARED) {
		shim_report(__FILE__, __LINE__,
			    "explore: more than %d fields declared racy in one run",
			    RACE_DECLARED);
		return;
	}
	rc.declared[rc.ndeclared].lo = (uintptr_t)p;
	rc.declared[rc.ndeclared].hi = (uintptr_t)p + size;
	rc.ndeclared++;
}

static struct race_word *word_of(uintptr_t addr)
{
	unsigned long h = addr;
	unsigned int i, n;

	h = (h ^ (h >> 17)) * 0x9e3779b97f4a7c15UL;
	i = (unsigned int)(h >> 40) & (RACE_WORDS - 1);
	for (n = 0; n < RACE_WORDS; n++, i = (i + 1) & (RACE_WORDS - 1)) {
		struct race_word *w = &rc.words[i];

		if (w->gen == rc.gen && w->addr == addr)
			return w;
		if (w->gen != rc.gen) {
			w->gen = rc.gen;
			w->addr = addr;
			memset(w->r, 0, sizeof(w->r));
			memset(w->w, 0, sizeof(w->w));
			return w;
		}
	}
	shim_ctl_fail(__FILE__, __LINE__,
		      "explore: more than 4096 words accessed in one run (race detector)");
	return NULL;
}

/* A block just allocated: whatever its words held before is forgotten. */
void ctl_race_forget(const void *p, unsigned long size)
{
	uintptr_t a, end = (uintptr_t)p + size;

	if (!rc.on || !rc.words || !p)
		return;
	for (a = (uintptr_t)p & ~(uintptr_t)7; a < end; a += 8) {
		unsigned long h = a;
		unsigned int i, n;

		h = (h ^ (h >> 17)) * 0x9e3779b97f4a7c15UL;
		i = (unsigned int)(h >> 40) & (RACE_WORDS - 1);
		for (n = 0; n < RACE_WORDS; n++, i = (i + 1) & (RACE_WORDS - 1)) {
			struct race_word *w = &rc.words[i];

			if (w->gen != rc.gen)
				break;
			if (w->addr == a) {
				memset(w->r, 0, sizeof(w->r));
				memset(w->w, 0, sizeof(w->w));
				break;
			}
		}
	}
}

static bool declared(uintptr_t a)
{
	int i;

	for (i = 0; i < rc.ndeclared; i++)
		if (a >= rc.declared[i].lo && a < rc.declared[i].hi)
			return true;
	return false;
}

/* An access to a field declared racy: outside the relation, so its transition is dependent with everything. */
static void declared_access(uintptr_t lo, uintptr_t hi)
{
	int i;

	for (i = 0; i < rc.ndeclared; i++)
		if (lo < rc.declared[i].hi && rc.declared[i].lo < hi) {
			ctl_widen_all();
			return;
		}
}

/* "uevent.c:114 (ddm_object_uevent)": the source line of @pc, by addr2line. */
static void site_of(const struct race_acc *x, char *buf, size_t len)
{
	const char *b;
	Dl_info info;
	char cmd[512], out[272] = "";
	uintptr_t off;
	FILE *f;

	if (x->line) {
		const char *file = x->site;

		b = strrchr(file, '/');
		snprintf(buf, len, "%s:%u", b ? b + 1 : file, x->line);
		return;
	}
	if (!dladdr(x->site, &info) || !info.dli_fname) {
		snprintf(buf, len, "%p", x->site);
		return;
	}
	off = (uintptr_t)x->site - 1;
	/* A position-independent executable: its addresses are offsets. */
	if ((uintptr_t)info.dli_fbase != 0x400000)
		off -= (uintptr_t)info.dli_fbase;
	snprintf(cmd, sizeof(cmd), "addr2line -f -s -e '%s' %#lx 2>/dev/null",
		 info.dli_fname, (unsigned long)off);
	f = popen(cmd, "r");
	if (f) {
		char fn[128] = "", line[128] = "";

		if (fgets(fn, sizeof(fn), f) && fgets(line, sizeof(line), f)) {
			fn[strcspn(fn, "\n")] = '\0';
			line[strcspn(line, "\n ")] = '\0';
			snprintf(out, sizeof(out), "%s (%s)", line, fn);
		}
		pclose(f);
	}
	if (out[0] && out[0] != '?')
		snprintf(buf, len, "%s", out);
	else if (info.dli_sname)
		snprintf(buf, len, "%s+%#lx", info.dli_sname,
			 (unsigned long)((uintptr_t)x->site - (uintptr_t)info.dli_saddr));
	else
		snprintf(buf, len, "%p", x->site);
}

static const char *kind_of(const struct race_acc *x, bool write)
{
	if (x->kind & RACE_FREED)
		return "kfree()";
	if (x->kind & RACE_MARKED)
		return write ? "marked write" : "marked read";
	return write ? "plain write" : "plain read";
}

/*
 * The two accesses in task order, not in the order they ran: two runs of
 * one trace may run them either way round, and must give one report
 * (the differential test compares reports).  @bytes: those they share.
 */
static void report(int t, const struct race_acc *now, bool wnow, int u,
		   const struct race_acc *then, bool wthen, unsigned int bytes)
{
	struct ctl_shared *sh = ctl_shared_now();
	const struct race_acc *x = u < t ? then : now, *y = u < t ? now : then;
	bool wx = u < t ? wthen : wnow, wy = u < t ? wnow : wthen;
	int tx = u < t ? u : t, ty = u < t ? t : u;
	char a[300], b[300];

	rc.reported = true;
	site_of(x, a, sizeof(a));
	site_of(y, b, sizeof(b));
	shim_report(x->line ? x->site : __FILE__, x->line ? x->line : __LINE__,
		    "DATA RACE%s: %s by %s at %s and %s by %s at %s, on %u byte(s), not ordered by happens-before",
		    (x->kind | y->kind) & RACE_FREED ? " (use-after-free)" : "",
		    kind_of(x, wx), sh->names[tx], a, kind_of(y, wy),
		    sh->names[ty], b, bytes);
}

/* Two accesses conflict unless both are marked (a write among them: the caller's). */
static bool both_marked(const struct race_acc *o, const struct race_acc *x)
{
	return o->kind == RACE_MARKED && x->kind == RACE_MARKED;
}

static void record(struct race_acc *slot, uint32_t epoch, uint8_t mask,
		   const struct race_acc *x)
{
	if (slot->epoch == epoch) {
		slot->mask |= mask;
		if (x->kind != RACE_MARKED || slot->kind == RACE_MARKED) {
			slot->line = x->line;
			slot->site = x->site;
		}
		slot->kind = (uint8_t)((slot->kind & x->kind & RACE_MARKED) |
				       ((slot->kind | x->kind) & RACE_FREED));
		return;
	}
	*slot = *x;
	slot->epoch = epoch;
	slot->mask = mask;
}

static void access_word(int t, uintptr_t word, uint8_t mask, bool write,
			const struct race_acc *x)
{
	struct race_word *w = word_of(word);
	uint32_t *vc = rc.vc[t];
	int u, n = ctl_ntasks();

	if (!w)
		return;
	for (u = 0; u < n && !rc.reported; u++) {
		const struct race_acc *o;

		if (u == t)
			continue;
		o = &w->w[u];
		if (o->epoch && (o->mask & mask) && !both_marked(o, x) &&
		    vc[u] < o->epoch && !declared(word + (unsigned int)__builtin_ctz(o->mask & mask))) {
			report(t, x, write, u, o, true,
			       (unsigned int)__builtin_popcount(o->mask & mask));
			break;
		}
		o = &w->r[u];
		if (write && o->epoch && (o->mask & mask) &&
		    !both_marked(o, x) && vc[u] < o->epoch &&
		    !declared(word + (unsigned int)__builtin_ctz(o->mask & mask))) {
			report(t, x, write, u, o, false,
			       (unsigned int)__builtin_popcount(o->mask & mask));
			break;
		}
	}
	record(write ? &w->w[t] : &w->r[t], vc[t], mask, x);
}

static void access(uintptr_t addr, unsigned int size, bool write,
		   const struct race_acc *x)
{
	int t = ctl_self_fast();
	uintptr_t end = addr + size;

	if (t < 0 || !rc.words)
		return;
	if (rc.ndeclared)
		declared_access(addr, end);
	while (addr < end) {
		uintptr_t word = addr & ~(uintptr_t)7;
		uintptr_t stop = word + 8 < end ? word + 8 : end;
		unsigned int lo = (unsigned int)(addr - word);
		unsigned int n = (unsigned int)(stop - addr);
		uint8_t mask = (uint8_t)(((1u << n) - 1) << lo);

		access_word(t, word, mask, write, x);
		addr = stop;
	}
}

void ctl_race_access(const volatile void *p, unsigned int size, bool write,
		     const void *pc)
{
	struct race_acc x = { .site = pc };

	if (shim_graph_plain) {		/* #38 graph (explore-graph.c) */
		shim_graph_plain(p, size, write);
		return;
	}
	if (!shim_ctl_active)
		return;
	access((uintptr_t)p, size, write, &x);
}

void ctl_race_marked(const volatile void *p, unsigned int size, bool write,
		     const char *file, int line)
{
	struct race_acc x = { .kind = RACE_MARKED, .site = file,
			      .line = (uint16_t)(line > 0 && line < 65536 ? line : 1) };

	uintptr_t first, last;
	int t;

	if (!rc.on || !shim_ctl_active || !p)
		return;
	access((uintptr_t)p, size ? size : 1, write, &x);
	/*
	 * A marked store releases itself: its transition released the task's
	 * clock at its start, before this access's epoch, so a task that
	 * acquires the word (a refcount's last put before its kfree()) must
	 * find this write before it too.  The task's epoch moves on: its
	 * plain accesses after the store are not released with it.
	 */
	t = ctl_self_fast();
	if (!write || t < 0)
		return;
	first = (uintptr_t)p & ~(uintptr_t)7;
	last = ((uintptr_t)p + (size ? size : 1) - 1) & ~(uintptr_t)7;
	if (last - first > 8)
		return;		/* its label is "everything": no object */
	release(t, (const void *)first);
	if (last != first)
		release(t, (const void *)last);
	rc.vc[t][t]++;
}

void ctl_race_free(const void *p, unsigned long size, const char *file, int line)
{
	struct race_acc x = { .kind = RACE_FREED, .site = file,
			      .line = (uint16_t)(line > 0 && line < 65536 ? line : 1) };

	if (!rc.on || !shim_ctl_active || !p || !size)
		return;
	access((uintptr_t)p, (unsigned int)size, true, &x);
}

// SPDX-License-Identifier: GPL-2.0
/*
 * A small lockdep: lock classes, the locks each task holds, the lock
 * order graph and the interrupt usage of each class.
 *
 * A class is a key (the initialisation site's static key, or the lock
 * itself if statically initialised) and a subclass; each class is one
 * node of the order graph.  Every "A held while taking B" adds an edge
 * A -> B, and an edge that closes a cycle is reported with both chains.
 *
 * Each class also records, with the first site of each, whether it was
 * taken in hardirq context (IN-HARDIRQ, "HARDIRQ-safe": it had better
 * always be taken with interrupts off) and with interrupts on
 * (HARDIRQ-ON, "HARDIRQ-unsafe").  Both on one class is an inconsistent
 * lock state; a HARDIRQ-safe class held, along the graph, while a
 * HARDIRQ-unsafe one is taken is a lock order an interrupt can deadlock.
 * As in the kernel, the graph is checked when an edge is new and when a
 * usage bit is first set, so the order of discovery does not matter.
 *
 * All of it is global and lasts as long as the process: one test case.
 */
/* Bookkeeping here is no scheduling point (<shim/ctl-hook.h>). */
#define SHIM_INTERNAL

#include <stdio.h>
#include <string.h>

#include <linux/kernel.h>
#include <linux/spinlock.h>
#include <linux/sched.h>
#include "shim-internal.h"

#define MAX_CLASSES	256
#define CLASS_NAME_LEN	64

struct lock_class_key __lockdep_no_validate__;

enum lock_usage_bit {
	USED_IN_HARDIRQ,	/* taken in hardirq context */
	ENABLED_HARDIRQ,	/* taken, or held, with interrupts on */
	NR_USAGE,
};

static const char *const usage_str[NR_USAGE] = {
	[USED_IN_HARDIRQ] = "IN-HARDIRQ-W",
	[ENABLED_HARDIRQ] = "HARDIRQ-ON-W",
};

struct usage_site {
	const char *file;
	int line;
	char comm[TASK_COMM_LEN];
};

struct lock_class {
	const void *key;
	unsigned int subclass;
	char name[CLASS_NAME_LEN];	/* "name", or "name/subclass" */
	unsigned int usage_mask;	/* 1 << enum lock_usage_bit */
	struct usage_site usage[NR_USAGE];	/* first site of each usage */
};

struct lock_edge {
	const char *file;	/* where the second lock was taken */
	int line;
	const char *held_file;	/* where the first was taken */
	int held_line;
};

static pthread_mutex_t graph_lock = PTHREAD_MUTEX_INITIALIZER;
static struct lock_class classes[MAX_CLASSES];
static int nclasses = 1;	/* id 0 means "not validated" */
static struct lock_edge edges[MAX_CLASSES][MAX_CLASSES];

/* --- classes ------------------------------------------------------------ */

static const void *class_key(struct shim_lock *l)
{
	/* A statically initialised lock is its own class, as in lockdep. */
	return l->dep.key ? (const void *)l->dep.key : (const void *)l;
}

/* The class of @l taken with @subclass; 0 if it is not validated. */
static int class_of(struct shim_lock *l, unsigned int subclass,
		    const char *file, int line)
{
	const void *key = class_key(l);
	static bool out_of_classes;
	bool full = false;
	int id, i;

	if (l->dep.key == &__lockdep_no_validate__)
		return 0;
	if (subclass >= MAX_LOCKDEP_SUBCLASSES) {
		shim_report(file, line, "BUG: looking up invalid subclass: %u (%s at %s:%d; MAX_LOCKDEP_SUBCLASSES is %lu)",
			    subclass, l->dep.name, file, line, MAX_LOCKDEP_SUBCLASSES);
		return 0;
	}
	/* Pairs with the release below: a cached id's class is complete. */
	id = smp_load_acquire(&l->dep.class_id[subclass]);
	if (id)
		return id;
	pthread_mutex_lock(&graph_lock);
	for (i = 1; i < nclasses; i++)
		if (classes[i].key == key && classes[i].subclass == subclass)
			break;
	if (i == nclasses) {
		if (nclasses == MAX_CLASSES) {
			full = !out_of_classes;
			out_of_classes = true;
			i = 0;
		} else {
			classes[i].key = key;
			classes[i].subclass = subclass;
			snprintf(classes[i].name, sizeof(classes[i].name),
				 subclass ? "%s/%u" : "%s", l->dep.name, subclass);
			nclasses++;
		}
	}
	pthread_mutex_unlock(&graph_lock);
	if (full)
		/* The kernel turns lockdep off here: say that checks stop. */
		shim_report(file, line, "BUG: MAX_LOCKDEP_KEYS too low! (%d lock classes; %s at %s:%d and later classes go unchecked)",
			    MAX_CLASSES - 1, l->dep.name, file, line);
	if (i)	/* after the class's fields, for the lockless lookup above */
		smp_store_release(&l->dep.class_id[subclass], i);
	return i;
}

/*
 * The explorer, before each run of a batch: forget the order graph and
 * the usage bits, so that a run's verdict depends on its schedule only.
 * The classes stay: locks cache their ids, and an id names one key for
 * the life of the process.
 */
void shim_lockdep_forget(void)
{
	int i;

	pthread_mutex_lock(&graph_lock);
	for (i = 1; i < nclasses; i++) {
		memset(edges[i], 0, sizeof(edges[i][0]) * nclasses);
		classes[i].usage_mask = 0;
		memset(classes[i].usage, 0, sizeof(classes[i].usage));
	}
	pthread_mutex_unlock(&graph_lock);
}

void shim_lockdep_init_map(struct shim_lock *l, const char *name,
			   const struct lock_class_key *key)
{
	memset(&l->dep, 0, sizeof(l->dep));
	l->dep.key = key;
	l->dep.name = name;
}

void shim_lockdep_set_class(struct shim_lock *l, const char *name,
			    const struct lock_class_key *key,
			    unsigned int subclass, const char *file, int line)
{
	shim_lockdep_init_map(l, name, key);
	if (subclass >= MAX_LOCKDEP_SUBCLASSES) {
		/* The kernel registers the class here, and finds it invalid. */
		shim_report(file, line, "BUG: looking up invalid subclass: %u (%s at %s:%d; MAX_LOCKDEP_SUBCLASSES is %lu)",
			    subclass, name, file, line, MAX_LOCKDEP_SUBCLASSES);
		return;
	}
	l->dep.subclass = subclass;
}

/* --- the order graph ---------------------------------------------------- */

/*
 * Breadth-first search from @from, forwards (the classes taken while it
 * is held) or backwards, for the class @to, or (@to == 0) the nearest
 * class with a usage bit in @mask, @from included.  @prev[] links every
 * class reached to the one it was reached from.  graph_lock is held.
 */
static int search(int from, bool forwards, int to, unsigned int mask, int *prev)
{
	bool seen[MAX_CLASSES] = { false };
	int queue[MAX_CLASSES];
	int head = 0, tail = 0;

	queue[tail++] = from;
	seen[from] = true;
	while (head < tail) {
		int c = queue[head++], n;

		if (to ? c == to : (classes[c].usage_mask & mask) != 0)
			return c;
		for (n = 1; n < nclasses; n++) {
			if (seen[n] || !(forwards ? edges[c][n].file : edges[n][c].file))
				continue;
			seen[n] = true;
			prev[n] = c;
			queue[tail++] = n;
		}
	}
	return 0;
}

static void print_edge(int a, int b)
{
	fprintf(stderr, "  %s (taken at %s:%d) -> %s (taken at %s:%d)\n",
		classes[a].name, edges[a][b].held_file, edges[a][b].held_line,
		classes[b].name, edges[a][b].file, edges[a][b].line);
}

/* Print the chain search() found from @from to @found, in lock order. */
static void print_chain(int from, int found, bool forwards, const int *prev)
{
	int chain[MAX_CLASSES], n = 0, c;

	if (!forwards) {
		/* Found backwards: prev[] already points along the order. */
		for (c = found; c != from; c = prev[c])
			print_edge(c, prev[c]);
		return;
	}
	for (c = found; c != from; c = prev[c])
		chain[n++] = c;
	chain[n] = from;
	while (n > 0) {
		print_edge(chain[n], chain[n - 1]);
		n--;
	}
}

/* --- interrupt usage ---------------------------------------------------- */

static unsigned int usage_of(int c)
{
	return __atomic_load_n(&classes[c].usage_mask, __ATOMIC_ACQUIRE);
}

static void print_usage(int c, enum lock_usage_bit bit)
{
	const struct usage_site *s = &classes[c].usage[bit];

	fprintf(stderr, "{%s} state of %s was registered at %s:%d by %s\n",
		usage_str[bit], classes[c].name, s->file, s->line, s->comm);
}

/* Both places that find a HARDIRQ-safe class ordered before an unsafe one. */
static void report_safe_unsafe(const char *file, int line, int safe,
			       int unsafe, const char *where)
{
	shim_report(file, line,
		    "WARNING: HARDIRQ-safe -> HARDIRQ-unsafe lock order detected: HARDIRQ-safe %s (in hardirq at %s:%d) is held while taking HARDIRQ-unsafe %s (interrupts on at %s:%d); found at %s",
		    classes[safe].name,
		    classes[safe].usage[USED_IN_HARDIRQ].file,
		    classes[safe].usage[USED_IN_HARDIRQ].line,
		    classes[unsafe].name,
		    classes[unsafe].usage[ENABLED_HARDIRQ].file,
		    classes[unsafe].usage[ENABLED_HARDIRQ].line, where);
}

/*
 * Class @c is used as @bit for the first time, at @file:@line (@how
 * says what the site did).  Check that against its other usage and
 * against the classes the graph connects it to.
 */
static void mark_usage(struct task_struct *p, int c, enum lock_usage_bit bit,
		       const char *how, const char *file, int line)
{
	enum lock_usage_bit other = bit == USED_IN_HARDIRQ ? ENABLED_HARDIRQ
							   : USED_IN_HARDIRQ;
	struct lock_class *cl = &classes[c];
	int prev[MAX_CLASSES], found = 0;
	bool inconsistent;

	if (usage_of(c) & (1u << bit))
		return;
	pthread_mutex_lock(&graph_lock);
	if (cl->usage_mask & (1u << bit)) {
		pthread_mutex_unlock(&graph_lock);
		return;
	}
	cl->usage[bit].file = file;
	cl->usage[bit].line = line;
	snprintf(cl->usage[bit].comm, sizeof(cl->usage[bit].comm), "%s", p->comm);
	__atomic_or_fetch(&cl->usage_mask, 1u << bit, __ATOMIC_RELEASE);
	inconsistent = cl->usage_mask & (1u << other);
	if (!inconsistent) {
		/*
		 * A new HARDIRQ-safe class must reach no HARDIRQ-unsafe one
		 * along the order; a new HARDIRQ-unsafe one must be reached
		 * by no HARDIRQ-safe one.
		 */
		found = search(c, bit == USED_IN_HARDIRQ, 0, 1u << other, prev);
		if (found) {
			fprintf(stderr, "dependency chain:\n");
			print_chain(c, found, bit == USED_IN_HARDIRQ, prev);
			print_usage(found, other);
			print_usage(c, bit);
		}
	} else {
		print_usage(c, other);
	}
	pthread_mutex_unlock(&graph_lock);

	if (inconsistent) {
		shim_report(file, line,
			    "WARNING: inconsistent lock state: inconsistent {%s} -> {%s} usage: %s %s at %s:%d by %s; {%s} state was registered at %s:%d by %s",
			    usage_str[other], usage_str[bit], cl->name, how, file,
			    line, p->comm, usage_str[other], cl->usage[other].file,
			    cl->usage[other].line, cl->usage[other].comm);
	} else if (found) {
		int safe = bit == USED_IN_HARDIRQ ? c : found;
		int unsafe = bit == USED_IN_HARDIRQ ? found : c;

		char where[160];

		snprintf(where, sizeof(where), "the new {%s} usage of %s",
			 usage_str[bit], cl->name);
		report_safe_unsafe(file, line, safe, unsafe, where);
	}
}

/*
 * The usage of taking class @c here, in the task's current context.  A
 * trylock in hardirq context cannot wait for the code it interrupted,
 * so, as in lockdep, it does not make the class HARDIRQ-safe.
 */
static void mark_acquire(struct task_struct *p, int c, bool try,
			 const char *file, int line)
{
	if (p->shim.hardirq && !try)
		mark_usage(p, c, USED_IN_HARDIRQ, "taken in hardirq", file, line);
	if (!p->shim.irqs_off)
		mark_usage(p, c, ENABLED_HARDIRQ, "taken with interrupts on",
			   file, line);
}

/* Interrupts go on at @file:@line: every validated lock held is unsafe. */
void shim_lockdep_irqs_on(struct task_struct *p, const char *file, int line)
{
	int i;

	for (i = 0; i < p->shim.nheld; i++)
		if (p->shim.held[i].class_id)
			mark_usage(p, p->shim.held[i].class_id, ENABLED_HARDIRQ,
				   "held when interrupts were enabled", file, line);
}

/* --- lock order --------------------------------------------------------- */

/* Held @h, taking class @b (lock @l) at @file:@line: the edge h -> b. */
static void check_edge(struct shim_held_lock *h, struct shim_lock *l, int b,
		       const char *file, int line)
{
	int a = h->class_id, prev[MAX_CLASSES], bprev[MAX_CLASSES];
	int safe = 0, unsafe = 0;
	bool inverted;

	pthread_mutex_lock(&graph_lock);
	if (edges[a][b].file) {
		pthread_mutex_unlock(&graph_lock);
		return;
	}
	inverted = search(b, true, a, 0, prev) != 0;
	if (inverted) {
		fprintf(stderr, "existing dependency chain:\n");
		print_chain(b, a, true, prev);
		fprintf(stderr, "new dependency: %s (taken at %s:%d) -> %s (taken at %s:%d)\n",
			h->name, h->file, h->line, classes[b].name, file, line);
	} else {
		safe = search(a, false, 0, 1u << USED_IN_HARDIRQ, bprev);
		if (safe)
			unsafe = search(b, true, 0, 1u << ENABLED_HARDIRQ, prev);
		if (unsafe) {
			fprintf(stderr, "new dependency: %s (taken at %s:%d) -> %s (taken at %s:%d)\n",
				h->name, h->file, h->line, classes[b].name, file, line);
			if (safe != a || unsafe != b)
				fprintf(stderr, "which connects, by the chains:\n");
			print_chain(a, safe, false, bprev);
			print_chain(b, unsafe, true, prev);
			print_usage(safe, USED_IN_HARDIRQ);
			print_usage(unsafe, ENABLED_HARDIRQ);
		}
		/* Kept even if reported: an expected report is not repeated. */
		edges[a][b] = (struct lock_edge){ file, line, h->file, h->line };
	}
	pthread_mutex_unlock(&graph_lock);
	if (inverted)
		shim_report(file, line,
			    "WARNING: possible circular locking dependency detected: %s -> %s at %s:%d inverts an existing order",
			    h->name, classes[b].name, file, line);
	else if (unsafe) {
		char where[256];

		snprintf(where, sizeof(where), "the new dependency %s -> %s at %s:%d",
			 h->name, classes[b].name, file, line);
		report_safe_unsafe(file, line, safe, unsafe, where);
	}
}

static void check_order(struct task_struct *p, struct shim_lock *l, int b,
			const char *file, int line)
{
	int i;

	for (i = 0; i < p->shim.nheld; i++) {
		struct shim_held_lock *h = &p->shim.held[i];

		if (!h->class_id)
			continue;
		if (h->class_id == b) {
			shim_report(file, line,
				    "WARNING: possible recursive locking detected: %s at %s:%d while holding the same class (%s at %s:%d)",
				    classes[b].name, file, line, h->name, h->file, h->line);
			continue;
		}
		check_edge(h, l, b, file, line);
	}
}

int shim_lockdep_acquire(struct task_struct *p, struct shim_lock *l,
			 unsigned int subclass, bool try, const char *file,
			 int line)
{
	int c = class_of(l, subclass ? subclass : l->dep.subclass, file, line);

	if (!c)
		return 0;
	mark_acquire(p, c, try, file, line);
	/* A trylock cannot wait, so it orders nothing (as lockdep has it). */
	if (!try)
		check_order(p, l, c, file, line);
	return c;
}

/* --- held locks ----------------------------------------------------------*/

void shim_lockdep_push(struct task_struct *p, struct shim_lock *l, int class_id,
		       const char *file, int line)
{
	struct shim_held_lock *h;

	if (p->shim.nheld == SHIM_MAX_HELD) {
		shim_report(file, line, "BUG: MAX_LOCK_DEPTH too low: %d locks held",
			    p->shim.nheld);
		return;
	}
	h = &p->shim.held[p->shim.nheld++];
	h->lock = l;
	h->class_id = class_id;
	h->name = class_id ? classes[class_id].name : l->dep.name;
	h->file = file;
	h->line = line;
}

void shim_lockdep_pop(struct task_struct *p, struct shim_lock *l)
{
	int i;

	for (i = p->shim.nheld - 1; i >= 0; i--) {
		if (p->shim.held[i].lock != l)
			continue;
		memmove(&p->shim.held[i], &p->shim.held[i + 1],
			(p->shim.nheld - i - 1) * sizeof(p->shim.held[0]));
		p->shim.nheld--;
		return;
	}
}

bool shim_lockdep_held_by(struct task_struct *p, const struct shim_lock *l)
{
	int i;

	for (i = 0; i < p->shim.nheld; i++)
		if (p->shim.held[i].lock == l)
			return true;
	return false;
}

bool shim_lockdep_is_held(const void *lock)
{
	/* struct shim_lock is the first member of every lock. */
	return shim_lockdep_held_by(current, lock);
}

void shim_assert_held(const void *lock, const char *file, int line)
{
	const struct shim_lock *l = lock;

	if (!shim_lockdep_is_held(l))
		shim_report(file, line, "WARNING: lock %s not held at %s:%d",
			    l->dep.name, file, line);
}

void shim_assert_not_held(const void *lock, const char *file, int line)
{
	const struct shim_lock *l = lock;

	if (shim_lockdep_is_held(l))
		shim_report(file, line, "WARNING: lock %s held at %s:%d, where it must not be (taken at %s:%d)",
			    l->dep.name, file, line, l->owner_file, l->owner_line);
}

void shim_log_held_locks(struct task_struct *p)
{
	int i;

	if (!p || !p->shim.nheld)
		return;
	fprintf(stderr, "%d lock(s) held by %s:\n", p->shim.nheld, p->comm);
	for (i = 0; i < p->shim.nheld; i++)
		fprintf(stderr, " #%d: %s, taken at %s:%d\n", i,
			p->shim.held[i].name, p->shim.held[i].file,
			p->shim.held[i].line);
}

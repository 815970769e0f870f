// SPDX-License-Identifier: GPL-2.0
/*
 * Locks, atomic context and interrupts.
 *
 * spinlock_t and struct mutex are both a struct shim_lock.  Each
 * acquisition checks the context (a mutex may sleep), recursion and
 * lock order; each release checks ownership.  Lock order is a small
 * lockdep: locks belong to classes (their initialisation site), every
 * "A held while taking B" adds an edge A -> B, and an edge that closes a
 * cycle is reported with both chains.
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include <linux/kernel.h>
#include <linux/spinlock.h>
#include <linux/mutex.h>
#include <linux/sched.h>
#include "shim-internal.h"

/*
 * TSan takes pthread_mutex_timedlock() (our hung-task bound) for a
 * trylock, which cannot deadlock, so it would order none of our locks.
 * So TSan is shown each lock through its lockdep map, as a lock of its
 * own (blocking, try or failed), and the pthread calls are hidden from
 * it; it then orders and reports our locks as it would plain mutexes.
 */
#if defined(__SANITIZE_THREAD__)
#include <sanitizer/tsan_interface.h>

static void tsan_lock(struct shim_lock *l, bool try)
{
	__tsan_mutex_pre_lock(&l->dep, try ? __tsan_mutex_try_lock : 0);
}

static void tsan_locked(struct shim_lock *l, bool try, bool failed)
{
	__tsan_mutex_post_lock(&l->dep, (try ? __tsan_mutex_try_lock : 0) |
			       (failed ? __tsan_mutex_try_lock_failed : 0), 0);
}

static void tsan_unlock(struct shim_lock *l)
{
	__tsan_mutex_pre_unlock(&l->dep, 0);
}

static void tsan_unlocked(struct shim_lock *l)
{
	__tsan_mutex_post_unlock(&l->dep, 0);
}
#else
static void tsan_lock(struct shim_lock *l, bool try) { }
static void tsan_locked(struct shim_lock *l, bool try, bool failed) { }
static void tsan_unlock(struct shim_lock *l) { }
static void tsan_unlocked(struct shim_lock *l) { }
#endif

#define MAX_CLASSES	256

struct lock_class {
	const void *key;
	const char *name;
};

struct lock_edge {
	const char *file;	/* where the second lock was taken */
	int line;
	const char *held_file;	/* where the first was taken */
	int held_line;
};

static pthread_mutex_t graph_lock = PTHREAD_MUTEX_INITIALIZER;
static struct lock_class classes[MAX_CLASSES];
static int nclasses = 1;	/* id 0 means "not yet registered" */
static struct lock_edge edges[MAX_CLASSES][MAX_CLASSES];

static const char *kind_name(enum shim_lock_kind kind)
{
	return kind == SHIM_SPIN ? "spinlock" : "mutex";
}

void shim_lock_init(struct shim_lock *l, const char *name,
		    const struct lock_class_key *key)
{
	/*
	 * The kernel has no destroy and may init a lock again (klist_init()
	 * of a re-registered driver's list, say): keep the pthread mutex of
	 * an initialised lock, so tools see one lock, not a destroy racing
	 * its last unlock.
	 */
	if (l->magic != SHIM_LOCK_MAGIC) {
		shim_vg_new_memory(l, sizeof(*l));
		pthread_mutex_init(&l->m, NULL);
	}
	l->magic = SHIM_LOCK_MAGIC;
	l->owner = NULL;
	l->nested = 0;
	l->dep.key = key;
	l->dep.name = name;
	l->dep.class_id = 0;
}

static int class_of(struct shim_lock *l)
{
	/* A statically initialised lock is its own class, as in lockdep. */
	const void *key = l->dep.key ? (const void *)l->dep.key : (const void *)l;
	int id = smp_load_acquire(&l->dep.class_id);
	int i;

	if (id)
		return id;
	pthread_mutex_lock(&graph_lock);
	for (i = 1; i < nclasses; i++)
		if (classes[i].key == key)
			break;
	if (i == nclasses) {
		if (nclasses == MAX_CLASSES) {
			pthread_mutex_unlock(&graph_lock);
			return 0;	/* out of classes: order checks stop */
		}
		classes[i].key = key;
		classes[i].name = l->dep.name;
		nclasses++;
	}
	pthread_mutex_unlock(&graph_lock);
	smp_store_release(&l->dep.class_id, i);
	return i;
}

/* Depth-first search for a path from -> to in the order graph. */
static bool path_exists(int from, int to, bool *seen)
{
	int next;

	if (from == to)
		return true;
	seen[from] = true;
	for (next = 1; next < nclasses; next++)
		if (edges[from][next].file && !seen[next] && path_exists(next, to, seen))
			return true;
	return false;
}

static void print_path(int from, int to)
{
	bool seen[MAX_CLASSES] = { false };
	int next;

	/* Greedy walk along edges that still reach @to. */
	while (from != to) {
		for (next = 1; next < nclasses; next++) {
			bool s2[MAX_CLASSES] = { false };

			if (!edges[from][next].file || seen[next] ||
			    !path_exists(next, to, s2))
				continue;
			fprintf(stderr, "  %s (taken at %s:%d) -> %s (taken at %s:%d)\n",
				classes[from].name, edges[from][next].held_file,
				edges[from][next].held_line, classes[next].name,
				edges[from][next].file, edges[from][next].line);
			seen[next] = true;
			from = next;
			break;
		}
		if (next == nclasses)
			break;
	}
}

static void check_order(struct task_struct *p, struct shim_lock *l,
			const char *file, int line)
{
	int b = class_of(l), i;

	if (!b)
		return;
	for (i = 0; i < p->shim.nheld; i++) {
		struct shim_held_lock *h = &p->shim.held[i];
		bool seen[MAX_CLASSES] = { false };
		bool inverted;

		if (!h->class_id)
			continue;
		if (h->class_id == b && h->lock != l) {
			shim_report(file, line,
				    "WARNING: possible recursive locking detected: %s at %s:%d while holding the same class (%s at %s:%d)",
				    l->dep.name, file, line, h->name, h->file, h->line);
			continue;
		}
		pthread_mutex_lock(&graph_lock);
		if (edges[h->class_id][b].file) {
			pthread_mutex_unlock(&graph_lock);
			continue;
		}
		inverted = path_exists(b, h->class_id, seen);
		if (inverted) {
			fprintf(stderr, "existing dependency chain:\n");
			print_path(b, h->class_id);
			fprintf(stderr, "new dependency: %s (taken at %s:%d) -> %s (taken at %s:%d)\n",
				h->name, h->file, h->line, l->dep.name, file, line);
		} else {
			edges[h->class_id][b] = (struct lock_edge){
				file, line, h->file, h->line };
		}
		pthread_mutex_unlock(&graph_lock);
		if (inverted)
			shim_report(file, line,
				    "WARNING: possible circular locking dependency detected: %s -> %s at %s:%d inverts an existing order",
				    h->name, l->dep.name, file, line);
	}
}

static void push_held(struct task_struct *p, struct shim_lock *l,
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
	h->class_id = class_of(l);
	h->name = l->dep.name;
	h->file = file;
	h->line = line;
}

static void pop_held(struct task_struct *p, struct shim_lock *l)
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

static bool held_by(struct task_struct *p, struct shim_lock *l)
{
	int i;

	for (i = 0; i < p->shim.nheld; i++)
		if (p->shim.held[i].lock == l)
			return true;
	return false;
}

static bool check_magic(struct shim_lock *l, enum shim_lock_kind kind,
			const char *file, int line)
{
	if (l->magic == SHIM_LOCK_MAGIC)
		return true;
	shim_report(file, line, "BUG: %s bad magic (%s lock %p) at %s:%d",
		    kind_name(kind), l->magic == SHIM_MUTEX_DESTROYED ?
		    "destroyed" : "uninitialised or freed", (void *)l, file, line);
	return false;
}

void shim_lock_acquire(struct shim_lock *l, enum shim_lock_kind kind,
		       const char *file, int line, const char *func)
{
	struct task_struct *p = current;
	unsigned int bound = shim_hung_task_ms();

	if (!check_magic(l, kind, file, line))
		return;
	if (kind == SHIM_MUTEX)
		__shim_might_sleep(file, line);
	if (held_by(p, l)) {
		shim_report(file, line, "BUG: %s recursion: %s taken at %s:%d, already held since %s:%d",
			    kind_name(kind), l->dep.name, file, line,
			    l->owner_file, l->owner_line);
		l->nested++;	/* expected by the test: pair it with an unlock */
		return;
	}
	check_order(p, l, file, line);
	shim_sched_point();
	for (;;) {
		struct timespec ts = shim_deadline_ms(bound);
		int ret;

		tsan_lock(l, false);
		ret = pthread_mutex_timedlock(&l->m, &ts);
		/* A timeout ends it as a failed lock: TSan watches the report. */
		tsan_locked(l, false, ret == ETIMEDOUT);
		if (ret != ETIMEDOUT)
			break;
		if (kind == SHIM_MUTEX) {
			shim_hung_task(file, line, func);
		} else {
			struct task_struct *o = READ_ONCE(l->owner);

			shim_report(file, line,
				    "BUG: spinlock lockup suspected: %s at %s:%d, held by %s",
				    l->dep.name, file, line, o ? o->comm : "nobody");
		}
	}
	WRITE_ONCE(l->owner, p);
	l->owner_file = file;
	l->owner_line = line;
	push_held(p, l, file, line);
	if (kind == SHIM_SPIN) {
		p->shim.spin_depth++;
		shim_irq_window();
	}
}

int shim_lock_try(struct shim_lock *l, enum shim_lock_kind kind,
		  const char *file, int line)
{
	struct task_struct *p = current;
	int ret;

	if (!check_magic(l, kind, file, line))
		return 0;
	if (kind == SHIM_MUTEX && (shim_in_hardirq()))
		shim_report(file, line, "BUG: mutex_trylock in interrupt context at %s:%d",
			    file, line);
	tsan_lock(l, true);
	ret = pthread_mutex_trylock(&l->m);
	tsan_locked(l, true, ret != 0);
	if (ret)
		return 0;
	WRITE_ONCE(l->owner, p);
	l->owner_file = file;
	l->owner_line = line;
	push_held(p, l, file, line);
	if (kind == SHIM_SPIN)
		p->shim.spin_depth++;
	return 1;
}

struct unlock_hook {
	const char *lock_name;
	void (*fn)(void *);
	void *arg;
};
static struct unlock_hook unlock_hook;
static pthread_mutex_t hook_lock = PTHREAD_MUTEX_INITIALIZER;

void shim_on_unlock(const char *lock_name, void (*fn)(void *), void *arg)
{
	pthread_mutex_lock(&hook_lock);
	unlock_hook = (struct unlock_hook){ lock_name, fn, arg };
	pthread_mutex_unlock(&hook_lock);
}

void shim_hooks_reset(void)
{
	shim_on_unlock(NULL, NULL, NULL);
}

static void run_unlock_hook(struct shim_lock *l)
{
	struct unlock_hook h = { NULL, NULL, NULL };

	pthread_mutex_lock(&hook_lock);
	if (unlock_hook.fn && !strcmp(unlock_hook.lock_name, l->dep.name)) {
		h = unlock_hook;
		unlock_hook.fn = NULL;
	}
	pthread_mutex_unlock(&hook_lock);
	if (h.fn)
		h.fn(h.arg);
}

void shim_lock_release(struct shim_lock *l, enum shim_lock_kind kind,
		       const char *file, int line)
{
	struct task_struct *p = current;
	struct task_struct *owner;

	if (!check_magic(l, kind, file, line))
		return;
	if (!held_by(p, l)) {
		owner = READ_ONCE(l->owner);
		shim_report(file, line, "BUG: %s unlock of a lock not held: %s at %s:%d (owner: %s)",
			    kind_name(kind), l->dep.name, file, line,
			    owner ? owner->comm : "none");
		return;
	}
	if (l->nested) {
		l->nested--;
		return;
	}
	pop_held(p, l);
	WRITE_ONCE(l->owner, NULL);
	tsan_unlock(l);
	pthread_mutex_unlock(&l->m);
	tsan_unlocked(l);
	shim_sched_point();
	if (kind == SHIM_SPIN) {
		p->shim.spin_depth--;
		if (!p->shim.irqs_off)
			shim_irq_window();
		run_unlock_hook(l);
	}
}

bool shim_lock_is_locked(struct shim_lock *l)
{
	return READ_ONCE(l->owner) != NULL;
}

void shim_assert_held(const void *lock, const char *file, int line)
{
	const struct shim_lock *l = lock;	/* first member of every lock */

	if (READ_ONCE(l->owner) != current)
		shim_report(file, line, "WARNING: lock %s not held at %s:%d",
			    l->dep.name, file, line);
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

int shim_locks_check_task(struct task_struct *p, const char *when)
{
	if (!p->shim.nheld && !p->shim.irqs_off && !p->shim.preempt_count)
		return 0;
	shim_report(__FILE__, __LINE__,
		    "BUG: %s with %d lock(s) held, interrupts %s, preempt count %d (task %s; first lock %s taken at %s:%d)",
		    when, p->shim.nheld, p->shim.irqs_off ? "off" : "on",
		    p->shim.preempt_count, p->comm,
		    p->shim.nheld ? p->shim.held[0].name : "-",
		    p->shim.nheld ? p->shim.held[0].file : "-",
		    p->shim.nheld ? p->shim.held[0].line : 0);
	return 1;
}

/* --- atomic context ----------------------------------------------------- */

void shim_preempt_disable(void)
{
	current->shim.preempt_count++;
}

void shim_preempt_enable(void)
{
	struct task_struct *p = current;

	if (p->shim.preempt_count <= 0) {
		shim_report(__FILE__, __LINE__, "BUG: preempt_enable() without preempt_disable()");
		return;
	}
	p->shim.preempt_count--;
}

bool shim_in_atomic(void)
{
	struct task_struct *p = current;

	return p->shim.spin_depth || p->shim.preempt_count || p->shim.hardirq;
}

bool shim_in_hardirq(void)
{
	return current->shim.hardirq > 0;
}

/* might_sleep()'s context half; task.c's __shim_might_sleep() adds the state. */
void __shim_might_resched(const char *file, int line)
{
	struct task_struct *p = current;

	if (!shim_in_atomic() && !p->shim.irqs_off)
		return;
	shim_report(file, line,
		    "BUG: sleeping function called from invalid context at %s:%d (in_atomic(): %d, irqs_disabled(): %d, pid: %d, name: %s)",
		    file, line, shim_in_atomic(), p->shim.irqs_off, p->pid, p->comm);
}

/* --- interrupts ---------------------------------------------------------- */

void shim_raise_irq(void (*handler)(void *), void *arg)
{
	struct task_struct *p = current;

	p->shim.irq_handler = handler;
	p->shim.irq_arg = arg;
}

/* A point where a pending interrupt may arrive, if interrupts are on. */
void shim_irq_window(void)
{
	struct task_struct *p = current;
	void (*handler)(void *) = p->shim.irq_handler;

	if (!handler || p->shim.irqs_off || p->shim.hardirq)
		return;
	p->shim.irq_handler = NULL;
	p->shim.hardirq++;
	p->shim.irqs_off = true;
	handler(p->shim.irq_arg);
	p->shim.irqs_off = false;
	p->shim.hardirq--;
}

unsigned long shim_irq_save(void)
{
	struct task_struct *p = current;
	unsigned long flags = p->shim.irqs_off;

	p->shim.irqs_off = true;
	return flags;
}

void shim_irq_restore(unsigned long flags)
{
	struct task_struct *p = current;

	if (flags > 1) {
		shim_report(__FILE__, __LINE__, "BUG: local_irq_restore with corrupt flags %#lx", flags);
		return;
	}
	p->shim.irqs_off = flags;
	if (!flags)
		shim_irq_window();
}

void shim_irq_disable(void)
{
	current->shim.irqs_off = true;
}

void shim_irq_enable(void)
{
	struct task_struct *p = current;

	if (p->shim.hardirq) {
		shim_report(__FILE__, __LINE__, "WARNING: interrupts enabled inside a hardirq handler");
		return;
	}
	p->shim.irqs_off = false;
	shim_irq_window();
}

bool shim_irqs_disabled(void)
{
	return current->shim.irqs_off;
}

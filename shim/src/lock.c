// SPDX-License-Identifier: GPL-2.0
/*
 * Locks, atomic context and interrupts.
 *
 * spinlock_t and struct mutex are both a struct shim_lock.  Each
 * acquisition checks the context (a mutex may sleep) and recursion, and
 * has lockdep.c check lock order and interrupt usage; each release
 * checks ownership.
 */
/* Bookkeeping here is no scheduling point (<shim/ctl-hook.h>). */
#define SHIM_INTERNAL

#include <errno.h>
#include <stdio.h>
#include <string.h>

#include <linux/kernel.h>
#include <linux/spinlock.h>
#include <linux/mutex.h>
#include <linux/sched.h>
#include <shim/ctl-wmm.h>
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
	shim_lockdep_init_map(l, name, key);
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

/*
 * Under the explorer a task never waits on the pthread mutex: contended,
 * it blocks on the lock until an unlock signals it, and tries again.
 * Only the running task runs, so the try and the block cannot race.
 */
static void ctl_acquire(struct shim_lock *l, enum shim_lock_kind kind,
			const char *file, int line, const char *func)
{
	/*
	 * Each attempt bracketed alone: a switch to another task inside
	 * TSan's pre/post lock bracket would not synchronise (the bracket
	 * ignores sync), and TSan would see races the switch orders.
	 */
	for (;;) {
		bool failed;

		tsan_lock(l, true);
		failed = pthread_mutex_trylock(&l->m) != 0;
		tsan_locked(l, true, failed);
		if (!failed)
			break;
		shim_hook_block(l, kind == SHIM_SPIN ? SHIM_OP_SPIN_LOCK :
				SHIM_OP_MUTEX_LOCK, file, line, func);
	}
}

void shim_lock_acquire(struct shim_lock *l, enum shim_lock_kind kind,
		       unsigned int subclass, const char *file, int line,
		       const char *func)
{
	struct task_struct *p = current;
	unsigned int bound = shim_hung_task_ms();
	int class_id;

	if (!check_magic(l, kind, file, line))
		return;
	if (kind == SHIM_MUTEX)
		__shim_might_sleep(file, line);
	if (shim_lockdep_held_by(p, l)) {
		shim_report(file, line, "BUG: %s recursion: %s taken at %s:%d, already held since %s:%d",
			    kind_name(kind), l->dep.name, file, line,
			    l->owner_file, l->owner_line);
		l->nested++;	/* expected by the test: pair it with an unlock */
		return;
	}
	/* The point first: lockdep's graph is seen by every task. */
	shim_point(kind == SHIM_SPIN ? SHIM_OP_SPIN_LOCK : SHIM_OP_MUTEX_LOCK,
		   l, false, file, line);
	/* Before waiting: what may deadlock is reported, not waited out. */
	class_id = shim_lockdep_acquire(p, l, subclass, false, file, line);
	for (;;) {
		struct timespec ts = shim_deadline_ms(bound);
		int ret;

		if (shim_hook_on()) {
			ctl_acquire(l, kind, file, line, func);
			break;
		}
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
	/* The weak-memory model's acquire (explore-wmm.c; nothing under sc). */
	shim_hook_wmm_lock(l, file, line);
	shim_lockdep_push(p, l, class_id, file, line);
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
	shim_ctl_only(SHIM_OP_TRYLOCK, l, false, file, line);
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
	shim_hook_wmm_lock(l, file, line);
	shim_lockdep_push(p, l, shim_lockdep_acquire(p, l, 0, true, file, line),
			  file, line);
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
	if (!shim_lockdep_held_by(p, l)) {
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
	/* Before the release: a task may run between the section and it. */
	shim_point(SHIM_OP_UNLOCK, l, false, file, line);
	shim_hook_wmm_unlock(l, file, line);
	shim_lockdep_pop(p, l);
	WRITE_ONCE(l->owner, NULL);
	tsan_unlock(l);
	pthread_mutex_unlock(&l->m);
	tsan_unlocked(l);
	shim_hook_signal(l);
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

/*
 * spin_is_locked(), mutex_is_locked(): a read of the lock, so a point
 * before it labelled by the lock (dependent with its lock and unlock),
 * not a read inside whatever transition came before.
 */
bool __shim_lock_is_locked(struct shim_lock *l, const char *file, int line)
{
	shim_ctl_only(SHIM_OP_IS_LOCKED, l, true, file, line);
	return shim_lock_is_locked(l);
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
	/* The handler may touch anything: no one object. */
	shim_ctl_only(SHIM_OP_IRQ, NULL, false, __FILE__, __LINE__);
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

void shim_irq_restore(unsigned long flags, const char *file, int line)
{
	struct task_struct *p = current;

	if (flags > 1) {
		shim_report(file, line, "BUG: local_irq_restore with corrupt flags %#lx at %s:%d",
			    flags, file, line);
		return;
	}
	p->shim.irqs_off = flags;
	if (!flags) {
		shim_lockdep_irqs_on(p, file, line);
		shim_irq_window();
	}
}

void shim_irq_disable(void)
{
	current->shim.irqs_off = true;
}

void shim_irq_enable(const char *file, int line)
{
	struct task_struct *p = current;

	if (p->shim.hardirq) {
		shim_report(file, line, "WARNING: interrupts enabled inside a hardirq handler at %s:%d",
			    file, line);
		return;
	}
	p->shim.irqs_off = false;
	shim_lockdep_irqs_on(p, file, line);
	shim_irq_window();
}

bool shim_irqs_disabled(void)
{
	return current->shim.irqs_off;
}

// SPDX-License-Identifier: GPL-2.0
/*
 * The controlled scheduler: under the explorer, a run's tasks (the
 * test's thread and every kthread) take turns holding one token, and
 * only the holder runs.  Each shim synchronisation point hands the
 * decision of who runs next to the strategy (explore-strategy.c).
 *
 * The tasks are coroutines on one thread (ucontext), not pthreads: a
 * switch is a swapcontext(), so a run costs no kernel scheduling and
 * the machine's load cannot change it.  Waiting is never a real wait: a task that
 * cannot go on (a lock held, asleep, a completion not done) blocks on a
 * channel, the object it waits for, and is not runnable until that
 * channel is signalled; then it re-checks its condition.  When nothing
 * can run and no timed sleep is pending, that is a deadlock, reported
 * at once with every task and where it waits.  Time is simulated: it
 * stands still while any task can run, and jumps to the next timeout
 * when none can, so a run does not depend on the machine's speed.
 *
 * All of this lives in the forked child that makes one run; the record
 * goes to the parent through shared memory (explore-internal.h).
 */
/* Bookkeeping here is no scheduling point (<shim/ctl-hook.h>). */
#define SHIM_INTERNAL
#define _GNU_SOURCE	/* pthread_getattr_np(), for ASan */

#include <pthread.h>
#include <stdio.h>
#include <string.h>
#include <ucontext.h>
#include <unistd.h>
#include <sys/mman.h>

#include <linux/kernel.h>
#include <linux/sched.h>
#include <shim/ctl-wmm.h>
#include "../src/shim-explore-api.h"
#include "explore-internal.h"

#if defined(__SANITIZE_ADDRESS__)
#include <sanitizer/asan_interface.h>
#define CTL_ASAN	1
#endif
#if defined(__SANITIZE_THREAD__)
#include <sanitizer/tsan_interface.h>
#define CTL_TSAN	1
#endif

enum { CTL_RUNNABLE, CTL_BLOCKED, CTL_EXITED };

struct ctl_task {
	struct task_struct *p;
	int state;
	const void *chan;
	int op;
	const char *file, *func;
	int line;
	long deadline;		/* simulated ms; 0: untimed */
	long since;
	bool timed_out;
	struct ctl_label pend;	/* what its next transition touches */
	ucontext_t uc;
	void (*fn)(struct task_struct *p);
	/* for the sanitizers: the task's stack and its fiber state */
	void *stack;
	size_t stack_size;
	void *asan_fake_stack;
	void *tsan_fiber;
};

#define CTL_STACK	(256 << 10)

/*
 * No lock: every task runs on the one thread, and a pthread mutex taken
 * in one coroutine and released in another is a bug to ThreadSanitizer.
 */
static struct {
	struct ctl_shared *sh;
	int ntasks, running;
	long now;
	int ev_step;		/* the step the running transition began at */
	uint16_t sleep;		/* DPOR: tasks asleep (their runs explored) */
	struct ctl_task t[CTL_MAX_TASKS];
} ctl;

static const char *const op_names[SHIM_OP_NR] = {
	[SHIM_OP_NONE] = "-",
	[SHIM_OP_SPIN_LOCK] = "spin_lock",
	[SHIM_OP_MUTEX_LOCK] = "mutex_lock",
	[SHIM_OP_TRYLOCK] = "trylock",
	[SHIM_OP_UNLOCK] = "unlock",
	[SHIM_OP_REFCOUNT] = "refcount",
	[SHIM_OP_ATOMIC] = "atomic",
	[SHIM_OP_BARRIER] = "barrier",
	[SHIM_OP_ACQUIRE] = "load_acquire",
	[SHIM_OP_RELEASE] = "store_release",
	[SHIM_OP_READ_ONCE] = "READ_ONCE",
	[SHIM_OP_WRITE_ONCE] = "WRITE_ONCE",
	[SHIM_OP_SET_STATE] = "set_state",
	[SHIM_OP_SCHEDULE] = "schedule",
	[SHIM_OP_WAKE] = "wake_up",
	[SHIM_OP_COMPLETE] = "complete",
	[SHIM_OP_WAIT] = "wait_for_completion",
	[SHIM_OP_SEMAPHORE] = "semaphore",
	[SHIM_OP_MSLEEP] = "msleep",
	[SHIM_OP_YIELD] = "yield",
	[SHIM_OP_KMALLOC] = "kmalloc",
	[SHIM_OP_KFREE] = "kfree",
	[SHIM_OP_KTHREAD] = "kthread",
	[SHIM_OP_IRQ] = "irq",
	[SHIM_OP_BLOCK] = "blocks",
	[SHIM_OP_START] = "start",
	[SHIM_OP_EXIT] = "exit",
	[SHIM_OP_IS_LOCKED] = "is_locked",
	[SHIM_OP_DONE] = "completion_done",
};

const char *shim_op_name(int op)
{
	return op >= 0 && op < SHIM_OP_NR && op_names[op] ? op_names[op] : "?";
}

/* The calling task's slot, or -1 if it is not under control. */
static int me(void)
{
	struct task_struct *p;

	if (!shim_ctl_active)
		return -1;
	p = current;
	return p->shim.ctl_slot - 1;
}

int ctl_self(void)
{
	return me();
}

/* The thread the run's coroutines share: only it runs a controlled task. */
static __thread bool ctl_thread;

int ctl_self_fast(void)
{
	return shim_ctl_active && ctl_thread ? ctl.running : -1;
}

int ctl_ntasks(void)
{
	return ctl.ntasks;
}

struct ctl_shared *ctl_shared_now(void)
{
	return ctl.sh;
}

bool shim_ctl_on(void)
{
	return me() >= 0;
}

long shim_ctl_now_ms(void)
{
	return ctl.now;
}

void shim_ctl_fail(const char *file, int line, const char *title)
{
	struct ctl_shared *sh = ctl.sh;

	snprintf(sh->title, sizeof(sh->title), "%s", title);
	sh->failed = true;
	fflush(NULL);
	_exit(1);
}

/*
 * Under wmm a full barrier joins the model's one global view (every
 * smp_mb is ordered with every other), so an operation that may carry
 * one names that view too, before it runs: a sleeping task's label
 * must say what its transition will touch.  Errs toward dependence:
 * every atomic, though only the value-returning ones are full barriers.
 */
static bool may_fence(int op)
{
	switch (op) {
	case SHIM_OP_ATOMIC:
	case SHIM_OP_REFCOUNT:
	case SHIM_OP_BARRIER:
	case SHIM_OP_SET_STATE:
	case SHIM_OP_WAKE:
	case SHIM_OP_COMPLETE:
	case SHIM_OP_WAIT:
	case SHIM_OP_SEMAPHORE:
	case SHIM_OP_KTHREAD:
	case SHIM_OP_BLOCK:	/* the retry of a wait, a join */
		return true;
	}
	return false;
}

static void record_step(int slot, int op, const void *obj, unsigned int size,
			bool ro, const char *file, int line)
{
	struct ctl_shared *sh = ctl.sh;
	struct ctl_step *s;

	ctl.t[slot].pend = ctl_label_of(op, obj, size, ro);
	if (sh->wmm && may_fence(op)) {
		struct ctl_label *l = &ctl.t[slot].pend;

		if (!l->also)
			l->also = ctl_wmm_fence_obj();
		else
			l->also2 = ctl_wmm_fence_obj();
	}

	if (sh->nsteps == CTL_MAX_STEPS) {
		shim_report(file, line,
			    "explore: more than %d scheduling points in one run (a livelock?)",
			    CTL_MAX_STEPS);
		return;
	}
	s = &sh->st[sh->nsteps++];
	s->file = file;
	s->line = line;
	s->task = (int8_t)slot;
	s->op = (uint8_t)op;
	s->obj = obj;
	s->ro = ro;
	s->next = -1;
	s->choice = -1;
	sh->wnote[sh->nsteps - 1].kind = 0;
}

/*
 * The running transition also signalled @chan (a wake-up on another
 * channel than its own): its label says so, in its second object, or if
 * that is taken (or @chan is NULL: it did what no object names) it
 * becomes dependent with everything.  Either way the sleepers it is now
 * dependent with wake.
 */
static void widen_transition(const void *chan)
{
	struct ctl_label *ev;
	unsigned int s;

	if (ctl.ev_step < 0)
		return;
	ev = &ctl.sh->st[ctl.ev_step].ev;
	if (ev->dep == CTL_DEP_ALL || ctl_names(*ev, chan))
		return;
	if (!chan || (ev->also && ev->also2))
		ev->dep = CTL_DEP_ALL;
	else if (!ev->also)
		ev->also = chan;
	else
		ev->also2 = chan;
	for (s = ctl.sleep; s; s &= s - 1) {
		int q = __builtin_ctz(s);

		if (ctl_dependent(ctl.t[q].pend, *ev))
			ctl.sleep &= (uint16_t)~(1u << q);
	}
}

void ctl_widen_all(void)
{
	if (ctl.sh && me() >= 0)
		widen_transition(NULL);
}

void ctl_touch(const void *obj)
{
	struct ctl_step *k;

	if (!ctl.sh || me() < 0 || ctl.ev_step < 0)
		return;
	k = &ctl.sh->st[ctl.ev_step];
	if (k->ev.dep == CTL_DEP_ALL || ctl_names(k->ev, obj))
		return;
	/* Widened now, it was too narrow while the task slept: ours. */
	if (ctl.sh->mode == CTL_DPOR)
		shim_report(k->file, k->line,
			    "explore: DPOR: %s modified what its label does not name (explorer bug: may_fence())",
			    shim_op_name(k->op));
	widen_transition(obj);
}

/*
 * @c runs its pending operation after step @k (choice @idx, or -1):
 * record it, and for DPOR wake the sleepers it is dependent with.  At the
 * plan's last forced choice the sleep set starts as the plan says.
 */
static void ran(int k, int idx, int c, unsigned int enabled)
{
	struct ctl_shared *sh = ctl.sh;
	struct ctl_label ev = ctl.t[c].pend;
	unsigned int s;

	if (k >= 0) {
		sh->st[k].enabled = (uint16_t)enabled;
		sh->st[k].next = (int8_t)c;
		sh->st[k].ev = ev;
	}
	ctl.ev_step = k;
	ctl_race_transition(c, ev);
	if (sh->mode != CTL_DPOR)
		return;
	if (idx >= 0 && idx == sh->nforced - 1)
		ctl.sleep = sh->dpor_sleep & (uint16_t)~(1u << c);
	for (s = ctl.sleep; s; s &= s - 1) {
		int q = __builtin_ctz(s);

		if (ctl_dependent(ctl.t[q].pend, ev))
			ctl.sleep &= (uint16_t)~(1u << q);
	}
}

/* File names without their directory: the same report on any machine. */
static const char *base(const char *f)
{
	const char *b = f ? strrchr(f, '/') : NULL;

	return b ? b + 1 : f ? f : "?";
}

/* Nothing can run: say who waits where, through the one report path. */
static void deadlock(int self)
{
	char msg[480];
	size_t n;
	int i;

	n = (size_t)snprintf(msg, sizeof(msg), "DEADLOCK: no task can run:");
	for (i = 0; i < ctl.ntasks && n < sizeof(msg); i++) {
		struct ctl_task *t = &ctl.t[i];

		if (t->state != CTL_BLOCKED)
			continue;
		n += (size_t)snprintf(msg + n, sizeof(msg) - n,
				      " %s waits in %s (%s) at %s:%d;",
				      t->p->comm, t->func ? t->func : "?",
				      shim_op_name(t->op), base(t->file), t->line);
	}
	shim_report(ctl.t[self].file, ctl.t[self].line, "%s", msg);
	/* An expected deadlock still ends the run: nothing can go on. */
	shim_ctl_fail(__FILE__, __LINE__, msg);
}

/* No task runnable: jump the clock to the earliest timeout, if any. */
static bool advance_clock(void)
{
	long next = 0;
	int i;

	for (i = 0; i < ctl.ntasks; i++) {
		struct ctl_task *t = &ctl.t[i];

		if (t->state == CTL_BLOCKED && t->deadline &&
		    (!next || t->deadline < next))
			next = t->deadline;
	}
	if (!next)
		return false;
	if (next > ctl.now)
		ctl.now = next;
	for (i = 0; i < ctl.ntasks; i++) {
		struct ctl_task *t = &ctl.t[i];

		if (t->state == CTL_BLOCKED && t->deadline &&
		    t->deadline <= ctl.now) {
			t->state = CTL_RUNNABLE;
			t->timed_out = true;
		}
	}
	return true;
}

/* The hung-task bound, in simulated time, for untimed sleepers. */
static void check_hung(int self)
{
	unsigned int bound = shim_hung_task_ms();
	int i;

	for (i = 0; i < ctl.ntasks; i++) {
		struct ctl_task *t = &ctl.t[i];

		/* A join is unbounded, as pthread_join() is outside the explorer. */
		if (t->state != CTL_BLOCKED || t->deadline ||
		    t->op == SHIM_OP_KTHREAD || ctl.now - t->since <= (long)bound)
			continue;
		shim_report(t->file, t->line,
			    "INFO: task %s:%d blocked for more than %u ms (simulated) in %s at %s:%d",
			    t->p->comm, t->p->pid, bound, t->func ? t->func : "?",
			    base(t->file), t->line);
		shim_ctl_fail(__FILE__, __LINE__, "hung task (expected)");
	}
}

/*
 * The sanitizers are told of every switch between coroutines, or ASan
 * takes another task's stack for a stack overflow and TSan takes all
 * tasks for one thread (every lock held by one owner).  Under TSan a
 * switch synchronises: on one CPU it is a happens-before edge, and the
 * races of a run are the explorer's to find, not TSan's.
 */
static void fiber_leave(int self, int next, bool for_good)
{
#ifdef CTL_ASAN
	__sanitizer_start_switch_fiber(for_good ? NULL : &ctl.t[self].asan_fake_stack,
				       ctl.t[next].stack, ctl.t[next].stack_size);
#endif
#ifdef CTL_TSAN
	__tsan_switch_to_fiber(ctl.t[next].tsan_fiber, 0);
#endif
	(void)self;
	(void)next;
	(void)for_good;
}

/* Back on @self's stack (or on it the first time). */
static void fiber_arrive(int self)
{
#ifdef CTL_ASAN
	__sanitizer_finish_switch_fiber(ctl.t[self].asan_fake_stack, NULL, NULL);
#endif
	(void)self;
}

/* The first task runs on the thread's own stack. */
static void fiber_adopt_thread(struct ctl_task *t)
{
#ifdef CTL_ASAN
	pthread_attr_t a;

	if (!pthread_getattr_np(pthread_self(), &a)) {
		pthread_attr_getstack(&a, &t->stack, &t->stack_size);
		pthread_attr_destroy(&a);
	}
#endif
#ifdef CTL_TSAN
	t->tsan_fiber = __tsan_get_current_fiber();
#endif
	(void)t;
}

static void fiber_new(struct ctl_task *t)
{
#ifdef CTL_TSAN
	t->tsan_fiber = __tsan_create_fiber(0);
#endif
	(void)t;
}

/* Before its stack is unmapped: the next mapping there starts clean. */
static void fiber_destroy(struct ctl_task *t)
{
#ifdef CTL_ASAN
	if (t->stack)
		__asan_unpoison_memory_region(t->stack, t->stack_size);
#endif
#ifdef CTL_TSAN
	if (t->tsan_fiber)
		__tsan_destroy_fiber(t->tsan_fiber);
#endif
	(void)t;
}

/* Who runs next after @self's step. */
static int pick(int self)
{
	struct ctl_shared *sh = ctl.sh;
	unsigned int enabled = 0;
	int i, cur, c;

	for (;;) {
		for (i = 0; i < ctl.ntasks; i++)
			if (ctl.t[i].state == CTL_RUNNABLE)
				enabled |= 1u << i;
		if (enabled)
			break;
		if (!advance_clock())
			deadlock(self);
		check_hung(self);
	}
	cur = enabled & (1u << self) ? self : -1;
	if (!(enabled & (enabled - 1))) {
		c = __builtin_ctz(enabled);
		ran(sh->nsteps - 1, -1, c, enabled);
		return c;
	}
	if (sh->nchoices == CTL_MAX_CHOICES) {
		c = ctl_default_choice(enabled, cur);
		ran(sh->nsteps - 1, -1, c, enabled);
		return c;
	}
	i = sh->nchoices++;
	sh->ch[i].sleep = ctl.sleep;
	sh->ch[i].value = false;
	c = ctl_strategy_choose(sh, i, enabled, cur, self);
	if (c < 0 || !(enabled & (1u << c))) {
		/* A replayed schedule that no longer fits this program. */
		sh->diverged = true;
		c = ctl_default_choice(enabled, cur);
	}
	sh->ch[i].enabled = (uint16_t)enabled;
	sh->ch[i].cur = (int8_t)cur;
	sh->ch[i].chosen = (int8_t)c;
	if (sh->nsteps)
		sh->st[sh->nsteps - 1].choice = (int16_t)i;
	ran(sh->nsteps - 1, i, c, enabled);
	return c;
}

int ctl_choose_value(unsigned int n, int op, const char *file, int line)
{
	struct ctl_shared *sh = ctl.sh;
	int self = me(), i, c;

	if (self < 0)
		return 0;
	record_step(self, op, NULL, 0, false, file, line);
	if (n <= 1 || sh->nchoices == CTL_MAX_CHOICES)
		return 0;
	i = sh->nchoices++;
	/*
	 * DPOR explores every option of a value choice; the sleep set is
	 * the transition's, whichever option it takes.
	 */
	if (sh->mode == CTL_DPOR && i == sh->nforced - 1)
		ctl.sleep = sh->dpor_sleep;
	sh->ch[i].sleep = ctl.sleep;
	sh->ch[i].value = true;
	c = ctl_strategy_choose(sh, i, (1u << n) - 1, 0, self);
	if (c < 0 || c >= (int)n) {
		sh->diverged = true;
		c = 0;
	}
	sh->ch[i].enabled = (uint16_t)((1u << n) - 1);
	sh->ch[i].cur = 0;
	sh->ch[i].chosen = (int8_t)c;
	sh->st[sh->nsteps - 1].choice = (int16_t)i;
	return c;
}

/* Run @next until it hands the CPU back. */
static void switch_to(int self, int next)
{
	ctl.running = next;
	if (next == self)
		return;
	shim_set_current(ctl.t[next].p);
	fiber_leave(self, next, false);
	swapcontext(&ctl.t[self].uc, &ctl.t[next].uc);
	fiber_arrive(self);
}

void shim_ctl_point_sized(enum shim_op op, const void *obj, unsigned int size,
			  bool ro, const char *file, int line)
{
	int self = me();

	if (self < 0)
		return;
	record_step(self, op, obj, size, ro, file, line);
	switch_to(self, pick(self));
	/* The marked access itself: an event for the race detector. */
	switch (op) {
	case SHIM_OP_READ_ONCE:
	case SHIM_OP_WRITE_ONCE:
	case SHIM_OP_ACQUIRE:
	case SHIM_OP_RELEASE:
	case SHIM_OP_ATOMIC:
		ctl_race_marked(obj, size, !ro, file, line);
		break;
	case SHIM_OP_REFCOUNT:
		ctl_race_marked(obj, 4, !ro, file, line);
		break;
	default:
		break;
	}
}

void shim_ctl_point(enum shim_op op, const void *obj, bool ro,
		    const char *file, int line)
{
	shim_ctl_point_sized(op, obj, 0, ro, file, line);
}

static void block(int self, const void *chan, long ms, enum shim_op op,
		  const char *file, int line, const char *func)
{
	struct ctl_task *t = &ctl.t[self];

	t->state = CTL_BLOCKED;
	t->chan = chan;
	t->op = op;
	t->file = file;
	t->line = line;
	t->func = func;
	t->since = ctl.now;
	t->deadline = ms > 0 ? ctl.now + ms : 0;
	t->timed_out = false;
	/*
	 * Its retry touches the channel; a timed one may instead run because
	 * the clock passed its deadline, which happens only when no task can
	 * run: everything.  Naming its channel and the clock instead passes
	 * every differential test, as does naming nothing at all: no
	 * scenario tells the three apart (dep_timed_wait, dep_timed_tie), so
	 * the narrower label is not taken.  Its cost, measured: README.md.
	 */
	record_step(self, SHIM_OP_BLOCK, ms > 0 ? NULL : chan, 0, false, file, line);
	switch_to(self, pick(self));
	/* Woken through @chan: what its signaller did before, happened before. */
	ctl_race_acquire(self, chan);
	t->deadline = 0;
	t->chan = NULL;
}

void shim_ctl_block(const void *chan, enum shim_op op, const char *file,
		    int line, const char *func)
{
	int self = me();

	if (self < 0)
		return;
	block(self, chan, 0, op, file, line, func);
}

bool shim_ctl_block_timed(const void *chan, long ms, enum shim_op op,
			  const char *file, int line, const char *func)
{
	int self = me();
	bool expired;

	if (self < 0)
		return true;
	block(self, chan, ms > 0 ? ms : 1, op, file, line, func);
	expired = ctl.t[self].timed_out;
	return expired;
}

/* Every task waiting on @chan may run again; none runs before the next point. */
void shim_ctl_signal(const void *chan)
{
	int i;

	if (!shim_ctl_active)
		return;
	ctl_race_release(me(), chan);
	widen_transition(chan);
	for (i = 0; i < ctl.ntasks; i++) {
		struct ctl_task *t = &ctl.t[i];

		if (t->state == CTL_BLOCKED && t->chan == chan)
			t->state = CTL_RUNNABLE;
	}
}

static int add_task(struct task_struct *p, int state)
{
	struct ctl_task *t;
	int slot;

	if (ctl.ntasks == CTL_MAX_TASKS) {
		shim_report(__FILE__, __LINE__, "explore: more than %d tasks",
			    CTL_MAX_TASKS);
		return -1;
	}
	slot = ctl.ntasks++;
	t = &ctl.t[slot];
	memset(t, 0, sizeof(*t));
	t->p = p;
	t->state = state;
	p->shim.ctl_slot = slot + 1;
	snprintf(ctl.sh->names[slot], sizeof(ctl.sh->names[slot]), "%s", p->comm);
	ctl.sh->ntasks = ctl.ntasks;
	return slot;
}

static void trampoline(int slot)
{
	struct ctl_task *t = &ctl.t[slot];

	fiber_arrive(slot);
	t->fn(t->p);
	shim_ctl_task_exit(t->p);
}

/*
 * A kthread just made, as a coroutine that will run @fn: it sleeps on
 * itself until its first wake-up.  False if not under the explorer.
 */
bool shim_ctl_task_new(struct task_struct *p, void (*fn)(struct task_struct *p))
{
	struct ctl_task *t;
	int parent = me(), slot;

	if (parent < 0)
		return false;
	slot = add_task(p, CTL_BLOCKED);
	ctl_wmm_task_new(parent, slot);
	ctl_race_task_new(parent, slot);
	t = &ctl.t[slot];
	t->fn = fn;
	getcontext(&t->uc);
	t->uc.uc_stack.ss_sp = mmap(NULL, CTL_STACK, PROT_READ | PROT_WRITE,
				    MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	t->uc.uc_stack.ss_size = CTL_STACK;
	t->uc.uc_link = NULL;
	if (t->uc.uc_stack.ss_sp == MAP_FAILED)
		shim_ctl_fail(__FILE__, __LINE__, "explore: no stack for a task");
	t->stack = t->uc.uc_stack.ss_sp;
	t->stack_size = CTL_STACK;
	fiber_new(t);
	makecontext(&t->uc, (void (*)(void))trampoline, 1, slot);
	ctl.t[slot].chan = p;
	ctl.t[slot].pend = ctl_label_of(SHIM_OP_BLOCK, p, 0, false);
	ctl.t[slot].op = SHIM_OP_KTHREAD;
	ctl.t[slot].file = __FILE__;
	ctl.t[slot].line = __LINE__;
	ctl.t[slot].func = "kthread (never woken)";
	return true;
}

/* The task is done: switch away for good (its stack is never reused). */
void shim_ctl_task_exit(struct task_struct *p)
{
	int self = p->shim.ctl_slot - 1;
	int i;

	if (self < 0 || !shim_ctl_active)
		return;
	/*
	 * Its last transition ran the body's tail and woke its joiner.  With
	 * plain accesses checked (explore-race.c) the tail's plain code is
	 * either ordered by what the labels name or a reported data race,
	 * so the transition names the joiner's channel only, and under wmm
	 * the model's view too (the exit's barrier); without, the tail's
	 * plain accesses are unnamed: dependent with everything.
	 */
	if (ctl_race_on() && ctl.sh->wmm)
		widen_transition(ctl_wmm_fence_obj());
	widen_transition(ctl_race_on() ? &p->shim.exited : NULL);
	record_step(self, SHIM_OP_EXIT, p, 0, false, __FILE__, __LINE__);
	shim_ctl_wmm_mb();	/* what it did is seen by whoever joins it */
	ctl_race_release(self, &p->shim.exited);
	ctl.t[self].state = CTL_EXITED;
	for (i = 0; i < ctl.ntasks; i++)
		if (ctl.t[i].state == CTL_BLOCKED && ctl.t[i].chan == &p->shim.exited)
			ctl.t[i].state = CTL_RUNNABLE;
	ctl.running = pick(self);
	shim_set_current(ctl.t[ctl.running].p);
	fiber_leave(self, ctl.running, true);
	setcontext(&ctl.t[ctl.running].uc);
}

/* The run is over (its kthreads returned): free their stacks. */
void shim_ctl_stop(void)
{
	int i;

	shim_ctl_install(NULL);
	ctl_wmm_stop();
	for (i = 1; i < ctl.ntasks; i++) {
		fiber_destroy(&ctl.t[i]);
		if (ctl.t[i].uc.uc_stack.ss_sp)
			munmap(ctl.t[i].uc.uc_stack.ss_sp, CTL_STACK);
	}
	current->shim.ctl_slot = 0;
	ctl.ntasks = 0;
}

/* What the shim's sources may call: the one door (<shim/ctl-hook.h>). */
static const struct shim_ctl_ops ctl_ops = {
	.point = shim_ctl_point_sized,
	.block = shim_ctl_block,
	.block_timed = shim_ctl_block_timed,
	.signal = shim_ctl_signal,
	.on = shim_ctl_on,
	.task_new = shim_ctl_task_new,
	.alloc = ctl_race_forget,
	.free = ctl_race_free,
	.now_ms = shim_ctl_now_ms,
	.wmm_lock = shim_ctl_wmm_lock,
	.wmm_unlock = shim_ctl_wmm_unlock,
	.wmm_mb = shim_ctl_wmm_mb,
};

/* The calling thread becomes task 0 of a controlled run. */
void shim_ctl_start(struct ctl_shared *sh)
{
	ctl.sh = sh;
	ctl.ntasks = 0;
	ctl.now = 0;
	ctl.ev_step = -1;
	ctl.sleep = 0;
	sh->dpor_blocked = -1;
	ctl_strategy_begin(sh);
	ctl_wmm_start(sh->wmm);
	add_task(current, CTL_RUNNABLE);
	ctl_race_start();
	ctl.t[0].pend = ctl_label_of(SHIM_OP_START, NULL, 0, false);
	fiber_adopt_thread(&ctl.t[0]);
	ctl.running = 0;
	ctl_thread = true;
	shim_ctl_install(&ctl_ops);
}

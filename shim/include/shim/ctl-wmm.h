/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Shim kind: custom - the explorer's weak-memory model, as the kernel
 * headers call it.
 *
 * When a scenario runs under the explorer in wmm mode
 * (SHIM_EXPLORE_MODEL=wmm, shim_explore_opts.model), the marked accesses
 * (READ_ONCE, WRITE_ONCE, acquire/release, atomics) and the barriers do
 * not touch memory directly: they go through the model in
 * shim/explore/explore-wmm.c, which keeps every location's stores in
 * modification order and lets a load read any store its task's view
 * allows; which one is a decision of the schedule.  Otherwise (sc mode,
 * or no explorer) the headers take their ordinary path, and these
 * functions are never called.  The shim's own sources (SHIM_INTERNAL)
 * never use the model: their accesses are bookkeeping.
 */
#ifndef _SHIM_CTL_WMM_H
#define _SHIM_CTL_WMM_H

#include <stdbool.h>

/* The ordering an access carries, as the LKMM names them. */
enum shim_mo {
	SHIM_MO_ONCE,		/* READ_ONCE, WRITE_ONCE, _relaxed, void atomics */
	SHIM_MO_ACQUIRE,	/* smp_load_acquire, _acquire */
	SHIM_MO_RELEASE,	/* smp_store_release, _release */
	SHIM_MO_MB,		/* value-returning atomics, xchg, cmpxchg */
};

enum shim_fence {
	SHIM_FENCE_MB,		/* smp_mb, mb__before/after_atomic, after_spinlock */
	SHIM_FENCE_RMB,
	SHIM_FENCE_WMB,
};

enum shim_rmw {
	SHIM_RMW_ADD,		/* new = old + a */
	SHIM_RMW_XCHG,		/* new = a */
	SHIM_RMW_CMPXCHG,	/* new = b if old == a; else no store */
	SHIM_RMW_ADD_UNLESS,	/* new = old + a unless old == b */
	SHIM_RMW_AND,
	SHIM_RMW_OR,
};

/*
 * @op's new value from @old and its operands, in @size bytes; false when
 * it stores nothing (a cmpxchg that fails, an add_unless that meets its
 * limit).  One definition for both models (explore-wmm.c, explore-graph.c).
 */
static inline bool shim_rmw_new(enum shim_rmw op, unsigned long long old,
				unsigned long long a, unsigned long long b,
				unsigned int size, unsigned long long *nv)
{
	unsigned long long m = size >= 8 ? ~0ULL : (1ULL << (size * 8)) - 1;
	unsigned long long v;

	switch (op) {
	case SHIM_RMW_ADD:
		v = old + a;
		break;
	case SHIM_RMW_XCHG:
		v = a;
		break;
	case SHIM_RMW_CMPXCHG:
		if ((old & m) != (a & m))
			return false;
		v = b;
		break;
	case SHIM_RMW_ADD_UNLESS:
		if ((old & m) == (b & m))
			return false;
		v = old + a;
		break;
	case SHIM_RMW_AND:
		v = old & a;
		break;
	case SHIM_RMW_OR:
		v = old | a;
		break;
	default:
		return false;
	}
	*nv = v & m;
	return true;
}

#if defined(SHIM_INTERNAL)
#define shim_ctl_wmm_on()	0
#else
extern int shim_ctl_wmm;
#define shim_ctl_wmm_on()	__builtin_expect(shim_ctl_wmm, 0)
#endif

/*
 * A scheduling point, then a load of @size bytes at @p into @val: the
 * store read is the schedule's choice among those the task may see.
 * @dep: the handle of a load the address depends on (-1: none).
 * Returns the handle of the store read, for a later address dependency.
 */
int shim_ctl_load(const volatile void *p, unsigned int size, void *val,
		  enum shim_mo mo, int dep, const char *file, int line);
/* The same, relaxed, returning the value (short, for atomic_read()). */
unsigned long long shim_ctl_load_val(const volatile void *p, unsigned int size,
				     int line);
/* A scheduling point, then a store; where it goes in the location's
 * modification order (after what its task has seen) is a choice. */
void shim_ctl_store(volatile void *p, unsigned int size, const void *val,
		    enum shim_mo mo, const char *file, int line);
/* A read-modify-write: reads the newest store; the old value in @old. */
void shim_ctl_rmw(volatile void *p, unsigned int size, enum shim_rmw op,
		  unsigned long long a, unsigned long long b, void *old,
		  enum shim_mo mo, const char *file, int line);
void shim_ctl_fence(enum shim_fence f, const char *file, int line);

/*
 * A full barrier of the model, with no scheduling point (the caller has
 * had its own): set_current_state(), wake_up_process(), completions,
 * semaphores, refcounts and a task's exit and join are modelled as
 * smp_mb (stronger than the LKMM for the release/acquire ones).
 */
void shim_ctl_wmm_mb(void);

/* Locks (shim/src/lock.c): acquire and release on the lock's own location. */
void shim_ctl_wmm_lock(const void *lock, const char *file, int line);
void shim_ctl_wmm_unlock(const void *lock, const char *file, int line);
/* spin_is_locked() as the LKMM sees it: a load of the lock's location. */
bool shim_ctl_wmm_is_locked(const void *lock, const char *file, int line);

/*
 * RCU as a grace period: synchronize_rcu() waits for every reader in a
 * read-side section when it starts; readers that start later see what
 * preceded its start, readers that ended are seen by what follows it.
 * Under sc only the waiting remains.
 */
void shim_ctl_rcu_read_lock(const char *file, int line);
void shim_ctl_rcu_read_unlock(const char *file, int line);
void shim_ctl_synchronize_rcu(const char *file, int line);

/* The macros' path: a load or store of the lvalue @x through the model. */
#define __shim_wmm_load(x, mo) ({					\
	__typeof__(__atomic_load_n(&(x), __ATOMIC_RELAXED)) __wv;	\
	shim_ctl_load(&(x), sizeof(x), &__wv, (mo), -1, __FILE__, __LINE__); \
	__wv;								\
})
#define __shim_wmm_store(x, v, mo) do {					\
	__typeof__(x) __wv = (v);					\
	shim_ctl_store(&(x), sizeof(x), &__wv, (mo), __FILE__, __LINE__); \
} while (0)

#endif

/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Shim kind: dup + strict - include/linux/lockdep.h (v6.1), a subset, keep
 *   in sync; strict: a failed lockdep_assert_*() fails the test, and
 *   lockdep never turns itself off after a report.
 *
 * Userspace shim: lock classes.  As in the kernel, a lock initialised at
 * run time gets the class of its initialisation site (a static key
 * there); a statically initialised lock is a class of its own; a class
 * and a subclass (spin_lock_nested(), lockdep_set_subclass()) name one
 * node of the lock order graph, with interrupt usage of its own.
 */
#ifndef _SHIM_LINUX_LOCKDEP_H
#define _SHIM_LINUX_LOCKDEP_H

#include <stdbool.h>

#define MAX_LOCKDEP_SUBCLASSES		8UL
#define SINGLE_DEPTH_NESTING		1

struct lock_class_key {
	char dummy;
};

/* The class of locks lockdep does not validate (the device mutex's). */
extern struct lock_class_key __lockdep_no_validate__;

struct shim_lockdep_map {
	const struct lock_class_key *key;
	const char *name;
	unsigned int subclass;		/* of a plain lock(), set by lockdep_set_subclass() */
	int class_id[MAX_LOCKDEP_SUBCLASSES];	/* per subclass, 0 until first acquired */
};

struct shim_lock;

void shim_lockdep_set_class(struct shim_lock *l, const char *name,
			    const struct lock_class_key *key,
			    unsigned int subclass, const char *file, int line);
bool shim_lockdep_is_held(const void *lock);
void shim_assert_held(const void *lock, const char *file, int line);
void shim_assert_not_held(const void *lock, const char *file, int line);

/* Every lock type of the shim embeds a struct shim_lock as ->l. */
#define lockdep_set_class(lock, key)					\
	shim_lockdep_set_class(&(lock)->l, #key, (key), 0, __FILE__, __LINE__)
#define lockdep_set_class_and_name(lock, key, name)			\
	shim_lockdep_set_class(&(lock)->l, (name), (key), 0, __FILE__, __LINE__)
#define lockdep_set_class_and_subclass(lock, key, sub)			\
	shim_lockdep_set_class(&(lock)->l, #key, (key), (sub), __FILE__, __LINE__)
#define lockdep_set_subclass(lock, sub)					\
	shim_lockdep_set_class(&(lock)->l, #lock, (lock)->l.dep.key, (sub), \
			       __FILE__, __LINE__)
#define lockdep_set_novalidate_class(lock)				\
	lockdep_set_class_and_name(lock, &__lockdep_no_validate__, #lock)
#define lockdep_match_class(lock, k)	((lock)->l.dep.key == (k))

#define lockdep_is_held(l)		shim_lockdep_is_held(l)
#define lockdep_assert_held(l)	shim_assert_held((l), __FILE__, __LINE__)
#define lockdep_assert_not_held(l) shim_assert_not_held((l), __FILE__, __LINE__)
#define lockdep_assert_held_once(l) do {				\
	static bool __warned;						\
	if (!__warned && !shim_lockdep_is_held(l)) {			\
		__warned = true;					\
		shim_assert_held((l), __FILE__, __LINE__);		\
	}								\
} while (0)

#endif

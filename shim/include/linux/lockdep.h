/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Shim kind: dup + strict - include/linux/lockdep.h (v6.1), a subset, keep
 *   in sync; strict: a failed lockdep_assert_held() fails the test.
 *
 * Userspace shim: lock classes.  As in the kernel, a lock initialised at
 * run time gets the class of its initialisation site (a static key
 * there); a statically initialised lock is a class of its own.
 */
#ifndef _SHIM_LINUX_LOCKDEP_H
#define _SHIM_LINUX_LOCKDEP_H

struct lock_class_key {
	char dummy;
};

struct shim_lockdep_map {
	const struct lock_class_key *key;
	const char *name;
	int class_id;			/* 0 until first acquired */
};

void shim_assert_held(const void *lock, const char *file, int line);
#define lockdep_assert_held(l)	shim_assert_held((l), __FILE__, __LINE__)

#endif

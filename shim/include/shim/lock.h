/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Shim kind: custom - the lock under spinlock_t and struct mutex.
 *
 * The one lock the shim builds spinlock_t and struct mutex on: a pthread
 * mutex (so helgrind, DRD and TSan see a real lock) plus the owner and
 * the lockdep class the shim's checks need.
 */
#ifndef _SHIM_SHIM_LOCK_H
#define _SHIM_SHIM_LOCK_H

#include <pthread.h>
#include <linux/lockdep.h>

#define SHIM_LOCK_MAGIC	0x5eed10c5u

struct task_struct;

struct shim_lock {
	pthread_mutex_t m;
	unsigned int magic;
	struct task_struct *owner;
	const char *owner_file;
	int owner_line;
	int nested;			/* expected recursive acquisitions */
	struct shim_lockdep_map dep;
};

#define __SHIM_LOCK_INIT(lockname) {					\
	.m = PTHREAD_MUTEX_INITIALIZER,					\
	.magic = SHIM_LOCK_MAGIC,					\
	.dep = { .name = #lockname },					\
}

enum shim_lock_kind { SHIM_SPIN, SHIM_MUTEX };

void shim_lock_init(struct shim_lock *l, const char *name,
		    const struct lock_class_key *key);
/* @subclass 0 is the lock's own (lockdep_set_subclass(), else 0). */
void shim_lock_acquire(struct shim_lock *l, enum shim_lock_kind kind,
		       unsigned int subclass, const char *file, int line,
		       const char *func);
int shim_lock_try(struct shim_lock *l, enum shim_lock_kind kind,
		  const char *file, int line);
void shim_lock_release(struct shim_lock *l, enum shim_lock_kind kind,
		       const char *file, int line);
bool shim_lock_is_locked(struct shim_lock *l);
/* The same, a scheduling point of its own under the explorer. */
bool __shim_lock_is_locked(struct shim_lock *l, const char *file, int line);

#endif

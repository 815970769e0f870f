/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Shim kind: dup + strict - include/linux/semaphore.h (v6.1), keep in sync;
 *   strict: a down() over the hung-task bound (3 s) fails the test.
 *
 * Userspace shim: counting semaphores (sleeping, hung-task bounded).
 */
#ifndef _SHIM_LINUX_SEMAPHORE_H
#define _SHIM_LINUX_SEMAPHORE_H

#include <pthread.h>

#define SHIM_SEMAPHORE_MAGIC	0x5e3a7043u

struct semaphore {
	pthread_mutex_t m;
	pthread_cond_t c;
	unsigned int count;
	unsigned int magic;		/* initialised: a re-init destroys first */
};

#define __SEMAPHORE_INITIALIZER(name, n) {				\
	.m = PTHREAD_MUTEX_INITIALIZER,					\
	.c = PTHREAD_COND_INITIALIZER,					\
	.count = (n),							\
	.magic = SHIM_SEMAPHORE_MAGIC,					\
}
#define DEFINE_SEMAPHORE(name) \
	struct semaphore name = __SEMAPHORE_INITIALIZER(name, 1)

void sema_init(struct semaphore *sem, int val);
void __shim_down(struct semaphore *sem, const char *file, int line,
		 const char *func);
int down_trylock(struct semaphore *sem);
void up(struct semaphore *sem);

#define down(sem)		__shim_down((sem), __FILE__, __LINE__, __func__)
#define down_interruptible(sem)	({ down(sem); 0; })

#endif

/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Shim kind: dup + strict - include/linux/completion.h (v6.1), keep in sync;
 *   strict: a wait over the hung-task bound (3 s, not 120) fails the test.
 *
 * Userspace shim: completions (sleeping, hung-task bounded).
 */
#ifndef _SHIM_LINUX_COMPLETION_H
#define _SHIM_LINUX_COMPLETION_H

#include <pthread.h>
#include <linux/types.h>

#define SHIM_COMPLETION_MAGIC	0xc0e71e7eu

struct completion {
	pthread_mutex_t m;
	pthread_cond_t c;
	unsigned int done;
	unsigned int magic;		/* initialised: a re-init destroys first */
};

#define COMPLETION_INITIALIZER(work) {					\
	.m = PTHREAD_MUTEX_INITIALIZER,					\
	.c = PTHREAD_COND_INITIALIZER,					\
	.done = 0,							\
	.magic = SHIM_COMPLETION_MAGIC,					\
}
#define DECLARE_COMPLETION(work) \
	struct completion work = COMPLETION_INITIALIZER(work)
#define DECLARE_COMPLETION_ONSTACK(work)	DECLARE_COMPLETION(work)

void init_completion(struct completion *x);
void reinit_completion(struct completion *x);
void complete(struct completion *x);
void complete_all(struct completion *x);
bool try_wait_for_completion(struct completion *x);
bool __shim_completion_done(struct completion *x, const char *file, int line);
/*
 * A read of the completion: a scheduling point of its own (explorer).
 * Only the macro has the kernel's name, so the installed library defines
 * none (install.names).
 */
#define completion_done(x)	__shim_completion_done((x), __FILE__, __LINE__)
void __shim_wait_for_completion(struct completion *x, const char *file,
				int line, const char *func);
unsigned long __shim_wait_for_completion_timeout(struct completion *x,
						 unsigned long timeout,
						 const char *file, int line,
						 const char *func);

#define wait_for_completion(x) \
	__shim_wait_for_completion((x), __FILE__, __LINE__, __func__)
#define wait_for_completion_timeout(x, t) \
	__shim_wait_for_completion_timeout((x), (t), __FILE__, __LINE__, __func__)

#endif

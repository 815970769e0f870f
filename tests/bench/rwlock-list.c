// SPDX-License-Identifier: GPL-2.0
/*
 * list_head + reader-writer lock held for the whole walk: the RFC's
 * subsystem rwsem.  The shim has no rwsem, so a pthread rwlock stands
 * in; it prefers writers because an rwsem queues new readers behind a
 * waiting writer (glibc's default would starve the writer outright).
 */
#include <pthread.h>

typedef pthread_rwlock_t ll_lock_t;

static void ll_init(ll_lock_t *l)
{
	pthread_rwlockattr_t a;

	pthread_rwlockattr_init(&a);
	pthread_rwlockattr_setkind_np(&a,
			PTHREAD_RWLOCK_PREFER_WRITER_NONRECURSIVE_NP);
	pthread_rwlock_init(l, &a);
	pthread_rwlockattr_destroy(&a);
}

#define ll_fini(l)		pthread_rwlock_destroy(l)
#define ll_read_lock(l)		pthread_rwlock_rdlock(l)
#define ll_read_unlock(l)	pthread_rwlock_unlock(l)
#define ll_write_lock(l)	pthread_rwlock_wrlock(l)
#define ll_write_unlock(l)	pthread_rwlock_unlock(l)

#define LL_OPS	bench_rwlock_ops
#define LL_NAME	"rwlock-list"
#define LL_WHAT	"list_head, pthread rwlock (writer-preferring, as an rwsem) held for the whole walk"

#include "locked-list.h"

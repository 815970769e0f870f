// SPDX-License-Identifier: GPL-2.0
/* list_head + one mutex held for the whole walk: walkers serialise too. */
#include <pthread.h>

typedef pthread_mutex_t ll_lock_t;

#define ll_init(l)		pthread_mutex_init((l), NULL)
#define ll_fini(l)		pthread_mutex_destroy(l)
#define ll_read_lock(l)		pthread_mutex_lock(l)
#define ll_read_unlock(l)	pthread_mutex_unlock(l)
#define ll_write_lock(l)	pthread_mutex_lock(l)
#define ll_write_unlock(l)	pthread_mutex_unlock(l)

#define LL_OPS	bench_mutex_ops
#define LL_NAME	"mutex-list"
#define LL_WHAT	"list_head, pthread mutex held for the whole walk"

#include "locked-list.h"

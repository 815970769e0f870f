// SPDX-License-Identifier: GPL-2.0
/*
 * Seeded schedule points.  At lock, unlock, refcount, sleep and wake
 * points the shim may yield the CPU or sleep a few microseconds, so that
 * rare interleavings show up in seconds instead of weeks.
 *
 * Each task draws from its own generator, seeded from the run's seed and
 * the task's pid (pids are handed out in creation order), so a seed
 * fixes every task's sequence of decisions.  It does not fix the OS
 * scheduler: replaying a seed makes the same interleaving likely, not
 * certain.
 *
 * SHIM_SCHED_SEED=N turns them on (0: off); SHIM_SCHED_PERMILLE sets how
 * many points in a thousand act (default 50).
 */
/* Bookkeeping here is no scheduling point (<shim/ctl-hook.h>). */
#define SHIM_INTERNAL

#include <stdlib.h>
#include <sched.h>
#include <time.h>

#include <linux/sched.h>
#include "shim-internal.h"

static unsigned long long run_seed;
static unsigned int permille = 50;
static bool env_read;

static __thread unsigned long long rng;
static __thread unsigned long long rng_seed;	/* run_seed rng was made from */

static unsigned long long splitmix64(unsigned long long *x)
{
	unsigned long long z = (*x += 0x9e3779b97f4a7c15ULL);

	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
	return z ^ (z >> 31);
}

static void read_env(void)
{
	const char *s = getenv("SHIM_SCHED_SEED");
	const char *p = getenv("SHIM_SCHED_PERMILLE");

	if (s)
		WRITE_ONCE(run_seed, strtoull(s, NULL, 0));
	if (p)
		WRITE_ONCE(permille, (unsigned int)atoi(p));
	smp_store_release(&env_read, true);
}

void shim_set_sched_points(unsigned long long seed, unsigned int per_mille)
{
	smp_store_release(&env_read, true);
	WRITE_ONCE(permille, per_mille);
	WRITE_ONCE(run_seed, seed);
}

unsigned long long shim_sched_seed(void)
{
	if (!smp_load_acquire(&env_read))
		read_env();
	return READ_ONCE(run_seed);
}

void shim_sched_point(void)
{
	unsigned long long seed = shim_sched_seed(), r;

	if (!seed)
		return;
	if (rng_seed != seed) {
		rng_seed = seed;
		rng = seed ^ ((unsigned long long)current->pid << 32);
	}
	r = splitmix64(&rng);
	if (r % 1000 >= READ_ONCE(permille))
		return;
	if (r & (1ULL << 20)) {
		sched_yield();
	} else {
		struct timespec ts = { 0, (long)((r >> 32) % 50 + 1) * 1000L };

		nanosleep(&ts, NULL);
	}
}

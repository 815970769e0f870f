// SPDX-License-Identifier: GPL-2.0
/* klist-port-fast, testing: sleeps, and udelay() as a busy wait. */
#include <errno.h>
#include <time.h>

#include <linux/delay.h>

static void sleep_ns(long long ns)
{
	struct timespec ts = { ns / 1000000000LL, ns % 1000000000LL };

	while (nanosleep(&ts, &ts) && errno == EINTR)
		;
}

void msleep(unsigned int ms)
{
	sleep_ns(ms * 1000000LL);
}

void usleep_range(unsigned long min_us, unsigned long max_us)
{
	sleep_ns(min_us * 1000LL);
}

void udelay(unsigned long us)
{
	struct timespec a, b;

	clock_gettime(CLOCK_MONOTONIC, &a);
	do {
		clock_gettime(CLOCK_MONOTONIC, &b);
	} while ((b.tv_sec - a.tv_sec) * 1000000LL +
		 (b.tv_nsec - a.tv_nsec) / 1000 < (long long)us);
}

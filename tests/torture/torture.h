/* SPDX-License-Identifier: GPL-2.0 */
/*
 * What the torture programs share: the pseudo-random generator, the
 * default seed, option parsing, and error accounting (the first error
 * ends the run with the SUMMARY line unless --keep-going, so a run's
 * length is the time to detect).  Each program is one file that
 * includes this once.
 */
#ifndef _TORTURE_H
#define _TORTURE_H

#include <errno.h>
#include <getopt.h>
#include <limits.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>
#include <unistd.h>

#include <linux/atomic.h>
#include <linux/compiler.h>
#include <linux/delay.h>
#include <linux/err.h>
#include <linux/kthread.h>
#ifdef KLIST_PORT_FAST
#include <kfast/kfast.h>
#else
#include <shim/shim.h>
#endif

static struct {
	const char *name;
	bool keep_going;
	atomic_long_t errors;
	void (*print_summary)(void);
} torture;

static inline unsigned long long torture_rnd(unsigned long long *s)
{
	unsigned long long z = (*s += 0x9e3779b97f4a7c15ULL);	/* splitmix64 */

	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
	return z ^ (z >> 31);
}

static inline unsigned long long torture_default_seed(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_REALTIME, &ts);
	return (unsigned long long)ts.tv_nsec ^ ((unsigned long long)getpid() << 20) ^ 1;
}

/* A program's options: a table ended by an empty entry. */
enum torture_arg { TORTURE_UINT, TORTURE_ULONG, TORTURE_ULLONG, TORTURE_FLAG };

struct torture_opt {
	const char *name;	/* --name */
	enum torture_arg arg;
	void *val;		/* unsigned int, long, long long, or bool */
};

#define TORTURE_MAX_OPTS	15

/* The options of a timed run, for a config @c with these fields. */
#define TORTURE_TIMED_RUN_OPTS(c)					\
	{ "duration-ms", TORTURE_UINT, &(c).duration_ms },		\
	{ "seed", TORTURE_ULLONG, &(c).seed },				\
	{ "sched-permille", TORTURE_UINT, &(c).permille },		\
	{ "keep-going", TORTURE_FLAG, &torture.keep_going }

static struct {
	const char *prog;
	const struct torture_opt *opts;
} torture_args;

/* The usage line, made from the table, on @f; exit with @status. */
static void torture_usage_exit(FILE *f, int status)
{
	const struct torture_opt *o;

	fprintf(f, "usage: %s", torture_args.prog);
	for (o = torture_args.opts; o->name; o++)
		fprintf(f, " [--%s%s]", o->name,
			o->arg == TORTURE_FLAG ? "" : " N");
	fputs(" [--help]\n", f);
	exit(status);
}

/* Bad input: the usage line on stderr, exit 2. */
static void torture_usage(void)
{
	torture_usage_exit(stderr, 2);
}

static void torture_set(const struct torture_opt *o, const char *arg)
{
	unsigned long long v;
	char *end;

	if (o->arg == TORTURE_FLAG) {
		*(bool *)o->val = true;
		return;
	}
	errno = 0;
	v = strtoull(arg, &end, 0);
	if (errno || end == arg || *end || arg[0] == '-')
		torture_usage();
	if (o->arg == TORTURE_ULLONG) {
		*(unsigned long long *)o->val = v;
	} else if (o->arg == TORTURE_ULONG && v <= ULONG_MAX) {
		*(unsigned long *)o->val = v;
	} else if (o->arg == TORTURE_UINT && v <= UINT_MAX) {
		*(unsigned int *)o->val = v;
	} else {
		torture_usage();
	}
}

/* Options as @opts says, or the usage line and exit 2. */
static void torture_parse_args(int argc, char **argv,
			       const struct torture_opt *opts)
{
	struct option lopts[TORTURE_MAX_OPTS + 2] = { };
	unsigned int n;
	int c;

	torture_args.prog = argv[0];
	torture_args.opts = opts;
	for (n = 0; opts[n].name; n++) {
		if (n == TORTURE_MAX_OPTS)
			abort();
		lopts[n].name = opts[n].name;
		lopts[n].has_arg = opts[n].arg == TORTURE_FLAG ?
				   no_argument : required_argument;
		lopts[n].val = 256 + (int)n;
	}
	lopts[n].name = "help";
	lopts[n].val = 'h';
	while ((c = getopt_long(argc, argv, "", lopts, NULL)) != -1) {
		if (c == 'h')
			torture_usage_exit(stdout, 0);
		if (c < 256)
			torture_usage();
		torture_set(&opts[c - 256], optarg);
	}
	if (optind < argc)
		torture_usage();
}

static inline void torture_stop_run(void)
{
	torture.print_summary();
	fflush(NULL);
	_exit(1);
}

/* Count an invariant violation; the first one ends the run unless --keep-going. */
static __printf(1, 2) void error(const char *fmt, ...)
{
	va_list ap;

	atomic_long_inc(&torture.errors);
	fprintf(stderr, "%s: ERROR: ", torture.name);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
	if (!torture.keep_going)
		torture_stop_run();
}

/*
 * What the run needs of the runtime under it.  On the checked shim:
 * reports end the run, schedule points are seeded from the run's seed,
 * interrupts can be simulated, and the shim's end-of-test checks count.
 * On the fast flavour (KLIST_PORT_FAST): none of that exists; a WARN
 * (printed on stderr) counts as an error at the end.
 */
#ifdef KLIST_PORT_FAST
static unsigned long torture_warns_before;

static inline void torture_runtime_begin(unsigned long long seed,
					 unsigned int permille)
{
	torture_warns_before = kfast_warn_count();
	printf("%s: fast flavour: no schedule points, no interrupts\n",
	       torture.name);
}

static inline void torture_sched_points_off(void) { }

/* No interrupts to raise: the walk goes without one. */
static inline void torture_raise_irq(void (*fn)(void *), void *data) { }

static inline int torture_runtime_end(void)
{
	unsigned long warns = kfast_warn_count() - torture_warns_before;

	if (warns)
		fprintf(stderr, "%s: ERROR: %lu WARN(s) (see above)\n",
			torture.name, warns);
	return warns != 0;
}
#else
/* A shim report (lockdep, refcount, hung task, ...) always ends the run. */
static void torture_shim_failed(const char *file, int line, const char *title)
{
	atomic_long_inc(&torture.errors);
	fprintf(stderr, "%s: ERROR: shim report at %s:%d: %s\n", torture.name, file,
		line, title);
	torture_stop_run();
}

static inline void torture_runtime_begin(unsigned long long seed,
					 unsigned int permille)
{
	shim_set_fail_handler(torture_shim_failed);
	shim_test_begin(torture.name);
	shim_set_sched_points(seed, permille);
}

static inline void torture_sched_points_off(void)
{
	shim_set_sched_points(0, 0);
}

static inline void torture_raise_irq(void (*fn)(void *), void *data)
{
	shim_raise_irq(fn, data);
}

static inline int torture_runtime_end(void)
{
	return shim_test_end();
}
#endif

/*
 * Let the run's @n threads go for @ms, then raise @stop, stop each one
 * and switch the schedule points off for the final checks.
 */
static inline void torture_run_threads(unsigned int ms, atomic_t *stop,
				       struct task_struct **threads, unsigned int n)
{
	unsigned int i;

	msleep(ms);
	atomic_set(stop, 1);
	for (i = 0; i < n; i++)
		if (!IS_ERR(threads[i]))
			kthread_stop(threads[i]);
	torture_sched_points_off();
}

/* Start a run: reports go through us, schedule points seeded from @seed. */
static inline void torture_begin(const char *name, void (*print_summary)(void),
				 unsigned long long seed, unsigned int permille)
{
	torture.name = name;
	torture.print_summary = print_summary;
	setvbuf(stdout, NULL, _IOLBF, 0);
	torture_runtime_begin(seed, permille);
	printf("%s: seed=%llu (replay with --seed %llu)\n", name, seed, seed);
}

#endif

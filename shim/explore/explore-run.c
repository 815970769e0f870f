// SPDX-License-Identifier: GPL-2.0
/*
 * shim_explore(): the parent side.  Schedules run in forked children,
 * so a crash, a guard fault or a report only ends a child.  A fork costs
 * milliseconds here, so a child runs a batch of schedules, one after
 * the other: a run that passed left nothing behind (the end-of-test
 * checks say so: no allocation, kthread, lock or expectation left), and
 * task numbers are reset, so the next run starts as from a fresh fork.
 * The strategy's state (the depth-first stack, the seeds) is in the
 * mapping shared with the child, which advances it after each passing
 * run; a failing run ends the child, and the parent takes it from there.
 * The failure shown is always a fresh child's replay.  The first failure is minimised (its deviations from
 * the default schedule dropped one by one while it still fails), then
 * replayed with its output shown and printed as an interleaving.
 */
/* Bookkeeping here is no scheduling point (<shim/ctl-hook.h>). */
#define SHIM_INTERNAL

#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <sys/mman.h>
#include <sys/wait.h>

#include <linux/kernel.h>
#include <linux/kthread.h>
#include <linux/slab.h>
#include "../src/shim-explore-api.h"
#include "explore-internal.h"

#define BATCH	256	/* schedules per child */

/* Shared with the children. */
struct explore_shm {
	struct ctl_shared sh;
	struct dfs dfs;
	bool use_dpor;			/* the DPOR search, else the DFS */
	struct dpor dpor;
	unsigned long total;		/* schedules started */
	unsigned long space;		/* ... at the current bound */
	unsigned long max_runs;
	double deadline;		/* now_ms() at which to stop */
	bool exhausted;			/* dfs_next() found no more */
	bool seeded;			/* PCT or random, else the DFS plan */
	unsigned long long next_seed;
	int steps;			/* PCT's k: longest run yet, in choices */
	unsigned int max_steps;
	bool outcomes;			/* collect them, into the set below */
	bool outcomes_overflow;
	unsigned int noutcomes;
	struct shim_explore_outcome outcome[SHIM_EXPLORE_MAX_OUTCOMES];
};

static struct explore_shm *shm;
static struct ctl_shared *sh;
static struct ctl_shared first;	/* the first failing run's record */

static double now_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1e3 + ts.tv_nsec / 1e6;
}

struct body {
	void (*fn)(void *ctx);
	void *ctx;
};

static int body_main(void *data)
{
	struct body *b = data;

	b->fn(b->ctx);
	return 0;
}

static void reset_record(void)
{
	sh->nchoices = 0;
	sh->nsteps = 0;
	sh->ntasks = 0;
	sh->failed = false;
	sh->diverged = false;
	sh->fingerprint = 0;
	sh->title[0] = '\0';
}

/* One run of @sc under the plan in sh, in a child; returns if it passed. */
static void run_inline(const struct shim_scenario *sc)
{
	struct task_struct *t[SHIM_EXPLORE_MAX_BODIES];
	struct body b[SHIM_EXPLORE_MAX_BODIES];
	void *ctx;
	int i, n = 0;

	reset_record();
	alarm(30);	/* a run that never ends is a bug of ours: stop it */
	/*
	 * What a passing run can leave for the next one in its batch:
	 * lockdep's order graph and usage bits (forgotten here), task
	 * numbers (reset by the batch), reports, log, hooks and the
	 * allocator's generation (shim_test_begin()), the simulated clock
	 * (shim_ctl_start()).  Everything else a run makes it must undo,
	 * or the end-of-test checks fail it.  A verdict still depends on
	 * its schedule alone only if a fresh child agrees: see replays().
	 */
	shim_lockdep_forget();
	shim_test_begin(sc->name);
	snprintf(current->comm, sizeof(current->comm), "main");
	shim_ctl_start(sh);
	ctx = sc->setup ? sc->setup() : NULL;
	for (i = 0; i < SHIM_EXPLORE_MAX_BODIES && sc->body[i]; i++) {
		b[i].fn = sc->body[i];
		b[i].ctx = ctx;
		t[i] = kthread_create(body_main, &b[i], "T%d", i + 1);
		n++;
	}
	for (i = 0; i < n; i++)
		wake_up_process(t[i]);
	for (i = 0; i < n; i++)
		shim_kthread_wait_exit(t[i]);
	/* The bodies are done: memory holds every location's last store. */
	ctl_wmm_stop();
	if (sc->fingerprint)
		sh->fingerprint = sc->fingerprint(ctx);
	if (sc->check)
		sc->check(ctx);
	if (shim_test_end())
		shim_ctl_fail(__FILE__, __LINE__, "end-of-test checks failed");
	shim_ctl_stop();
}

#if defined(__SANITIZE_ADDRESS__)
#include <sanitizer/asan_interface.h>

/* ASan ends the run before the shim's guard sees it: name its report. */
static void asan_died(void)
{
	const char *what = __asan_get_report_description();

	snprintf(sh->title, sizeof(sh->title), "AddressSanitizer: %s",
		 what ? what : "a report");
	sh->failed = true;
}
#endif

static void child_begin(bool verbose)
{
#if defined(__SANITIZE_ADDRESS__)
	__sanitizer_set_death_callback(asan_died);
#endif
	if (!verbose) {
		int fd = open("/dev/null", O_WRONLY);

		dup2(fd, 1);
		dup2(fd, 2);
	}
	shim_set_fail_handler(shim_ctl_fail);
}

/* The child of a single run: one run; never returns. */
static void child(const struct shim_scenario *sc, bool verbose)
{
	child_begin(verbose);
	run_inline(sc);
	fflush(NULL);
	_exit(0);
}

/* Addresses masked: a batch child's report and a fresh one's hash alike. */
static unsigned long report_hash(const char *t)
{
	unsigned long h = 1469598103934665603UL;

	if (!*t)
		return 0;
	while (*t) {
		if (t[0] == '0' && t[1] == 'x') {
			t += 2 + strspn(t + 2, "0123456789abcdefABCDEF");
			continue;
		}
		h = (h ^ (unsigned char)*t++) * 1099511628211UL;
	}
	return h | 1;
}

struct shim_explore_outcome ctl_outcome(const struct ctl_shared *s)
{
	return (struct shim_explore_outcome){
		.fingerprint = s->fingerprint,
		.report = s->failed ? report_hash(s->title) : 0,
	};
}

static int outcome_cmp(const struct shim_explore_outcome *a,
		       const struct shim_explore_outcome *b)
{
	if (a->fingerprint != b->fingerprint)
		return a->fingerprint < b->fingerprint ? -1 : 1;
	if (a->report != b->report)
		return a->report < b->report ? -1 : 1;
	return 0;
}

bool ctl_outcome_add(struct shim_explore_outcome *set, unsigned int *n,
		     unsigned int max, struct shim_explore_outcome o)
{
	unsigned int i, j;

	for (i = 0; i < *n && outcome_cmp(&set[i], &o) < 0; i++)
		;
	if (i < *n && !outcome_cmp(&set[i], &o))
		return true;
	if (*n == max)
		return false;
	for (j = *n; j > i; j--)
		set[j] = set[j - 1];
	set[i] = o;
	(*n)++;
	return true;
}

static void note_outcome(void)
{
	if (!ctl_outcome_add(shm->outcome, &shm->noutcomes,
			     SHIM_EXPLORE_MAX_OUTCOMES, ctl_outcome(sh)))
		shm->outcomes_overflow = true;
}

/* The search in use (DPOR or the DFS) takes a run's record, ... */
static bool search_record(void)
{
	return shm->use_dpor ? dpor_record(&shm->dpor, sh) :
	       dfs_record(&shm->dfs, sh);
}

/* ... and writes the next plan into sh; false when it has run dry. */
static bool search_next(void)
{
	return shm->use_dpor ? dpor_next(&shm->dpor, sh) :
	       dfs_next(&shm->dfs, sh);
}

/* A batch child: runs and advances the strategy until a failure ends it. */
static void batch_child(const struct shim_scenario *sc)
{
	int pids = shim_pids_mark(), i;

	child_begin(false);
	for (i = 0; i < BATCH; i++) {
		if (shm->total >= shm->max_runs || now_ms() >= shm->deadline)
			break;
		shm->total++;
		shm->space++;
		if (shm->seeded) {
			sh->seed = shm->next_seed++;
			sh->pct_steps = shm->steps ? shm->steps : 50;
		}
		shim_pids_reset(pids);
		run_inline(sc);
		if (shm->outcomes)
			note_outcome();
		if (sh->nchoices > shm->steps)
			shm->steps = sh->nchoices;
		if ((unsigned int)sh->nsteps > shm->max_steps)
			shm->max_steps = (unsigned int)sh->nsteps;
		if (shm->seeded)
			continue;
		if (!search_record())
			shim_ctl_fail(__FILE__, __LINE__,
				      "explore: the run diverged from its schedule (nondeterminism in the scenario?)");
		if (!search_next()) {
			shm->exhausted = true;
			break;
		}
	}
	_exit(0);
}

/*
 * One schedule (@batch false), or a batch of them; true if the (last)
 * run failed, and then sh has it and its title says how.
 */
static bool fork_run(const struct shim_scenario *sc, bool batch, bool verbose)
{
	int status = 0;
	pid_t pid;

	reset_record();
	fflush(NULL);
	pid = fork();
	if (pid < 0) {
		perror("explore: fork");
		exit(2);
	}
	if (pid == 0 && batch)
		batch_child(sc);
	if (pid == 0)
		child(sc, verbose);
	while (waitpid(pid, &status, 0) < 0)
		;
	if (WIFEXITED(status) && WEXITSTATUS(status) == 0 && !sh->failed)
		return false;
	if (!sh->failed) {
		if (WIFSIGNALED(status))
			snprintf(sh->title, sizeof(sh->title), "run killed by signal %d (%s)",
				 WTERMSIG(status), strsignal(WTERMSIG(status)));
		else
			snprintf(sh->title, sizeof(sh->title), "run exited with status %d",
				 WEXITSTATUS(status));
		sh->failed = true;
	}
	return true;
}

struct ctl_shared *ctl_shared_get(void)
{
	if (!shm) {
		/*
		 * Set the allocator up here, once, not in every child: its
		 * pools and the libraries it loads are then inherited.
		 */
		kfree(kmalloc(1, GFP_KERNEL));
		shm = mmap(NULL, sizeof(*shm), PROT_READ | PROT_WRITE,
			   MAP_SHARED | MAP_ANONYMOUS, -1, 0);
		if (shm == MAP_FAILED) {
			perror("explore: mmap");
			exit(2);
		}
		sh = &shm->sh;
	}
	return sh;
}

bool ctl_run_fresh(const struct shim_scenario *sc)
{
	return fork_run(sc, false, false);
}

static void plan_default(void)
{
	sh->mode = CTL_FOLLOW;
	sh->nforced = 0;
}

/* The plan that makes the recorded run's deviations, less the @skip-th. */
static int plan_from_record(int skip)
{
	int i, dev = 0, kept = 0;

	for (i = 0; i < sh->nchoices; i++)
		sh->forced[i] = -1;
	for (i = 0; i < sh->nchoices; i++) {
		const struct ctl_choice *c = &sh->ch[i];

		if (c->chosen == ctl_default_choice(c->enabled, c->cur))
			continue;
		if (dev++ == skip)
			continue;
		sh->forced[i] = c->chosen;
		kept++;
	}
	sh->mode = CTL_FOLLOW;
	sh->nforced = sh->nchoices;
	return dev;
}

/*
 * Two reports of one failure: the same text but for addresses (0x...),
 * which differ between a batch child and a fresh one (guarded blocks).
 */
static bool same_report(const char *a, const char *b)
{
	for (;;) {
		if (a[0] == '0' && a[1] == 'x' && b[0] == '0' && b[1] == 'x') {
			a += 2 + strspn(a + 2, "0123456789abcdefABCDEF");
			b += 2 + strspn(b + 2, "0123456789abcdefABCDEF");
			continue;
		}
		if (*a != *b)
			return false;
		if (!*a)
			return true;
		a++;
		b++;
	}
}

/*
 * The recorded run's schedule, run again in a fresh child: true if it
 * fails there with the report @title.  A failure seen in a batch that
 * does not is state left by an earlier run: an explorer fault.
 */
static bool replays(const struct shim_scenario *sc, const char *title)
{
	plan_from_record(-1);
	return fork_run(sc, false, false) && !sh->diverged &&
	       same_report(sh->title, title);
}

/*
 * Drop deviations while the run still fails with the same report: fewer
 * preemptions, shorter story, the same failure.  Each kept run replaces
 * the record, so indices stay right.  Leaves the minimised plan in sh
 * and its string in @out.
 */
static void minimise(const struct shim_scenario *sc, char *out, size_t len)
{
	static struct ctl_shared best;
	double end = now_ms() + 3000;
	int j = 0, runs = 0;

	best = *sh;
	ctl_encode(sc->name, &best, out, len);
	for (;;) {
		int dev;

		*sh = best;
		dev = plan_from_record(j);
		if (j >= dev || runs >= 400 || now_ms() > end)
			break;
		runs++;
		if (fork_run(sc, false, false) && !sh->diverged &&
		    same_report(sh->title, best.title)) {
			best = *sh;	/* the same failure without it: keep that */
			continue;
		}
		j++;
	}
	*sh = best;
	ctl_encode(sc->name, &best, out, len);
	plan_from_record(-1);
}

static const char *strategy_name(const struct shim_explore_opts *o, char *buf,
				 size_t len)
{
	switch (o->strategy) {
	case SHIM_EXPLORE_DFS:
		snprintf(buf, len, "dfs k<=%u", o->bound);
		break;
	case SHIM_EXPLORE_PCT:
		snprintf(buf, len, "pct d=%u", o->depth ? o->depth : 3);
		break;
	case SHIM_EXPLORE_RANDOM:
		snprintf(buf, len, "random");
		break;
	case SHIM_EXPLORE_DPOR:
		snprintf(buf, len, "dpor");
		break;
	default:
		snprintf(buf, len, "replay");
	}
	if (sh->wmm)
		snprintf(buf + strlen(buf), len - strlen(buf), ", wmm");
	return buf;
}

/* Replay the minimised failure with its output, and print it. */
static void show_failure(const struct shim_scenario *sc,
			 struct shim_explore_result *r, bool quiet)
{
	char seen[sizeof(r->title)];

	/* Never printed as a failure unless a fresh child fails the same way. */
	snprintf(seen, sizeof(seen), "%s", r->title);
	if (!replays(sc, seen)) {
		ctl_encode(sc->name, &first, r->schedule, sizeof(r->schedule));
		snprintf(r->title, sizeof(r->title),
			 "EXPLORER FAULT: schedule %.120s failed (%.120s) but in a fresh child %.120s",
			 r->schedule, seen, sh->failed ? sh->title : "passes");
		r->fault = true;
		fprintf(stderr, "explore: %s: %s\n", sc->name, r->title);
		return;
	}
	minimise(sc, r->schedule, sizeof(r->schedule));
	if (quiet) {
		fork_run(sc, false, false);
		r->trace_hash = ctl_hash(sh);
		/* A fresh child's report, as every replay's (not a batch's). */
		snprintf(r->title, sizeof(r->title), "%s", sh->title);
		return;
	}
	fprintf(stderr, "explore: %s: FAILED: %s\n", sc->name, r->title);
	fprintf(stderr, "explore: %s: minimised schedule (%d preemptions), replayed:\n",
		sc->name, ctl_preemptions(sh));
	fork_run(sc, false, true);
	r->trace_hash = ctl_hash(sh);
	snprintf(r->title, sizeof(r->title), "%s", sh->title);
	fprintf(stderr, "explore: schedule %s\n", r->schedule);
	fprintf(stderr, "explore: replay with SHIM_SCHEDULE='%s' (or shim_explore_opts.replay)\n",
		r->schedule);
	fprintf(stderr, "explore: the interleaving (one line per scheduling point, * = preemption):\n");
	ctl_render(sh, stderr);
}

static void note_failure(const struct shim_scenario *sc,
			 struct shim_explore_result *r, double start)
{
	if (shm->outcomes)
		note_outcome();
	r->failures++;
	/* The child died before it could count the failing run's steps. */
	if ((unsigned int)sh->nsteps > shm->max_steps)
		shm->max_steps = (unsigned int)sh->nsteps;
	if (r->first_failure)
		return;
	r->first_failure = shm->total;
	r->first_failure_ms = now_ms() - start;
	snprintf(r->title, sizeof(r->title), "%s", sh->title);
	first = *sh;
}

static bool over_budget(const struct shim_explore_opts *o,
			const struct shim_explore_result *r, double start)
{
	return shm->total >= shm->max_runs || now_ms() >= shm->deadline;
}

/*
 * Runs the search's plans until it runs dry (true), or until the budget
 * or a failure stops it (false).
 */
static bool explore_until_dry(const struct shim_scenario *sc,
			      const struct shim_explore_opts *o,
			      struct shim_explore_result *r, double start)
{
	shm->exhausted = false;
	for (;;) {
		if (over_budget(o, r, start))
			return false;
		if (!fork_run(sc, true, false)) {
			if (shm->exhausted)
				return true;
			continue;
		}
		/* A failed run: the child left the search to us. */
		if (!sh->title[0] || !strstr(sh->title, "diverged"))
			search_record();
		note_failure(sc, r, start);
		if (o->stop_on_failure)
			return false;
		if (!search_next())
			return true;
	}
}

static void explore_dfs(const struct shim_scenario *sc,
			const struct shim_explore_opts *o,
			struct shim_explore_result *r, double start)
{
	unsigned int k = o->iterate ? 0 : o->bound;

	for (; k <= o->bound; k++) {
		dfs_reset(&shm->dfs, k);
		plan_default();
		shm->space = 0;
		if (!explore_until_dry(sc, o, r, start))
			return;
		r->bound_done = (int)k;
	}
	r->covered = true;
}

/* Source-DPOR (explore-dpor.c): no bound; covered when it runs dry. */
static void explore_dpor(const struct shim_scenario *sc,
			 const struct shim_explore_opts *o,
			 struct shim_explore_result *r, double start)
{
	shm->use_dpor = true;
	dpor_reset(&shm->dpor, sh);
	if (explore_until_dry(sc, o, r, start))
		r->covered = true;
}

static void explore_seeded(const struct shim_scenario *sc,
			   const struct shim_explore_opts *o,
			   struct shim_explore_result *r, double start)
{
	shm->seeded = true;
	shm->next_seed = o->seed ? o->seed : 1;
	shm->steps = 0;
	sh->mode = o->strategy == SHIM_EXPLORE_PCT ? CTL_PCT : CTL_RANDOM;
	sh->pct_depth = o->depth ? (int)o->depth : 3;
	while (!over_budget(o, r, start)) {
		if (!fork_run(sc, true, false))
			continue;
		note_failure(sc, r, start);
		if (o->stop_on_failure)
			return;
	}
}

const char *shim_explore_schedule_error(const struct shim_scenario *sc,
					const char *schedule)
{
	static struct ctl_shared scratch;

	return ctl_decode(schedule, sc->name, &scratch);
}

bool shim_explore_model_of(const struct shim_explore_opts *o, bool *wmm)
{
	const char *env = getenv("SHIM_EXPLORE_MODEL");

	*wmm = o->model == SHIM_EXPLORE_MODEL_WMM;
	if (o->model != SHIM_EXPLORE_MODEL_DEFAULT || !env || !*env)
		return true;
	*wmm = !strcmp(env, "wmm");
	return *wmm || !strcmp(env, "sc");
}

unsigned long shim_explore(const struct shim_scenario *sc,
			   const struct shim_explore_opts *opts,
			   struct shim_explore_result *r)
{
	struct shim_explore_opts o = *opts;
	const char *env = getenv("SHIM_SCHEDULE");
	double start = now_ms();
	char sname[32];
	int i;

	memset(r, 0, sizeof(*r));
	r->bound_done = -1;
	ctl_shared_get();
	if (!shim_explore_model_of(&o, &sh->wmm)) {
		fprintf(stderr, "explore: SHIM_EXPLORE_MODEL must be sc or wmm\n");
		exit(2);
	}
	r->wmm = sh->wmm;
	shm->total = 0;
	shm->space = 0;
	shm->seeded = false;
	shm->use_dpor = false;
	shm->max_steps = 0;
	shm->outcomes = o.outcomes;
	shm->outcomes_overflow = false;
	shm->noutcomes = 0;
	shm->max_runs = o.max_schedules ? o.max_schedules : 100000;
	shm->deadline = start + (o.max_ms ? o.max_ms : 20000);
	if (env && !strncmp(env, sc->name, strlen(sc->name)) &&
	    env[strlen(sc->name)] == '/') {
		o.strategy = SHIM_EXPLORE_REPLAY;
		o.replay = env;
	}
	if (o.strategy == SHIM_EXPLORE_REPLAY) {
		const char *err = o.replay ? ctl_decode(o.replay, sc->name, sh) :
			"no schedule string";

		if (err) {
			fprintf(stderr, "explore: %s: cannot replay '%s': %s\n",
				sc->name, o.replay ? o.replay : "", err);
			r->failures = 1;
			snprintf(r->title, sizeof(r->title), "bad schedule: %s", err);
			return 1;
		}
		fork_run(sc, false, !o.quiet);
		r->schedules = 1;
		r->max_steps = (unsigned int)sh->nsteps;
		r->trace_hash = ctl_hash(sh);
		/* A choice forced beyond the last one made: it fits no more. */
		for (i = sh->nchoices; i < sh->nforced; i++)
			if (sh->forced[i] >= 0)
				sh->diverged = true;
		r->diverged = sh->diverged;
		if (sh->diverged)
			fprintf(stderr, "explore: %s: the schedule does not fit this program: it diverged\n",
				sc->name);
		if (sh->failed) {
			r->failures = r->first_failure = 1;
			snprintf(r->title, sizeof(r->title), "%s", sh->title);
		}
		ctl_encode(sc->name, sh, r->schedule, sizeof(r->schedule));
		r->ms = now_ms() - start;
		if (!o.quiet) {
			fprintf(stderr, "explore: %s: replay of %s: %s\n", sc->name,
				o.replay, sh->failed ? sh->title : "passed");
			ctl_render(sh, stderr);
		}
		return r->failures;
	}
	if (o.strategy == SHIM_EXPLORE_DFS)
		explore_dfs(sc, &o, r, start);
	else if (o.strategy == SHIM_EXPLORE_DPOR)
		explore_dpor(sc, &o, r, start);
	else
		explore_seeded(sc, &o, r, start);
	r->ms = now_ms() - start;
	r->schedules = shm->total;
	r->space = shm->space;
	if (shm->use_dpor) {
		r->traces = shm->dpor.traces;
		r->traces_overflow = shm->dpor.seen_full;
		r->sleep_blocked = shm->dpor.blocked;
		if (!r->covered)
			r->estimate = r->schedules / dpor_progress(&shm->dpor);
	}
	r->max_steps = shm->max_steps;
	r->noutcomes = shm->noutcomes;
	r->outcomes_overflow = shm->outcomes_overflow;
	memcpy(r->outcomes, shm->outcome, sizeof(r->outcomes));
	if (r->first_failure) {
		/* Back to the first failure's record: minimise and show it. */
		*sh = first;
		show_failure(sc, r, o.quiet);
	}
	if (!o.quiet) {
		fprintf(stderr, "explore: %s: %s: %lu schedules (longest %u steps), %lu failures",
			sc->name, strategy_name(&o, sname, sizeof(sname)),
			r->schedules, r->max_steps, r->failures);
		if (r->first_failure)
			fprintf(stderr, ", first at schedule %lu after %.3f s",
				r->first_failure, r->first_failure_ms / 1e3);
		if (o.strategy == SHIM_EXPLORE_DPOR && r->covered)
			fprintf(stderr, ", covered: all %lu%s traces (%lu schedules sleep-set blocked)",
				r->traces, r->traces_overflow ? "+" : "",
				r->sleep_blocked);
		else if (o.strategy == SHIM_EXPLORE_DPOR && r->first_failure &&
			 o.stop_on_failure)
			fprintf(stderr, ", stopped at the first failure (%lu traces before it)",
				r->traces);
		else if (o.strategy == SHIM_EXPLORE_DPOR)
			fprintf(stderr, ", not covered: budget spent (%lu%s traces seen; about %.2g schedules in all, by the search tree's progress)",
				r->traces, r->traces_overflow ? "+" : "",
				r->estimate);
		else if (o.strategy == SHIM_EXPLORE_DFS && r->covered)
			fprintf(stderr, ", covered: all %lu schedules with at most %u preemptions",
				r->space, o.bound);
		else if (o.strategy == SHIM_EXPLORE_DFS && r->first_failure &&
			 o.stop_on_failure)
			fprintf(stderr, ", stopped at the first failure (bound %d covered before it)",
				r->bound_done);
		else if (o.strategy == SHIM_EXPLORE_DFS)
			fprintf(stderr, ", not covered: budget spent (bound %d covered)",
				r->bound_done);
		else
			fprintf(stderr, ", not exhaustive");
		fprintf(stderr, ", %.3f s\n", r->ms / 1e3);
	}
	return r->failures;
}

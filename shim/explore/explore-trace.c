// SPDX-License-Identifier: GPL-2.0
/*
 * Schedules as strings, and runs as readable interleavings.
 *
 * A schedule string is "SCENARIO/" and the choices that differ from the
 * default, each "CHOICE.TASK" (at the CHOICE-th point where more than one
 * task could run, TASK ran), comma-separated; "SCENARIO/-" is the
 * default schedule.  A run made from it takes the same steps every time:
 * the tasks run one at a time and nothing else decides.
 */
/* Bookkeeping here is no scheduling point (<shim/ctl-hook.h>). */
#define SHIM_INTERNAL

#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "explore-internal.h"

int ctl_encode(const char *name, const struct ctl_shared *sh, char *buf,
	       size_t len)
{
	size_t n = (size_t)snprintf(buf, len, "%s/", name);
	int i, dev = 0;

	for (i = 0; i < sh->nchoices && n < len; i++) {
		const struct ctl_choice *c = &sh->ch[i];

		if (c->chosen == ctl_default_choice(c->enabled, c->cur))
			continue;
		n += (size_t)snprintf(buf + n, len - n, "%s%d.%d", dev ? "," : "",
				      i, c->chosen);
		dev++;
	}
	if (!dev && n < len)
		n += (size_t)snprintf(buf + n, len - n, "-");
	/* SHIM_EXPLORE_SCHEDULE_MAX holds every schedule: never cut short. */
	if (n >= len) {
		fprintf(stderr, "explore: BUG: schedule string of %s longer than %zu bytes\n",
			name, len);
		abort();
	}
	return dev;
}

const char *ctl_decode(const char *s, const char *name, struct ctl_shared *sh)
{
	const char *slash = strchr(s, '/');
	char *end;
	int i;

	if (!slash)
		return "no '/' in the schedule string";
	if ((size_t)(slash - s) != strlen(name) || strncmp(s, name, strlen(name)))
		return "the schedule is another scenario's";
	sh->mode = CTL_FOLLOW;
	sh->nforced = 0;
	s = slash + 1;
	if (!strcmp(s, "-") || !*s)
		return NULL;
	for (;;) {
		long idx = strtol(s, &end, 10), task;

		if (end == s || *end != '.' || idx < 0 || idx >= CTL_MAX_CHOICES)
			return "bad CHOICE.TASK";
		s = end + 1;
		task = strtol(s, &end, 10);
		if (end == s || task < 0 || task >= CTL_MAX_TASKS)
			return "bad task number";
		for (i = sh->nforced; i < idx; i++)
			sh->forced[i] = -1;
		if (idx >= sh->nforced)
			sh->nforced = (int)idx + 1;
		sh->forced[idx] = (int8_t)task;
		s = end;
		if (!*s)
			return NULL;
		if (*s++ != ',')
			return "expected ','";
	}
}

unsigned long ctl_hash(const struct ctl_shared *sh)
{
	unsigned long h = 1469598103934665603UL;
	int i;

	for (i = 0; i < sh->nsteps; i++) {
		const struct ctl_step *s = &sh->st[i];

		h = (h ^ (unsigned long)s->task) * 1099511628211UL;
		h = (h ^ s->op) * 1099511628211UL;
		h = (h ^ (unsigned long)s->line) * 1099511628211UL;
	}
	/* The report, less its addresses: the same on any machine. */
	for (i = 0; sh->failed && sh->title[i]; i++) {
		if (sh->title[i] == '0' && sh->title[i + 1] == 'x') {
			for (i += 2; isxdigit((unsigned char)sh->title[i]); i++)
				;
			if (!sh->title[i])
				break;
		}
		h = (h ^ (unsigned char)sh->title[i]) * 1099511628211UL;
	}
	return h;
}

#define COL	34

static const char *base(const char *f)
{
	const char *b = f ? strrchr(f, '/') : NULL;

	return b ? b + 1 : f ? f : "?";
}

static void cell(FILE *out, const struct ctl_shared *sh, int i, int task)
{
	const struct ctl_step *s = &sh->st[i];
	char buf[96];

	const struct ctl_wnote *w = &sh->wnote[i];
	char who[sizeof(sh->names[0])];

	snprintf(who, sizeof(who), w->from < 0 ? "init" : "T%d", w->from);
	if (w->from >= 0 && w->from < sh->ntasks)
		snprintf(who, sizeof(who), "%s", sh->names[(int)w->from]);
	if (w->kind == 1)
		snprintf(buf, sizeof(buf), "  :%d read %lld <-%s", s->line,
			 w->val, who);
	else if (w->kind == 2)
		snprintf(buf, sizeof(buf), "  :%d store %lld%s", s->line, w->val,
			 w->pos ? " (mo-early)" : "");
	else if (w->kind == 3)
		snprintf(buf, sizeof(buf), "  :%d rmw %lld", s->line, w->val);
	else
		snprintf(buf, sizeof(buf), "%s %s:%d", shim_op_name(s->op),
			 base(s->file), s->line);
	for (int t = 0; t < sh->ntasks; t++)
		fprintf(out, "%-*.*s", COL, COL - 1, t == task ? buf : ".");
	fputc('\n', out);
}

/*
 * One line per step in the column of the task that took it; a "*" marks
 * a preemption (the task could have gone on).  Long runs of one task
 * are cut to their first two and last three steps.
 */
void ctl_render(const struct ctl_shared *sh, FILE *out)
{
	int i, t;

	fprintf(out, "%6s ", "step");
	for (t = 0; t < sh->ntasks; t++)
		fprintf(out, "%-*.*s", COL, COL - 1, sh->names[t]);
	fputc('\n', out);
	for (i = 0; i < sh->nsteps;) {
		int task = sh->st[i].task, j = i;

		while (j < sh->nsteps && sh->st[j].task == task)
			j++;
		for (int k = i; k < j; k++) {
			const struct ctl_step *s = &sh->st[k];
			bool pre = s->choice >= 0 &&
				sh->ch[s->choice].cur >= 0 &&
				sh->ch[s->choice].chosen != sh->ch[s->choice].cur;

			if (j - i > 6 && k == i + 2) {
				fprintf(out, "%6s ", "");
				for (t = 0; t < sh->ntasks; t++)
					fprintf(out, "%-*s", COL, t == task ?
						"  ..." : ".");
				fputc('\n', out);
				k = j - 4;
				continue;
			}
			fprintf(out, "%5d%c ", k, pre ? '*' : ' ');
			cell(out, sh, k, task);
		}
		i = j;
	}
	if (sh->failed)
		fprintf(out, "  => %s\n", sh->title);
}

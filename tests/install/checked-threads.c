// SPDX-License-Identifier: GPL-2.0
/*
 * The checked flavour in a program of its own: many short pthreads that
 * each use a klist leave no task struct behind (LeakSanitizer checks at
 * exit), and with an argument, a misuse by the main thread is reported
 * under the main task's name ($SHIM_MAIN_TASK_NAME) and aborts.
 */
#include <klist-port/klist.h>
#include <pthread.h>
#include <stdio.h>

#define NTHREADS 2000

static struct klist list;

static void *user(void *arg)
{
	struct klist_node n = KLIST_NODE_INIT;

	(void)arg;
	klist_add_tail(&n, &list);
	klist_remove(&n);
	return NULL;
}

int main(int argc, char **argv)
{
	int i;

	(void)argv;
	klist_init(&list, NULL, NULL);
	if (argc > 1) {
		klist_del(NULL);	/* a report: aborts */
		return 0;
	}
	for (i = 0; i < NTHREADS; i++) {
		pthread_t t;

		if (pthread_create(&t, NULL, user, NULL) || pthread_join(t, NULL))
			return 1;
	}
	printf("checked flavour: %d threads used a klist: ok\n", NTHREADS);
	return 0;
}

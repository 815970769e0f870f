// SPDX-License-Identifier: GPL-2.0
/*
 * The race tools' canary on the fast runtime: the runtime tells helgrind,
 * DRD and ThreadSanitizer about its lock and wake-ups (kfast/annotate.h),
 * so a clean run means something only if a real race is still reported.
 *
 *   kfast-race-canary race    an adder sets a device's field after
 *                             klist_add_tail() has published it, while
 *                             a walker reads it: must be reported;
 *   kfast-race-canary clean   the same with the field set before the add:
 *                             must not be.
 */
#include <pthread.h>
#include <stdio.h>
#include <string.h>

#include <linux/klist.h>

struct device {
	struct klist_node node;
	int id;
};

static DEFINE_KLIST(devices, NULL, NULL);
static struct device dev;
static int planted;

static void *adder(void *arg)
{
	if (!planted)
		dev.id = 42;
	klist_add_tail(&dev.node, &devices);
	if (planted)
		dev.id = 42;	/* the planted race: written after publishing */
	return NULL;
}

static void *walker(void *arg)
{
	struct klist_iter it;
	struct klist_node *n;
	int seen = 0;

	while (!seen) {
		klist_iter_init(&devices, &it);
		while ((n = klist_next(&it)))
			seen += container_of(n, struct device, node)->id;
		klist_iter_exit(&it);
	}
	return NULL;
}

int main(int argc, char **argv)
{
	pthread_t a, w;

	if (argc != 2 || (strcmp(argv[1], "race") && strcmp(argv[1], "clean"))) {
		fprintf(stderr, "usage: %s race|clean\n", argv[0]);
		return 2;
	}
	planted = !strcmp(argv[1], "race");
	pthread_create(&w, NULL, walker, NULL);
	pthread_create(&a, NULL, adder, NULL);
	pthread_join(a, NULL);
	pthread_join(w, NULL);
	klist_remove(&dev.node);
	printf("kfast-race-canary %s: done\n", argv[1]);
	return 0;
}

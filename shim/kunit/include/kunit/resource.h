/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Shim kind: dup - include/kunit/resource.h (v6.1), a subset, keep in sync.
 *
 * Test-managed resources: freed, last added first, when the case ends
 * (after exit()), or earlier with kunit_destroy_resource().  A resource
 * is reference counted; kunit_find_resource() and
 * kunit_alloc_and_get_resource() return a reference the caller puts.
 */
#ifndef _SHIM_KUNIT_RESOURCE_H
#define _SHIM_KUNIT_RESOURCE_H

#include <kunit/test.h>
#include <linux/errno.h>
#include <linux/kref.h>
#include <linux/list.h>

struct kunit_resource;

typedef int (*kunit_resource_init_t)(struct kunit_resource *, void *);
typedef void (*kunit_resource_free_t)(struct kunit_resource *);

struct kunit_resource {
	void *data;
	const char *name;
	kunit_resource_free_t free;

	/* private: internal use only. */
	struct kref refcount;
	struct list_head node;
	bool should_kfree;
};

void kunit_release_resource(struct kref *kref);

/*
 * 6.1 kzalloc()s the bookkeeping; here it comes from the C library so
 * that the shim's allocation counts (shim_live_allocs()) see only what
 * the test allocates, as they did before resources were added.
 */
struct kunit_resource *__kunit_resource_new(void);

static inline void kunit_get_resource(struct kunit_resource *res)
{
	kref_get(&res->refcount);
}

static inline void kunit_put_resource(struct kunit_resource *res)
{
	kref_put(&res->refcount, kunit_release_resource);
}

int __kunit_add_resource(struct kunit *test, kunit_resource_init_t init,
			 kunit_resource_free_t free, struct kunit_resource *res,
			 void *data);

static inline int kunit_add_resource(struct kunit *test,
				     kunit_resource_init_t init,
				     kunit_resource_free_t free,
				     struct kunit_resource *res, void *data)
{
	res->should_kfree = false;
	return __kunit_add_resource(test, init, free, res, data);
}

struct kunit_resource *kunit_find_named_resource(struct kunit *test,
						 const char *name);

static inline int kunit_add_named_resource(struct kunit *test,
					   kunit_resource_init_t init,
					   kunit_resource_free_t free,
					   struct kunit_resource *res,
					   const char *name, void *data)
{
	struct kunit_resource *existing;

	if (!name)
		return -EINVAL;
	existing = kunit_find_named_resource(test, name);
	if (existing) {
		kunit_put_resource(existing);
		return -EEXIST;
	}
	res->name = name;
	res->should_kfree = false;
	return __kunit_add_resource(test, init, free, res, data);
}

/* The caller holds a reference to what this returns: kunit_put_resource(). */
static inline struct kunit_resource *
kunit_alloc_and_get_resource(struct kunit *test, kunit_resource_init_t init,
			     kunit_resource_free_t free, gfp_t internal_gfp,
			     void *context)
{
	struct kunit_resource *res = __kunit_resource_new();

	if (!__kunit_add_resource(test, init, free, res, context)) {
		kunit_get_resource(res);
		return res;
	}
	kunit_put_resource(res);
	return NULL;
}

/* Returns the resource's data; the test holds the only reference. */
static inline void *kunit_alloc_resource(struct kunit *test,
					 kunit_resource_init_t init,
					 kunit_resource_free_t free,
					 gfp_t internal_gfp, void *context)
{
	struct kunit_resource *res = __kunit_resource_new();

	if (!__kunit_add_resource(test, init, free, res, context))
		return res->data;
	kunit_put_resource(res);
	return NULL;
}

typedef bool (*kunit_resource_match_t)(struct kunit *test,
				       struct kunit_resource *res,
				       void *match_data);

static inline bool kunit_resource_instance_match(struct kunit *test,
						 struct kunit_resource *res,
						 void *match_data)
{
	return res->data == match_data;
}

static inline bool kunit_resource_name_match(struct kunit *test,
					     struct kunit_resource *res,
					     void *match_name)
{
	return res->name && strcmp(res->name, match_name) == 0;
}

struct kunit_resource *kunit_find_resource(struct kunit *test,
					   kunit_resource_match_t match,
					   void *match_data);
int kunit_destroy_resource(struct kunit *test, kunit_resource_match_t match,
			   void *match_data);

static inline int kunit_destroy_named_resource(struct kunit *test,
					       const char *name)
{
	return kunit_destroy_resource(test, kunit_resource_name_match,
				      (void *)name);
}

void kunit_remove_resource(struct kunit *test, struct kunit_resource *res);

#endif

/* SPDX-License-Identifier: GPL-2.0 */
/*
 * ddm_class.h - classes and class devices of the ddm core.
 *
 * The dynamically allocated class interface of 2005 (Greg Kroah-Hartman:
 * class_create(), class_destroy(), class_device_create(),
 * class_device_destroy()): the class code owns the structures, a driver
 * only holds pointers and device numbers.  A class device has a `dev`
 * attribute with its device number and, when created for a device, a
 * `device` link to that device's object; its "add" event is emitted
 * after both exist (the hotplug split, include/linux/ddm_object.h).
 */
#ifndef _LINUX_DDM_CLASS_H
#define _LINUX_DDM_CLASS_H

#include <linux/ddm_object.h>
#include <linux/kernel.h>
#include <linux/list.h>
#include <linux/mutex.h>
#include <linux/slab.h>

struct module;
struct ddm_device;

/**
 * struct ddm_class - a class: a set of class devices
 * @obj: the class's object; its name is the class's name.
 * @owner: the module that created the class.
 * @mutex: protects @devices and @dead, and orders the events of the
 *	class's devices: a device's "remove" never overtakes its "add".
 * @devices: the class devices, by device number.
 * @dead: ddm_class_destroy() has run.
 *
 * Allocated by ddm_class_create(); not embedded in anything.
 */
struct ddm_class {
	struct ddm_object	obj;
	struct module		*owner;
	struct mutex		mutex;
	struct list_head	devices;
	bool			dead;
};

/**
 * struct ddm_class_device - a device of a class
 * @obj: its object, a child of the class's; @obj.devt is its number.
 * @cls: the class.
 * @node: on @cls->devices, under @cls->mutex.
 *
 * Allocated by ddm_class_device_create(); found by number.
 */
struct ddm_class_device {
	struct ddm_object	obj;
	struct ddm_class	*cls;
	struct list_head	node;
};

struct ddm_class *ddm_class_create(struct module *owner, const char *name);
void ddm_class_destroy(struct ddm_class *cls);
struct ddm_class *ddm_class_get(struct ddm_class *cls);
void ddm_class_put(struct ddm_class *cls);

struct ddm_class_device *__ddm_class_device_create(struct ddm_class *cls,
						   ddm_devt_t devno,
						   struct ddm_device *device,
						   char *name);
int ddm_class_device_destroy(struct ddm_class *cls, ddm_devt_t devno);
struct ddm_class_device *ddm_class_find_device(struct ddm_class *cls,
					       ddm_devt_t devno);
void ddm_class_device_put(struct ddm_class_device *cd);

/**
 * ddm_class_device_create - create a class device and announce it
 * @cls: the class
 * @devno: its device number, not 0, unique within @cls
 * @device: the device it belongs to, registered, or NULL
 * @fmt: printf-style format of its name, then the arguments
 *
 * The name is formatted here, with kasprintf(), so that the function
 * needs no va_list; __ddm_class_device_create() takes the string over.
 *
 * Return: the class device (the class holds it; remove it with
 * ddm_class_device_destroy()), or an ERR_PTR(): -EINVAL for a NULL
 * or ERR_PTR() @cls or a zero @devno, -ENODEV if @cls is destroyed or
 * @device is not registered, -EEXIST if @cls has a device numbered
 * @devno, -ENOMEM.
 */
#define ddm_class_device_create(cls, devno, device, fmt, ...)		\
	__ddm_class_device_create(cls, devno, device,			\
				  kasprintf(GFP_KERNEL, fmt, ##__VA_ARGS__))

/**
 * ddm_class_device_devt - the device number of a class device
 * @cd: the class device
 */
static inline ddm_devt_t ddm_class_device_devt(struct ddm_class_device *cd)
{
	return cd->obj.devt;
}

/**
 * ddm_class_name - the name of a class
 * @cls: the class
 */
static inline const char *ddm_class_name(struct ddm_class *cls)
{
	return ddm_object_name(&cls->obj);
}

#endif /* _LINUX_DDM_CLASS_H */

/* SPDX-License-Identifier: GPL-2.0 */
/*
 * klist-port-fast, testing: what a case on the fast runtime may say
 * about the WARNs it provokes.  Without it, any WARN fails the case.
 */
#ifndef _KFAST_TESTING_H
#define _KFAST_TESTING_H

/* The case provokes exactly @n more WARNs; more or fewer fail it. */
void kfast_test_expect_warns(unsigned long n);

/* WARNs since the case began. */
unsigned long kfast_test_warns(void);

#endif

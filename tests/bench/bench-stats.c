// SPDX-License-Identifier: GPL-2.0
/*
 * Order statistics over the samples the workloads collect: percentiles
 * of sorted integer samples, quantiles of per-round values, and the
 * paired ratios that compare two lists round by round.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "bench-driver.h"

int cmp_u64(const void *a, const void *b)
{
	uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;

	return x < y ? -1 : x > y;
}

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return x < y ? -1 : x > y;
}

/* Nearest-rank percentile of a sorted array. */
uint64_t pct(const uint64_t *s, size_t n, double p)
{
	size_t i;

	if (!n)
		return 0;
	i = (size_t)(p / 100.0 * (double)n + 0.999999);
	if (i < 1)
		i = 1;
	if (i > n)
		i = n;
	return s[i - 1];
}

/* Quantile @q (0..1) of @n values, interpolated; @v is left alone. */
double quantile_d(const double *v, int n, double q)
{
	double *tmp, pos, r;
	int i;

	if (!n)
		return 0;
	tmp = xcalloc(n, sizeof(*tmp));
	memcpy(tmp, v, n * sizeof(*v));
	qsort(tmp, n, sizeof(*tmp), cmp_double);
	pos = q * (n - 1);
	i = (int)pos;
	r = i + 1 < n ? tmp[i] + (pos - i) * (tmp[i + 1] - tmp[i]) : tmp[i];
	free(tmp);
	return r;
}

double median_d(const double *v, int n)
{
	return quantile_d(v, n, 0.5);
}

double min_d(const double *v, int n)
{
	double m = n ? v[0] : 0;
	int i;

	for (i = 1; i < n; i++)
		if (v[i] < m)
			m = v[i];
	return m;
}

/* Quantile over rounds of the paired ratio a/b: drift hits both alike. */
double paired_ratio(double (*m)[MAX_IMPLS][MAX_STEP_ROUNDS], int s,
		    int a, int b, double q)
{
	static double v[MAX_STEP_ROUNDS];
	int r;

	for (r = 0; r < (int)cfg.rounds; r++)
		v[r] = m[s][a][r] / m[s][b][r];
	return quantile_d(v, cfg.rounds, q);
}

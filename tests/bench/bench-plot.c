// SPDX-License-Identifier: GPL-2.0
/*
 * The plots: data files and one gnuplot script, for the parts that
 * ran; gnuplot is run from --out-dir to render the PNGs.  The .dat
 * files have no header lines: gnuplot's $0 and histogram slots would
 * count them.
 */
#include <stdio.h>
#include <unistd.h>
#include <sys/types.h>
#include <sys/wait.h>

#include "bench-driver.h"

static void plot_step(FILE *gp)
{
	FILE *f = out_file("bench-step.dat");
	int s, i;

	fprintf(f, "# impl");
	for (s = 0; s < cfg.nsizes; s++)
		fprintf(f, " ns@%u", cfg.sizes[s]);
	fprintf(f, "\n");
	for (i = 0; i < nimpls; i++) {
		fprintf(f, "%s", impls[i]->name);
		for (s = 0; s < cfg.nsizes; s++)
			fprintf(f, " %.2f", median_d(step_ns[s][i], cfg.rounds));
		fprintf(f, "\n");
	}
	fclose(f);

	/* Log scale: the locked lists' per-node cost is ~50x below a step. */
	fprintf(gp, "\nreset\nload 'bench-style.gp'\nset output 'bench-step.png'\n");
	fprintf(gp, "set title 'Per-step cost of a walk, one thread, no work (median of %u rounds; lower is better)'\n",
		cfg.rounds);
	fprintf(gp, "set ylabel 'ns per node, log (klists: per klist_next)'\n");
	fprintf(gp, "set logscale y\nset format y '%%g'\nset yrange [0.5:*]\n");
	fprintf(gp, "set xrange [-0.6:%d.4]\n", nimpls - 1);
	fprintf(gp, "set style data histograms\nset style histogram clustered gap 1\n");
	fprintf(gp, "plot 'bench-step.dat' using 2:xtic(1) title '%u nodes'", cfg.sizes[0]);
	for (s = 1; s < cfg.nsizes; s++)
		fprintf(gp, ", '' using %d title '%u nodes'", s + 2, cfg.sizes[s]);
	for (s = 0; s < cfg.nsizes; s++)
		fprintf(gp, ", '' using ($0%+.3f):%d:(sprintf('%%.1f', $%d)) with labels offset 0,0.7 notitle",
			(s - (cfg.nsizes - 1) / 2.0) / (cfg.nsizes + 1), s + 2, s + 2);
	fprintf(gp, "\n");
}

/* The per-step ratios with their quartiles, and the targets as lines. */
static void plot_ratios(FILE *gp)
{
	FILE *f = out_file("bench-ratios.dat");
	int s, k, n = 0;

	/* Not the ratios to the mutex list and the rculist (15x or so). */
	for (k = 0; k < SR_FAST_MUTEX; k++) {
		const struct step_ratio *r = &tg.step[k];

		if (!r->have)
			continue;
		if (r->target > 0)
			fprintf(f, "\"%s\\n(<= %.1f)\"", r->label, r->target);
		else
			fprintf(f, "\"%s\"", r->label);
		for (s = 0; s < cfg.nsizes; s++)
			fprintf(f, " %.4f %.4f %.4f", r->med[s], r->q1[s], r->q3[s]);
		fprintf(f, "\n");
		n++;
	}
	fclose(f);
	if (!n)
		return;

	fprintf(gp, "\nreset\nload 'bench-style.gp'\nset output 'bench-ratios.png'\n");
	fprintf(gp, "set terminal pngcairo size 900,560 font ',11' enhanced\n");
	fprintf(gp, "set title 'Per-step cost ratios, paired median of %u rounds, bars: quartiles'\n",
		cfg.rounds);
	fprintf(gp, "set ylabel 'ratio'\nset yrange [0:*]\nset xrange [-0.6:%d.4]\n", n - 1);
	fprintf(gp, "set key inside top right vertical\nset bmargin 4\n");
	fprintf(gp, "set style data histograms\nset style histogram errorbars gap 1 lw 1\n");
	fprintf(gp, "set arrow from graph 0, first 1 to graph 1, first 1 nohead dt 2 lw 1.5\n");
	fprintf(gp, "set arrow from graph 0, first 1.5 to graph 1, first 1.5 nohead dt 3 lw 1.5\n");
	fprintf(gp, "plot 'bench-ratios.dat' using 2:3:4:xtic(1) title '%u nodes'",
		cfg.sizes[0]);
	for (s = 1; s < cfg.nsizes; s++)
		fprintf(gp, ", '' using %d:%d:%d title '%u nodes'", 2 + 3 * s,
			3 + 3 * s, 4 + 3 * s, cfg.sizes[s]);
	for (s = 0; s < cfg.nsizes; s++)
		fprintf(gp, ", '' using ($0%+.3f):%d:(sprintf('%%.2f', $%d)) with labels offset 0,0.7 notitle",
			(s - (cfg.nsizes - 1) / 2.0) / (cfg.nsizes + 1),
			4 + 3 * s, 2 + 3 * s);
	fprintf(gp, "\n");
}

static void plot_tput(FILE *gp)
{
	FILE *f = out_file("bench-throughput.dat");
	unsigned int t;
	int i;

	fprintf(f, "threads");
	for (i = 0; i < nimpls; i++)
		fprintf(f, " %s", impls[i]->name);
	fprintf(f, "\n");
	for (t = 1; t <= cfg.max_threads; t++) {
		fprintf(f, "%u", t);
		for (i = 0; i < nimpls; i++)
			fprintf(f, " %.3f", tput[t][i]);
		fprintf(f, "\n");
	}
	fclose(f);

	fprintf(gp, "\nreset\nload 'bench-style.gp'\nset output 'bench-throughput.png'\n");
	fprintf(gp, "set title 'Walk throughput, %u nodes, %u ns work per node (higher is better; %ld CPUs)'\n",
		cfg.tput_size, cfg.work_ns, sysconf(_SC_NPROCESSORS_ONLN));
	fprintf(gp, "set xlabel 'walker threads'\nset ylabel 'million nodes/s, all walkers together'\n");
	fprintf(gp, "set key outside right top vertical\n");
	fprintf(gp, "set xtics 1\nset xrange [0.8:%u.2]\nset yrange [0:*]\n",
		cfg.max_threads);
	fprintf(gp, "plot for [c=2:%d] 'bench-throughput.dat' using 1:c with linespoints title columnheader(c) lw 2 pt 7\n",
		nimpls + 1);
}

static void plot_lat(FILE *gp)
{
	FILE *f = out_file("bench-writer-latency.dat");
	int s, i;

	for (s = 0; s < cfg.nsizes; s++) {
		fprintf(f, "# %u nodes: impl p50 p99 max (us)\n", cfg.sizes[s]);
		for (i = 0; i < nimpls; i++) {
			struct lat_result *r = &lat[s][i];

			fprintf(f, "%s %.3f %.3f %.3f\n", impls[i]->name,
				us(pct(r->s, r->n, 50)), us(pct(r->s, r->n, 99)),
				us(r->n ? r->s[r->n - 1] : 0));
		}
		fprintf(f, "\n\n");
	}
	fclose(f);

	/* Tail of the largest size: fraction of operations slower than x. */
	f = out_file("bench-writer-ccdf.dat");
	for (i = 0; i < nimpls; i++) {
		struct lat_result *r = &lat[big][i];
		size_t k;

		fprintf(f, "# %s: us, fraction slower\n", impls[i]->name);
		for (k = 0; k < r->n; k++) {
			/* Thin the body, keep every point of the tail. */
			if (k + 1 < r->n && r->n - k > 200 && k % (r->n / 400 + 1))
				continue;
			fprintf(f, "%.3f %.6g\n", us(r->s[k]),
				(double)(r->n - k) / r->n);
		}
		fprintf(f, "\n\n");
	}
	fclose(f);

	fprintf(gp, "\nreset\nload 'bench-style.gp'\nset output 'bench-writer-latency.png'\n");
	fprintf(gp, "set terminal pngcairo size 1200,600 font ',11' noenhanced\n");
	/* Seven names side by side: slant them so they do not overlap. */
	fprintf(gp, "set xtics rotate by -35\n");
	fprintf(gp, "set multiplot layout 1,%d title 'Writer add/delete latency while %u walker%s walk%s (%u ns work/node); lower is better'\n",
		cfg.nsizes, cfg.walkers, cfg.walkers == 1 ? "" : "s",
		cfg.walkers == 1 ? "s" : "", cfg.work_ns);
	fprintf(gp, "set logscale y\nset format y '%%g'\nset ylabel 'microseconds (log)'\n");
	fprintf(gp, "set xrange [-0.6:%d.4]\n", nimpls - 1);
	fprintf(gp, "set style data histograms\nset style histogram clustered gap 1\n");
	for (s = 0; s < cfg.nsizes; s++)
		fprintf(gp, "set title '%u nodes'\nplot 'bench-writer-latency.dat' index %d using 2:xtic(1) title 'p50', '' index %d using 3 title 'p99', '' index %d using 4 title 'max'\n",
			cfg.sizes[s], s, s, s);
	fprintf(gp, "unset multiplot\n");

	fprintf(gp, "\nreset\nload 'bench-style.gp'\nset output 'bench-writer-ccdf.png'\n");
	fprintf(gp, "set title 'Writer latency tail, %u nodes: fraction of adds/deletes slower than x'\n",
		cfg.sizes[big]);
	fprintf(gp, "set logscale xy\nset format x '%%g'\nset format y '%%g'\n");
	fprintf(gp, "set xlabel 'latency, microseconds (log)'\n");
	fprintf(gp, "set ylabel 'fraction of operations (log)'\nset key inside top right vertical\n");
	fprintf(gp, "set grid xtics ytics\nset yrange [*:1.1]\n");
	fprintf(gp, "plot");
	for (i = 0; i < nimpls; i++)
		fprintf(gp, "%s 'bench-writer-ccdf.dat' index %d using 1:2 with lines title '%s' lw 2",
			i ? "," : "", i, impls[i]->name);
	fprintf(gp, "\n");
}

bool write_plots(void)
{
	FILE *gp;

	if (!ran(PART_STEP | PART_TPUT | PART_LAT))
		return false;
	gp = out_file("bench-style.gp");
	fprintf(gp, "set terminal pngcairo size 900,560 font ',11' noenhanced\n");
	fprintf(gp, "set grid ytics\nset border 3\nset tics nomirror\n");
	fprintf(gp, "set key outside bottom center horizontal Left reverse samplen 2\n");
	fprintf(gp, "set style fill solid 0.8 border -1\nset boxwidth 0.9\n");
	fclose(gp);

	gp = out_file("bench.gp");
	fprintf(gp, "# Generated by klist-bench; run from this directory: gnuplot bench.gp\n");
	if (ran(PART_STEP)) {
		plot_step(gp);
		plot_ratios(gp);
	}
	if (ran(PART_TPUT))
		plot_tput(gp);
	if (ran(PART_LAT))
		plot_lat(gp);
	fclose(gp);
	return true;
}

void render_plots(void)
{
	pid_t pid = fork();
	int status;

	if (pid < 0) {
		perror("fork");
		return;
	}
	if (!pid) {
		if (chdir(cfg.out_dir))
			_exit(127);
		execlp("gnuplot", "gnuplot", "bench.gp", (char *)NULL);
		_exit(127);
	}
	waitpid(pid, &status, 0);
	if (WIFEXITED(status) && WEXITSTATUS(status) == 0)
		printf("plots: %s/bench-*.png\n",
		       cfg.out_dir);
	else
		printf("plots: gnuplot failed or is missing; data and bench.gp are in %s\n",
		       cfg.out_dir);
}

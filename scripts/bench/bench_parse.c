/*
 * bench_parse.c - times jh_profile_read alone (no model, no analysis), reading
 * as jeheap does without --thread (split symbol parts, dense pc ids, thread
 * lines checked but not stored), and prints a summary of the profile; built
 * by scripts/bench/parse.sh, not by CMake.
 * Usage: bench_parse FILE...   (prints MB/s of the file size and peak RSS)
 */
#include "jeheap/profile.h"

#include <stdlib.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <time.h>

int main(int argc, char **argv)
{
	for (int i = 1; i < argc; i++) {
		struct jh_profile p;
		struct jh_diag d = {{0}, 0};
		struct timespec t0, t1, c0, c1;
		struct stat st;
		jh_profile_init(&p);
		p.split_symbols = p.dense_pcs = p.no_threads = 1; /* as jh_model_build */
		clock_gettime(CLOCK_MONOTONIC, &t0);
		clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &c0);
		if (jh_profile_read(&p, argv[i], &d) < 0) {
			fprintf(stderr, "jeheap: %s\n", d.msg);
			return d.code;
		}
		clock_gettime(CLOCK_MONOTONIC, &t1);
		clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &c1);
		double secs = (double)(t1.tv_sec - t0.tv_sec) + (double)(t1.tv_nsec - t0.tv_nsec) / 1e9;
		double cpu = (double)(c1.tv_sec - c0.tv_sec) + (double)(c1.tv_nsec - c0.tv_nsec) / 1e9;
		double size = stat(argv[i], &st) == 0 ? (double)st.st_size : 0;
		struct jh_counts tot = {{0}};
		for (size_t s = 0; s < p.nstacks; s++)
			for (int v = 0; v < JH_NVALUES; v++)
				tot.v[v] += p.stacks[s].c.v[v];
		struct rusage ru;
		getrusage(RUSAGE_SELF, &ru);
		printf("%s: %.3f s, %.1f MB/s, peak RSS %.1f MB, file %.1f MB, cpu %.3f s = %.1f MB/s\n",
		       argv[i], secs, size / 1e6 / secs, (double)ru.ru_maxrss / 1024, size / 1e6, cpu,
		       size / 1e6 / cpu);
		printf("  stacks %zu pcs %zu threads %zu tsamples %zu maps %zu syms %zu period %llu\n",
		       p.nstacks, p.npcids, p.nthreads, p.ntsamples, p.nmaps, p.nsyms,
		       (unsigned long long)p.period);
		printf("  inuse %.3f objs %.3f B, alloc %.3f objs %.3f B\n", tot.v[0], tot.v[1],
		       tot.v[2], tot.v[3]);
		jh_profile_release(&p);
	}
	return 0;
}

/*
 * calibrate.c - how fast this machine is right now, in the three costs that
 * bound jeheap's parse benchmark: plain computation, random reads from a
 * table bigger than the caches' share a VM can count on, and first touches
 * of fresh pages. On a shared VM all three move from minute to minute (the
 * random reads most), so parse.sh prints this line next to its timings.
 *   calibrate  ->  "compute 0.26 s, random 8 MB reads 7.9 ns, page fault 2.8 us"
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <time.h>

static double now(void)
{
	struct timespec t;
	clock_gettime(CLOCK_MONOTONIC, &t);
	return (double)t.tv_sec + (double)t.tv_nsec / 1e9;
}

int main(void)
{
	/* 200M dependent multiply-adds */
	double t = now();
	uint64_t h = 1;
	for (long i = 0; i < 200000000; i++)
		h = h * 0x9e3779b97f4a7c15ULL + (h >> 29);
	double compute = now() - t;

	/* 20M independent reads at random places of an 8 MB table */
	size_t n = (size_t)8 << 20, words = n / sizeof(uint64_t);
	uint64_t *a = malloc(n);
	if (!a)
		return 1;
	memset(a, 1, n);
	uint64_t x = 0, sum = 0;
	long reads = 20000000;
	t = now();
	for (long i = 0; i < reads; i++) {
		x = x * 6364136223846793005ULL + 1442695040888963407ULL;
		sum += a[(x >> 20) % words];
	}
	double rnd = now() - t;

	/* first touches of 64 MB of fresh anonymous pages */
	size_t big = (size_t)64 << 20;
	t = now();
	char *p = mmap(NULL, big, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (p == MAP_FAILED)
		return 1;
	for (size_t i = 0; i < big; i += 4096)
		p[i] = 1;
	double fault = now() - t;

	printf("compute %.2f s, random 8 MB reads %.1f ns, page fault %.2f us%s\n", compute,
	       rnd / (double)reads * 1e9, fault / (double)(big / 4096) * 1e6,
	       (h + sum + (uint64_t)p[4096]) == 42 ? " " : "");
	free(a);
	munmap(p, big);
	return 0;
}

/*
 * dwarf_sched.c - range arithmetic for the DWARF resolver (dwarf_sched.h).
 */
#include "dwarf_sched.h"

#include <pthread.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <unistd.h>

#include "jeheap/base.h"

struct endpoint {
	uint64_t addr, key;
	int start;
};

static int cmp_endpoint(const void *a, const void *b)
{
	const struct endpoint *x = a, *y = b;
	if (x->addr != y->addr)
		return x->addr < y->addr ? -1 : 1;
	return x->start - y->start; /* any order gives the same table */
}

/* A multiset of keys as a sorted array with counts: claims are few at once. */
struct kset {
	uint64_t *k;
	size_t n, a;
};

static size_t kset_pos(const struct kset *s, uint64_t key)
{
	size_t lo = 0, hi = s->n;
	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		if (s->k[mid] < key)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo;
}

static void kset_add(struct kset *s, uint64_t key)
{
	size_t p = kset_pos(s, key);
	JH_GROW(s->k, s->n + 1, s->a);
	for (size_t i = s->n; i > p; i--)
		s->k[i] = s->k[i - 1];
	s->k[p] = key;
	s->n++;
}

static void kset_del(struct kset *s, uint64_t key)
{
	size_t p = kset_pos(s, key);
	if (p >= s->n || s->k[p] != key)
		return;
	for (size_t i = p + 1; i < s->n; i++)
		s->k[i - 1] = s->k[i];
	s->n--;
}

size_t jh_sched_disjoint(struct jh_sched_range *in, size_t n)
{
	struct endpoint *ep = xmalloc(jh_st_mult(2 * n + 1, sizeof(*ep)));
	size_t ne = 0;
	for (size_t i = 0; i < n; i++) {
		if (in[i].lo >= in[i].hi)
			continue;
		ep[ne++] = (struct endpoint){ in[i].lo, in[i].key, 1 };
		ep[ne++] = (struct endpoint){ in[i].hi, in[i].key, 0 };
	}
	jh_qsort(ep, ne, sizeof(*ep), cmp_endpoint);
	struct kset valid = { NULL, 0, 0 };
	size_t out = 0;
	uint64_t prev = UINT64_MAX;
	for (size_t i = 0; i < ne; i++) {
		if (prev < ep[i].addr && valid.n) {
			size_t p = out ? kset_pos(&valid, in[out - 1].key) : 0;
			if (out && in[out - 1].hi == prev && p < valid.n &&
			    valid.k[p] == in[out - 1].key)
				in[out - 1].hi = ep[i].addr;
			else
				in[out++] = (struct jh_sched_range){ prev, ep[i].addr, valid.k[0] };
		}
		if (ep[i].start)
			kset_add(&valid, ep[i].key);
		else
			kset_del(&valid, ep[i].key);
		prev = ep[i].addr;
	}
	free(valid.k);
	free(ep);
	return out;
}

uint64_t jh_sched_find(const struct jh_sched_range *r, size_t n, uint64_t addr)
{
	size_t lo = 0, hi = n;
	while (lo < hi) { /* first range with hi > addr */
		size_t mid = lo + (hi - lo) / 2;
		if (r[mid].hi <= addr)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo < n && r[lo].lo <= addr ? r[lo].key : UINT64_MAX;
}

static int cmp_lo(const void *a, const void *b)
{
	const struct jh_sched_range *x = a, *y = b;
	if (x->lo != y->lo)
		return x->lo < y->lo ? -1 : 1;
	return x->key < y->key ? -1 : x->key > y->key;
}

/* max-heap on key */
static void heap_push(struct jh_sched_range *h, size_t *n, struct jh_sched_range v)
{
	size_t i = (*n)++;
	while (i > 0 && h[(i - 1) / 2].key < v.key) {
		h[i] = h[(i - 1) / 2];
		i = (i - 1) / 2;
	}
	h[i] = v;
}

static void heap_pop(struct jh_sched_range *h, size_t *n)
{
	struct jh_sched_range v = h[--(*n)];
	size_t i = 0;
	for (;;) {
		size_t c = 2 * i + 1;
		if (c >= *n)
			break;
		if (c + 1 < *n && h[c + 1].key > h[c].key)
			c++;
		if (h[c].key <= v.key)
			break;
		h[i] = h[c];
		i = c;
	}
	if (*n)
		h[i] = v;
}

void jh_sched_cover(struct jh_sched_range *r, size_t n, const uint64_t *addrs, size_t na,
		    uint64_t *out)
{
	jh_qsort(r, n, sizeof(*r), cmp_lo);
	jh_sched_cover_sorted(r, n, addrs, na, out);
}

void jh_sched_sort_lo(struct jh_sched_range *r, size_t n)
{
	jh_qsort(r, n, sizeof(*r), cmp_lo);
}

void jh_sched_cover_sorted(const struct jh_sched_range *r, size_t n, const uint64_t *addrs,
			   size_t na, uint64_t *out)
{
	struct jh_sched_range *heap = xmalloc(jh_st_mult(n + 1, sizeof(*heap)));
	size_t nh = 0, next = 0;
	for (size_t q = 0; q < na; q++) {
		uint64_t a = addrs[q];
		while (next < n && r[next].lo <= a)
			heap_push(heap, &nh, r[next++]);
		while (nh && heap[0].hi <= a)
			heap_pop(heap, &nh);
		out[q] = nh ? heap[0].key : UINT64_MAX;
	}
	free(heap);
}

struct par {
	size_t n;
	void *ctx;
	void *(*start)(void *);
	void (*run)(void *, void *, size_t);
	void (*stop)(void *, void *);
	atomic_size_t next, done;
};

static void *par_worker(void *arg)
{
	struct par *p = arg;
	void *w = p->start ? p->start(p->ctx) : p->ctx;
	if (!w)
		return NULL;
	for (;;) {
		size_t i = atomic_fetch_add(&p->next, 1);
		if (i >= p->n)
			break;
		p->run(p->ctx, w, i);
		atomic_fetch_add(&p->done, 1);
	}
	if (p->stop)
		p->stop(p->ctx, w);
	return NULL;
}

size_t jh_sched_parallel(size_t n, int jobs, void *ctx, void *(*start)(void *ctx),
			 void (*run)(void *ctx, void *w, size_t i),
			 void (*stop)(void *ctx, void *w))
{
	struct par p = { .n = n, .ctx = ctx, .start = start, .run = run, .stop = stop };
	atomic_init(&p.next, 0);
	atomic_init(&p.done, 0);
	if (jobs <= 0)
		jobs = (int)sysconf(_SC_NPROCESSORS_ONLN);
	if ((size_t)jobs > n)
		jobs = (int)n;
	pthread_t th[64];
	int started = 0;
	for (int t = 1; t < jobs && t < 64; t++)
		if (pthread_create(&th[started], NULL, par_worker, &p) == 0)
			started++;
	par_worker(&p);
	for (int t = 0; t < started; t++)
		pthread_join(th[t], NULL);
	return atomic_load(&p.done);
}

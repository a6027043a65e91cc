/*
 * dwarf_unitlookup.c - answers from a unit index (dwarf_units.h) without
 * the DWARF: each needed unit's blob inflated and decoded, then the very
 * code of jh_dwarf_lookup (the cover sweep, jh_batch_answer) on its
 * tables, one unit at a time on each worker thread.
 */
#include "dwarf_units.h"

#include <pthread.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>
#include <zstd.h>

#define UNIT_MAX ((uint64_t)1 << 30) /* a unit's tables, uncompressed, at most */

struct look {
	const struct jh_unit_index *ix;
	struct jh_batch *b;
	struct jh_unit_strings *keep;
	pthread_mutex_t lock; /* keep */
	atomic_size_t bad;    /* a corrupt unit + 1, 0: none */
};

/* One worker's state. */
struct worker {
	struct jh_intern *strings; /* handed to keep at the end */
	struct jh_u64map display;
	ZSTD_DCtx *dc;
	unsigned char *raw;
	size_t araw;
	uint64_t *qa, *leaf;
	size_t aq, al;
};

struct namer {
	const struct jh_unitblob *b;
	struct jh_intern *strings;
};

static const char *blob_name(void *ctx, uint64_t node, uint32_t *decl_line)
{
	const struct namer *nm = ctx;
	*decl_line = nm->b->decls[node];
	const char *s = nm->b->names[node];
	return s ? jh_intern(nm->strings, s) : NULL;
}

void jh_unit_strings_release(struct jh_unit_strings *k)
{
	for (size_t i = 0; i < k->n; i++) {
		jh_intern_release(k->v[i]);
		free(k->v[i]);
	}
	free(k->v);
	memset(k, 0, sizeof(*k));
}

static void *look_start(void *ctx)
{
	(void)ctx;
	struct worker *w = xcalloc(1, sizeof(*w));
	w->strings = xmalloc(sizeof(*w->strings));
	jh_intern_init(w->strings);
	jh_u64map_init(&w->display);
	w->dc = ZSTD_createDCtx();
	return w;
}

static void look_stop(void *ctx, void *wp)
{
	struct look *l = ctx;
	struct worker *w = wp;
	pthread_mutex_lock(&l->lock);
	JH_GROW(l->keep->v, l->keep->n + 1, l->keep->a);
	l->keep->v[l->keep->n++] = w->strings;
	pthread_mutex_unlock(&l->lock);
	jh_u64map_release(&w->display);
	ZSTD_freeDCtx(w->dc);
	free(w->raw);
	free(w->qa);
	free(w->leaf);
	free(w);
}

/* Inflates and decodes unit u: 0, or -1 when its blob is corrupt. */
static int load_unit(const struct jh_unit_index *ix, size_t u, struct worker *w,
		     struct jh_unitblob *b)
{
	unsigned long long n = ZSTD_getFrameContentSize(ix->blob[u], ix->size[u]);
	if (!w->dc || n == ZSTD_CONTENTSIZE_ERROR || n == ZSTD_CONTENTSIZE_UNKNOWN || n > UNIT_MAX)
		return -1;
	JH_GROW(w->raw, (size_t)n + 1, w->araw);
	size_t got = ZSTD_decompressDCtx(w->dc, w->raw, (size_t)n, ix->blob[u], ix->size[u]);
	return ZSTD_isError(got) || got != n ? -1 : jh_unitblob_decode(w->raw, (size_t)n, b);
}

static void look_run(void *ctx, void *wp, size_t i)
{
	struct look *l = ctx;
	struct worker *w = wp;
	struct jh_batch_task *t = &l->b->tasks[l->b->order[i]];
	if (atomic_load(&l->bad))
		return;
	struct jh_unitblob ub;
	if (load_unit(l->ix, t->unit, w, &ub) != 0) {
		size_t none = 0;
		atomic_compare_exchange_strong(&l->bad, &none, t->unit + 1);
		return;
	}
	size_t nq = t->q1 - t->q0;
	JH_GROW(w->qa, nq, w->aq);
	JH_GROW(w->leaf, nq, w->al);
	for (size_t q = 0; q < nq; q++)
		w->qa[q] = l->b->qs[t->q0 + q].addr;
	jh_sched_cover_sorted(ub.t.w.rv.v, ub.t.w.rv.n, w->qa, nq, w->leaf);
	struct namer nm = { &ub, w->strings };
	for (size_t q = 0; q < nq; q++)
		jh_batch_answer(t, &l->b->qs[t->q0 + q], &ub.t, w->leaf[q], w->strings, &w->display,
				blob_name, &nm);
	jh_unitblob_release(&ub);
}

int jh_unit_index_lookup(const struct jh_unit_index *ix, const uint64_t *addrs, size_t n, int jobs,
			 struct jh_unit_strings *keep, struct jh_dwarf_answer *ans,
			 struct jh_dwarf_frame **frames, size_t *nframes, struct jh_diag *d)
{
	size_t *unit_of = xmalloc(jh_st_mult(n + 1, sizeof(*unit_of)));
	for (size_t i = 0; i < n; i++) {
		uint64_t u = jh_sched_find(ix->ranges, ix->nranges, addrs[i]);
		unit_of[i] = u < ix->nunits ? (size_t)u : SIZE_MAX;
		if (unit_of[i] != SIZE_MAX && !ix->blob[u]) {
			free(unit_of);
			return 1;
		}
	}
	uint64_t *unit_size = xmalloc(jh_st_mult(ix->nunits + 1, sizeof(*unit_size)));
	memcpy(unit_size, ix->size, ix->nunits * sizeof(*unit_size));
	struct jh_batch b;
	jh_batch_init(&b, addrs, unit_of, n, unit_size); /* biggest first, for balance */
	free(unit_of);
	free(unit_size);
	struct look l = { .ix = ix, .b = &b, .keep = keep };
	pthread_mutex_init(&l.lock, NULL);
	atomic_init(&l.bad, 0);
	size_t ntasks = b.ntasks;
	size_t ran = jh_sched_parallel(ntasks, jobs, &l, look_start, look_run, look_stop);
	pthread_mutex_destroy(&l.lock);
	jh_batch_collect(&b, n, ans, frames, nframes); /* frees b */
	size_t bad = atomic_load(&l.bad);
	if (!bad && ran == ntasks)
		return 0;
	free(*frames);
	*frames = NULL;
	*nframes = 0;
	if (!bad)
		return jh_diag_set(d, JH_EXIT_INTERNAL, "unit index", 0, "no worker thread");
	return jh_diag_set(d, JH_EXIT_INPUT, "unit index", 0, "unit %zu is corrupt", bad - 1);
}

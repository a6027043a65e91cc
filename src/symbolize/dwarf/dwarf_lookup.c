/*
 * dwarf_lookup.c - jh_dwarf_open and jh_dwarf_lookup without libdwarf:
 * sections, streaming and the full index's bookkeeping; the addresses
 * grouped by compile unit (dwarf_batch.c), units resolved by worker
 * threads, each with its own libdwarf handles (dwarf_index.c).
 *
 * A big compressed .debug_info is streamed (dwarf_stream.h): open reads
 * .debug_aranges only, and while the section still inflates the first
 * lookup speculates: units come from .debug_aranges alone, are taken in
 * section order, and each waits until its bytes are final; one thread
 * fewer works meanwhile (the inflate has that core), and the last thread
 * builds the full index, unit by unit as they arrive. The answers stand
 * only if the full index puts every address in the same unit (same header
 * and unit DIE) as the speculation did; otherwise the lookup runs again on
 * the full index. Either way the answers are those of the full index.
 * JH_DWARF_STREAM=off|on|guard (tests) overrides when to stream.
 */
#include "dwarf_internal.h"

#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "jeheap/trace.h"

static int cmp_cu_off(const void *key, const void *elem)
{
	uint64_t k = *(const uint64_t *)key, o = ((const struct jh_cu *)elem)->hdr_off;
	return k < o ? -1 : k > o;
}

/* unit_of[i]: index into cus (sorted by hdr_off) of the unit ranges r give addrs[i]. */
static void assign_units(const struct jh_sched_range *r, size_t nr, const struct jh_cu *cus,
			 size_t ncus, const uint64_t *addrs, size_t n, size_t *unit_of)
{
	for (size_t i = 0; i < n; i++) {
		uint64_t off = jh_sched_find(r, nr, addrs[i]);
		const struct jh_cu *cu = off == UINT64_MAX || !ncus
						 ? NULL
						 : bsearch(&off, cus, ncus, sizeof(*cus),
							   cmp_cu_off);
		unit_of[i] = cu ? (size_t)(cu - cus) : SIZE_MAX;
	}
}

/* The speculative units: every header offset r gives an address (die_off unknown). */
static size_t spec_units(const struct jh_sched_range *r, size_t nr, const uint64_t *addrs, size_t n,
			 struct jh_cu **out)
{
	uint64_t *k = xmalloc(jh_st_mult(n + 1, sizeof(*k)));
	size_t nk = 0, nu = 0;
	for (size_t i = 0; i < n; i++)
		if ((k[nk] = jh_sched_find(r, nr, addrs[i])) != UINT64_MAX)
			nk++;
	jh_qsort(k, nk, sizeof(*k), jh_cmp_u64);
	struct jh_cu *cus = xcalloc(nk + 1, sizeof(*cus));
	for (size_t i = 0; i < nk; i++)
		if (!nu || cus[nu - 1].hdr_off != k[i])
			cus[nu++] = (struct jh_cu){ k[i], UINT64_MAX, 0 };
	free(k);
	*out = cus;
	return nu;
}

static const char *const prefetch_names[] = {
	".debug_info",
	".debug_abbrev",
	".debug_line",
	".debug_str",
	".debug_line_str",
	".debug_ranges",
	".debug_rnglists",
	".debug_aranges",
	".debug_addr",
	".debug_str_offsets",
	NULL,
};

struct jh_dwarf *jh_dwarf_open(const struct jh_sections *main, const struct jh_sections *alt,
			       struct jh_diag *d)
{
	d->code = 0;
	d->msg[0] = 0;
	const struct jh_section *info = NULL;
	for (size_t i = 1; i < jh_sections_count(main); i++) {
		const struct jh_section *s = jh_sections_peek(main, i);
		if (!strcmp(s->name, ".debug_info") && s->type != 8 && s->size)
			info = s;
	}
	if (!info)
		return NULL;
	jh_dwarf_init_once();
	struct jh_dwarf *dw = xcalloc(1, sizeof(*dw));
	dw->main = main;
	dw->alt = alt;
	pthread_mutex_init(&dw->pool_lock, NULL);
	pthread_mutex_init(&dw->index_lock, NULL);
	dw->info_idx = jh_sections_index(main, ".debug_info");
	dw->streaming = dw->info_idx && jh_units_stream(main, dw->info_idx) == 0;
	/* the streamed section is left out; the rest on this thread then */
	jh_sections_prefetch(main, prefetch_names, dw->streaming ? 1 : 0);
	if (alt)
		jh_sections_prefetch(alt, prefetch_names, 0);
	JH_TRACE("dwarf: sections inflated");
	dw->secs.info = dw->streaming ? jh_sections_partial(main, dw->info_idx)
				      : jh_sections_find(main, ".debug_info");
	dw->line = jh_sections_find(main, ".debug_line");
	dw->secs.abbrev = jh_sections_find(main, ".debug_abbrev");
	dw->secs.rnglists = jh_sections_find(main, ".debug_rnglists");
	dw->secs.ranges = jh_sections_find(main, ".debug_ranges");
	dw->secs.addr = jh_sections_find(main, ".debug_addr");
	if (alt) {
		dw->alt_info = jh_sections_find(alt, ".debug_info");
		dw->alt_str = jh_sections_find(alt, ".debug_str");
	}
	const char *walk = getenv("JH_DWARF_WALK");
	dw->walk = walk && (walk[0] == 'f' || walk[0] == 'l') ? walk[0] : 0;
	if (!dw->streaming && !dw->secs.info->data) {
		jh_diag_set(d, JH_EXIT_INPUT, jh_sections_path(main), 0,
			    "corrupt compressed section .debug_info");
		goto fail;
	}
	if (!dw->streaming) {
		dw->index_state = 1;
		if (jh_dwarf_build_index(dw, d) != 0)
			goto fail;
	} else { /* the full index waits for the units; aranges now */
		struct jh_dwh *h = jh_dwh_get(dw);
		if (!h) {
			jh_diag_set(d, JH_EXIT_INPUT, jh_sections_path(main), 0,
				    "libdwarf cannot read the DWARF");
			goto fail;
		}
		jh_dwh_put(h);
		struct jh_rangevec rv = { NULL, 0, 0 };
		jh_dwarf_aranges(dw, &rv, NULL, 0);
		dw->nspec = jh_sched_disjoint(rv.v, rv.n);
		dw->spec = rv.v;
		jh_units_init(&dw->units, main, dw->info_idx);
	}
	JH_TRACE("dwarf: index %zu units, %zu aranges", dw->ncus, dw->nspec);
	return dw;
fail:
	jh_dwarf_close(dw);
	return NULL;
}

static void index_reset(struct jh_dwarf *dw)
{
	free(dw->ranges);
	dw->ranges = NULL;
	dw->nranges = dw->ncus = 0;
}

/* Whether two aranges readings give the same claims and covered units. */
static int same_aranges(const struct jh_rangevec *a, const struct jh_u64map *ca,
			const struct jh_rangevec *b, const struct jh_u64map *cb)
{
	if (a->n != b->n || ca->nr != cb->nr ||
	    (a->n && memcmp(a->v, b->v, a->n * sizeof(*a->v)) != 0))
		return 0;
	for (size_t i = 0; i < ca->cap; i++) /* UINT64_MAX marks a free slot */
		if (ca->keys[i] != UINT64_MAX && !jh_u64map_get(cb, ca->keys[i]))
			return 0;
	return 1;
}

int jh_dwarf_build_index(struct jh_dwarf *dw, struct jh_diag *d)
{
	struct jh_rangevec arv = { NULL, 0, 0 }, arv2 = { NULL, 0, 0 };
	struct jh_u64map cov, cov2;
	jh_u64map_init(&cov);
	jh_u64map_init(&cov2);
	int partly = 0, rc = jh_dwarf_index_pass(dw, d, dw->streaming, &arv, &cov, &partly);
	const char *path = jh_sections_path(dw->main);
	if (dw->streaming && (rc == -2 || !jh_sections_at(dw->main, dw->info_idx)->data)) {
		index_reset(dw); /* waits for the inflate: it failed */
		rc = jh_diag_set(d, JH_EXIT_INPUT, path, 0,
				 "corrupt compressed section .debug_info");
	} else if (dw->streaming && rc == 0) {
		/* the aranges with the unit-header check, as an unstreamed index takes them */
		jh_dwarf_aranges(dw, &arv2, &cov2, 1);
		if (!same_aranges(&arv, &cov, &arv2, &cov2)) { /* start over, unstreamed */
			index_reset(dw);
			arv.n = 0;
			jh_u64map_release(&cov);
			rc = jh_dwarf_index_pass(dw, d, 0, &arv, &cov, &partly);
		}
	}
	if (rc == 0 && partly)
		jh_warn("%s: DWARF partly unreadable; %zu compile units used", path, dw->ncus);
	free(arv.v);
	free(arv2.v);
	jh_u64map_release(&cov);
	jh_u64map_release(&cov2);
	return rc;
}

int jh_dwarf_finish_index(struct jh_dwarf *dw)
{
	pthread_mutex_lock(&dw->index_lock);
	if (dw->index_state == 0) {
		struct jh_diag d = { { 0 }, 0 };
		const char *path = jh_sections_path(dw->main);
		/* unit by unit as the stream inflates; a failed inflate comes back
		 * as the corrupt-section error */
		int rc = jh_dwarf_build_index(dw, &d);
		dw->index_state = rc == 0 ? 1 : -1;
		if (rc != 0) /* what open would have said */
			jh_warn("%s: unusable DWARF, using symbols only: %s", path, d.msg);
		JH_TRACE("dwarf: full index %zu units", dw->ncus);
	}
	int st = dw->index_state;
	pthread_mutex_unlock(&dw->index_lock);
	return st > 0 ? 0 : -1;
}

struct run {
	struct jh_dwarf *dw;
	struct jh_batch b;
	struct jh_cu *spec; /* speculative units, or NULL */
	size_t nspec;
	int nthreads;
	atomic_int started;
};

static void *worker_start(void *ctx)
{
	struct run *r = ctx;
	if (r->spec) {
		int t = atomic_fetch_add(&r->started, 1);
		if (t > 0 && t >= r->nthreads - 1)
			jh_dwarf_finish_index(r->dw); /* waits for the inflate */
	}
	return jh_dwh_get(r->dw);
}

static void worker_run(void *ctx, void *w, size_t i)
{
	struct run *r = ctx;
	struct jh_batch_task *k = &r->b.tasks[r->b.order[i]];
	if (!r->spec) {
		const struct jh_cu *cu = &r->dw->cus[k->unit];
		jh_dwh_unit(w, k, r->b.qs, cu->hdr_off, cu->die_off, 0, 0, 0);
		return;
	}
	struct jh_cu *cu = &r->spec[k->unit];
	uint64_t lo, hi;
	if (jh_units_wait(&r->dw->units, cu->hdr_off, &lo, &hi) != 0 || lo != cu->hdr_off ||
	    (cu->die_off = jh_units_die_off(&r->dw->units, lo, hi)) == UINT64_MAX) {
		k->failed = 1;
		return;
	}
	jh_dwh_unit(w, k, r->b.qs, cu->hdr_off, cu->die_off, 1, lo, hi);
}

static void worker_stop(void *ctx, void *w)
{
	(void)ctx;
	JH_TRACE("dwarf: worker done");
	jh_dwh_put(w);
}

/* Runs the batch r->b; returns how many tasks ran. */
static size_t run_batch(struct run *r, int jobs)
{
	size_t ntasks = r->b.ntasks;
	long ncpu = sysconf(_SC_NPROCESSORS_ONLN);
	r->nthreads = jobs > 0 ? jobs : ncpu > 0 ? (int)ncpu : 1;
	if ((size_t)r->nthreads > ntasks)
		r->nthreads = (int)ntasks;
	atomic_init(&r->started, 0);
	JH_TRACE("dwarf: lookup %zu units%s", ntasks, r->spec ? " (speculative)" : "");
	size_t ran = jh_sched_parallel(ntasks, jobs, r, worker_start, worker_run, worker_stop);
	JH_TRACE("dwarf: lookup done");
	return ran;
}

/* The speculation holds: every address in the unit, with the unit DIE, of the full index. */
static int spec_valid(const struct run *r, const size_t *spec_of, const uint64_t *addrs, size_t n)
{
	const struct jh_dwarf *dw = r->dw;
	for (size_t k = 0; k < r->b.ntasks; k++)
		if (r->b.tasks[k].failed)
			return 0;
	size_t *final_of = xmalloc(jh_st_mult(n + 1, sizeof(*final_of)));
	assign_units(dw->ranges, dw->nranges, dw->cus, dw->ncus, addrs, n, final_of);
	int ok = 1;
	for (size_t i = 0; i < n && ok; i++) {
		size_t s = spec_of[i], f = final_of[i];
		ok = s == SIZE_MAX ? f == SIZE_MAX
				   : f != SIZE_MAX && r->spec[s].hdr_off == dw->cus[f].hdr_off &&
					     r->spec[s].die_off == dw->cus[f].die_off;
	}
	free(final_of);
	return ok;
}

static void no_answers(size_t n, struct jh_dwarf_answer *ans, struct jh_dwarf_frame **frames,
		       size_t *nframes)
{
	memset(ans, 0, n * sizeof(*ans));
	*frames = xmalloc(sizeof(**frames));
	*nframes = 0;
}

/*
 * The speculative lookup: 1 when its answers are final (also when the DWARF
 * turned out unusable: none), 0 when the lookup must run on the full index.
 */
static int lookup_spec(struct jh_dwarf *dw, const uint64_t *addrs, size_t n, int jobs,
		       struct jh_dwarf_answer *ans, struct jh_dwarf_frame **frames, size_t *nframes)
{
	struct run r = { .dw = dw };
	size_t *unit_of = xmalloc(jh_st_mult(n + 1, sizeof(*unit_of)));
	r.nspec = spec_units(dw->spec, dw->nspec, addrs, n, &r.spec);
	assign_units(dw->spec, dw->nspec, r.spec, r.nspec, addrs, n, unit_of);
	jh_batch_init(&r.b, addrs, unit_of, n, NULL); /* section order */
	size_t ran = run_batch(&r, jobs);
	int usable = jh_dwarf_finish_index(dw) == 0;
	int ok = usable && ran == r.b.ntasks && spec_valid(&r, unit_of, addrs, n);
	jh_batch_collect(&r.b, n, ans, frames, nframes);
	free(unit_of);
	free(r.spec);
	if (!usable) {
		free(*frames);
		no_answers(n, ans, frames, nframes);
		return 1;
	}
	if (!ok) {
		JH_TRACE("dwarf: speculation discarded");
		free(*frames);
		*frames = NULL;
	}
	return ok;
}

int jh_dwarf_lookup(struct jh_dwarf *dw, const uint64_t *addrs, size_t n, int jobs,
		    struct jh_dwarf_answer *ans, struct jh_dwarf_frame **frames, size_t *nframes,
		    struct jh_diag *d)
{
	/* speculate while .debug_info inflates (and the full index is not there) */
	if (dw->streaming && dw->nspec && n &&
	    jh_sections_wait(dw->main, dw->info_idx, 0) < dw->secs.info->size) {
		pthread_mutex_lock(&dw->index_lock);
		int pending = dw->index_state == 0;
		pthread_mutex_unlock(&dw->index_lock);
		if (pending && lookup_spec(dw, addrs, n, jobs, ans, frames, nframes))
			return 0;
	}
	if (jh_dwarf_finish_index(dw) != 0) {
		no_answers(n, ans, frames, nframes);
		return 0;
	}
	size_t *unit_of = xmalloc(jh_st_mult(n + 1, sizeof(*unit_of)));
	uint64_t *unit_size = xmalloc(jh_st_mult(dw->ncus + 1, sizeof(*unit_size)));
	for (size_t i = 0; i < dw->ncus; i++)
		unit_size[i] = dw->cus[i].size;
	assign_units(dw->ranges, dw->nranges, dw->cus, dw->ncus, addrs, n, unit_of);
	struct run r = { .dw = dw };
	jh_batch_init(&r.b, addrs, unit_of, n, unit_size);
	free(unit_of);
	free(unit_size);
	size_t ntasks = r.b.ntasks;
	size_t ran = run_batch(&r, jobs);
	size_t failed = jh_batch_collect(&r.b, n, ans, frames, nframes);
	if (failed)
		jh_warn("%s: %zu compile units unreadable", jh_sections_path(dw->main), failed);
	if (ran < ntasks)
		return jh_diag_set(d, JH_EXIT_INTERNAL, jh_sections_path(dw->main), 0,
				   "libdwarf cannot open the DWARF");
	return 0;
}

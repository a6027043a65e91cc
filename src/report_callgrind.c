/*
 * report_callgrind.c - --callgrind (jeprof-behaviour.md §8.6), in the
 * callgrind format KCachegrind reads.
 *
 * Like jeprof, each location is reduced to its outermost frame (the real
 * function, its short name, and the file:line of the call into its inlined
 * callees), each leaf gets a self cost and each adjacent (caller, callee)
 * pair a call record, per occurrence. Unlike jeprof, the fields are never
 * glued into a "file:line:func" string and parsed back, so file names with
 * " (discriminator N)", unknown lines and names with spaces stay intact, and
 * records are sorted completely (caller file, line, function, then callee),
 * so the output is the same on every run.
 */
#include "report_graph.h"

#include "jeheap/names.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

/* A call site: the outermost frame of a location. */
struct site {
	const char *file, *fn;
	uint32_t line;
};

/* One occurrence of a self cost or a call, keyed by site ranks. */
struct pair {
	uint64_t key; /* caller rank << 32 | (callee rank + 1, or 0 for the self cost) */
	double n;
};

struct cg {
	const struct jh_graph *g;
	struct jh_intern names;      /* short names, unknown-frame names */
	struct jh_namer namer;
	struct site *sites;          /* per location, filled on first use */
	uint8_t *have_site;
	struct jh_sb tmp;
};

static const struct site *site_of(struct cg *c, uint32_t loc)
{
	if (c->have_site[loc])
		return &c->sites[loc];
	const struct jh_model *m = c->g->m;
	const struct jh_location *l = &m->locs[loc];
	struct site *s = &c->sites[loc];
	s->file = jh_intern(&c->names, "??");
	s->line = 0;
	if (l->nframes) {
		/* jeprof: the outermost frame's short name, "??" when unknown */
		const struct jh_frame *f = &m->frames.items[l->first];
		s->fn = f->func ? jh_namer_short(&c->namer, f->func) : jh_intern(&c->names, "??");
		if (f->file) {
			s->file = jh_intern(&c->names, f->file);
			s->line = f->line;
		}
	} else {
		jh_sb_reset(&c->tmp);
		jh_unknown_name(&c->tmp, l);
		s->fn = jh_intern(&c->names, c->tmp.buf);
	}
	c->have_site[loc] = 1;
	return s;
}

static int cmp_site(const struct site *a, const struct site *b)
{
	int r = strcmp(a->file, b->file);
	if (r)
		return r;
	if (a->line != b->line)
		return a->line < b->line ? -1 : 1;
	return strcmp(a->fn, b->fn);
}

static int cmp_pairs(const void *pa, const void *pb)
{
	uint64_t a = ((const struct pair *)pa)->key, b = ((const struct pair *)pb)->key;
	return a < b ? -1 : a > b;
}

/* Orders location ids by their site (sites computed beforehand). */
static int cmp_locs(const void *pa, const void *pb, void *arg)
{
	const struct site *sites = arg;
	return cmp_site(&sites[*(const uint32_t *)pa], &sites[*(const uint32_t *)pb]);
}

/* jeprof's CompressedCGName: "(n) name" on first use, "(n)" later; names of
 * at most 3 bytes are always written out. Names are interned in one table,
 * so the pointer identifies the name. */
struct names {
	struct jh_u64map ids; /* name pointer -> its number, 0 for a short name */
	uint64_t n;           /* numbers given so far */
};

static void put_name(FILE *out, const char *key, const char *val, struct names *nm)
{
	int added;
	uint64_t *id = jh_u64map_put(&nm->ids, (uint64_t)(uintptr_t)val, &added);
	if (added) {
		*id = strlen(val) <= 3 ? 0 : ++nm->n;
		if (*id) {
			fprintf(out, "%s=(%llu) %s\n", key, (unsigned long long)*id, val);
			return;
		}
	}
	if (*id)
		fprintf(out, "%s=(%llu)\n", key, (unsigned long long)*id);
	else
		fprintf(out, "%s=%s\n", key, val);
}

/* Perl's int(): truncation toward zero, printed as an integer. */
static long long count_of(double n)
{
	return (long long)trunc(n);
}

/*
 * Gives every location used by g's stacks the rank of its site in output
 * order (file, line, function; equal sites share a rank), so records sort
 * and merge on integers. Returns the site of each rank (*nranks of them).
 */
static struct site *rank_sites(struct cg *c, uint32_t *rank, size_t *nranks)
{
	const struct jh_graph *g = c->g;
	uint32_t *used = NULL;
	size_t nused = 0, alloc = 0;
	for (size_t s = 0; s < g->nstacks; s++) {
		const uint32_t *locs = g->locpool + g->stacks[s].off;
		for (uint32_t i = 0; i < g->stacks[s].len; i++) {
			if (c->have_site[locs[i]])
				continue;
			site_of(c, locs[i]);
			JH_GROW(used, nused + 1, alloc);
			used[nused++] = locs[i];
		}
	}
	if (nused)
		qsort_r(used, nused, sizeof(*used), cmp_locs, c->sites);
	struct site *byrank = xmalloc((nused ? nused : 1) * sizeof(*byrank));
	size_t nr = 0;
	for (size_t i = 0; i < nused; i++) {
		if (!nr || cmp_site(&byrank[nr - 1], &c->sites[used[i]]))
			byrank[nr++] = c->sites[used[i]];
		rank[used[i]] = (uint32_t)(nr - 1);
	}
	free(used);
	*nranks = nr;
	return byrank;
}

int jh_report_callgrind(FILE *out, const struct jh_graph *g, const struct jh_options *o,
			struct jh_diag *d)
{
	(void)o;
	(void)d;
	const struct jh_model *m = g->m;
	struct cg c = {.g = g};
	jh_intern_init(&c.names);
	/* Short names are interned in our own table: the model is read-only here. */
	jh_namer_init(&c.namer, &c.names);
	c.sites = xcalloc(m->nlocs ? m->nlocs : 1, sizeof(*c.sites));
	c.have_site = xcalloc(m->nlocs ? m->nlocs : 1, 1);
	jh_sb_init(&c.tmp);

	uint32_t *rank = xcalloc(m->nlocs ? m->nlocs : 1, sizeof(*rank));
	size_t nranks;
	struct site *byrank = rank_sites(&c, rank, &nranks);

	/* Every self cost and adjacent (caller, callee) pair, sorted and merged by site. */
	struct pair *r = NULL;
	size_t nr = 0, alloc = 0;
	for (size_t s = 0; s < g->nstacks; s++) {
		const struct jh_gstack *st = &g->stacks[s];
		const uint32_t *locs = g->locpool + st->off;
		if (!st->len)
			continue;
		JH_GROW(r, nr + st->len, alloc);
		r[nr++] = (struct pair){(uint64_t)rank[locs[0]] << 32, st->v};
		for (uint32_t i = 1; i < st->len; i++)
			r[nr++] = (struct pair){(uint64_t)rank[locs[i]] << 32 | (rank[locs[i - 1]] + 1),
						st->v};
	}
	if (nr)
		qsort(r, nr, sizeof(*r), cmp_pairs);

	struct names files = {0}, fns = {0};
	jh_u64map_init(&files.ids);
	jh_u64map_init(&fns.ids);
	fputs("events: Hits\n\n", out);
	for (size_t i = 0; i < nr;) {
		double n = r[i].n;
		size_t j = i + 1;
		while (j < nr && r[j].key == r[i].key)
			n += r[j++].n;
		const struct site *caller = &byrank[r[i].key >> 32];
		uint32_t callee = (uint32_t)r[i].key;
		put_name(out, "fl", caller->file, &files);
		put_name(out, "fn", caller->fn, &fns);
		if (callee) {
			put_name(out, "cfl", byrank[callee - 1].file, &files);
			put_name(out, "cfn", byrank[callee - 1].fn, &fns);
			fprintf(out, "calls=%lld %u\n", count_of(n), byrank[callee - 1].line);
		}
		fprintf(out, "%u %lld\n\n", caller->line, count_of(n));
		i = j;
	}
	jh_u64map_release(&files.ids);
	jh_u64map_release(&fns.ids);
	free(r);
	free(rank);
	free(byrank);
	free(c.sites);
	free(c.have_site);
	jh_sb_release(&c.tmp);
	jh_namer_release(&c.namer);
	jh_intern_release(&c.names);
	return 0;
}

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

struct record {
	uint32_t caller_loc, callee_loc; /* callee_loc UINT32_MAX: the caller's self cost */
	struct site caller, callee;      /* callee.fn == NULL: self cost */
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

static int cmp_records(const void *pa, const void *pb)
{
	const struct record *a = pa, *b = pb;
	int r = cmp_site(&a->caller, &b->caller);
	if (r)
		return r;
	if (!a->callee.fn || !b->callee.fn)
		return (a->callee.fn != NULL) - (b->callee.fn != NULL);
	return cmp_site(&a->callee, &b->callee);
}

/* jeprof's CompressedCGName: "(n) name" on first use, "(n)" later; names of
 * at most 3 bytes are always written out. Names are interned in one table,
 * so the pointer identifies the name. */
static void put_name(FILE *out, const char *key, const char *val, struct jh_u64map *ids)
{
	if (strlen(val) <= 3) {
		fprintf(out, "%s=%s\n", key, val);
		return;
	}
	int added;
	uint64_t *id = jh_u64map_put(ids, (uint64_t)(uintptr_t)val, &added);
	if (added) {
		*id = ids->nr;
		fprintf(out, "%s=(%llu) %s\n", key, (unsigned long long)*id, val);
	} else {
		fprintf(out, "%s=(%llu)\n", key, (unsigned long long)*id);
	}
}

/* Perl's int(): truncation toward zero, printed as an integer. */
static long long count_of(double n)
{
	return (long long)trunc(n);
}

static void add_record(struct record **r, size_t *nr, size_t *alloc, struct jh_u64map *idx,
		       uint32_t caller, uint32_t callee, double n)
{
	int added;
	uint64_t *v = jh_u64map_put(idx, (uint64_t)caller << 32 | callee, &added);
	if (added) {
		JH_GROW(*r, *nr + 1, *alloc);
		(*r)[*nr] = (struct record){.caller_loc = caller, .callee_loc = callee};
		*v = (*nr)++;
	}
	(*r)[*v].n += n;
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

	/* Records keyed by (caller location, callee location or UINT32_MAX = self). */
	struct jh_u64map idx;
	jh_u64map_init(&idx);
	struct record *r = NULL;
	size_t nr = 0, alloc = 0;
	for (size_t s = 0; s < g->nstacks; s++) {
		const struct jh_gstack *st = &g->stacks[s];
		const uint32_t *locs = g->locpool + st->off;
		if (!st->len)
			continue;
		add_record(&r, &nr, &alloc, &idx, locs[0], UINT32_MAX, st->v);
		for (uint32_t i = 1; i < st->len; i++)
			add_record(&r, &nr, &alloc, &idx, locs[i], locs[i - 1], st->v);
	}
	jh_u64map_release(&idx);

	/* Locations -> sites; records of different locations at one site merge. */
	for (size_t i = 0; i < nr; i++) {
		r[i].caller = *site_of(&c, r[i].caller_loc);
		if (r[i].callee_loc != UINT32_MAX)
			r[i].callee = *site_of(&c, r[i].callee_loc);
	}
	if (nr)
		jh_qsort(r, nr, sizeof(*r), cmp_records);

	struct jh_u64map files, fns;
	jh_u64map_init(&files);
	jh_u64map_init(&fns);
	fputs("events: Hits\n\n", out);
	for (size_t i = 0; i < nr;) {
		double n = r[i].n;
		size_t j = i + 1;
		while (j < nr && !cmp_records(&r[i], &r[j]))
			n += r[j++].n;
		put_name(out, "fl", r[i].caller.file, &files);
		put_name(out, "fn", r[i].caller.fn, &fns);
		if (r[i].callee.fn) {
			put_name(out, "cfl", r[i].callee.file, &files);
			put_name(out, "cfn", r[i].callee.fn, &fns);
			fprintf(out, "calls=%lld %u\n", count_of(n), r[i].callee.line);
		}
		fprintf(out, "%u %lld\n\n", r[i].caller.line, count_of(n));
		i = j;
	}
	jh_u64map_release(&files);
	jh_u64map_release(&fns);
	free(r);
	free(c.sites);
	free(c.have_site);
	jh_sb_release(&c.tmp);
	jh_namer_release(&c.namer);
	jh_intern_release(&c.names);
	return 0;
}

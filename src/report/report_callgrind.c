/*
 * report_callgrind.c - --callgrind (docs/jeprof.md §9), in the
 * callgrind format KCachegrind reads.
 *
 * Like jeprof, each location is reduced to its outermost frame (the real
 * function, its short name, and the file:line of the call into its inlined
 * callees), each leaf gets a self cost and each adjacent (caller, callee)
 * pair a call record, per occurrence. Unlike jeprof, the fields are never
 * glued into a "file:line:func" string and parsed back, so file names with
 * " (discriminator N)", unknown lines and names with spaces stay intact, and
 * records are sorted completely (caller file, line, function, then callee),
 * so the output is the same on every run. A stack left empty by allocator-frame
 * removal (every recorded frame was an allocator's) is charged, as jeprof
 * does, to a self cost of the site "??:0:unknown".
 */
#include "jeheap/report.h"

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
	struct jh_intern names; /* short names, unknown-frame names */
	struct jh_namer namer;
	struct site *sites; /* per location (+ EMPTY), filled on first use */
	uint8_t *have_site;
	struct jh_sb tmp;
};

/* The pseudo-location of an empty stack: m->nlocs. */
#define EMPTY(m) ((uint32_t)(m)->nlocs)

static const struct site *site_of(struct cg *c, uint32_t loc)
{
	if (c->have_site[loc])
		return &c->sites[loc];
	const struct jh_model *m = c->g->m;
	struct site *s = &c->sites[loc];
	s->file = jh_intern(&c->names, "??");
	s->line = 0;
	if (loc == EMPTY(m)) {
		/* jeprof's ExtractSymbolLocation of the missing leaf */
		s->fn = jh_intern(&c->names, "unknown");
		c->have_site[loc] = 1;
		return s;
	}
	const struct jh_location *l = &m->locs[loc];
	if (l->nframes) {
		/* jeprof: the outermost frame's short name, "??" when unknown
		 * (the outermost one the frame filters keep) */
		const uint8_t *hid = c->g->frame_hidden;
		uint32_t j0 = 0;
		while (hid && j0 + 1 < l->nframes && hid[l->first + j0])
			j0++;
		const struct jh_frame *f = &m->frames.items[l->first + j0];
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

/*
 * jeprof's CompressedCGName: "(n) name" on first use, "(n)" later; names of
 * at most 3 bytes are always written out. Files and functions are numbered
 * separately. Each distinct name (names are interned, so the pointer is the
 * name) gets one slot; every site rank knows the slots of its file and
 * function, so writing a record needs no lookup.
 */
struct slot {
	const char *name;
	uint64_t id; /* 0: not written yet, or short */
};

struct names {
	struct jh_u64map idx; /* name pointer -> slot */
	struct slot *slots;
	size_t nr, alloc;
	uint64_t n; /* numbers given so far */
};

static uint32_t name_slot(struct names *nm, const char *name)
{
	int added;
	uint64_t *v = jh_u64map_put(&nm->idx, (uint64_t)(uintptr_t)name, &added);
	if (added) {
		JH_GROW(nm->slots, nm->nr + 1, nm->alloc);
		nm->slots[nm->nr] = (struct slot){ name, 0 };
		*v = nm->nr++;
	}
	return (uint32_t)*v;
}

/* Buffered output: the report is millions of short lines. */
struct outbuf {
	FILE *f;
	struct jh_sb sb;
};

static void ob_flush(struct outbuf *ob)
{
	fwrite(ob->sb.buf, 1, ob->sb.len, ob->f);
	jh_sb_reset(&ob->sb);
}

static void ob_num(struct outbuf *ob, long long v)
{
	char buf[24], *p = buf + sizeof(buf);
	unsigned long long u = v < 0 ? 0ULL - (unsigned long long)v : (unsigned long long)v;
	do
		*--p = (char)('0' + u % 10);
	while (u /= 10);
	if (v < 0)
		*--p = '-';
	jh_sb_add(&ob->sb, p, (size_t)(buf + sizeof(buf) - p));
}

/*
 * Callgrind's escaping, in one place: a name is written with its control
 * characters as visible escapes (one record, one line), and a name that
 * starts with '(' is always given a number, even when short: written out
 * bare, "(1)" would read as a reference to name 1.
 */
static void put_name(struct outbuf *ob, const char *key, struct names *nm, uint32_t slot)
{
	struct slot *sl = &nm->slots[slot];
	jh_sb_adds(&ob->sb, key);
	jh_sb_addc(&ob->sb, '=');
	int first = 0;
	if (!sl->id && (strlen(sl->name) > 3 || sl->name[0] == '(')) {
		sl->id = ++nm->n;
		first = 1;
	}
	if (sl->id) {
		jh_sb_addc(&ob->sb, '(');
		ob_num(ob, (long long)sl->id);
		jh_sb_addc(&ob->sb, ')');
		if (first)
			jh_sb_addc(&ob->sb, ' ');
	}
	if (!sl->id || first)
		jh_sb_add_visible(&ob->sb, sl->name);
	jh_sb_addc(&ob->sb, '\n');
}

/* Perl's int(): truncation toward zero, printed as an integer; beyond the
 * 64-bit range (no cast there: undefined behaviour) the double's exact
 * decimal value, which is what jeprof's 1.84467440737096e+19 rounds. */
static void ob_count(struct outbuf *ob, double n)
{
	n = isfinite(n) ? trunc(n) : 0; /* the readers refuse non-finite values */
	if (fabs(n) < 9223372036854775808.0)
		ob_num(ob, (long long)n);
	else
		jh_sb_addf(&ob->sb, "%.0f", n);
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
		uint32_t len = g->stacks[s].len;
		const uint32_t empty = EMPTY(g->m);
		for (uint32_t i = 0; i < (len ? len : 1); i++) {
			uint32_t loc = len ? locs[i] : empty;
			if (c->have_site[loc])
				continue;
			site_of(c, loc);
			JH_GROW(used, nused + 1, alloc);
			used[nused++] = loc;
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

int jh_report_callgrind(FILE *out, const struct jh_graph *g, struct jh_diag *d)
{
	(void)d;
	const struct jh_model *m = g->m;
	struct cg c = { .g = g };
	jh_intern_init(&c.names);
	/* Short names are interned in our own table: the model is read-only here. */
	jh_namer_init(&c.namer, &c.names);
	c.sites = xcalloc(m->nlocs + 1, sizeof(*c.sites));
	c.have_site = xcalloc(m->nlocs + 1, 1);
	jh_sb_init(&c.tmp);

	uint32_t *rank = xcalloc(m->nlocs + 1, sizeof(*rank));
	size_t nranks;
	struct site *byrank = rank_sites(&c, rank, &nranks);

	/* Every self cost and adjacent (caller, callee) pair, sorted and merged by site. */
	struct pair *r = NULL;
	size_t nr = 0, alloc = 0;
	for (size_t s = 0; s < g->nstacks; s++) {
		const struct jh_gstack *st = &g->stacks[s];
		const uint32_t *locs = g->locpool + st->off;
		if (!st->len) {
			JH_GROW(r, nr + 1, alloc);
			r[nr++] = (struct pair){ (uint64_t)rank[EMPTY(m)] << 32, st->v };
			continue;
		}
		JH_GROW(r, nr + st->len, alloc);
		r[nr++] = (struct pair){ (uint64_t)rank[locs[0]] << 32, st->v };
		for (uint32_t i = 1; i < st->len; i++)
			r[nr++] = (struct pair){
				(uint64_t)rank[locs[i]] << 32 | (rank[locs[i - 1]] + 1), st->v
			};
	}
	jh_qsort(r, nr, sizeof(*r), cmp_pairs);

	struct names files = { 0 }, fns = { 0 };
	jh_u64map_init(&files.idx);
	jh_u64map_init(&fns.idx);
	uint32_t *fslot = xmalloc((nranks ? nranks : 1) * sizeof(*fslot));
	uint32_t *nslot = xmalloc((nranks ? nranks : 1) * sizeof(*nslot));
	for (size_t k = 0; k < nranks; k++) {
		fslot[k] = name_slot(&files, byrank[k].file);
		nslot[k] = name_slot(&fns, byrank[k].fn);
	}
	struct outbuf ob = { out, JH_SB_INIT };
	jh_sb_init(&ob.sb);
	jh_sb_adds(&ob.sb, "events: Hits\n\n");
	for (size_t i = 0; i < nr;) {
		double n = r[i].n;
		size_t j = i + 1;
		while (j < nr && r[j].key == r[i].key)
			n += r[j++].n;
		uint32_t caller = (uint32_t)(r[i].key >> 32), callee = (uint32_t)r[i].key;
		put_name(&ob, "fl", &files, fslot[caller]);
		put_name(&ob, "fn", &fns, nslot[caller]);
		if (callee) {
			put_name(&ob, "cfl", &files, fslot[callee - 1]);
			put_name(&ob, "cfn", &fns, nslot[callee - 1]);
			jh_sb_adds(&ob.sb, "calls=");
			ob_count(&ob, n);
			jh_sb_addc(&ob.sb, ' ');
			ob_num(&ob, byrank[callee - 1].line);
			jh_sb_addc(&ob.sb, '\n');
		}
		ob_num(&ob, byrank[caller].line);
		jh_sb_addc(&ob.sb, ' ');
		ob_count(&ob, n);
		jh_sb_adds(&ob.sb, "\n\n");
		if (ob.sb.len > 1 << 16)
			ob_flush(&ob);
		i = j;
	}
	ob_flush(&ob);
	jh_sb_release(&ob.sb);
	free(fslot);
	free(nslot);
	jh_u64map_release(&files.idx);
	jh_u64map_release(&fns.idx);
	free(files.slots);
	free(fns.slots);
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

/*
 * report_collapsed.c - --collapsed (jeprof-behaviour.md §8.4), in the form
 * flamegraph.pl reads: "root;...;leaf <count>", one line per distinct
 * location stack after allocator removal and filters, frames named by
 * jh_collapsed_name (full names, "[inline]", ';' in a name becomes ':' and a
 * newline a space). Unlike jeprof the lines are sorted byte-wise (LC_ALL=C
 * sort order), so the output is deterministic. A stack emptied by allocator
 * removal prints as " <count>". With --base each line carries two
 * non-negative columns "<before> <after>" (bases, profiles) as
 * difffolded.pl writes them, instead of jeprof's signed difference.
 *
 * The lines are never built all at once (they can be several times the size
 * of the input): stacks are sorted by comparing their lines lazily, chunk by
 * chunk (frame names, separators, count), skipping shared locations.
 */
#include "report.h"

#include "jeheap/names.h"

#include <stdlib.h>
#include <string.h>

struct elem {
	const char *s;
	uint32_t len;
};

struct coll {
	const struct jh_graph *g;
	struct elem *el;   /* frame names of all locations */
	uint32_t *eoff;    /* per location: el[eoff[l] .. eoff[l+1]) */
	char *counts;      /* per stack: "count\n" or "before after\n" */
	size_t *coff;      /* per stack, nstacks + 1 */
};

enum { C_ELEM, C_SEP, C_COUNT, C_DONE };

struct cur {
	const struct coll *c;
	const uint32_t *locs; /* leaf first */
	uint32_t len, li, ei; /* li counts from the root */
	uint32_t stack;
	int state, fresh;
	char sep;             /* the current separator: ';' or ' ' */
	const char *p;
	size_t n;
};

static uint32_t cur_loc(const struct cur *k)
{
	return k->locs[k->len - 1 - k->li];
}

static void cur_load(struct cur *k)
{
	k->fresh = 1;
	switch (k->state) {
	case C_ELEM: {
		const struct elem *e = &k->c->el[k->c->eoff[cur_loc(k)] + k->ei];
		k->p = e->s;
		k->n = e->len;
		break;
	}
	case C_SEP: {
		uint32_t l = cur_loc(k);
		int more = k->li < k->len &&
			   (k->c->eoff[l] + k->ei + 1 < k->c->eoff[l + 1] || k->li + 1 < k->len);
		k->sep = more ? ';' : ' ';
		k->p = more ? ";" : " ";
		k->n = 1;
		break;
	}
	case C_COUNT:
		k->p = k->c->counts + k->c->coff[k->stack];
		k->n = k->c->coff[k->stack + 1] - k->c->coff[k->stack];
		break;
	default:
		k->p = NULL;
		k->n = 0;
	}
}

static void cur_init(struct cur *k, const struct coll *c, uint32_t stack)
{
	const struct jh_gstack *gs = &c->g->stacks[stack];
	k->c = c;
	k->locs = c->g->locpool + gs->off;
	k->len = gs->len;
	k->li = k->ei = 0;
	k->stack = stack;
	k->state = C_ELEM;
	if (!k->len) {
		k->state = C_SEP; /* " count" */
		k->sep = ' ';
		k->p = " ";
		k->n = 1;
		k->fresh = 1;
		return;
	}
	cur_load(k);
}

/* Moves to the next chunk once the current one is consumed. */
static void cur_next(struct cur *k)
{
	switch (k->state) {
	case C_ELEM:
		k->state = C_SEP;
		break;
	case C_SEP:
		if (k->sep == ';') {
			uint32_t l = cur_loc(k);
			if (k->c->eoff[l] + k->ei + 1 < k->c->eoff[l + 1]) {
				k->ei++;
			} else {
				k->li++;
				k->ei = 0;
			}
			k->state = C_ELEM;
		} else {
			k->state = C_COUNT;
		}
		break;
	default:
		k->state = C_DONE;
	}
	cur_load(k);
}

static const struct coll *sort_coll;

static int cmp_stacks(const void *pa, const void *pb)
{
	struct cur a, b;
	cur_init(&a, sort_coll, *(const uint32_t *)pa);
	cur_init(&b, sort_coll, *(const uint32_t *)pb);
	for (;;) {
		/* a shared whole location (not the last of either stack) */
		if (a.state == C_ELEM && b.state == C_ELEM && a.fresh && b.fresh && !a.ei && !b.ei &&
		    cur_loc(&a) == cur_loc(&b) && a.li + 1 < a.len && b.li + 1 < b.len) {
			a.li++;
			b.li++;
			cur_load(&a);
			cur_load(&b);
			continue;
		}
		if (a.state == C_DONE || b.state == C_DONE)
			return (a.state != C_DONE) - (b.state != C_DONE);
		size_t n = a.n < b.n ? a.n : b.n;
		if (a.p != b.p) {
			int c = memcmp(a.p, b.p, n);
			if (c)
				return c;
		}
		a.p += n;
		a.n -= n;
		b.p += n;
		b.n -= n;
		a.fresh = b.fresh = 0;
		if (!a.n)
			cur_next(&a);
		if (!b.n)
			cur_next(&b);
	}
}

/* Splits each used location's collapsed name into its frames. */
static void build_elements(struct coll *c, struct jh_arena *strs)
{
	const struct jh_graph *g = c->g;
	const struct jh_model *m = g->m;
	uint8_t *used = xcalloc(m->nlocs ? m->nlocs : 1, 1);
	for (size_t s = 0; s < g->nstacks; s++)
		for (uint32_t i = 0; i < g->stacks[s].len; i++)
			used[g->locpool[g->stacks[s].off + i]] = 1;
	struct jh_sb sb = JH_SB_INIT;
	jh_sb_init(&sb);
	size_t nel = 0, alloc = 0;
	c->eoff = xmalloc(jh_st_mult(m->nlocs + 1, sizeof(*c->eoff)));
	for (size_t l = 0; l < m->nlocs; l++) {
		c->eoff[l] = (uint32_t)nel;
		if (!used[l])
			continue;
		jh_sb_reset(&sb);
		jh_collapsed_name(&sb, m, &m->locs[l]);
		/* jh_collapsed_name joins a location's frames with ';' and
		 * names never contain one */
		const char *p = jh_arena_strndup(strs, sb.buf, sb.len);
		for (;;) {
			const char *e = strchr(p, ';');
			size_t n = e ? (size_t)(e - p) : strlen(p);
			JH_GROW(c->el, nel + 1, alloc);
			c->el[nel].s = p;
			c->el[nel].len = (uint32_t)n;
			nel++;
			if (!e)
				break;
			p = e + 1;
		}
	}
	c->eoff[m->nlocs] = (uint32_t)nel;
	jh_sb_release(&sb);
	free(used);
}

int jh_report_collapsed(FILE *out, const struct jh_graph *g)
{
	struct coll c = {.g = g};
	struct jh_arena strs = {0};
	build_elements(&c, &strs);

	struct jh_sb counts = JH_SB_INIT;
	jh_sb_init(&counts);
	c.coff = xmalloc(jh_st_mult(g->nstacks + 1, sizeof(*c.coff)));
	for (size_t s = 0; s < g->nstacks; s++) {
		const struct jh_gstack *gs = &g->stacks[s];
		c.coff[s] = counts.len;
		if (g->has_base) {
			jh_fmt_value(&counts, JH_UNIT_BYTES, gs->before);
			jh_sb_addc(&counts, ' ');
			jh_fmt_value(&counts, JH_UNIT_BYTES, gs->after);
		} else {
			jh_fmt_value(&counts, JH_UNIT_BYTES, gs->v);
		}
		jh_sb_addc(&counts, '\n');
	}
	c.coff[g->nstacks] = counts.len;
	c.counts = counts.buf;

	uint32_t *order = xmalloc(jh_st_mult(g->nstacks ? g->nstacks : 1, sizeof(*order)));
	for (size_t s = 0; s < g->nstacks; s++)
		order[s] = (uint32_t)s;
	sort_coll = &c;
	jh_qsort(order, g->nstacks, sizeof(*order), cmp_stacks);

	struct jh_sb buf = JH_SB_INIT;
	jh_sb_init(&buf);
	jh_sb_grow(&buf, 1 << 20);
	for (size_t s = 0; s < g->nstacks; s++) {
		const struct jh_gstack *gs = &g->stacks[order[s]];
		const uint32_t *locs = g->locpool + gs->off;
		for (uint32_t i = gs->len; i-- > 0;) { /* root first */
			for (uint32_t e = c.eoff[locs[i]]; e < c.eoff[locs[i] + 1]; e++) {
				jh_sb_add(&buf, c.el[e].s, c.el[e].len);
				jh_sb_addc(&buf, ';');
			}
		}
		if (gs->len)
			buf.len--; /* the last ';' becomes the space */
		jh_sb_addc(&buf, ' ');
		jh_sb_add(&buf, c.counts + c.coff[order[s]], c.coff[order[s] + 1] - c.coff[order[s]]);
		if (buf.len >= (1 << 20)) {
			fwrite(buf.buf, 1, buf.len, out);
			jh_sb_reset(&buf);
		}
	}
	fwrite(buf.buf, 1, buf.len, out);
	jh_sb_release(&buf);
	free(order);
	free(c.coff);
	free(c.eoff);
	free(c.el);
	jh_sb_release(&counts);
	jh_arena_release(&strs);
	return ferror(out) ? -1 : 0;
}

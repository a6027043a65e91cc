/*
 * dwarf_unitblob.c - one unit's tables as bytes and back (layout in
 * dwarf_units.h). No libdwarf.
 */
#include "dwarf_units.h"

#include <stdlib.h>
#include <string.h>

#define BLOB_MAGIC 0x4255484au /* "JHUB" */
#define HEAD_WORDS 10

static void put32(struct jh_sb *sb, uint32_t v)
{
	jh_sb_add(sb, &v, 4);
}

static void put64(struct jh_sb *sb, uint64_t v)
{
	jh_sb_add(sb, &v, 8);
}

/* The string table: each distinct string once (interned names share a pointer). */
struct strtab {
	struct jh_u64map idx; /* pointer -> index + 1 */
	const char **v;
	size_t n, a, bytes;
};

static uint32_t str_id(struct strtab *st, const char *s)
{
	if (!s)
		return 0;
	int added;
	uint64_t *v = jh_u64map_put(&st->idx, (uint64_t)(uintptr_t)s, &added);
	if (added) {
		JH_GROW(st->v, st->n + 1, st->a);
		st->v[st->n++] = s;
		st->bytes += strlen(s) + 1;
		*v = st->n;
	}
	return (uint32_t)*v;
}

void jh_unitblob_encode(const struct jh_unit_tables *t, const char *const *names,
			const uint32_t *decls, struct jh_sb *out)
{
	struct strtab st = { 0 };
	jh_u64map_init(&st.idx);
	const struct jh_walk *w = &t->w;
	uint32_t *name_id = xmalloc(jh_st_mult(w->nnodes + 1, sizeof(*name_id)));
	uint32_t *file_id = xmalloc(jh_st_mult(t->nfiles + 1, sizeof(*file_id)));
	for (size_t i = 0; i < w->nnodes; i++)
		name_id[i] = str_id(&st, names[i]);
	for (size_t i = 0; i < t->nfiles; i++)
		file_id[i] = str_id(&st, t->files[i] ? t->files[i] : "") - 1;
	size_t nrows = t->have_lt ? t->lt.nrows : 0, nseqs = t->have_lt ? t->lt.nseqs : 0;
	uint32_t head[HEAD_WORDS] = { BLOB_MAGIC,          (uint32_t)w->nnodes, (uint32_t)w->rv.n,
				      (uint32_t)nrows,     (uint32_t)nseqs,     (uint32_t)t->nfiles,
				      (uint32_t)st.n,      (uint32_t)st.bytes,  t->lt.version,
				      (uint32_t)t->have_lt };
	jh_sb_add(out, head, sizeof(head));
	for (size_t i = 0; i < w->nnodes; i++) {
		const struct jh_walk_node *nd = &w->nodes[i];
		put32(out, (uint32_t)(nd->parent + 1));
		put32(out, nd->call_file);
		put32(out, nd->call_line);
		put32(out, name_id[i]);
		put32(out, decls[i]);
		put32(out, (uint32_t)nd->inlined);
	}
	struct jh_sched_range *rv = xmalloc(jh_st_mult(w->rv.n + 1, sizeof(*rv)));
	if (w->rv.n)
		memcpy(rv, w->rv.v, w->rv.n * sizeof(*rv));
	jh_sched_sort_lo(rv, w->rv.n); /* the reader's cover sweep needs no sort */
	for (size_t i = 0; i < w->rv.n; i++) {
		put64(out, rv[i].lo);
		put64(out, rv[i].hi);
		put64(out, rv[i].key);
	}
	free(rv);
	for (size_t i = 0; i < nrows; i++) {
		put64(out, t->lt.rows[i].addr);
		put32(out, t->lt.rows[i].line);
		put32(out, t->lt.rows[i].file);
	}
	for (size_t i = 0; i < nseqs; i++) {
		put64(out, t->lt.seqs[i].lo);
		put64(out, t->lt.seqs[i].hi);
		put64(out, t->lt.seqs[i].first);
		put64(out, t->lt.seqs[i].n);
	}
	for (size_t i = 0; i < t->nfiles; i++)
		put32(out, file_id[i]);
	for (size_t i = 0; i < st.n; i++)
		jh_sb_add(out, st.v[i], strlen(st.v[i]) + 1);
	free(name_id);
	free(file_id);
	free(st.v);
	jh_u64map_release(&st.idx);
}

/* A bounds-checked reader. */
struct cur {
	const unsigned char *p;
	size_t left;
	int bad;
};

static const unsigned char *take(struct cur *c, size_t n)
{
	if (c->bad || c->left < n) {
		c->bad = 1;
		return NULL;
	}
	const unsigned char *p = c->p;
	c->p += n;
	c->left -= n;
	return p;
}

static uint32_t get32(struct cur *c)
{
	uint32_t v = 0;
	const unsigned char *p = take(c, 4);
	if (p)
		memcpy(&v, p, 4);
	return v;
}

static uint64_t get64(struct cur *c)
{
	uint64_t v = 0;
	const unsigned char *p = take(c, 8);
	if (p)
		memcpy(&v, p, 8);
	return v;
}

void jh_unitblob_release(struct jh_unitblob *b)
{
	free(b->t.w.nodes);
	free(b->t.w.rv.v);
	jh_lines_free(&b->t.lt);
	free(b->t.files);
	free(b->names);
	free(b->decls);
	free(b->buf);
	memset(b, 0, sizeof(*b));
}

/* Whether the records of counts n (each rec bytes) can be in what is left. */
static int fits(const struct cur *c, uint64_t n, size_t rec)
{
	return !c->bad && n <= c->left / rec;
}

static int decode_nodes(struct cur *c, struct jh_unitblob *b, uint32_t nstr, const char **str)
{
	struct jh_walk *w = &b->t.w;
	for (size_t i = 0; i < w->nnodes && !c->bad; i++) {
		uint32_t parent = get32(c), cf = get32(c), cl = get32(c), nm = get32(c),
			 decl = get32(c), inl = get32(c);
		if (parent > i || nm > nstr || inl > 1)
			return -1;
		w->nodes[i] = (struct jh_walk_node){ i, (int64_t)parent - 1, cf, cl, (int)inl };
		b->names[i] = nm ? str[nm - 1] : NULL;
		b->decls[i] = decl;
	}
	for (size_t i = 0; i < w->rv.n && !c->bad; i++) {
		uint64_t lo = get64(c), hi = get64(c), key = get64(c);
		if (key >= w->nnodes || (i && w->rv.v[i - 1].lo > lo))
			return -1;
		w->rv.v[i] = (struct jh_sched_range){ lo, hi, key };
	}
	return c->bad ? -1 : 0;
}

static int decode_lines(struct cur *c, struct jh_unitblob *b, uint32_t nstr, const char **str)
{
	struct jh_line_table *lt = &b->t.lt;
	for (size_t i = 0; i < lt->nrows && !c->bad; i++) {
		uint64_t a = get64(c);
		uint32_t line = get32(c), file = get32(c);
		lt->rows[i] = (struct jh_line_row){ a, line, file };
	}
	for (size_t i = 0; i < lt->nseqs && !c->bad; i++) {
		uint64_t lo = get64(c), hi = get64(c), first = get64(c), n = get64(c);
		if (first > lt->nrows || n > lt->nrows - first || (n == 0 && first >= lt->nrows) ||
		    (i && lt->seqs[i - 1].hi > hi))
			return -1;
		lt->seqs[i] = (struct jh_line_seq){ lo, hi, (size_t)first, (size_t)n };
	}
	for (size_t i = 0; i < b->t.nfiles && !c->bad; i++) {
		uint32_t s = get32(c);
		if (s >= nstr)
			return -1;
		b->t.files[i] = (char *)str[s];
	}
	return c->bad ? -1 : 0;
}

int jh_unitblob_decode(const unsigned char *p, size_t n, struct jh_unitblob *b)
{
	memset(b, 0, sizeof(*b));
	struct cur c = { p, n, 0 };
	uint32_t h[HEAD_WORDS];
	for (size_t i = 0; i < HEAD_WORDS; i++)
		h[i] = get32(&c);
	if (c.bad || h[0] != BLOB_MAGIC || h[9] > 1 || !fits(&c, h[1], 24) || !fits(&c, h[2], 24) ||
	    !fits(&c, h[3], 16) || !fits(&c, h[4], 32) || !fits(&c, h[5], 4) ||
	    !fits(&c, h[6], 1) || h[7] > c.left || h[6] > h[7])
		return -1;
	/* the strings are the last h[7] bytes */
	size_t body = c.left - h[7];
	b->buf = xmalloc(h[7] + 1);
	memcpy(b->buf, p + n - h[7], h[7]);
	const char **str = xmalloc(jh_st_mult((size_t)h[6] + 1, sizeof(*str)));
	size_t ns = 0, at = 0;
	while (at < h[7] && ns < h[6]) {
		const char *e = memchr(b->buf + at, 0, h[7] - at);
		if (!e)
			break;
		str[ns++] = b->buf + at;
		at = (size_t)(e - b->buf) + 1;
	}
	struct jh_unit_tables *t = &b->t;
	t->w.nnodes = h[1];
	t->w.rv.n = h[2];
	t->lt.nrows = h[3];
	t->lt.nseqs = h[4];
	t->nfiles = h[5];
	t->lt.version = h[8];
	t->have_lt = (int)h[9];
	t->w.nodes = xmalloc(jh_st_mult(t->w.nnodes + 1, sizeof(*t->w.nodes)));
	t->w.rv.v = xmalloc(jh_st_mult(t->w.rv.n + 1, sizeof(*t->w.rv.v)));
	t->lt.rows = xmalloc(jh_st_mult(t->lt.nrows + 1, sizeof(*t->lt.rows)));
	t->lt.seqs = xmalloc(jh_st_mult(t->lt.nseqs + 1, sizeof(*t->lt.seqs)));
	t->files = xmalloc(jh_st_mult(t->nfiles + 1, sizeof(*t->files)));
	b->names = xmalloc(jh_st_mult(t->w.nnodes + 1, sizeof(*b->names)));
	b->decls = xmalloc(jh_st_mult(t->w.nnodes + 1, sizeof(*b->decls)));
	c.left = body;
	int rc = ns == h[6] && at == h[7] ? 0 : -1;
	if (rc == 0)
		rc = decode_nodes(&c, b, h[6], str);
	if (rc == 0)
		rc = decode_lines(&c, b, h[6], str);
	if (rc == 0 && c.left != 0)
		rc = -1;
	free(str);
	if (rc != 0)
		jh_unitblob_release(b);
	return rc;
}

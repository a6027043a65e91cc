/*
 * dwarf_batch.c - grouping and collecting a lookup batch (dwarf_batch.h).
 */
#include "dwarf_batch.h"

#include <stdlib.h>
#include <string.h>

#include "jeheap/base.h"
#include "jh_demangle.h"

static int cmp_query(const void *a, const void *b)
{
	const struct jh_batch_query *x = a, *y = b;
	if (x->unit != y->unit)
		return x->unit < y->unit ? -1 : 1;
	if (x->addr != y->addr)
		return x->addr < y->addr ? -1 : 1;
	return x->idx < y->idx ? -1 : x->idx > y->idx;
}

struct order_ctx {
	const struct jh_batch *b;
	const uint64_t *size; /* per unit */
};

static int cmp_task_size(const void *a, const void *b, void *arg)
{
	const struct order_ctx *c = arg;
	const struct jh_batch_task *x = &c->b->tasks[*(const size_t *)a];
	const struct jh_batch_task *y = &c->b->tasks[*(const size_t *)b];
	uint64_t sx = c->size[x->unit], sy = c->size[y->unit];
	if (sx != sy)
		return sx > sy ? -1 : 1;
	return x->unit < y->unit ? -1 : x->unit > y->unit;
}

void jh_batch_init(struct jh_batch *b, const uint64_t *addrs, const size_t *unit_of, size_t n,
		   const uint64_t *unit_size)
{
	memset(b, 0, sizeof(*b));
	b->qs = xmalloc(jh_st_mult(n + 1, sizeof(*b->qs)));
	for (size_t i = 0; i < n; i++)
		if (unit_of[i] != SIZE_MAX)
			b->qs[b->nq++] = (struct jh_batch_query){ addrs[i], i, unit_of[i], 0, 0 };
	jh_qsort(b->qs, b->nq, sizeof(*b->qs), cmp_query);
	b->tasks = xcalloc(b->nq + 1, sizeof(*b->tasks));
	for (size_t i = 0; i < b->nq; i++) {
		if (!b->ntasks || b->tasks[b->ntasks - 1].unit != b->qs[i].unit)
			b->tasks[b->ntasks++] = (struct jh_batch_task){ .unit = b->qs[i].unit,
									.q0 = i };
		b->tasks[b->ntasks - 1].q1 = i + 1;
	}
	b->order = xmalloc(jh_st_mult(b->ntasks + 1, sizeof(*b->order)));
	for (size_t k = 0; k < b->ntasks; k++)
		b->order[k] = k;
	if (unit_size && b->ntasks > 1) {
		struct order_ctx c = { b, unit_size };
		qsort_r(b->order, b->ntasks, sizeof(*b->order), cmp_task_size, &c);
	}
}

void jh_batch_emit(struct jh_batch_task *k, const char *name, const char *display, const char *file,
		   uint32_t line, uint32_t decl_line)
{
	JH_GROW(k->frames, k->nframes + 1, k->aframes);
	k->frames[k->nframes++] = (struct jh_dwarf_frame){ name, display, file, line, decl_line };
}

size_t jh_batch_collect(struct jh_batch *b, size_t n, struct jh_dwarf_answer *ans,
			struct jh_dwarf_frame **frames, size_t *nframes)
{
	size_t total = 0, failed = 0, pos = 0;
	for (size_t i = 0; i < n; i++)
		ans[i] = (struct jh_dwarf_answer){ 0, 0 };
	for (size_t k = 0; k < b->ntasks; k++)
		total += b->tasks[k].nframes;
	struct jh_dwarf_frame *out = xmalloc(jh_st_mult(total + 1, sizeof(*out)));
	for (size_t k = 0; k < b->ntasks; k++) {
		struct jh_batch_task *t = &b->tasks[k];
		failed += t->failed;
		for (size_t i = t->q0; i < t->q1; i++) {
			const struct jh_batch_query *q = &b->qs[i];
			ans[q->idx] = (struct jh_dwarf_answer){ (uint32_t)(pos + q->first), q->n };
		}
		if (t->nframes)
			memcpy(out + pos, t->frames, t->nframes * sizeof(*out));
		pos += t->nframes;
		free(t->frames);
	}
	free(b->tasks);
	free(b->qs);
	free(b->order);
	memset(b, 0, sizeof(*b));
	*frames = out;
	*nframes = total;
	return failed;
}

static const char *file_name(const struct jh_unit_tables *t, struct jh_intern *strings,
			     uint64_t idx)
{
	if (!t->have_lt || !t->files)
		return NULL;
	if (t->lt.version < 5) {
		if (idx == 0)
			return NULL;
		idx--;
	}
	return idx < (uint64_t)t->nfiles ? jh_intern(strings, t->files[idx]) : NULL;
}

static const char *demangled(struct jh_intern *strings, struct jh_u64map *display, const char *raw)
{
	if (!raw)
		return NULL;
	int added;
	uint64_t *v = jh_u64map_put(display, (uint64_t)(uintptr_t)raw, &added);
	if (added) {
		char *dm = jh_demangle(raw);
		*v = (uint64_t)(uintptr_t)(dm ? jh_intern(strings, dm) : raw);
		free(dm);
	}
	return (const char *)(uintptr_t)*v;
}

void jh_batch_answer(struct jh_batch_task *k, struct jh_batch_query *q,
		     const struct jh_unit_tables *t, uint64_t leaf, struct jh_intern *strings,
		     struct jh_u64map *display,
		     const char *(*name)(void *ctx, uint64_t die_off, uint32_t *decl_line),
		     void *ctx)
{
	const struct jh_line_row *row = t->have_lt ? jh_lines_lookup(&t->lt, q->addr) : NULL;
	q->first = k->nframes;
	if (leaf == UINT64_MAX) {
		if (row)
			jh_batch_emit(k, NULL, NULL, file_name(t, strings, row->file), row->line,
				      0);
		q->n = (uint32_t)(k->nframes - q->first);
		return;
	}
	size_t chain[256], n = 0; /* innermost first */
	for (int64_t i = (int64_t)leaf; i >= 0 && n < 256; i = t->w.nodes[i].parent) {
		chain[n++] = (size_t)i;
		if (!t->w.nodes[i].inlined)
			break;
	}
	for (size_t j = n; j-- > 0;) { /* outermost first */
		const struct jh_walk_node *nd = &t->w.nodes[chain[j]];
		uint32_t decl = 0;
		const char *nm = name(ctx, nd->die_off, &decl),
			   *dm = demangled(strings, display, nm);
		if (j == 0) {
			jh_batch_emit(k, nm, dm, row ? file_name(t, strings, row->file) : NULL,
				      row ? row->line : 0, decl);
		} else {
			const struct jh_walk_node *in = &t->w.nodes[chain[j - 1]];
			jh_batch_emit(k, nm, dm, file_name(t, strings, in->call_file),
				      in->call_line, decl);
		}
	}
	q->n = (uint32_t)n;
}

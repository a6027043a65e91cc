/* idtab.c - hash index over caller-stored keys (see idtab.h). */
#include "jeheap/idtab.h"

#include <stdlib.h>
#include <string.h>

void jh_idtab_init(struct jh_idtab *t)
{
	memset(t, 0, sizeof(*t));
}

void jh_idtab_release(struct jh_idtab *t)
{
	free(t->slots);
	free(t->hashes);
	memset(t, 0, sizeof(*t));
}

/* Slots keep the upper half of their id's hash: probes past other keys
 * touch neither the hashes nor the keys. */
static void idtab_resize(struct jh_idtab *t, size_t cap)
{
	uint32_t *slots = xcalloc(cap, 2 * sizeof(*slots));
	for (size_t id = 0; id < t->nr; id++) {
		size_t i = t->hashes[id] & (cap - 1);
		while (slots[2 * i])
			i = (i + 1) & (cap - 1);
		slots[2 * i] = (uint32_t)id + 1;
		slots[2 * i + 1] = (uint32_t)(t->hashes[id] >> 32);
	}
	free(t->slots);
	t->slots = slots;
	t->cap = cap;
}

uint32_t jh_idtab_put(struct jh_idtab *t, uint64_t h, jh_idtab_eq eq, const void *ctx, int *added)
{
	if ((t->nr + 1) * 4 > t->cap * 3)
		idtab_resize(t, t->cap ? t->cap * 2 : 64);
	size_t i = h & (t->cap - 1);
	uint32_t tag = (uint32_t)(h >> 32);
	for (; t->slots[2 * i]; i = (i + 1) & (t->cap - 1)) {
		uint32_t id = t->slots[2 * i] - 1;
		if (t->slots[2 * i + 1] == tag && t->hashes[id] == h && eq(ctx, id)) {
			*added = 0;
			return id;
		}
	}
	JH_GROW(t->hashes, t->nr + 1, t->alloc);
	t->hashes[t->nr] = h;
	t->slots[2 * i] = (uint32_t)t->nr + 1;
	t->slots[2 * i + 1] = tag;
	*added = 1;
	return (uint32_t)t->nr++;
}

void jh_idtab_reserve(struct jh_idtab *t, size_t n)
{
	size_t cap = t->cap ? t->cap : 64;
	while ((n + 1) * 4 > cap * 3)
		cap *= 2;
	if (cap != t->cap)
		idtab_resize(t, cap);
	if (n > t->alloc) {
		t->hashes = xrealloc(t->hashes, jh_st_mult(n, sizeof(*t->hashes)));
		t->alloc = n;
	}
}

void jh_seqset_init(struct jh_seqset *s)
{
	memset(s, 0, sizeof(*s));
	jh_idtab_init(&s->t);
}

void jh_seqset_release(struct jh_seqset *s)
{
	jh_idtab_release(&s->t);
	free(s->offs);
	free(s->lens);
	memset(s, 0, sizeof(*s));
}

struct seq_probe {
	const struct jh_seqset *s;
	const uint32_t *pool;
	size_t off;
	uint32_t len;
};

static int seq_eq(const void *ctx, uint32_t id)
{
	const struct seq_probe *p = ctx;
	return p->s->lens[id] == p->len &&
	       (p->len == 0 ||
		!memcmp(p->pool + p->s->offs[id], p->pool + p->off, p->len * sizeof(uint32_t)));
}

uint32_t jh_seqset_put(struct jh_seqset *s, const uint32_t *pool, size_t off, uint32_t len,
		       int *added)
{
	struct seq_probe p = { s, pool, off, len };
	static const uint32_t none;
	uint64_t h = jh_hash_str(len ? pool + off : &none, len * sizeof(uint32_t));
	uint32_t id = jh_idtab_put(&s->t, h, seq_eq, &p, added);
	if (*added) {
		if (s->t.nr > s->alloc) {
			size_t n = s->alloc < 64 ? 64 : s->alloc * 2;
			s->offs = xrealloc(s->offs, jh_st_mult(n, sizeof(*s->offs)));
			s->lens = xrealloc(s->lens, jh_st_mult(n, sizeof(*s->lens)));
			s->alloc = n;
		}
		s->offs[id] = off;
		s->lens[id] = len;
	}
	return id;
}

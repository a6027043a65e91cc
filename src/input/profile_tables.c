/* profile_tables.c - helpers of profile.c and profile_pcs.c (which call
 * nothing else of each other through them): pair tables, symbol order. */
#include "parse.h"

#include <stdlib.h>
#include <string.h>

uint64_t *jh_pairs_resize(uint64_t *old, size_t oldcap, size_t cap, int mix)
{
	uint64_t *slots = xcalloc(cap, 2 * sizeof(*slots));
	for (size_t i = 0; i < oldcap; i++) {
		if (!old[2 * i + 1])
			continue;
		uint64_t key = old[2 * i];
		size_t j = (mix ? jh_hash_u64(key) : key) & (cap - 1);
		while (slots[2 * j + 1])
			j = (j + 1) & (cap - 1);
		slots[2 * j] = key;
		slots[2 * j + 1] = old[2 * i + 1];
	}
	free(old);
	return slots;
}

/* Orders by pc, and lines of one pc by position in the file. */
struct symref {
	uint64_t pc;
	size_t pos;
};

static int symref_cmp(const void *a, const void *b)
{
	const struct symref *x = a, *y = b;
	if (x->pc != y->pc)
		return x->pc < y->pc ? -1 : 1;
	return x->pos < y->pos ? -1 : x->pos > y->pos;
}

void jh_profile_sort_symbols(struct jh_profile *p)
{
	int sorted = 1;
	for (size_t i = 1; i < p->nsyms && sorted; i++)
		sorted = p->syms[i - 1].pc < p->syms[i].pc;
	if (sorted)
		return;
	struct symref *r = xmalloc(jh_st_mult(p->nsyms, sizeof(*r)));
	for (size_t i = 0; i < p->nsyms; i++) {
		r[i].pc = p->syms[i].pc;
		r[i].pos = i;
	}
	jh_qsort(r, p->nsyms, sizeof(*r), symref_cmp);
	struct jh_symname *out = xmalloc(jh_st_mult(p->nsyms, sizeof(*out)));
	size_t n = 0;
	for (size_t i = 0; i < p->nsyms; i++) {
		struct jh_symname *s = &p->syms[r[i].pos];
		if (n && out[n - 1].pc == s->pc) /* a later line for the same pc wins */
			n--;
		out[n++] = *s;
	}
	free(r);
	free(p->syms);
	p->syms = out;
	p->nsyms = n;
	p->syms_alloc = p->nsyms;
}

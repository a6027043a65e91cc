/* profile.c - the raw profile model: interned stacks, thread samples, symbols. */
#include "jeheap/profile.h"
#include "parse.h"

#include <stdlib.h>
#include <string.h>

void jh_profile_init(struct jh_profile *p)
{
	memset(p, 0, sizeof(*p));
}

void jh_profile_release(struct jh_profile *p)
{
	free(p->source);
	free(p->binary);
	free(p->types);
	free(p->pcs);
	free(p->pcids);
	free(p->upcs);
	free(p->upc_syms);
	free(p->pc_pending);
	free(p->pc_slots);
	free(p->pc_narrow);
	free(p->stacks);
	free(p->tsamples);
	for (size_t i = 0; i < p->nthreads; i++)
		free(p->threads[i].name);
	free(p->threads);
	for (size_t i = 0; i < p->nmaps; i++)
		free(p->maps[i].path);
	free(p->maps);
	free(p->syms);
	free(p->sym_parts);
	free(p->sym_frames);
	jh_arena_release(&p->sym_arena);
	free(p->sym_index);
	free(p->stack_slots);
	jh_u64map_release(&p->thread_index);
	free(p->ts_head);
	free(p->ts_next);
	memset(p, 0, sizeof(*p));
}

static uint64_t stack_hash(const uint64_t *pcs, uint32_t n)
{
	uint64_t h = 0;
	for (uint32_t i = 0; i < n; i++)
		h = jh_stack_hash_step(h, pcs[i]);
	return h;
}

/*
 * Open addressing, load factor <= 1/2. Slot j is the pair
 * stack_slots[2j] = stack id + 1 (0 = empty) and stack_slots[2j+1] = the
 * stack's 32-bit hash tag, which also picks the home slot: probes compare
 * tags before touching the stacks, and growing needs no rehashing of pcs.
 */
static void stack_grow(struct jh_profile *p)
{
	size_t cap = p->stack_slots_cap ? p->stack_slots_cap * 2 : 1024;
	uint32_t *slots = xcalloc(cap, 2 * sizeof(*slots));
	for (size_t i = 0; i < p->stack_slots_cap; i++) {
		uint32_t id = p->stack_slots[2 * i], tag = p->stack_slots[2 * i + 1];
		if (!id)
			continue;
		size_t j = tag & (cap - 1);
		while (slots[2 * j])
			j = (j + 1) & (cap - 1);
		slots[2 * j] = id;
		slots[2 * j + 1] = tag;
	}
	free(p->stack_slots);
	p->stack_slots = slots;
	p->stack_slots_cap = cap;
}

uint32_t jh_profile_intern_stack(struct jh_profile *p, const uint64_t *pcs, uint32_t n)
{
	return jh_profile_intern_stack_hashed(p, pcs, n, stack_hash(pcs, n));
}

static uint32_t stack_tag(uint32_t n, uint64_t hash)
{
	return (uint32_t)(jh_hash_u64(hash ^ n) >> 32);
}

void jh_profile_prefetch_stack(const struct jh_profile *p, uint32_t n, uint64_t hash)
{
	if (p->stack_slots_cap)
		__builtin_prefetch(
			&p->stack_slots[2 * (stack_tag(n, hash) & (p->stack_slots_cap - 1))]);
}

static int stack_equal(const struct jh_profile *p, const struct jh_stack *s, const uint64_t *pcs,
		       uint32_t n)
{
	if (s->len != n)
		return 0;
	if (!p->dense_pcs)
		return !memcmp(p->pcs + s->off, pcs, (size_t)n * sizeof(*pcs));
	if (p->npc_pending && s->off >= p->pending_off)
		return !memcmp(p->pc_pending + (s->off - p->pending_off), pcs,
			       (size_t)n * sizeof(*pcs));
	const uint32_t *ids = p->pcids + s->off;
	for (uint32_t k = 0; k < n; k++)
		if (p->upcs[ids[k]] != pcs[k])
			return 0;
	return 1;
}

/* Appends the stack's pcs (or their ids) to the pool; returns the offset.
 * The ids of a few stacks are looked up together (jh_profile_pc_flush),
 * the table's slots fetched well ahead. */
static size_t pool_add(struct jh_profile *p, const uint64_t *pcs, uint32_t n)
{
	size_t off;
	if (p->dense_pcs) {
		off = p->npcids;
		JH_GROW(p->pcids, p->npcids + n, p->pcids_alloc);
		if (!p->npc_pending)
			p->pending_off = off;
		JH_GROW(p->pc_pending, p->npc_pending + n, p->pc_pending_alloc);
		memcpy(p->pc_pending + p->npc_pending, pcs, (size_t)n * sizeof(*pcs));
		p->npc_pending += n;
		p->npcids += n;
		if (p->npc_pending >= 1024)
			jh_profile_pc_flush(p);
	} else {
		off = p->npcs;
		JH_GROW(p->pcs, p->npcs + n, p->pcs_alloc);
		if (n)
			memcpy(p->pcs + p->npcs, pcs, (size_t)n * sizeof(*pcs));
		p->npcs += n;
	}
	return off;
}

uint32_t jh_profile_intern_stack_hashed(struct jh_profile *p, const uint64_t *pcs, uint32_t n,
					uint64_t hash)
{
	if (2 * (p->nstacks + 1) > p->stack_slots_cap)
		stack_grow(p);
	uint32_t tag = stack_tag(n, hash);
	size_t mask = p->stack_slots_cap - 1;
	size_t j = tag & mask;
	uint32_t id;
	while ((id = p->stack_slots[2 * j])) {
		if (p->stack_slots[2 * j + 1] == tag && stack_equal(p, &p->stacks[id - 1], pcs, n))
			return id - 1;
		j = (j + 1) & mask;
	}
	if (p->nstacks >= UINT32_MAX - 1) { /* stack 0 takes the rest (the read fails) */
		p->limit = "too many stacks";
		return 0;
	}
	size_t off = pool_add(p, pcs, n);
	JH_GROW(p->stacks, p->nstacks + 1, p->stacks_alloc);
	struct jh_stack *s = &p->stacks[p->nstacks];
	memset(s, 0, sizeof(*s));
	s->off = off;
	s->len = n;
	id = (uint32_t)p->nstacks++;
	p->stack_slots[2 * j] = id + 1;
	p->stack_slots[2 * j + 1] = tag;
	return id;
}

static void counts_add(struct jh_counts *dst, const struct jh_counts *c)
{
	for (int i = 0; i < JH_NVALUES; i++)
		dst->v[i] += c->v[i];
}

void jh_profile_add(struct jh_profile *p, uint32_t stack, const struct jh_counts *c)
{
	counts_add(&p->stacks[stack].c, c);
}

static uint32_t thread_new(struct jh_profile *p, uint64_t uid, const char *name)
{
	JH_GROW(p->threads, p->nthreads + 1, p->threads_alloc);
	p->threads[p->nthreads].uid = uid;
	p->threads[p->nthreads].name = name ? xstrdup(name) : NULL;
	return (uint32_t)p->nthreads++;
}

uint32_t jh_profile_thread(struct jh_profile *p, uint64_t uid, const char *name)
{
	uint32_t t;
	if (uid == UINT64_MAX) { /* the map's reserved key: linear search */
		for (t = 0; t < p->nthreads; t++)
			if (p->threads[t].uid == uid)
				break;
		if (t == p->nthreads)
			return thread_new(p, uid, name);
	} else {
		int added;
		uint64_t *v = jh_u64map_put(&p->thread_index, uid, &added);
		if (added) {
			t = thread_new(p, uid, name);
			*jh_u64map_get(&p->thread_index, uid) = t;
			return t;
		}
		t = (uint32_t)*v;
	}
	if (name && !p->threads[t].name)
		p->threads[t].name = xstrdup(name);
	return t;
}

/* A stack has few threads: walking its chain beats a global hash lookup. */
void jh_profile_add_thread(struct jh_profile *p, uint32_t t, uint32_t stack,
			   const struct jh_counts *c)
{
	if (stack >= p->ts_head_alloc) {
		size_t old = p->ts_head_alloc;
		JH_GROW(p->ts_head, (size_t)stack + 1, p->ts_head_alloc);
		memset(p->ts_head + old, 0, (p->ts_head_alloc - old) * sizeof(*p->ts_head));
	}
	for (uint32_t i = p->ts_head[stack]; i; i = p->ts_next[i - 1]) {
		if (p->tsamples[i - 1].thread == t) {
			counts_add(&p->tsamples[i - 1].c, c);
			return;
		}
	}
	JH_GROW(p->tsamples, p->ntsamples + 1, p->tsamples_alloc);
	JH_GROW(p->ts_next, p->ntsamples + 1, p->ts_next_alloc);
	struct jh_tsample *s = &p->tsamples[p->ntsamples];
	s->thread = t;
	s->stack = stack;
	s->c = *c;
	p->ts_next[p->ntsamples] = p->ts_head[stack];
	p->ts_head[stack] = (uint32_t)++p->ntsamples;
}

const char *jh_profile_symbol(const struct jh_profile *p, uint64_t pc)
{
	size_t lo = 0, hi = p->nsyms;
	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		if (p->syms[mid].pc < pc)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo < p->nsyms && p->syms[lo].pc == pc ? p->syms[lo].names : NULL;
}

/*
 * Symbol names (whole lines, or with split_symbols their parts) are stored
 * once per distinct string: call sites of one function usually carry the
 * same names. sym_index holds slot pairs (hash, string pointer), load
 * factor <= 1/2; each stored string is preceded by its sym_head and
 * JH_NAME_PREFIX (the model interns the strings without a copy), so a probe
 * reads the slot and the string, nothing else.
 */
struct sym_head {
	uint32_t id, len; /* index in sym_parts, strlen */
	uint64_t hash;    /* jh_hash_str */
};
#define SYM_HEAD_AT (sizeof(struct sym_head) + JH_NAME_PAD) /* before the string */

static struct sym_head sym_head(const char *x)
{
	struct sym_head hd;
	memcpy(&hd, x - SYM_HEAD_AT, sizeof(hd));
	return hd;
}

const char *jh_profile_sym_part(const struct jh_profile *p, uint32_t id, size_t *len,
				uint64_t *hash)
{
	const char *x = p->sym_parts[id];
	struct sym_head hd = sym_head(x);
	*len = hd.len;
	*hash = hd.hash;
	return x;
}

static void sym_index_grow(struct jh_profile *p)
{
	size_t cap = p->sym_index_cap ? p->sym_index_cap * 2 : 1024;
	p->sym_index = jh_pairs_resize(p->sym_index, p->sym_index_cap, cap, 0);
	p->sym_index_cap = cap;
}

/* Stores the new name s[0..n) (key h) at index slot j; returns its id. */
static __attribute__((noinline)) uint32_t sym_insert(struct jh_profile *p, const char *s, size_t n,
						     uint64_t h, size_t j)
{
	if (p->nsym_parts >= UINT32_MAX - 1 || n >= UINT32_MAX) {
		p->limit = "too many symbol names"; /* the read fails */
		if (p->nsym_parts)
			return 0;
		n = 0;
	}
	char *x = (char *)jh_arena_alloc(&p->sym_arena, SYM_HEAD_AT + n + 1) + SYM_HEAD_AT;
	struct sym_head hd = { (uint32_t)p->nsym_parts, (uint32_t)n, jh_hash_str(s, n) };
	memcpy(x - SYM_HEAD_AT, &hd, sizeof(hd));
	memcpy(x - JH_NAME_PAD, JH_NAME_PREFIX, JH_NAME_PAD);
	memcpy(x, s, n);
	x[n] = 0;
	JH_GROW(p->sym_parts, p->nsym_parts + 1, p->sym_parts_alloc);
	p->sym_parts[p->nsym_parts++] = x;
	p->sym_index[2 * j] = h;
	p->sym_index[2 * j + 1] = (uint64_t)(uintptr_t)x;
	p->sym_index_nr++;
	return hd.id;
}

/* Returns the id in sym_parts of s[0..n), whose jh_name_key is h; the index
 * has room for it. */
static inline uint32_t sym_find(struct jh_profile *p, const char *s, size_t n, uint64_t h)
{
	size_t mask = p->sym_index_cap - 1, j = h & mask;
	uint64_t x;
	for (; (x = p->sym_index[2 * j + 1]); j = (j + 1) & mask) {
		if (p->sym_index[2 * j] != h)
			continue;
		struct sym_head hd = sym_head((const char *)(uintptr_t)x);
		if (hd.len == n && !memcmp((const char *)(uintptr_t)x, s, n))
			return hd.id;
	}
	return sym_insert(p, s, n, h, j);
}

/* Makes room in the index for n more names. */
static void sym_index_room(struct jh_profile *p, size_t n)
{
	while (2 * (p->sym_index_nr + n) > p->sym_index_cap)
		sym_index_grow(p);
}

static struct jh_symname *new_symname(struct jh_profile *p, uint64_t pc)
{
	JH_GROW(p->syms, p->nsyms + 1, p->syms_alloc);
	struct jh_symname *sym = &p->syms[p->nsyms++];
	memset(sym, 0, sizeof(*sym));
	sym->pc = pc;
	return sym;
}

/* A whole line, read without split_symbols. */
static void add_whole_symbol(struct jh_profile *p, uint64_t pc, const char *names, size_t n)
{
	sym_index_room(p, 1);
	uint32_t id = sym_find(p, names, n, jh_name_key(names, n)); /* may move sym_parts */
	new_symname(p, pc)->names = p->sym_parts[id];
}

void jh_symbatch_init(struct jh_symbatch *b)
{
	memset(b, 0, sizeof(*b));
}

void jh_symbatch_release(struct jh_symbatch *b)
{
	free(b->parts);
	memset(b, 0, sizeof(*b));
}

void jh_symbatch_room(struct jh_profile *p, struct jh_symbatch *b, size_t n)
{
	if (n >= UINT32_MAX)
		p->limit = "symbol lines with too many names"; /* the read fails */
	sym_index_room(p, n);
	JH_GROW(b->parts, n, b->parts_alloc);
}

/*
 * The parts were keyed and their index slots fetched when added; now the
 * strings the slots of equal keys point at are fetched, then all are
 * stored (the probes now mostly hit the caches).
 */
void jh_symbatch_flush(struct jh_profile *p, struct jh_symbatch *b)
{
	if (!p->split_symbols) {
		for (size_t i = 0; i < b->n; i++)
			add_whole_symbol(p, b->pcs[i], b->names[i], b->len[i]);
		b->n = 0;
		return;
	}
	size_t mask = p->sym_index_cap - 1;
	for (size_t k = 0; k < b->nparts; k++) {
		const uint64_t *slot = &p->sym_index[2 * (b->parts[k].h & mask)];
		if (!slot[1] || slot[0] != b->parts[k].h)
			continue;
		/* the whole string: it is compared byte by byte */
		const char *x = (const char *)(uintptr_t)slot[1] - SYM_HEAD_AT;
		for (size_t o = 0; o < SYM_HEAD_AT + b->parts[k].n; o += 64)
			__builtin_prefetch(x + o);
	}
	const struct jh_sympart *part = b->parts;
	JH_GROW(p->syms, p->nsyms + b->n, p->syms_alloc);
	JH_GROW(p->sym_frames, p->nsym_frames + b->nparts, p->sym_frames_alloc);
	for (size_t i = 0; i < b->n; i++) {
		uint32_t np = (uint32_t)b->len[i], *out = p->sym_frames + p->nsym_frames;
		p->syms[p->nsyms++] = (struct jh_symname){ b->pcs[i], NULL,
							   (uint32_t)p->nsym_frames, np };
		for (uint32_t k = 0; k < np; k++, part++)
			out[k] = sym_find(p, part->s, part->n, part->h);
		p->nsym_frames += np;
	}
	b->n = 0;
	b->nparts = 0;
}

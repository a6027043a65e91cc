/*
 * profile_pcs.c - dense pc ids (jh_profile.dense_pcs): the pc -> id tables.
 *
 * The tables are set up at the first stack with the pcs of the symbol lines
 * (sorted, unique), each marked with its line and no id yet; a pc gets the
 * next id when a stack first uses it, and its line goes to upc_syms then.
 * So ids are dense, in the order of first use, and the model finds the
 * names of an id without a lookup.
 *
 * Two open-addressing tables (load <= 3/4). Most pcs of a profile share
 * their upper 32 bits (those of one executable): pc_hi, the upper half the
 * most symbol lines have (else the first pc's). Those pcs live in the
 * narrow table, one 8-byte slot each (value << 32 | the pc's lower half);
 * the others in the wide one, slot j = (pc, value). The lookups, one per
 * address of every distinct stack, are random reads all over the table: a
 * table half the size keeps more of them in the caches and the TLB.
 * Values: 0 = empty, id + 1, or a "symbol line only" mark with the line's
 * index (SYM_ONLY | line in the wide table, NSYM | line in the narrow).
 */
#include "jeheap/profile.h"
#include "parse.h"

#include <stdlib.h>
#include <string.h>

#define SYM_ONLY (1ULL << 32)
#define NSYM (1U << 31)

static size_t pc_home(uint64_t pc, size_t cap)
{
	return jh_hash_u64(pc) & (cap - 1);
}

/* The narrow table's home of a lower half: bits 32 and up of its product
 * with an odd constant (each depends on all 32 bits of lo), one multiply. */
static inline size_t narrow_home(uint32_t lo, size_t cap)
{
	return (size_t)((uint64_t)lo * 0x9e3779b97f4a7c15ULL >> 32) & (cap - 1);
}

static int narrow(const struct jh_profile *p, uint64_t pc)
{
	return pc >> 32 == p->pc_hi;
}

/* The capacity of a table of cap slots for need entries. */
static size_t table_cap(size_t cap, size_t need)
{
	cap = cap ? cap : 1024;
	while (4 * need > 3 * cap)
		cap *= 2;
	return cap;
}

static void narrow_resize(struct jh_profile *p, size_t cap)
{
	uint64_t *old = p->pc_narrow, *slots = xcalloc(cap, sizeof(*slots));
	for (size_t i = 0; i < p->pc_narrow_cap; i++) {
		if (!(old[i] >> 32))
			continue;
		size_t j = narrow_home((uint32_t)old[i], cap);
		while (slots[j])
			j = (j + 1) & (cap - 1);
		slots[j] = old[i];
	}
	free(old);
	p->pc_narrow = slots;
	p->pc_narrow_cap = cap;
}

/* Makes room for wide and nar more entries, without growing on the way. */
static void pc_tables_reserve(struct jh_profile *p, size_t wide, size_t nar)
{
	size_t cap = table_cap(p->pc_slots_cap, p->pc_slots_nr + wide);
	if (!p->pc_slots || cap != p->pc_slots_cap) {
		p->pc_slots = jh_pairs_resize(p->pc_slots, p->pc_slots_cap, cap, 1);
		p->pc_slots_cap = cap;
	}
	cap = table_cap(p->pc_narrow_cap, p->pc_narrow_nr + nar);
	if (!p->pc_narrow || cap != p->pc_narrow_cap)
		narrow_resize(p, cap);
}

/* pc_hi: the upper half with the most symbol lines (sorted by pc, so in
 * runs), else that of first. */
static void choose_hi(struct jh_profile *p, uint64_t first)
{
	size_t best = 0;
	p->pc_hi = first >> 32;
	for (size_t i = 0, j; i < p->nsyms; i = j) {
		uint64_t h = p->syms[i].pc >> 32;
		for (j = i + 1; j < p->nsyms && p->syms[j].pc >> 32 == h; j++)
			;
		if (j - i > best) {
			best = j - i;
			p->pc_hi = h;
		}
	}
}

static void pc_table_init(struct jh_profile *p, uint64_t first)
{
	jh_profile_sort_symbols(p);
	if (p->nsyms >= NSYM) { /* the lines past the limit are not looked up */
		p->limit = "too many symbol lines";
		p->nsyms = NSYM - 1;
	}
	choose_hi(p, first);
	size_t nar = 0;
	for (size_t i = 0; i < p->nsyms; i++)
		nar += narrow(p, p->syms[i].pc);
	pc_tables_reserve(p, p->nsyms - nar, nar);
	uint64_t *wide = p->pc_slots, *nslots = p->pc_narrow;
	size_t wcap = p->pc_slots_cap, ncap = p->pc_narrow_cap;
	for (size_t i = 0; i < p->nsyms; i++) {
		if (i + 16 < p->nsyms) {
			uint64_t a = p->syms[i + 16].pc;
			if (narrow(p, a))
				__builtin_prefetch(&nslots[narrow_home((uint32_t)a, ncap)], 1);
			else
				__builtin_prefetch(&wide[2 * pc_home(a, wcap)], 1);
		}
		uint64_t pc = p->syms[i].pc;
		if (narrow(p, pc)) {
			size_t j = narrow_home((uint32_t)pc, ncap);
			while (nslots[j])
				j = (j + 1) & (ncap - 1);
			nslots[j] = (uint64_t)(NSYM | i) << 32 | (uint32_t)pc;
			continue;
		}
		size_t j = pc_home(pc, wcap);
		while (wide[2 * j + 1])
			j = (j + 1) & (wcap - 1);
		wide[2 * j] = pc;
		wide[2 * j + 1] = SYM_ONLY | i;
	}
	p->pc_narrow_nr = nar;
	p->pc_slots_nr = p->nsyms - nar;
}

/* The next id + 1, for pc (whose symbol line is sym + 1, 0 = none). */
static uint32_t new_id(struct jh_profile *p, uint64_t pc, uint32_t sym)
{
	if (p->nupcs >= NSYM - 2) { /* id 0 takes the rest (the read fails) */
		p->limit = "too many addresses";
		return 1;
	}
	JH_GROW(p->upcs, p->nupcs + 1, p->upcs_alloc);
	JH_GROW(p->upc_syms, p->nupcs + 1, p->upc_syms_alloc);
	p->upcs[p->nupcs] = pc;
	p->upc_syms[p->nupcs] = sym;
	return (uint32_t)++p->nupcs;
}

/* The id + 1 of pc, from the narrow table's slot j on. */
static inline uint32_t narrow_id(struct jh_profile *p, uint64_t pc, size_t j)
{
	uint64_t *slots = p->pc_narrow, s;
	size_t mask = p->pc_narrow_cap - 1;
	uint32_t lo = (uint32_t)pc;
	while ((s = slots[j]) && (uint32_t)s != lo)
		j = (j + 1) & mask;
	uint32_t v = (uint32_t)(s >> 32);
	if (!v) {
		v = new_id(p, pc, 0);
		p->pc_narrow_nr++;
	} else if (v & NSYM) {
		v = new_id(p, pc, (v & ~NSYM) + 1);
	} else {
		return v;
	}
	slots[j] = (uint64_t)v << 32 | lo;
	return v;
}

/* The same in the wide table. */
static inline uint32_t wide_id(struct jh_profile *p, uint64_t pc, size_t j)
{
	uint64_t *slots = p->pc_slots;
	size_t mask = p->pc_slots_cap - 1;
	while (slots[2 * j + 1] && slots[2 * j] != pc)
		j = (j + 1) & mask;
	uint64_t v = slots[2 * j + 1];
	if (!v) {
		slots[2 * j] = pc;
		v = slots[2 * j + 1] = new_id(p, pc, 0);
		p->pc_slots_nr++;
	} else if (v & SYM_ONLY) {
		v = slots[2 * j + 1] = new_id(p, pc, (uint32_t)v + 1);
	}
	return (uint32_t)v;
}

#define WIDE ((size_t)1 << 63) /* a home in the wide table */

/* The home slot of pc in its table (| WIDE for the wide one), fetched. */
static inline size_t fetch_home(const struct jh_profile *p, uint64_t pc)
{
	if (narrow(p, pc)) {
		size_t h = narrow_home((uint32_t)pc, p->pc_narrow_cap);
		__builtin_prefetch(&p->pc_narrow[h]);
		return h;
	}
	size_t h = pc_home(pc, p->pc_slots_cap);
	__builtin_prefetch(&p->pc_slots[2 * h]);
	return h | WIDE;
}

#define PC_AHEAD 16 /* a power of two: the ring of homes below */
#define PC_CHUNK 1024

void jh_profile_pc_ids(struct jh_profile *p, const uint64_t *pcs, size_t n, uint32_t *out)
{
	if (!p->pc_narrow)
		pc_table_init(p, n ? pcs[0] : 0);
	size_t home[PC_AHEAD]; /* home[i % PC_AHEAD]: the home slot of c[i], fetched ahead */
	for (size_t b = 0; b < n; b += PC_CHUNK) {
		size_t k = n - b < PC_CHUNK ? n - b : PC_CHUNK;
		pc_tables_reserve(p, k, k);
		const uint64_t *c = pcs + b, *nslots = p->pc_narrow;
		for (size_t i = 0; i < k && i < PC_AHEAD; i++)
			home[i] = fetch_home(p, c[i]);
		for (size_t i = 0; i < k; i++) {
			uint64_t pc = c[i];
			size_t j = home[i % PC_AHEAD];
			if (i + PC_AHEAD < k)
				home[i % PC_AHEAD] = fetch_home(p, c[i + PC_AHEAD]);
			if (j & WIDE) {
				out[b + i] = wide_id(p, pc, j & ~WIDE) - 1;
				continue;
			}
			/* most often: at home, with its id */
			uint64_t slot = nslots[j];
			uint32_t v = (uint32_t)(slot >> 32);
			out[b + i] = ((uint32_t)slot == (uint32_t)pc && v - 1 < NSYM - 1
					      ? v
					      : narrow_id(p, pc, j)) -
				     1;
		}
	}
}

void jh_profile_pc_flush(struct jh_profile *p)
{
	if (!p->npc_pending)
		return;
	jh_profile_pc_ids(p, p->pc_pending, p->npc_pending, p->pcids + p->pending_off);
	p->npc_pending = 0;
}

void jh_profile_densify(struct jh_profile *p)
{
	jh_profile_pc_flush(p);
	if (p->dense_pcs)
		return;
	p->dense_pcs = 1;
	p->pcids = xmalloc(jh_st_mult(p->npcs ? p->npcs : 1, sizeof(*p->pcids)));
	p->pcids_alloc = p->npcs ? p->npcs : 1;
	jh_profile_pc_ids(p, p->pcs, p->npcs, p->pcids);
	p->npcids = p->npcs;
	free(p->pcs);
	p->pcs = NULL;
	p->npcs = p->pcs_alloc = 0;
}

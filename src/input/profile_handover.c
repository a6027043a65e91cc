/*
 * profile_handover.c - the handover of a read profile to its consumer (the
 * model): the dense form made, the reader's indexes freed, and the parts
 * the consumer keeps taken out of the profile (see profile.h).
 */
#include "parse.h"

#include <stdlib.h>

int jh_profile_handover(struct jh_profile *p, struct jh_diag *d)
{
	jh_profile_densify(p);
	free(p->pc_slots); /* the reader's indexes: their memory is reused */
	free(p->pc_narrow);
	free(p->stack_slots);
	p->pc_slots = p->pc_narrow = NULL;
	p->stack_slots = NULL;
	p->pc_slots_cap = p->pc_narrow_cap = p->stack_slots_cap = 0;
	if (p->limit)
		return jh_diag_set(d, JH_EXIT_INTERNAL, p->source, 0, "%s", p->limit);
	return 0;
}

void jh_profile_give_parts(struct jh_profile *p, struct jh_intern *names)
{
	jh_intern_keep(names, &p->sym_arena);
	free(p->sym_parts);
	free(p->sym_index);
	p->sym_parts = NULL;
	p->nsym_parts = p->sym_parts_alloc = 0;
	p->sym_index = NULL;
	p->sym_index_cap = p->sym_index_nr = 0;
}

uint32_t *jh_profile_take_pcids(struct jh_profile *p, size_t *n, size_t *alloc)
{
	uint32_t *v = p->pcids;
	*n = p->npcids;
	*alloc = p->pcids_alloc;
	p->pcids = NULL;
	p->npcids = p->pcids_alloc = 0;
	return v;
}

uint64_t *jh_profile_take_upcs(struct jh_profile *p)
{
	uint64_t *v = p->upcs;
	p->upcs = NULL;
	p->upcs_alloc = 0;
	return v;
}

/* The symbol of each unique pc: made by densify, read with the symbol lines. */
static void drop_upc_syms(struct jh_profile *p)
{
	free(p->upc_syms);
	p->upc_syms = NULL;
	p->upc_syms_alloc = 0;
}

void jh_profile_drop_ids(struct jh_profile *p)
{
	free(p->pcids);
	free(p->upcs);
	p->pcids = NULL;
	p->upcs = NULL;
	p->npcids = p->pcids_alloc = p->nupcs = p->upcs_alloc = 0;
	drop_upc_syms(p);
}

void jh_profile_drop_symbols(struct jh_profile *p)
{
	free(p->syms);
	free(p->sym_frames);
	p->syms = NULL;
	p->sym_frames = NULL;
	p->nsyms = p->syms_alloc = p->nsym_frames = p->sym_frames_alloc = 0;
	drop_upc_syms(p);
}

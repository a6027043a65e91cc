/*
 * dwarf_walk.c - one unit's subroutine walk without libdwarf (dwarf_walk.h).
 */
#include "dwarf_walk.h"

#include <libdwarf/dwarf.h>
#include <stdlib.h>
#include <string.h>

#include "jeheap/base.h"

void jh_rangevec_add(struct jh_rangevec *rv, uint64_t lo, uint64_t hi, uint64_t id)
{
	if (lo >= hi || lo == UINT64_MAX)
		return;
	JH_GROW(rv->v, rv->n + 1, rv->a);
	rv->v[rv->n++] = (struct jh_sched_range){ lo, hi, id };
}

static void unit_info_init(struct jh_unit_info *u, const struct jh_dwarf_secs *dw,
			   const struct jh_scan *s, const struct jh_scan_die *cu, uint64_t cu_base)
{
	memset(u, 0, sizeof(*u));
	u->version = s->version;
	u->cu_base = cu_base;
	u->addr.addr_size = s->addr_size;
	u->addr.offsz = s->offsz;
	if (cu->has_addr_base && dw->addr &&
	    dw->addr->data) { /* else every index fails, as in llvm */
		u->addr.addr = dw->addr->data;
		u->addr.addr_size_sec = dw->addr->size;
		u->addr.addr_base = cu->addr_base;
	}
	u->has_rl_base = cu->has_rnglists_base;
	u->rl_base = cu->has_rnglists_base ? cu->rnglists_base : 0;
}

struct range_sink {
	struct jh_rangevec *rv;
	uint64_t id;
};

static void range_sink_add(void *ctx, uint64_t lo, uint64_t hi)
{
	struct range_sink *k = ctx;
	jh_rangevec_add(k->rv, lo, hi, k->id);
}

/* A DW_AT_ranges list (form, value) with our own readers. */
void jh_list_ranges(const struct jh_dwarf_secs *dw, const struct jh_unit_info *u, unsigned form,
		    uint64_t value, struct jh_rangevec *rv, uint64_t id)
{
	struct range_sink k = { rv, id };
	size_t r0 = rv->n;
	int rc = -1;
	if (u->version >= 5) {
		const struct jh_section *rl = dw->rnglists;
		uint64_t off = value;
		if (rl && rl->data &&
		    (form != DW_FORM_rnglistx ||
		     (u->has_rl_base && jh_rnglistx_offset(rl->data, rl->size, u->rl_base, value,
							   u->addr.offsz, &off) == 0)))
			rc = jh_rnglist_read(rl->data, rl->size, off, &u->addr, u->cu_base,
					     range_sink_add, &k);
	} else if (dw->ranges && dw->ranges->data) {
		rc = jh_ranges_read(dw->ranges->data, dw->ranges->size, value, u->addr.addr_size,
				    u->cu_base, range_sink_add, &k);
	}
	if (rc != 0)
		rv->n = r0; /* llvm drops a list it cannot read */
}

/* die_ranges for a scanned DIE (nothing from libdwarf). */
void jh_scan_ranges(const struct jh_dwarf_secs *dw, const struct jh_unit_info *u,
		    const struct jh_scan_die *d, struct jh_rangevec *rv, uint64_t id)
{
	uint64_t lo = d->lo, hi = d->hi;
	int lo_ok = d->lo_kind == 1 ||
		    (d->lo_kind == 2 && jh_dwarf_addrx(&u->addr, d->lo, &lo) == 0);
	int hi_ok = d->hi_kind == 1 || d->hi_kind == 2 ||
		    (d->hi_kind == 4 && jh_dwarf_addrx(&u->addr, d->hi, &hi) == 0);
	if (lo_ok && hi_ok)
		jh_rangevec_add(rv, lo, d->hi_kind == 2 ? lo + hi : hi, id);
	else if (d->has_ranges)
		jh_list_ranges(dw, u, d->ranges_form, d->ranges, rv, id);
}

/* The unit DIE read with the scanner: unit_info, and its DIE. 0 or -1. */
int jh_unit_info_scan(const struct jh_dwarf_secs *dw, uint64_t cu_off, uint64_t cu_base,
		      struct jh_unit_info *u, struct jh_scan_die *d)
{
	struct jh_scan s;
	if (!dw->abbrev || !dw->abbrev->data ||
	    jh_scan_open(&s, dw->info->data, dw->info->size, dw->abbrev->data, dw->abbrev->size,
			 cu_off) != 0)
		return -1;
	int rc = -1;
	if (jh_scan_next(&s, d) == 1 && d->tag != 0) {
		unit_info_init(u, dw, &s, d, cu_base);
		rc = 0;
	}
	jh_scan_close(&s);
	return rc;
}

int jh_walk_descend(unsigned tag)
{
	switch (tag) {
	case DW_TAG_namespace:
	case DW_TAG_class_type:
	case DW_TAG_structure_type:
	case DW_TAG_union_type:
	case DW_TAG_interface_type:
	case DW_TAG_module:
	case DW_TAG_lexical_block:
	case DW_TAG_subprogram:
	case DW_TAG_inlined_subroutine:
	case DW_TAG_try_block:
	case DW_TAG_catch_block:
	case DW_TAG_entry_point:
	case DW_TAG_common_block:
	case DW_TAG_with_stmt: return 1;
	}
	return 0;
}

int jh_covers(const uint64_t *qa, size_t nq, uint64_t lo, uint64_t hi)
{
	if (nq == JH_WALK_ALL)
		return lo < hi;
	size_t a = 0, b = nq;
	while (a < b) {
		size_t mid = a + (b - a) / 2;
		if (qa[mid] < lo)
			a = mid + 1;
		else
			b = mid;
	}
	return a < nq && qa[a] < hi;
}

/*
 * walk_cu's job done with our own scanner (dwarf_scan.c) and range readers
 * (dwarf_ranges.c): no libdwarf call at all.
 * Returns -1 if the scanner meets something it does not know (the caller
 * then starts over with walk_cu).
 */
int jh_walk_unit(const struct jh_dwarf_secs *dw, uint64_t cu_off, uint64_t cu_base,
		 const uint64_t *qa, size_t nq, struct jh_walk *t)
{
	struct jh_scan s;
	if (!dw->abbrev || !dw->abbrev->data ||
	    jh_scan_open(&s, dw->info->data, dw->info->size, dw->abbrev->data, dw->abbrev->size,
			 cu_off) != 0)
		return -1;
	struct level {
		int64_t parent;
		int cold;
	} *st = NULL;
	size_t nst = 0, ast = 0;
	struct jh_scan_die d;
	int ok = 0;
	if (jh_scan_next(&s, &d) != 1 || d.tag == 0)
		goto out;
	struct jh_unit_info u;
	unit_info_init(&u, dw, &s, &d, cu_base);
	if (d.has_children) {
		JH_GROW(st, 1, ast);
		st[nst++] = (struct level){ -1, 0 };
	}
	while (nst) {
		if (jh_scan_next(&s, &d) != 1)
			goto out;
		if (d.tag == 0) {
			nst--;
			continue;
		}
		int64_t me = st[nst - 1].parent;
		int cold = st[nst - 1].cold, skip = 0;
		int inl = d.tag == DW_TAG_inlined_subroutine;
		if (inl && cold) {
			skip = 1;
		} else if (inl || d.tag == DW_TAG_subprogram) {
			size_t r0 = t->rv.n, hot = 0;
			jh_scan_ranges(dw, &u, &d, &t->rv, t->nnodes);
			int has_code = t->rv.n > r0;
			for (size_t r = r0; r < t->rv.n && !hot; r++)
				hot = jh_covers(qa, nq, t->rv.v[r].lo, t->rv.v[r].hi);
			if (hot) {
				me = (int64_t)t->nnodes;
				JH_GROW(t->nodes, t->nnodes + 1, t->anodes);
				t->nodes[t->nnodes++] = (struct jh_walk_node){
					d.off, st[nst - 1].parent, inl ? (uint32_t)d.call_file : 0,
					inl ? (uint32_t)d.call_line : 0, inl
				};
			} else {
				t->rv.n = r0;
			}
			if (has_code)
				cold = !hot;
		}
		if (!d.has_children)
			continue;
		if (!skip && jh_walk_descend(d.tag)) {
			JH_GROW(st, nst + 1, ast);
			st[nst++] = (struct level){ me, cold };
		} else if (jh_scan_skip_children(&s, &d) != 0) {
			goto out;
		}
	}
	ok = 1;
out:
	free(st);
	jh_scan_close(&s);
	return ok ? 0 : -1;
}

/*
 * dwarf_scan.c - forward scanner over one .debug_info unit (dwarf_scan.h).
 * Little-endian only (the section store rejects other byte orders on the
 * little-endian hosts jeheap supports).
 */
#include "dwarf_scan.h"

#include <stdlib.h>
#include <string.h>

#include "jeheap/base.h"

struct jh_scan_attr {
	uint16_t at, form;
	int64_t implicit;
};

struct jh_abbrev {
	uint64_t code;
	unsigned tag;
	int children;
	size_t first, n; /* into attrs */
	int64_t fixed;   /* byte size of the attribute values if constant, else -1 */
	int64_t sib_at;  /* offset of a DW_AT_sibling value inside them, or -1 */
	unsigned sib_form;
	int64_t plan; /* variable size: its skip plan in ops, or -1 */
	size_t nplan;
};

/*
 * One step over a DIE's attribute values: n bytes, a LEB128, a string, a
 * block, a DW_AT_sibling of n bytes, or (subroutines and units) a value
 * the resolver needs, attrs[n], read and decoded.
 */
enum {
	OP_FIXED,
	OP_LEB,
	OP_STRING,
	OP_BLOCK1,
	OP_BLOCK2,
	OP_BLOCK4,
	OP_BLOCKLEB,
	OP_SIBLING,
	OP_READ
};
struct jh_scan_op {
	uint8_t kind;
	uint16_t form;
	uint32_t n;
};

/* DW_TAG_*, DW_AT_*, DW_FORM_* values used here (DWARF 5 and GNU). */
enum {
	TAG_subprogram = 0x2e,
	TAG_inlined = 0x1d,
	AT_sibling = 0x01,
	AT_low_pc = 0x11,
	AT_high_pc = 0x12,
	AT_ranges = 0x55,
	AT_call_file = 0x58,
	AT_call_line = 0x59,
	AT_addr_base = 0x73,
	AT_rnglists_base = 0x74,
	AT_GNU_addr_base = 0x2133,
	AT_GNU_ranges_base = 0x2132,
	TAG_compile_unit = 0x11,
	TAG_partial_unit = 0x3c,
};

static uint64_t rd(struct jh_scan *s, unsigned n)
{
	return jh_cur_uint(&s->c, n);
}

static uint64_t uleb(struct jh_scan *s)
{
	return jh_cur_uleb(&s->c);
}

static int parse_abbrevs(struct jh_scan *s, const unsigned char *sec, uint64_t size, uint64_t off)
{
	if (off >= size)
		return -1;
	struct jh_cur c = { sec + off, sec + size, 0 };
	size_t aab = 0, aat = 0;
	for (;;) {
		uint64_t code = jh_cur_uleb(&c);
		if (c.bad)
			return -1;
		if (code == 0)
			break;
		struct jh_abbrev a = {
			code, (unsigned)jh_cur_uleb(&c), 0, s->nattrs, 0, -1, -1, 0, -1, 0
		};
		a.children = (int)jh_cur_uint(&c, 1);
		for (;;) {
			uint64_t at = jh_cur_uleb(&c), form = jh_cur_uleb(&c);
			int64_t ic = form == 0x21 ? jh_cur_sleb(&c) : 0;
			if (c.bad || at > 0xffff || form > 0xffff)
				return -1;
			if (at == 0 && form == 0)
				break;
			JH_GROW(s->attrs, s->nattrs + 1, aat);
			s->attrs[s->nattrs++] = (struct jh_scan_attr){ (uint16_t)at, (uint16_t)form,
								       ic };
			a.n++;
		}
		JH_GROW(s->ab, s->nab + 1, aab);
		s->ab[s->nab++] = a;
	}
	return 0;
}

/* Size of a form's value when it does not depend on the data, else -1. */
static int form_size(const struct jh_scan *s, unsigned form)
{
	switch (form) {
	case 0x01: return (int)s->addr_size;
	case 0x0b:
	case 0x11:
	case 0x0c:
	case 0x25:
	case 0x29: return 1;
	case 0x05:
	case 0x12:
	case 0x26:
	case 0x2a: return 2;
	case 0x27:
	case 0x2b: return 3;
	case 0x06:
	case 0x13:
	case 0x1c:
	case 0x28:
	case 0x2c: return 4;
	case 0x07:
	case 0x14:
	case 0x20:
	case 0x24: return 8;
	case 0x1e: return 16;
	case 0x0e:
	case 0x17:
	case 0x1d:
	case 0x1f:
	case 0x1f20:
	case 0x1f21: return (int)s->offsz;
	case 0x10: return (int)(s->version <= 2 ? s->addr_size : s->offsz);
	case 0x19:
	case 0x21: return 0;
	}
	return -1;
}

/* The skip step for a variable-size form; -1 if there is none (indirect, unknown). */
static int skip_kind(unsigned form)
{
	switch (form) {
	case 0x0d:
	case 0x0f:
	case 0x15:
	case 0x1a:
	case 0x1b:
	case 0x22:
	case 0x23:
	case 0x1f01:
	case 0x1f02: return OP_LEB;
	case 0x08: return OP_STRING;
	case 0x0a: return OP_BLOCK1;
	case 0x03: return OP_BLOCK2;
	case 0x04: return OP_BLOCK4;
	case 0x09:
	case 0x18: return OP_BLOCKLEB;
	}
	return -1;
}

static int is_sub(unsigned tag)
{
	return tag == TAG_subprogram || tag == TAG_inlined || tag == TAG_compile_unit ||
	       tag == TAG_partial_unit;
}

/* The attributes jh_scan_next decodes for subroutines and units. */
static int wanted(unsigned at)
{
	return at == AT_low_pc || at == AT_high_pc || at == AT_ranges || at == AT_addr_base ||
	       at == AT_GNU_addr_base || at == AT_rnglists_base || at == AT_GNU_ranges_base ||
	       at == AT_call_file || at == AT_call_line;
}

/* The plan for abbreviation a (consecutive fixed sizes merged); none if a form is not plannable. */
static void plan_abbrev(struct jh_scan *s, struct jh_abbrev *a, size_t *aops)
{
	size_t start = s->nops;
	int sub = is_sub(a->tag);
	for (size_t j = 0; j < a->n; j++) {
		const struct jh_scan_attr *at = &s->attrs[a->first + j];
		int n = form_size(s, at->form), kind = n >= 0 ? OP_FIXED : skip_kind(at->form);
		if (at->at == AT_sibling)
			kind = n > 0 && at->form >= 0x10 && at->form <= 0x14 ? OP_SIBLING : -1;
		else if (sub && wanted(at->at) && kind >= 0 && at->form != 0x16)
			kind = OP_READ, n = (int)(a->first + j);
		if (kind < 0) {
			s->nops = start; /* the general path reads this one */
			return;
		}
		if (kind == OP_FIXED && s->nops > start && s->ops[s->nops - 1].kind == OP_FIXED) {
			s->ops[s->nops - 1].n += (uint32_t)n;
			continue;
		}
		JH_GROW(s->ops, s->nops + 1, *aops);
		s->ops[s->nops++] = (struct jh_scan_op){ (uint8_t)kind, at->form,
							 n > 0 ? (uint32_t)n : 0 };
	}
	a->plan = (int64_t)start;
	a->nplan = s->nops - start;
}

/* Precomputes the constant-size skip of each abbreviation, or its skip plan. */
static void size_abbrevs(struct jh_scan *s)
{
	size_t aops = 0;
	for (size_t i = 0; i < s->nab; i++) {
		struct jh_abbrev *a = &s->ab[i];
		a->fixed = 0;
		a->sib_at = -1;
		for (size_t j = 0; j < a->n && a->fixed >= 0; j++) {
			const struct jh_scan_attr *at = &s->attrs[a->first + j];
			int n = form_size(s, at->form);
			if (at->at == AT_sibling) {
				a->sib_at = a->fixed;
				a->sib_form = at->form;
			}
			a->fixed = n < 0 ? -1 : a->fixed + n;
		}
		if (a->fixed < 0 || is_sub(a->tag))
			plan_abbrev(s, a, &aops);
	}
}

static const struct jh_abbrev *find_abbrev(const struct jh_scan *s, uint64_t code)
{
	if (code - 1 < s->nab && s->ab[code - 1].code == code)
		return &s->ab[code - 1];
	for (size_t i = 0; i < s->nab; i++)
		if (s->ab[i].code == code)
			return &s->ab[i];
	return NULL;
}

int jh_scan_open(struct jh_scan *s, const unsigned char *info, uint64_t info_size,
		 const unsigned char *abbrev, uint64_t abbrev_size, uint64_t cu_off)
{
	memset(s, 0, sizeof(*s));
	if (!info || !abbrev || cu_off >= info_size)
		return -1;
	s->info = info;
	s->info_size = info_size;
	s->cu_off = cu_off;
	s->c.p = info + cu_off;
	s->c.end = info + info_size;
	uint64_t len = jh_cur_initial_length(&s->c, &s->offsz);
	if (s->c.bad || len > (uint64_t)(s->c.end - s->c.p))
		return -1;
	s->c.end = s->c.p + len;
	s->version = (unsigned)rd(s, 2);
	uint64_t abbr_off;
	if (s->version >= 2 && s->version <= 4) {
		abbr_off = rd(s, s->offsz);
		s->addr_size = (unsigned)rd(s, 1);
	} else if (s->version == 5) {
		unsigned ut = (unsigned)rd(s, 1);
		s->addr_size = (unsigned)rd(s, 1);
		abbr_off = rd(s, s->offsz);
		if (ut != 1 /* DW_UT_compile */ && ut != 3 /* DW_UT_partial */)
			return -1;
	} else {
		return -1;
	}
	if (s->c.bad || (s->addr_size != 4 && s->addr_size != 8))
		return -1;
	if (parse_abbrevs(s, abbrev, abbrev_size, abbr_off) != 0) {
		jh_scan_close(s);
		return -1;
	}
	size_abbrevs(s);
	return 0;
}

void jh_scan_close(struct jh_scan *s)
{
	free(s->ab);
	free(s->attrs);
	free(s->ops);
	s->ab = NULL;
	s->attrs = NULL;
	s->ops = NULL;
}

/* Reads one attribute value: *v gets constants/addresses/offsets. */
static int read_form(struct jh_scan *s, unsigned form, int64_t implicit, uint64_t *v)
{
	const unsigned char *q;
	uint64_t n;
	*v = 0;
	switch (form) {
	case 0x01: *v = rd(s, s->addr_size); break; /* addr */
	case 0x0b:
	case 0x11:
	case 0x0c:
	case 0x25:
	case 0x29: /* data1 ref1 flag strx1 addrx1 */ *v = rd(s, 1); break;
	case 0x05:
	case 0x12:
	case 0x26:
	case 0x2a: *v = rd(s, 2); break; /* data2 ref2 strx2 addrx2 */
	case 0x27:
	case 0x2b: *v = rd(s, 3); break; /* strx3 addrx3 */
	case 0x06:
	case 0x13:
	case 0x1c:
	case 0x28:
	case 0x2c: /* data4 ref4 ref_sup4 strx4 addrx4 */ *v = rd(s, 4); break;
	case 0x07:
	case 0x14:
	case 0x20:
	case 0x24: *v = rd(s, 8); break; /* data8 ref8 ref_sig8 ref_sup8 */
	case 0x1e:
		rd(s, 8);
		rd(s, 8);
		break;                                       /* data16 */
	case 0x0d: *v = (uint64_t)jh_cur_sleb(&s->c); break; /* sdata */
	case 0x0f:
	case 0x15:
	case 0x1a:
	case 0x1b:
	case 0x22:
	case 0x23: /* udata ref_udata strx addrx loclistx rnglistx */
	case 0x1f01:
	case 0x1f02: /* GNU_addr_index GNU_str_index */ *v = uleb(s); break;
	case 0x0e:
	case 0x17:
	case 0x1d:
	case 0x1f:
	case 0x1f20:
	case 0x1f21: /* strp sec_offset strp_sup line_strp GNU_ref_alt GNU_strp_alt */
		*v = rd(s, s->offsz);
		break;
	case 0x10: *v = rd(s, s->version <= 2 ? s->addr_size : s->offsz); break; /* ref_addr */
	case 0x19: break;                                                        /* flag_present */
	case 0x21: *v = (uint64_t)implicit; break; /* implicit_const */
	case 0x08:                                 /* string */
		q = memchr(s->c.p, 0, (size_t)(s->c.end - s->c.p));
		if (!q)
			return -1;
		s->c.p = q + 1;
		break;
	case 0x0a: n = rd(s, 1); goto block; /* block1 */
	case 0x03: n = rd(s, 2); goto block; /* block2 */
	case 0x04: n = rd(s, 4); goto block; /* block4 */
	case 0x09:
	case 0x18:
		n = uleb(s);
		goto block; /* block exprloc */
	block:
		if (n > (uint64_t)(s->c.end - s->c.p))
			return -1;
		s->c.p += n;
		break;
	case 0x16: { /* indirect */
		uint64_t f = uleb(s);
		if (f == 0x16 || f == 0x21 || f > 0xffff)
			return -1;
		return read_form(s, (unsigned)f, 0, v);
	}
	default: return -1;
	}
	return s->c.bad ? -1 : 0;
}

static int is_addr_form(unsigned form)
{
	return form == 0x01;
}

static int is_index_form(unsigned form)
{
	return form == 0x1b || (form >= 0x29 && form <= 0x2c) || form == 0x1f01;
}

static int is_const_form(unsigned form)
{
	return form == 0x0b || form == 0x05 || form == 0x06 || form == 0x07 || form == 0x0f ||
	       form == 0x21 || form == 0x0d;
}

/* Keeps a subroutine's or unit's attribute value that the resolver needs. */
static void take_attr(struct jh_scan_die *d, unsigned at, unsigned form, uint64_t v)
{
	switch (at) {
	case AT_low_pc:
		d->lo_kind = is_addr_form(form) ? 1 : is_index_form(form) ? 2 : 3;
		d->lo = v;
		break;
	case AT_high_pc:
		d->hi_kind = is_addr_form(form)    ? 1
			     : is_const_form(form) ? 2
			     : is_index_form(form) ? 4
						   : 3;
		d->hi = v;
		break;
	case AT_ranges:
		d->has_ranges = 1;
		d->ranges_form = form;
		d->ranges = v;
		break;
	case AT_addr_base:
	case AT_GNU_addr_base:
		d->has_addr_base = 1;
		d->addr_base = v;
		break;
	case AT_rnglists_base:
	case AT_GNU_ranges_base:
		d->has_rnglists_base = 1;
		d->rnglists_base = v;
		break;
	case AT_call_file: d->call_file = is_const_form(form) ? v : 0; break;
	case AT_call_line: d->call_line = is_const_form(form) ? v : 0; break;
	}
}

/* Steps over a DIE's values by its abbreviation's plan: 1, or -1 (bad). */
static int skip_planned(struct jh_scan *s, const struct jh_abbrev *a, struct jh_scan_die *d)
{
	const unsigned char *p = s->c.p, *end = s->c.end;
	for (size_t i = 0; i < a->nplan; i++) {
		const struct jh_scan_op *op = &s->ops[a->plan + (int64_t)i];
		uint64_t n = op->n;
		switch (op->kind) {
		case OP_LEB:
			while (p < end && (*p & 0x80))
				p++;
			if (p >= end)
				goto bad;
			p++;
			continue;
		case OP_STRING: {
			const unsigned char *q = memchr(p, 0, (size_t)(end - p));
			if (!q)
				goto bad;
			p = q + 1;
			continue;
		}
		case OP_BLOCK1:
		case OP_BLOCK2:
		case OP_BLOCK4:
		case OP_BLOCKLEB: {
			struct jh_cur c = { p, end, 0 };
			n = op->kind == OP_BLOCKLEB ? jh_cur_uleb(&c)
						    : jh_cur_uint(&c, op->kind == OP_BLOCK1   ? 1
								      : op->kind == OP_BLOCK2 ? 2
											      : 4);
			if (c.bad)
				goto bad;
			p = c.p;
			break;
		}
		case OP_SIBLING: {
			struct jh_cur c = { p, end, 0 };
			uint64_t v = jh_cur_uint(&c, op->n);
			if (c.bad)
				goto bad;
			d->sibling = op->form == 0x10 ? v : s->cu_off + v;
			break;
		}
		case OP_READ: {
			const struct jh_scan_attr *at = &s->attrs[op->n];
			uint64_t v;
			s->c.p = p;
			if (read_form(s, at->form, at->implicit, &v) != 0)
				goto bad;
			p = s->c.p;
			take_attr(d, at->at, at->form, v);
			continue;
		}
		}
		if (n > (uint64_t)(end - p))
			goto bad;
		p += n;
	}
	s->c.p = p;
	return 1;
bad:
	s->c.bad = 1;
	s->c.p = end;
	return -1;
}

int jh_scan_next(struct jh_scan *s, struct jh_scan_die *d)
{
	if (s->c.bad)
		return -1;
	if (s->c.p >= s->c.end)
		return 0;
	/* field by field: a memset of the whole DIE per DIE was a third of the scan */
	d->off = (uint64_t)(s->c.p - s->info);
	d->tag = 0;
	d->has_children = 0;
	d->sibling = 0;
	d->lo_kind = d->hi_kind = d->has_ranges = 0;
	d->has_addr_base = d->has_rnglists_base = 0;
	d->call_file = d->call_line = 0;
	uint64_t code = uleb(s);
	if (s->c.bad)
		return -1;
	if (code == 0)
		return 1; /* null entry: tag 0 */
	const struct jh_abbrev *a = find_abbrev(s, code);
	if (!a)
		return -1;
	d->tag = a->tag;
	d->has_children = a->children;
	int sub = is_sub(a->tag);
	if (!sub && a->fixed >= 0) { /* the common case: skip in one step */
		if ((uint64_t)(s->c.end - s->c.p) < (uint64_t)a->fixed)
			return -1;
		if (a->sib_at >= 0) {
			struct jh_cur c = { s->c.p + a->sib_at, s->c.end, 0 };
			uint64_t v = jh_cur_uint(&c, (unsigned)form_size(s, a->sib_form));
			if (a->sib_form == 0x10)
				d->sibling = v;
			else if (a->sib_form >= 0x11 && a->sib_form <= 0x14)
				d->sibling = s->cu_off + v;
		}
		s->c.p += a->fixed;
		return 1;
	}
	if (sub) {
		d->lo = d->hi = d->ranges = d->addr_base = d->rnglists_base = 0;
		d->ranges_form = 0;
	}
	if (a->plan >= 0)
		return skip_planned(s, a, d);
	for (size_t i = 0; i < a->n; i++) {
		const struct jh_scan_attr *at = &s->attrs[a->first + i];
		uint64_t v;
		unsigned form = at->form;
		if (form == 0x16) { /* indirect: the real form comes first */
			uint64_t f = uleb(s);
			if (f > 0xffff || f == 0x16 || f == 0x21)
				return -1;
			form = (unsigned)f;
		}
		if (read_form(s, form, at->implicit, &v) != 0)
			return -1;
		if (at->at == AT_sibling) {
			if (form == 0x10)
				d->sibling = v;
			else if (form >= 0x11 && form <= 0x15)
				d->sibling = s->cu_off + v;
			continue;
		}
		if (sub)
			take_attr(d, at->at, form, v);
	}
	return 1;
}

int jh_scan_skip_children(struct jh_scan *s, const struct jh_scan_die *d)
{
	if (d->sibling > d->off && d->sibling <= (uint64_t)(s->c.end - s->info)) {
		s->c.p = s->info + d->sibling; /* past the children and their null entry */
		return 0;
	}
	int depth = 1;
	struct jh_scan_die k;
	while (depth > 0) {
		int rc = jh_scan_next(s, &k);
		if (rc <= 0)
			return -1;
		if (k.tag == 0)
			depth--;
		else if (k.has_children)
			depth++;
	}
	return 0;
}

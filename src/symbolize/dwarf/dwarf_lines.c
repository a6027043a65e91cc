/*
 * dwarf_lines.c - DWARF 2-5 line-number program decoder (see dwarf_lines.h).
 * Little-endian targets only (the section store rejects other byte orders
 * on little-endian hosts).
 */
#include "dwarf_lines.h"

#include <stdlib.h>
#include <string.h>

#include "dwarf_read.h"
#include "jeheap/base.h"

struct regs {
	uint64_t addr;
	uint32_t file, line;
};

static void reset(struct regs *r)
{
	r->addr = 0;
	r->file = 1; /* DWARF 5 too: this is the libdwarf bug we avoid */
	r->line = 1;
}

struct seqstate {
	size_t first;
	int empty;
	uint64_t lo;
};

static void add_row(struct jh_line_table *t, struct seqstate *sq, const struct regs *r)
{
	if (sq->empty) {
		sq->empty = 0;
		sq->lo = r->addr;
		sq->first = t->nrows;
	}
	JH_GROW(t->rows, t->nrows + 1, t->arows);
	t->rows[t->nrows++] = (struct jh_line_row){ r->addr, r->line, r->file };
}

/* End of sequence: the end row is not stored; its address is hi. */
static void end_seq(struct jh_line_table *t, struct seqstate *sq, const struct regs *r)
{
	if (!sq->empty && sq->lo < r->addr) {
		JH_GROW(t->seqs, t->nseqs + 1, t->aseqs);
		t->seqs[t->nseqs++] = (struct jh_line_seq){ sq->lo, r->addr, sq->first,
							    t->nrows - sq->first };
	} else if (!sq->empty) {
		t->nrows = sq->first; /* llvm drops empty or inverted sequences */
	}
	sq->empty = 1;
}

static int cmp_seq(const void *a, const void *b)
{
	const struct jh_line_seq *x = a, *y = b;
	if (x->hi != y->hi)
		return x->hi < y->hi ? -1 : 1;
	if (x->lo != y->lo)
		return x->lo < y->lo ? -1 : 1;
	return x->first < y->first ? -1 : x->first > y->first;
}

int jh_lines_decode(const unsigned char *sec, uint64_t size, uint64_t off, struct jh_line_table *t)
{
	memset(t, 0, sizeof(*t));
	if (!sec || off >= size)
		return -1;
	struct jh_cur c = { sec + off, sec + size, 0 };
	unsigned offsz;
	uint64_t len = jh_cur_initial_length(&c, &offsz);
	if (c.bad || len > (uint64_t)(c.end - c.p))
		return -1;
	c.end = c.p + len;
	unsigned version = (unsigned)jh_cur_uint(&c, 2);
	if (version < 2 || version > 5)
		return -1;
	if (version >= 5)
		jh_cur_uint(&c, 2); /* address_size, segment_selector_size */
	uint64_t hlen = jh_cur_uint(&c, offsz);
	if (c.bad || hlen > (uint64_t)(c.end - c.p))
		return -1;
	const unsigned char *prog = c.p + hlen;
	unsigned min_inst = (unsigned)jh_cur_uint(&c, 1);
	if (version >= 4)
		jh_cur_uint(&c, 1); /* maximum_operations_per_instruction: VLIW only */
	jh_cur_uint(&c, 1);         /* default_is_stmt */
	int line_base = (int8_t)jh_cur_uint(&c, 1);
	unsigned line_range = (unsigned)jh_cur_uint(&c, 1);
	unsigned opcode_base = (unsigned)jh_cur_uint(&c, 1);
	unsigned char std_len[256] = { 0 };
	for (unsigned i = 1; i < opcode_base; i++)
		std_len[i] = (unsigned char)jh_cur_uint(&c, 1);
	if (c.bad || c.p > prog || line_range == 0 || opcode_base == 0)
		return -1;
	t->version = version;
	c.p = prog;

	struct regs r;
	struct seqstate sq = { 0, 1, 0 };
	reset(&r);
	while (c.p < c.end && !c.bad) {
		unsigned op = *c.p++;
		if (op >= opcode_base) {
			unsigned adj = op - opcode_base;
			r.addr += (uint64_t)(adj / line_range) * min_inst;
			r.line += (uint32_t)(line_base + (int)(adj % line_range));
			add_row(t, &sq, &r);
			continue;
		}
		switch (op) {
		case 0: { /* extended */
			uint64_t elen = jh_cur_uleb(&c);
			if (c.bad || elen == 0 || elen > (uint64_t)(c.end - c.p)) {
				c.bad = 1;
				break;
			}
			const unsigned char *next = c.p + elen;
			unsigned sub = *c.p++;
			if (sub == 1) { /* DW_LNE_end_sequence */
				end_seq(t, &sq, &r);
				reset(&r);
			} else if (sub == 2) { /* DW_LNE_set_address */
				unsigned n = (unsigned)(elen - 1);
				r.addr = jh_cur_uint(&c, n > 8 ? 8 : n);
			}
			c.p = next; /* define_file, set_discriminator, vendor ops */
			break;
		}
		case 1: /* DW_LNS_copy */ add_row(t, &sq, &r); break;
		case 2: /* DW_LNS_advance_pc */ r.addr += jh_cur_uleb(&c) * min_inst; break;
		case 3: /* DW_LNS_advance_line */ r.line += (uint32_t)jh_cur_sleb(&c); break;
		case 4: /* DW_LNS_set_file */ r.file = (uint32_t)jh_cur_uleb(&c); break;
		case 8: /* DW_LNS_const_add_pc */
			r.addr += (uint64_t)((255 - opcode_base) / line_range) * min_inst;
			break;
		case 9: /* DW_LNS_fixed_advance_pc */ r.addr += jh_cur_uint(&c, 2); break;
		default: /* negate_stmt, basic_block, prologue/epilogue, isa, unknown */
			for (unsigned i = 0; i < std_len[op]; i++)
				jh_cur_uleb(&c);
			break;
		}
	}
	if (!sq.empty)
		t->nrows = sq.first; /* a sequence without its end: drop it */
	jh_qsort(t->seqs, t->nseqs, sizeof(*t->seqs), cmp_seq);
	return 0;
}

const struct jh_line_row *jh_lines_lookup(const struct jh_line_table *t, uint64_t addr)
{
	size_t lo = 0, hi = t->nseqs;
	while (lo < hi) { /* first sequence with hi > addr */
		size_t mid = lo + (hi - lo) / 2;
		if (t->seqs[mid].hi <= addr)
			lo = mid + 1;
		else
			hi = mid;
	}
	if (lo == t->nseqs || t->seqs[lo].lo > addr)
		return NULL;
	const struct jh_line_seq *s = &t->seqs[lo];
	const struct jh_line_row *rows = t->rows + s->first;
	size_t a = 1, b = s->n; /* upper_bound in rows[1..n) */
	while (a < b) {
		size_t mid = a + (b - a) / 2;
		if (rows[mid].addr <= addr)
			a = mid + 1;
		else
			b = mid;
	}
	return &rows[a - 1];
}

void jh_lines_free(struct jh_line_table *t)
{
	free(t->rows);
	free(t->seqs);
	memset(t, 0, sizeof(*t));
}

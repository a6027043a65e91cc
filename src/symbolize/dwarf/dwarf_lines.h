/*
 * dwarf_lines.h - our own DWARF 2-5 line-number program decoder.
 *
 * libdwarf 20210528 starts the DWARF 5 file register at 0 instead of 1 (see
 * docs/libdwarf.md), so the rows are decoded here; file names still come
 * from libdwarf (dwarf_srcfiles). Lookup follows llvm-symbolizer's rules.
 */
#ifndef JEHEAP_DWARF_LINES_H
#define JEHEAP_DWARF_LINES_H

#include <stddef.h>
#include <stdint.h>

struct jh_line_row {
	uint64_t addr;
	uint32_t line;
	uint32_t file; /* the file register as written in the program */
};

/* A sequence [lo, hi) whose rows are rows[first .. first+n) (no end row). */
struct jh_line_seq {
	uint64_t lo, hi;
	size_t first, n;
};

struct jh_line_table {
	unsigned version;
	struct jh_line_row *rows;
	size_t nrows, arows;
	struct jh_line_seq *seqs;
	size_t nseqs, aseqs;
};

/*
 * Decodes the line program at offset off of .debug_line (sec, size bytes).
 * Returns 0, or -1 if the header is malformed (t is then empty). Rows of a
 * program that is cut short are kept up to the last complete sequence.
 */
int jh_lines_decode(const unsigned char *sec, uint64_t size, uint64_t off, struct jh_line_table *t);
/* The row for addr (llvm's lookupAddress), or NULL. */
const struct jh_line_row *jh_lines_lookup(const struct jh_line_table *t, uint64_t addr);
void jh_lines_free(struct jh_line_table *t);

#endif

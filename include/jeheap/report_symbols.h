/*
 * report_symbols.h - jeprof's `--symbols <program>` mode: map text and
 * addresses on stdin, function and file:line of every frame on stdout.
 */
#ifndef JEHEAP_REPORT_SYMBOLS_H
#define JEHEAP_REPORT_SYMBOLS_H

#include "jeheap/options.h"

/*
 * Reads in as jeprof does: a line with a 0x<hex> token is an address (its
 * first such token; no caller fix-up), any other line is map text. Then
 * prints for each address, in input order, every frame innermost first as a
 * function line and a file:line line ("??" and "??:0" when unknown),
 * followed by an empty line (llvm-symbolizer --inlining / addr2line -i -f
 * layout). Symbolizes with o->sym, o->program standing for the main
 * executable. Returns an exit code (enum jh_exit), d set on failure.
 */
int jh_report_symbols(const struct jh_options *o, FILE *in, FILE *out, struct jh_diag *d);

#endif

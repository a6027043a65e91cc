/*
 * coverage_line.h - the coverage line on standard error after a run on raw
 * dumps: "jeheap: 13.9% of bytes fully symbolized; git (no symbols, 85.5% of
 * bytes short of lines): install git-dbgsym (or git-dbg), ...".
 */
#ifndef JEHEAP_COVERAGE_LINE_H
#define JEHEAP_COVERAGE_LINE_H

#include "jeheap/model.h"

/* Writes the line on f; nothing when every name came from .symbolized files. */
void jh_coverage_line(const struct jh_model *m, FILE *f);

#endif

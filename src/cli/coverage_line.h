/*
 * coverage_line.h - the coverage line on standard error after a run on raw
 * dumps: "jeheap: 99.2% of bytes fully symbolized; 2 modules without debug
 * info (ceph-osd: install ceph-osd-dbgsym (or ceph-osd-dbg) ...)".
 */
#ifndef JEHEAP_COVERAGE_LINE_H
#define JEHEAP_COVERAGE_LINE_H

#include "jeheap/model.h"

/* Writes the line on f; nothing when every name came from .symbolized files. */
void jh_coverage_line(const struct jh_model *m, FILE *f);

#endif

/*
 * json_summary.h - the --json summary's object (report_json.c), for the
 * reports that add keys to it (--series --json: series_json.c).
 */
#ifndef JEHEAP_JSON_SUMMARY_H
#define JEHEAP_JSON_SUMMARY_H

#include "jeheap/report.h"

/* Writes the summary of g (docs/json.md) without its closing "\n}\n": the
 * caller adds ",\n  \"key\": ..." members, then closes it. */
void jh_json_summary_open(FILE *out, const struct jh_graph *g, const struct jh_report_opts *o);

#endif

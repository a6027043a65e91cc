/*
 * gate.h - --fail-on-growth: the decision whether memory grew too much
 * between a base and a newer total (a --base diff, or the first and the
 * last dump of a --series). Values are in the sample type's unit
 * (bytes or objects), compared as the integers the reports print.
 */
#ifndef JEHEAP_GATE_H
#define JEHEAP_GATE_H

#include "jeheap/base.h"

/* A threshold: an amount (SIZE: digits with an optional K, M or G suffix,
 * powers of 1024) or a percentage of the base's total (PCT: "5%", "0.5%";
 * at most 6 decimals). */
struct jh_gate {
	int percent;        /* PCT given */
	uint64_t amount;    /* SIZE, in the unit */
	uint64_t pct_micro; /* PCT in millionths of a percent (5% = 5000000) */
};

/* Parses s into g. Returns 0, or -1 with d set (JH_EXIT_USAGE) naming
 * option (e.g. "--fail-on-growth"). */
int jh_gate_parse(struct jh_gate *g, const char *s, const char *option, struct jh_diag *d);

/*
 * The decision: the growth is trunc(new_total) - trunc(base_total) (as
 * --text --show_bytes prints them) and fails the gate when it is MORE than
 * the limit (SIZE, or PCT of trunc(base_total), computed exactly): a growth
 * equal to the limit passes. *growth gets the growth; *limit the limit
 * (rounded down for a PCT). Returns 1 when the gate fails, else 0.
 */
int jh_gate_exceeded(const struct jh_gate *g, double base_total, double new_total, int64_t *growth,
		     int64_t *limit);

struct jh_graph;
/* The totals the gate compares in an analysed graph: the sums of the
 * stacks --focus and --ignore keep, *before of the bases' values (0 without
 * --base), *after of the profiles'. Without filters *after is the Total:. */
void jh_gate_totals(const struct jh_graph *g, double *before, double *after);

#endif

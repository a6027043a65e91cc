/*
 * growth_gate.h - --fail-on-growth=SIZE|PCT with --base or --series
 * (growth_gate.c).
 */
#ifndef JEHEAP_GROWTH_GATE_H
#define JEHEAP_GROWTH_GATE_H

#include "jeheap/model.h"
#include "jeheap/options.h"

/*
 * Compares the total of o->value in the bases and in the profiles of m
 * (the stacks --focus and --ignore keep) with o->fail_on_growth. Returns
 * JH_EXIT_OK when the growth is at most the threshold, else JH_EXIT_GROWTH
 * with d saying what grew (the sample type, the growth, the two totals,
 * the threshold and the three functions that grew most).
 */
int jh_growth_gate(const struct jh_model *m, const struct jh_options *o, struct jh_diag *d);

/*
 * The decision and the message on totals before -> after (of o->value, what
 * --focus and --ignore keep): span says between what ("" for --base, " over
 * the series" for --series), grew_most ends the message ("; grew most: f
 * (+N), ..." or ""). Returns JH_EXIT_OK, JH_EXIT_GROWTH (d says what grew)
 * or JH_EXIT_USAGE (a bad threshold, d set).
 */
int jh_growth_gate_totals(const struct jh_options *o, double before, double after, const char *span,
			  const char *grew_most, struct jh_diag *d);

/*
 * The exit status after a report that ended with code (JH_EXIT_OK or
 * JH_EXIT_NODATA, d saying why) and a gate that ended with gate_code (gd
 * saying what grew): the gate's failure wins (d = gd); when it passes,
 * nothing to show is a warning and the status 0.
 */
int jh_growth_gate_verdict(int code, int gate_code, const struct jh_diag *gd, struct jh_diag *d);

#endif

/*
 * growth_gate.h - --fail-on-growth=SIZE|PCT with --base (growth_gate.c).
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

#endif

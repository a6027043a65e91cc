/*
 * output_kind.h - properties of the output modes: which draw the call
 * graph (Graphviz), which write binary data that a terminal must not get.
 */
#ifndef JEHEAP_OUTPUT_KIND_H
#define JEHEAP_OUTPUT_KIND_H

#include "jeheap/report_output.h"

/* The call graph, through dot (--dot, --svg, --pdf, ... --web). */
int jh_output_is_graph(enum jh_output mode);
/* Bytes no terminal should get (--pdf, --png, --gif, --ps). */
int jh_output_is_binary(enum jh_output mode);

#endif

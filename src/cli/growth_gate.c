/*
 * growth_gate.c - --fail-on-growth after the report: the selected sample
 * type's total in the bases and in the profiles (what --focus/--ignore
 * keep), or in the first and last dump of a series, the decision of gate.h,
 * and the message that says what grew.
 */
#include "growth_gate.h"

#include "jeheap/gate.h"

#include <stdlib.h>

/* "; grew most: f (+N), g (+M)": the functions whose flat value grew most. */
static void top_growers(struct jh_sb *sb, const struct jh_graph *g)
{
	uint32_t *order = jh_graph_sorted(g, 0);
	size_t shown = 0;
	for (size_t i = 0; i < g->nnodes && shown < 3; i++) {
		const struct jh_node *n = &g->nodes[order[i]];
		if (jh_perl_int(n->flat) <= 0)
			break;
		jh_sb_adds(sb, shown++ ? ", " : "; grew most: ");
		jh_sb_add_visible(sb, n->label);
		jh_sb_addf(sb, " (+%lld)", jh_perl_int(n->flat));
	}
	free(order);
}

int jh_growth_gate_totals(const struct jh_options *o, double before, double after, const char *span,
			  const char *grew_most, struct jh_diag *d)
{
	static const char *const names[JH_NVALUES] = { "inuse_objects", "inuse_space",
						       "alloc_objects", "alloc_space" };
	struct jh_gate gate;
	if (jh_gate_parse(&gate, o->fail_on_growth, "--fail-on-growth", d))
		return JH_EXIT_USAGE;
	int64_t growth, limit;
	if (!jh_gate_exceeded(&gate, before, after, &growth, &limit))
		return JH_EXIT_OK;
	const char *unit = o->value == JH_INUSE_SPACE || o->value == JH_ALLOC_SPACE ? "bytes"
										    : "objects";
	struct jh_sb sb = JH_SB_INIT;
	jh_sb_init(&sb);
	jh_sb_addf(&sb, "%s", names[o->value]);
	if (o->focus) {
		jh_sb_adds(&sb, " of --focus=");
		jh_sb_add_visible(&sb, o->focus);
	}
	jh_sb_addf(&sb, " grew by %lld %s%s (%lld -> %lld), more than --fail-on-growth=",
		   (long long)growth, unit, span, jh_perl_int(before), jh_perl_int(after));
	jh_sb_add_visible(&sb, o->fail_on_growth);
	if (gate.percent)
		jh_sb_addf(&sb, " (%lld %s)", (long long)limit, unit);
	jh_sb_adds(&sb, grew_most);
	jh_diag_set(d, JH_EXIT_GROWTH, NULL, 0, "%s", sb.buf);
	jh_sb_release(&sb);
	return JH_EXIT_GROWTH;
}

int jh_growth_gate(const struct jh_model *m, const struct jh_options *o, struct jh_diag *d)
{
	struct jh_analysis_opts ao = jh_options_analysis(o, NULL);
	struct jh_graph g;
	if (jh_analyse(&g, m, &ao, -1, d)) {
		jh_graph_release(&g);
		return d->code ? d->code : JH_EXIT_INTERNAL;
	}
	double before, after;
	jh_gate_totals(&g, &before, &after);
	struct jh_sb most = JH_SB_INIT;
	jh_sb_init(&most);
	top_growers(&most, &g);
	int code = jh_growth_gate_totals(o, before, after, "", most.buf, d);
	jh_sb_release(&most);
	jh_graph_release(&g);
	return code;
}

int jh_growth_gate_verdict(int code, int gate_code, const struct jh_diag *gd, struct jh_diag *d)
{
	if (gate_code != JH_EXIT_OK) {
		*d = *gd;
		return gate_code;
	}
	if (code == JH_EXIT_NODATA) {
		jh_warn("%s", d->msg);
		return JH_EXIT_OK;
	}
	return code;
}

/*
 * report_one.c - one output mode's analysis and report, for the pipeline
 * and the interactive mode alike; the report options taken from the
 * command line's.
 */
#include "cli.h"

void jh_report_opts_from(struct jh_report_opts *ro, const struct jh_options *o)
{
	*ro = (struct jh_report_opts){
		.output = o->output,
		.output_file = o->output_file,
		.program = o->program,
		.cum = o->cum,
		.diff_base = o->diff_base,
		.nodecount = o->nodecount,
		.nodefraction = o->nodefraction,
		.edgefraction = o->edgefraction,
		.maxdegree = o->maxdegree,
		.heapcheck = o->heapcheck,
		.quiet = o->quiet,
		.sym = &o->sym,
		.flame = &o->flame,
		.profiles = o->profiles,
		.nprofiles = o->nprofiles,
		.bases = o->bases,
		.nbases = o->nbases,
	};
}

/* jeprof's Run#n numbers, shared by every analysis of the run's model
 * (each thread of --thread='*', every interactive command). */
static struct jh_u64map run_ids;

void jh_run_ids_init(void)
{
	jh_u64map_init(&run_ids);
}

void jh_run_ids_release(void)
{
	jh_u64map_release(&run_ids);
}

void jh_fullnames_note(const struct jh_graph *g)
{
	static int said; /* once per run: threads and interactive commands analyse again */
	if (!g->fullnames || said)
		return;
	said = 1;
	struct jh_sb sb = JH_SB_INIT;
	jh_sb_init(&sb);
	if (g->fullnames & JH_FULL_FOCUS)
		jh_sb_addf(&sb, "--focus='%s'", g->focus_re);
	if (g->fullnames & JH_FULL_IGNORE)
		jh_sb_addf(&sb, "%s--ignore='%s'", sb.len ? " and " : "", g->ignore_re);
	int two = (g->fullnames & JH_FULL_FOCUS) && (g->fullnames & JH_FULL_IGNORE);
	jh_note("jeheap: %s match%s no name as --text shows them: matched against full "
		"signatures (as --collapsed shows them)",
		sb.buf, two ? "" : "es");
	jh_sb_release(&sb);
}

int jh_analyse_for(struct jh_graph *g, enum jh_output mode, const struct jh_model *m,
		   const struct jh_options *o, int thread, struct jh_diag *d)
{
	struct jh_analysis_opts ao = jh_options_analysis(o, &run_ids);
	ao.pprof = mode == JH_OUT_TRACES || mode == JH_OUT_TREE || mode == JH_OUT_PEEK;
	int r;
	if (mode == JH_OUT_COLLAPSED || mode == JH_OUT_CALLGRIND || mode == JH_OUT_LIST ||
	    mode == JH_OUT_FLAMEGRAPH)
		r = jh_analyse_stacks(g, m, &ao, thread, d);
	else
		r = jh_analyse(g, m, &ao, thread, d);
	if (!r)
		jh_fullnames_note(g);
	return r;
}

int jh_report_one(FILE *out, enum jh_output mode, const struct jh_graph *g,
		  const struct jh_options *o, int background, struct jh_diag *d)
{
	struct jh_report_opts ro;
	jh_report_opts_from(&ro, o);
	ro.output = mode;
	switch (mode) {
	case JH_OUT_DOT: return jh_report_dot(out, g, &ro, d);
	case JH_OUT_SVG:
	case JH_OUT_PDF:
	case JH_OUT_PS:
	case JH_OUT_GIF:
	case JH_OUT_PNG:
	case JH_OUT_WEB:
	case JH_OUT_GV:
	case JH_OUT_EVINCE: return jh_report_graphviz(out, g, &ro, background, d);
	case JH_OUT_CALLGRIND: return jh_report_callgrind(out, g, d);
	case JH_OUT_LIST: return jh_report_list(out, g, &ro, o->list_re, d);
	case JH_OUT_TEXT: return jh_report_text(out, g, &ro, -1);
	case JH_OUT_TOP: return jh_report_text(out, g, &ro, o->top_n);
	case JH_OUT_TRACES: return jh_report_traces(out, g, &ro);
	case JH_OUT_TREE: return jh_report_tree(out, g, NULL, &ro, d);
	case JH_OUT_PEEK: return jh_report_tree(out, g, o->list_re, &ro, d);
	case JH_OUT_COLLAPSED: return jh_report_collapsed(out, g);
	case JH_OUT_JSON: return jh_report_json(out, g, &ro);
	case JH_OUT_STATS: return jh_report_stats(out, g);
	case JH_OUT_FLAMEGRAPH: return jh_report_flamegraph(out, g, ro.flame);
	case JH_OUT_HTML: return jh_report_html(out, g, ro.flame);
	case JH_OUT_WEB_FLAME:
		return jh_report_web_flame(out, g, ro.flame, o->output_file, background, d);
	default: return 0;
	}
}

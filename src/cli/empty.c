/*
 * empty.c - empty answers are said: when a report would have nothing to
 * show, one line saying why (no samples, no such thread, no allocation data
 * without prof_accum, the filters) and exit status 4.
 */
#include "empty.h"
#include "output_kind.h"

#include <string.h>

/* The first profile (where --thread reads), for the messages. */
static const char *first_profile(const struct jh_options *o)
{
	return o->nprofiles ? o->profiles[0] : "the profile";
}

/* Some stack of the process (thread < 0) or of thread index t has value v
 * in the profiles or the bases. */
static int any_value(const struct jh_model *m, int thread, enum jh_value v)
{
	if (thread >= 0) {
		const struct jh_mthread *t = &m->threads[thread];
		for (size_t i = 0; i < t->nr; i++)
			if (t->c[i].v[v] != 0 || (t->base && t->base[i].v[v] != 0))
				return 1;
		return 0;
	}
	for (size_t i = 0; i < m->nstacks; i++)
		if (m->stacks[i].c.v[v] != 0 || (m->stack_base && m->stack_base[i].v[v] != 0))
			return 1;
	return 0;
}

int jh_model_is_empty(const struct jh_model *m)
{
	for (int v = 0; v < JH_NVALUES; v++)
		if (any_value(m, -1, (enum jh_value)v))
			return 0;
	return 1;
}

int jh_graph_is_empty(const struct jh_graph *g, enum jh_output mode)
{
	int columns = g->has_base && mode == JH_OUT_COLLAPSED; /* before after */
	if (mode == JH_OUT_JSON || mode == JH_OUT_STATS)
		return 0; /* summaries: zero totals and no rows say it */
	for (size_t i = 0; i < g->nstacks; i++) {
		const struct jh_gstack *s = &g->stacks[i];
		if (s->v != 0 || (columns && (s->before != 0 || s->after != 0)))
			return 0;
	}
	return 1;
}

/* "--focus=RE" etc. of the filters given, joined by spaces, into buf. */
static int filters(const struct jh_options *o, char *buf, size_t size)
{
	const char *names[] = { "focus", "ignore", "retain",    "exclude",
				"hide",  "show",   "show_from", "prune_from" };
	const char *vals[] = { o->focus, o->ignore, o->retain,    o->exclude,
			       o->hide,  o->show,   o->show_from, o->prune_from };
	int n = 0;
	buf[0] = 0;
	for (size_t i = 0; i < JH_ARRAY_SIZE(names); i++) {
		if (!vals[i])
			continue;
		size_t used = strlen(buf);
		snprintf(buf + used, size - used, "%s--%s=%s", n ? " " : "", names[i], vals[i]);
		n++;
	}
	return n;
}

int jh_nothing_to_show(const struct jh_model *m, const struct jh_options *o, enum jh_output mode,
		       int thread, struct jh_diag *d)
{
	const char *lead = jh_output_is_graph(mode) ? "No nodes to print" : "nothing to show";
	const char *prof = first_profile(o);
	enum jh_value v = o->value;
	if (mode == JH_OUT_RAW)
		v = JH_INUSE_OBJECTS;
	if (!any_value(m, thread, v)) {
		enum jh_value inuse = v == JH_ALLOC_SPACE     ? JH_INUSE_SPACE
				      : v == JH_ALLOC_OBJECTS ? JH_INUSE_OBJECTS
							      : v;
		if (inuse != v && any_value(m, thread, inuse))
			return jh_diag_set(
				d, JH_EXIT_NODATA, NULL, 0,
				"%s: no allocation data: %s was dumped without "
				"prof_accum (MALLOC_CONF=prof_accum:true); --inuse_space "
				"shows what is in use",
				lead, o->nprofiles > 1 ? "the profiles were" : prof);
		if (thread >= 0)
			return jh_diag_set(d, JH_EXIT_NODATA, NULL, 0,
					   "%s: thread %llu has no samples in %s", lead,
					   (unsigned long long)m->threads[thread].uid, prof);
		if (o->nprofiles > 1)
			return jh_diag_set(d, JH_EXIT_NODATA, NULL, 0,
					   "%s: no samples in the profiles", lead);
		return jh_diag_set(d, JH_EXIT_NODATA, NULL, 0, "%s: no samples in %s", lead, prof);
	}
	char f[768];
	int nf = filters(o, f, sizeof(f));
	if (nf == 1 && (o->focus || o->retain || o->show || o->show_from))
		return jh_diag_set(d, JH_EXIT_NODATA, NULL, 0, "%s: nothing matches %s", lead, f);
	if (nf == 1)
		return jh_diag_set(d, JH_EXIT_NODATA, NULL, 0, "%s: %s drops everything", lead, f);
	if (nf > 1)
		return jh_diag_set(d, JH_EXIT_NODATA, NULL, 0, "%s: nothing is left after %s", lead,
				   f);
	if (o->nbases)
		return jh_diag_set(d, JH_EXIT_NODATA, NULL, 0,
				   "%s: the profiles minus --base leave nothing%s", lead,
				   o->drop_negative ? " (with --drop_negative)" : "");
	return jh_diag_set(d, JH_EXIT_NODATA, NULL, 0, "%s: every value is zero", lead);
}

int jh_thread_index(const struct jh_model *m, const struct jh_options *o, struct jh_diag *d)
{
	for (size_t t = 0; t < m->nthreads; t++)
		if (m->threads[t].uid == o->thread)
			return (int)t;
	if (!m->nthreads)
		return jh_diag_set(d, JH_EXIT_NODATA, NULL, 0,
				   "nothing to show: %s has no per-thread data (no thread %llu)",
				   first_profile(o), (unsigned long long)o->thread);
	char list[256] = "";
	for (size_t t = 0; t < m->nthreads; t++) {
		size_t used = strlen(list);
		if (used + 32 >= sizeof(list)) {
			snprintf(list + used, sizeof(list) - used, " ...");
			break;
		}
		snprintf(list + used, sizeof(list) - used, "%s%llu", t ? " " : "",
			 (unsigned long long)m->threads[t].uid);
	}
	return jh_diag_set(d, JH_EXIT_NODATA, NULL, 0,
			   "nothing to show: no thread %llu in %s (its threads: %s)",
			   (unsigned long long)o->thread, first_profile(o), list);
}

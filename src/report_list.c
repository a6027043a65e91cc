/*
 * report_list.c - --list=REGEX: annotated source of the functions whose
 * name matches (jeprof-behaviour.md §8.7, jeprof's PrintSource layout).
 *
 * jeprof disassembles each matching nm routine with objdump and charges
 * every sampled address to the line of its outermost inline level. Here the
 * symbolizer already gave each location its inline frames with DWARF
 * file:line, so a function F gets, for every location that has F as one of
 * its frames, that location's flat and cumulative value (per address, as
 * jeprof counts them) on the line of F's frame: for the real function the
 * line of the call into its inlined callee, as jeprof shows it; inlined
 * functions can be listed too. Source files are found through --path-map
 * and --sysroot. A location without file:line (symbolized input) lists
 * nothing, as with jeprof.
 */
#include "report_graph.h"

#include "jeheap/names.h"
#include "analyse_filter.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* One sampled line of one routine. */
struct hit {
	const char *func, *file; /* interned in the model: the routine */
	uint32_t line;
	double flat, cum;
};

static int cmp_hits(const void *pa, const void *pb, void *arg)
{
	const struct hit *a = pa, *b = pb;
	struct jh_namer *namer = arg;
	if (a->func != b->func) {
		int r = strcmp(jh_namer_short(namer, a->func), jh_namer_short(namer, b->func));
		if (r)
			return r;
		r = strcmp(a->func, b->func);
		if (r)
			return r;
	}
	if (a->file != b->file)
		return strcmp(a->file, b->file);
	return a->line < b->line ? -1 : a->line > b->line;
}

/* Per-location flat and cumulative values, each location counted once per stack. */
static void location_values(const struct jh_graph *g, double *flat, double *cum)
{
	size_t n = g->m->nlocs;
	size_t *seen = xmalloc((n ? n : 1) * sizeof(*seen));
	for (size_t i = 0; i < n; i++)
		seen[i] = SIZE_MAX;
	for (size_t s = 0; s < g->nstacks; s++) {
		const struct jh_gstack *st = &g->stacks[s];
		const uint32_t *locs = g->locpool + st->off;
		if (st->len)
			flat[locs[0]] += st->v;
		for (uint32_t i = 0; i < st->len; i++) {
			if (seen[locs[i]] == s)
				continue;
			seen[locs[i]] = s;
			cum[locs[i]] += st->v;
		}
	}
	free(seen);
}

/* Opens the source file path through --path-map and --sysroot. */
static FILE *open_source(const struct jh_options *o, const char *path, struct jh_sb *tried)
{
	struct jh_sb p = JH_SB_INIT;
	jh_sb_init(&p);
	jh_sb_adds(&p, path);
	for (size_t i = 0; i < o->sym.npath_maps; i++) {
		const struct jh_path_map *pm = &o->sym.path_maps[i];
		size_t k = strlen(pm->from);
		if (!strncmp(path, pm->from, k)) {
			jh_sb_reset(&p);
			jh_sb_adds(&p, pm->to);
			jh_sb_adds(&p, path + k);
			break;
		}
	}
	jh_sb_reset(tried);
	jh_sb_adds(tried, p.buf);
	FILE *f = fopen(p.buf, "r");
	if (!f && o->sym.sysroot && p.buf[0] == '/') {
		jh_sb_reset(tried);
		jh_sb_addf(tried, "%s%s", o->sym.sysroot, p.buf);
		f = fopen(tried->buf, "r");
	}
	int err = errno;
	jh_sb_release(&p);
	errno = err;
	return f;
}

/* Reads the whole file as lines (lines[1..n]; lines[0] unused). */
static char **read_lines(FILE *f, size_t *n)
{
	char **lines = NULL;
	size_t nr = 1, alloc = 0;
	JH_GROW(lines, 1, alloc);
	lines[0] = NULL;
	char *buf = NULL;
	size_t cap = 0;
	ssize_t len;
	while ((len = getline(&buf, &cap, f)) >= 0) {
		while (len > 0 && (buf[len - 1] == '\n' || buf[len - 1] == '\r'))
			buf[--len] = '\0';
		/* jeprof drops every '\r' */
		char *w = buf;
		for (char *r = buf; *r; r++)
			if (*r != '\r')
				*w++ = *r;
		*w = '\0';
		JH_GROW(lines, nr + 1, alloc);
		lines[nr++] = xstrdup(buf);
	}
	free(buf);
	*n = nr - 1;
	return lines;
}

static void free_lines(char **lines, size_t n)
{
	for (size_t i = 1; i <= n; i++)
		free(lines[i]);
	free(lines);
}

/* jeprof's Indentation: leading whitespace length, -1 for a blank line. */
static int indentation(const char *s)
{
	int n = 0;
	while (s[n] && strchr(" \t\f\v", s[n]))
		n++;
	return s[n] ? n : -1;
}

/* jeprof's Unparse, or UnparseAlt (0 is ".") when alt. */
static const char *fmt_value(struct jh_sb *sb, const struct jh_graph *g, double v, int alt)
{
	jh_sb_reset(sb);
	if (alt && v == 0)
		jh_sb_addc(sb, '.');
	else
		jh_fmt_value(sb, g->unit, v);
	return sb->buf;
}

static const char *clean_file_name(const char *f)
{
	if (!strncmp(f, "/proc/self/cwd/", 15))
		f += 15;
	if (!strncmp(f, "./", 2))
		f += 2;
	return f;
}

/* Prints one routine: hits h[0..n) share func and file, sorted by line. */
static void print_routine(FILE *out, const struct jh_graph *g, const struct jh_options *o,
			  struct jh_namer *namer, const struct hit *h, size_t n)
{
	double total1 = 0, total2 = 0;
	for (size_t i = 0; i < n; i++) {
		total1 += h[i].flat;
		total2 += h[i].cum;
	}
	long firstline = h[0].line, lastline = h[n - 1].line, oldlastline = lastline;

	struct jh_sb tried = JH_SB_INIT;
	jh_sb_init(&tried);
	FILE *f = open_source(o, h[0].file, &tried);
	int err = errno;
	char **lines = NULL;
	size_t nlines = 0;
	if (f) {
		lines = read_lines(f, &nlines);
		fclose(f);
		/* jeprof's hack 4: extend the last line while indentation stays at the
		 * first line's. */
		int first_ind = -1;
		for (size_t l = 1; l <= nlines; l++) {
			int ind = indentation(lines[l]);
			if ((long)l >= firstline && first_ind < 0 && ind >= 0) {
				first_ind = ind;
				if (first_ind == 0)
					break;
			}
			if ((long)l >= lastline && ind >= 0) {
				if (ind >= first_ind)
					lastline = (long)l + 1;
				else
					break;
			}
		}
	} else {
		jh_warn("%s: cannot open the source of %s: %s (see --path-map, --sysroot)",
			tried.buf, jh_namer_short(namer, h[0].func), strerror(err));
	}

	struct jh_sb v1 = JH_SB_INIT, v2 = JH_SB_INIT;
	jh_sb_init(&v1);
	jh_sb_init(&v2);
	fprintf(out, "ROUTINE ====================== %s in %s\n%6s %6s Total %s (flat / cumulative)\n",
		jh_namer_short(namer, h[0].func), clean_file_name(lines ? tried.buf : h[0].file),
		fmt_value(&v1, g, total1, 0), fmt_value(&v2, g, total2, 0), g->unit_name);
	size_t k = 0;
	if (lines) {
		for (long l = firstline - 5 > 1 ? firstline - 5 : 1; l <= (long)nlines; l++) {
			if (l > oldlastline + 5 && l > lastline)
				break;
			double n1 = 0, n2 = 0;
			for (; k < n && h[k].line == l; k++) {
				n1 += h[k].flat;
				n2 += h[k].cum;
			}
			if (l == firstline)
				fputs("---\n", out);
			fprintf(out, "%6s %6s %4ld: %s\n", fmt_value(&v1, g, n1, 1),
				fmt_value(&v2, g, n2, 1), l, lines[l]);
			if (l == lastline)
				fputs("---\n", out);
		}
	} else {
		/* No source: the sampled lines with their numbers only. */
		while (k < n) {
			long l = h[k].line;
			double n1 = 0, n2 = 0;
			for (; k < n && h[k].line == l; k++) {
				n1 += h[k].flat;
				n2 += h[k].cum;
			}
			fprintf(out, "%6s %6s %4ld: \n", fmt_value(&v1, g, n1, 1),
				fmt_value(&v2, g, n2, 1), l);
		}
	}
	jh_sb_release(&v1);
	jh_sb_release(&v2);
	free_lines(lines, nlines);
	jh_sb_release(&tried);
}

int jh_report_list(FILE *out, const struct jh_graph *g, const struct jh_options *o,
		   const char *re, struct jh_diag *d)
{
	const struct jh_model *m = g->m;
	struct jh_filter *rx = jh_filter_new("list", re, d);
	if (!rx)
		return -1;
	double *flat = xcalloc(m->nlocs ? m->nlocs : 1, sizeof(double));
	double *cum = xcalloc(m->nlocs ? m->nlocs : 1, sizeof(double));
	location_values(g, flat, cum);

	struct hit *hits = NULL;
	size_t nhits = 0, alloc = 0;
	for (size_t li = 0; li < m->nlocs; li++) {
		if (flat[li] == 0 && cum[li] == 0)
			continue;
		const struct jh_location *l = &m->locs[li];
		for (uint32_t k = 0; k < l->nframes; k++) {
			const struct jh_frame *fr = &m->frames.items[l->first + k];
			if (!fr->func || !fr->file || !*fr->file || !fr->line)
				continue;
			/* function names are interned: each is matched once */
			if (!jh_filter_match_interned(rx, fr->func))
				continue;
			/* a function inlined into itself counts once, at its outermost level */
			int dup = 0;
			for (uint32_t j = 0; j < k; j++) {
				const struct jh_frame *o2 = &m->frames.items[l->first + j];
				if (o2->func == fr->func && o2->file == fr->file)
					dup = 1;
			}
			if (dup)
				continue;
			JH_GROW(hits, nhits + 1, alloc);
			hits[nhits++] = (struct hit){fr->func, fr->file, fr->line, flat[li], cum[li]};
		}
	}
	jh_filter_free(rx);

	struct jh_intern names;
	jh_intern_init(&names);
	struct jh_namer namer;
	jh_namer_init(&namer, &names);
	if (nhits)
		qsort_r(hits, nhits, sizeof(*hits), cmp_hits, &namer);
	for (size_t i = 0; i < nhits;) {
		size_t j = i + 1;
		while (j < nhits && hits[j].func == hits[i].func && hits[j].file == hits[i].file)
			j++;
		print_routine(out, g, o, &namer, hits + i, j - i);
		i = j;
	}
	jh_namer_release(&namer);
	jh_intern_release(&names);
	free(hits);
	free(flat);
	free(cum);
	return 0;
}

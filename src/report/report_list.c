/*
 * report_list.c - --list=REGEX: annotated source of the routines whose name
 * matches (docs/jeprof.md §10, jeprof's PrintListing/PrintSource).
 *
 * As jeprof: the routines are the symbol-table functions of each module
 * that hold a sampled address (modules in address order, routines sorted by
 * short name); the regex is matched against the full demangled name. Every
 * address of the routine gets the file:line of its outermost inline level
 * (list_lines.h); the routine's file is the first one met, its lines run
 * from the first address's line to the largest line of that file, extended
 * while the indentation stays (jeprof's hacks 1-4); samples of addresses
 * outside that range move to the next address inside it, leftovers to the
 * last line. Values are per address, each address counted once per stack.
 * The source is printed from 5 lines before to 5 after, with '---' around
 * the routine; a missing source file is reported on stderr and the routine
 * is skipped, as jeprof does. Sources are found through --path-map and
 * --sysroot; the header names the file as DWARF does.
 */
#include "jeheap/report.h"

#include "jeheap/list_lines.h"
#include "jeheap/names.h"
#include "jeheap/regex.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define MAX_USER_PC 0x7fffffffffffffffull
#define LINES_CHUNK ((size_t)1 << 20) /* addresses looked up at once */

/* A sampled address of one module. */
struct site {
	uint64_t modaddr;
	double flat, cum;
};

/* A matching routine of one module and its sites[first .. first + n). */
struct routine {
	struct jh_list_routine r;
	size_t first, n;
};

/* Per-location flat and cumulative values, each location counted once per
 * stack; present[l]: l is in some stack (jeprof lists routines whose values
 * are 0 too). */
static void location_values(const struct jh_graph *g, double *flat, double *cum, char *present)
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
			present[locs[i]] = 1;
		}
	}
	free(seen);
}

/* Reads the whole file as lines (lines[1..n]; lines[0] unused), every '\r'
 * dropped and the newline cut off by jeprof's chop: a last line without
 * newline loses its last character. */
static char **read_lines(FILE *f, size_t *n)
{
	char **lines = NULL;
	size_t nr = 1, alloc = 0;
	JH_GROW(lines, 1, alloc);
	lines[0] = NULL;
	char *buf = NULL;
	size_t cap = 0;
	while (getline(&buf, &cap, f) >= 0) {
		char *w = buf;
		for (char *r = buf; *r; r++)
			if (*r != '\r')
				*w++ = *r;
		if (w > buf)
			w--; /* chop */
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
	while (s[n] && strchr(" \t\n\f\v", s[n]))
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

static int same_file(const char *a, const char *b)
{
	return a && b && (a == b || !strcmp(a, b));
}

/* jeprof's hack 4: the last line extends while the indentation stays at
 * least the first line's. */
static long extend_lastline(char **lines, size_t nlines, long firstline, long lastline)
{
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
	return lastline;
}

/* What print_source needs besides the routine. */
struct listing {
	FILE *out;
	const struct jh_graph *g;
	const struct jh_report_opts *o;
	struct jh_namer *namer;
	struct jh_sb v1, v2, tried;
	struct source *src; /* each source file read once, by file name */
	size_t nsrc, asrc;
	size_t nlisted; /* routines that matched */
};

/* One source file of the listing: its lines, or why it did not open. */
struct source {
	char *file;  /* the name as the line table gives it */
	char *tried; /* the path opened (for the warning) */
	int err;     /* errno of the failed open, 0 if opened */
	char **lines;
	size_t nlines;
};

/* The lines of source file (read on first use), or NULL after a warning
 * naming routine name (repeated for each routine, as jeprof does). */
static char **source_lines(struct listing *ls, const char *file, const char *name, size_t *nlines)
{
	struct source *sf = NULL;
	for (size_t i = 0; i < ls->nsrc && !sf; i++)
		if (!strcmp(ls->src[i].file, file))
			sf = &ls->src[i];
	if (!sf) {
		JH_GROW(ls->src, ls->nsrc + 1, ls->asrc);
		sf = &ls->src[ls->nsrc++];
		memset(sf, 0, sizeof(*sf));
		sf->file = xstrdup(file);
		FILE *f = jh_list_source_open(ls->o->sym, file, &ls->tried);
		sf->err = f ? 0 : errno;
		sf->tried = xstrdup(ls->tried.buf);
		if (f) {
			sf->lines = read_lines(f, &sf->nlines);
			fclose(f);
		}
	}
	if (!sf->lines && sf->tried[0]) /* empty: refused, and said so */
		jh_warn("%s: cannot open the source of %s: %s (see --path-map, --sysroot)",
			sf->tried, name, strerror(sf->err));
	*nlines = sf->nlines;
	return sf->lines;
}

static void sources_release(struct listing *ls)
{
	for (size_t i = 0; i < ls->nsrc; i++) {
		free(ls->src[i].file);
		free(ls->src[i].tried);
		if (ls->src[i].lines)
			free_lines(ls->src[i].lines, ls->src[i].nlines);
	}
	free(ls->src);
}

/* jeprof's PrintSource for routine rt, whose addresses have locations loc
 * and whose sampled addresses are s[0..n) (ascending). */
static void print_source(struct listing *ls, const struct routine *rt,
			 const struct jh_list_loc *loc, const struct site *s, size_t n)
{
	const char *name = jh_namer_short(ls->namer, rt->r.name);
	size_t size = (size_t)rt->r.size;
	const char *file = NULL;
	long firstline = 0, lastline = 0;
	for (size_t i = 0; i < size; i++) {
		if (!loc[i].file)
			continue;
		if (!file) {
			file = loc[i].file;
			firstline = loc[i].line;
		}
		if (same_file(loc[i].file, file) && (long)loc[i].line > lastline)
			lastline = loc[i].line;
	}
	if (!file) {
		jh_warn("%s: no line information, not listed", name);
		return;
	}
	size_t nlines;
	char **lines = source_lines(ls, file, name, &nlines);
	if (!lines)
		return;
	long oldlastline = lastline;
	lastline = extend_lastline(lines, nlines, firstline, lastline);

	/* samples of lines [firstline, lastline], moved forward to the next
	 * address inside the range; kept for the lines the file has (a bogus
	 * DWARF line number allocates nothing) */
	long hi = lastline < (long)nlines ? lastline : (long)nlines;
	size_t nval = hi >= firstline ? (size_t)(hi - firstline + 1) : 0;
	double *s1 = xcalloc(nval + 1, sizeof(*s1)), *s2 = xcalloc(nval + 1, sizeof(*s2));
	double run1 = 0, run2 = 0, total1 = 0, total2 = 0;
	size_t k = 0;
	for (size_t i = 0; i < size; i++) {
		for (; k < n && s[k].modaddr == rt->r.addr + i; k++) {
			run1 += s[k].flat;
			run2 += s[k].cum;
			total1 += s[k].flat;
			total2 += s[k].cum;
		}
		long l = loc[i].line;
		if (same_file(loc[i].file, file) && l >= firstline && l <= lastline) {
			if (l <= hi) {
				s1[l - firstline] += run1;
				s2[l - firstline] += run2;
			}
			run1 = run2 = 0;
		}
	}
	if (lastline == hi && nval) { /* the leftovers go to the last line */
		s1[nval - 1] += run1;
		s2[nval - 1] += run2;
	}

	struct jh_sb head = JH_SB_INIT; /* the names with visible control characters */
	jh_sb_init(&head);
	jh_sb_add_visible(&head, name);
	jh_sb_adds(&head, " in ");
	jh_sb_add_visible(&head, clean_file_name(file));
	fprintf(ls->out,
		"ROUTINE ====================== %s\n%6s %6s Total %s (flat / cumulative)\n",
		head.buf, fmt_value(&ls->v1, ls->g, total1, 0),
		fmt_value(&ls->v2, ls->g, total2, 0), ls->g->unit_name);
	jh_sb_release(&head);
	for (long l = firstline - 5 > 1 ? firstline - 5 : 1; l <= (long)nlines; l++) {
		if (l > oldlastline + 5 && l > lastline)
			break;
		double n1 = 0, n2 = 0;
		if (l >= firstline && l <= hi) {
			n1 = s1[l - firstline];
			n2 = s2[l - firstline];
		}
		if (l == firstline)
			fputs("---\n", ls->out);
		fprintf(ls->out, "%6s %6s %4ld: %s\n", fmt_value(&ls->v1, ls->g, n1, 1),
			fmt_value(&ls->v2, ls->g, n2, 1), l, lines[l]);
		if (l == lastline)
			fputs("---\n", ls->out);
	}
	free(s1);
	free(s2);
}

static int cmp_site(const void *pa, const void *pb)
{
	const struct site *a = pa, *b = pb;
	return a->modaddr < b->modaddr ? -1 : a->modaddr > b->modaddr;
}

/* jeprof's ByName: short names byte-wise; then (jeprof: hash order) address. */
static int cmp_routine(const void *pa, const void *pb, void *arg)
{
	const struct routine *a = pa, *b = pb;
	int r = strcmp(jh_namer_short(arg, a->r.name), jh_namer_short(arg, b->r.name));
	if (r)
		return r;
	return a->r.addr < b->r.addr ? -1 : a->r.addr > b->r.addr;
}

/* Lists the matching routines of module mod, whose sampled addresses are s[0..n). */
static int list_module(struct listing *ls, const char *mod, struct site *s, size_t n,
		       struct jh_filter *rx, int shortnames, struct jh_intern *names,
		       struct jh_diag *d)
{
	struct jh_list_module *lm = jh_list_module_open(ls->o->sym, ls->g->m->sym, mod);
	if (!lm)
		return 0;
	jh_qsort(s, n, sizeof(*s), cmp_site);
	struct routine *rt = NULL;
	size_t nrt = 0, art = 0;
	for (size_t i = 0; i < n;) {
		struct jh_list_routine r;
		if (jh_list_routine_at(lm, s[i].modaddr, names, &r)) {
			i++;
			continue;
		}
		size_t j = i;
		while (j < n && s[j].modaddr < r.addr + r.size)
			j++;
		if (jh_filter_match_interned(rx, shortnames ? jh_namer_short(ls->namer, r.name)
							    : r.name)) {
			JH_GROW(rt, nrt + 1, art);
			rt[nrt++] = (struct routine){ r, i, j - i };
		}
		i = j;
	}
	ls->nlisted += nrt;
	if (nrt)
		qsort_r(rt, nrt, sizeof(*rt), cmp_routine, ls->namer);
	/* routines in chunks of about LINES_CHUNK addresses, one DWARF pass each */
	struct jh_list_routine *rr = xmalloc(jh_st_mult(nrt ? nrt : 1, sizeof(*rr)));
	for (size_t i = 0; i < nrt; i++)
		rr[i] = rt[i].r;
	int rc = 0;
	for (size_t i = 0; i < nrt && rc == 0;) {
		size_t j = i, total = 0;
		while (j < nrt && (j == i || total + rr[j].size <= LINES_CHUNK))
			total += (size_t)rr[j++].size;
		struct jh_list_loc *loc = xmalloc(jh_st_mult(total, sizeof(*loc)));
		rc = jh_list_lines(lm, rr + i, j - i, ls->o->sym->jobs, loc, d);
		for (size_t k = i, off = 0; k < j && rc == 0; off += (size_t)rr[k++].size)
			print_source(ls, &rt[k], loc + off, s + rt[k].first, rt[k].n);
		free(loc);
		i = j;
	}
	free(rr);
	free(rt);
	jh_list_module_close(lm);
	return rc;
}

/* A module with sampled addresses, and where it lies. */
struct module {
	const char *path; /* interned in the model */
	uint64_t lowpc;
	struct site *s;
	size_t n, alloc;
};

static int cmp_module(const void *pa, const void *pb)
{
	const struct module *a = pa, *b = pb;
	return a->lowpc < b->lowpc ? -1 : a->lowpc > b->lowpc;
}

int jh_report_list(FILE *out, const struct jh_graph *g, const struct jh_report_opts *o,
		   const char *re, struct jh_diag *d)
{
	const struct jh_model *m = g->m;
	struct jh_filter *rx = jh_filter_new("list", re, d);
	if (!rx)
		return -1;
	size_t nl = m->nlocs ? m->nlocs : 1;
	double *flat = xcalloc(nl, sizeof(double)), *cum = xcalloc(nl, sizeof(double));
	char *present = xcalloc(nl, 1);
	location_values(g, flat, cum, present);

	/* sampled addresses by module; names from a .symbolized file have no
	 * lines: nothing is listed, as with jeprof */
	struct module *mods = NULL;
	size_t nmods = 0, amods = 0;
	for (size_t li = 0; li < m->nlocs; li++) {
		const struct jh_location *l = &m->locs[li];
		if (!present[li] || !l->module ||
		    (l->status != JH_SYM_FULL && l->status != JH_SYM_SYMBOL) || l->pc > MAX_USER_PC)
			continue;
		size_t k = 0;
		while (k < nmods && mods[k].path != l->module)
			k++;
		if (k == nmods) {
			JH_GROW(mods, nmods + 1, amods);
			mods[nmods++] = (struct module){ l->module, l->pc, NULL, 0, 0 };
		}
		struct module *md = &mods[k];
		if (l->pc < md->lowpc)
			md->lowpc = l->pc;
		JH_GROW(md->s, md->n + 1, md->alloc);
		md->s[md->n++] = (struct site){ l->modaddr, flat[li], cum[li] };
	}
	if (nmods)
		jh_qsort(mods, nmods, sizeof(*mods), cmp_module);

	struct jh_intern names;
	jh_intern_init(&names);
	struct jh_namer namer;
	jh_namer_init(&namer, &names);
	struct listing ls = { .out = out, .g = g, .o = o, .namer = &namer };
	jh_sb_init(&ls.v1);
	jh_sb_init(&ls.v2);
	jh_sb_init(&ls.tried);
	int rc = 0;
	/* names as --text shows them when no full name matches */
	for (int shortnames = 0; shortnames < 2 && rc == 0 && !ls.nlisted; shortnames++) {
		for (size_t i = 0; i < nmods && rc == 0; i++)
			rc = list_module(&ls, mods[i].path, mods[i].s, mods[i].n, rx, shortnames,
					 &names, d);
		if (shortnames && ls.nlisted)
			jh_note("jeheap: --list='%s' matches no full name: matched against the "
				"names --text shows",
				re);
	}
	for (size_t i = 0; i < nmods; i++)
		free(mods[i].s);
	if (rc == 0 && !ls.nlisted && !nmods)
		rc = jh_diag_set(d, JH_EXIT_NODATA, NULL, 0,
				 "nothing to show: --list needs the raw dump and its binaries (no "
				 "sampled address has a symbol with lines)");
	else if (rc == 0 && !ls.nlisted)
		rc = jh_diag_set(d, JH_EXIT_NODATA, NULL, 0,
				 "nothing to show: no sampled function matches --list=%s (inlined "
				 "functions are listed within their callers)",
				 re);
	jh_sb_release(&ls.v1);
	jh_sb_release(&ls.v2);
	jh_sb_release(&ls.tried);
	sources_release(&ls);
	jh_namer_release(&namer);
	jh_intern_release(&names);
	jh_filter_free(rx);
	free(mods);
	free(present);
	free(flat);
	free(cum);
	return rc;
}

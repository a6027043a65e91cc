/*
 * pprof_graph.c - Go pprof's call graph of an analysed graph (see
 * pprof_graph.h; Go 1.19 internal/graph newGraph, internal/report
 * newTrimmedGraph).
 */
#include "pprof_graph.h"

#include "jeheap/names.h"

#include <inttypes.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#define NO_LINES UINT32_MAX

void jh_pg_init(struct jh_pg *p, const struct jh_graph *g)
{
	memset(p, 0, sizeof(*p));
	p->g = g;
	jh_intern_init(&p->names);
	jh_u64map_init(&p->by_name);
	jh_u64map_init(&p->emap);
	jh_sb_init(&p->sb);
	jh_sb_init(&p->sb2);
	size_t nl = g->m->nlocs ? g->m->nlocs : 1;
	p->lstart = xmalloc(jh_st_mult(nl, sizeof(*p->lstart)));
	memset(p->lstart, 0xff, nl * sizeof(*p->lstart));
	p->lcount = xcalloc(nl, sizeof(*p->lcount));
	if (g->gran == JH_GRAN_ADDRESSES) {
		p->leafpos = xcalloc(nl, 1);
		/* leaves as --proto writes them: the first location of a stack
		 * of the graph (the model's leaf may be an allocator frame) */
		jh_graph_leafpos(g, p->leafpos);
	}
}

void jh_pg_release(struct jh_pg *p)
{
	jh_intern_release(&p->names);
	jh_u64map_release(&p->by_name);
	jh_u64map_release(&p->emap);
	jh_sb_release(&p->sb);
	jh_sb_release(&p->sb2);
	free(p->name);
	free(p->key);
	free(p->lstart);
	free(p->lcount);
	free(p->lpool);
	free(p->leafpos);
	free(p->flat);
	free(p->cum);
	free(p->stamp);
	free(p->e);
	memset(p, 0, sizeof(*p));
}

int64_t jh_pg_value(const struct jh_graph *g, size_t s)
{
	double v = g->stacks[s].v;
	return isfinite(v) ? (int64_t)llround(v) : 0;
}

/* The node of key (pprof's NodeInfo) printed as name (NULL: the key). */
static uint32_t node_of(struct jh_pg *p, const char *key, size_t n, const char *name, size_t nlen)
{
	const char *k = jh_intern_n(&p->names, key, n);
	int added;
	uint64_t *v = jh_u64map_put(&p->by_name, (uint64_t)(uintptr_t)k, &added);
	if (added) {
		JH_GROW(p->name, p->nn + 1, p->nalloc);
		p->name[p->nn] = name ? jh_intern_n(&p->names, name, nlen) : k;
		JH_GROW(p->key, p->nn + 1, p->kalloc);
		p->key[p->nn] = k;
		*v = p->nn++;
	}
	return (uint32_t)*v;
}

/* Go's filepath.Clean of s (lexical: "", ".", "..", doubled '/'), appended
 * to sb. */
static void clean_path(struct jh_sb *sb, const char *s)
{
	size_t at = sb->len;
	int rooted = s[0] == '/';
	if (rooted)
		jh_sb_addc(sb, '/');
	size_t base = sb->len; /* where elements start */
	size_t fixed = base;   /* ".." elements that cannot be removed end here */
	while (*s) {
		while (*s == '/')
			s++;
		const char *e = s;
		while (*e && *e != '/')
			e++;
		size_t n = (size_t)(e - s);
		if (!n || (n == 1 && s[0] == '.')) {
			/* nothing */
		} else if (n == 2 && s[0] == '.' && s[1] == '.') {
			if (sb->len > fixed) { /* drop the last element */
				while (sb->len > fixed && sb->buf[sb->len - 1] != '/')
					sb->len--;
				if (sb->len > fixed)
					sb->len--; /* its '/' */
			} else if (!rooted) {
				if (sb->len > base)
					jh_sb_addc(sb, '/');
				jh_sb_adds(sb, "..");
				fixed = sb->len;
			}
		} else {
			if (sb->len > base)
				jh_sb_addc(sb, '/');
			jh_sb_add(sb, s, n);
		}
		s = e;
	}
	if (sb->len == at)
		jh_sb_addc(sb, '.');
	sb->buf[sb->len] = 0;
}

/* The module file's base name in brackets, pprof's name of a line without
 * a function (or "<unknown>"). */
static void objfile_name(struct jh_sb *sb, const struct jh_model *m, const struct jh_location *l)
{
	const struct jh_mapping *mp = l->module ? jh_model_mapping(m, l->pc, l->module) : NULL;
	if (!mp || !mp->path || !*mp->path) {
		jh_sb_adds(sb, "<unknown>");
		return;
	}
	const char *b = strrchr(mp->path, '/');
	jh_sb_addf(sb, "[%s]", b && b[1] ? b + 1 : mp->path);
}

/* The node of one line of location l (frame fi, or the unknown name when
 * fi is NO_LINES) at the graph's granularity: pprof's PrintableName; with
 * --files pprof's node also has the module and the function's first line
 * (printed the same). */
static uint32_t line_node(struct jh_pg *p, const struct jh_location *l, uint32_t fi)
{
	const struct jh_graph *g = p->g;
	const struct jh_model *m = g->m;
	struct jh_sb *sb = &p->sb;
	const struct jh_frame *f = fi == NO_LINES ? NULL : &m->frames.items[fi];
	jh_sb_reset(sb);
	if (g->gran == JH_GRAN_FILES) {
		if (f && f->file && *f->file)
			clean_path(sb, f->file);
		else
			objfile_name(sb, m, l);
		/* fmt.Sprint of pprof's NodeInfo, its tie-break */
		const struct jh_mapping *mp = l->module ? jh_model_mapping(m, l->pc, l->module)
							: NULL;
		struct jh_sb *k = &p->sb2;
		jh_sb_reset(k);
		jh_sb_adds(k, "{  0 ");
		if (f && f->file && *f->file)
			clean_path(k, f->file);
		jh_sb_addf(k, " %u 0 %s}", f ? (unsigned)f->decl_line : 0u,
			   mp && mp->path ? mp->path : "");
		return node_of(p, k->buf, k->len, sb->buf, sb->len);
	}
	if (g->gran == JH_GRAN_ADDRESSES) {
		uint64_t a = l->pc - (p->leafpos[l - m->locs] == 1 && l->pc);
		if (a)
			jh_sb_addf(sb, "%016" PRIx64 " ", a);
	}
	if (!f) { /* --proto writes it without lines: pprof names its mapping */
		objfile_name(sb, m, l);
	} else {
		jh_sb_adds(sb, f->func ? f->func : "??");
		if (g->gran != JH_GRAN_FUNCTIONS && f->file && *f->file) {
			jh_sb_addc(sb, ' ');
			clean_path(sb, f->file);
			if (f->line)
				jh_sb_addf(sb, ":%u", (unsigned)f->line);
		}
	}
	return node_of(p, sb->buf, sb->len, NULL, 0);
}

const uint32_t *jh_pg_lines(struct jh_pg *p, uint32_t loc, uint32_t *n)
{
	if (p->lstart[loc] == UINT32_MAX) {
		const struct jh_graph *g = p->g;
		const struct jh_location *l = &g->m->locs[loc];
		p->lstart[loc] = (uint32_t)p->nlpool;
		if (l->pc > 0x7fffffffffffffffULL) {
			/* kernel addresses: dropped, as in every report */
		} else if (!l->nframes) {
			uint32_t id = line_node(p, l, NO_LINES);
			JH_GROW(p->lpool, p->nlpool + 1, p->lalloc);
			p->lpool[p->nlpool++] = id;
		} else {
			for (uint32_t k = 0; k < l->nframes; k++) {
				/* frames are outermost first, pprof's lines innermost first */
				uint32_t fi = l->first + l->nframes - 1 - k;
				if (g->frame_hidden && g->frame_hidden[fi])
					continue;
				uint32_t id = line_node(p, l, fi);
				JH_GROW(p->lpool, p->nlpool + 1, p->lalloc);
				p->lpool[p->nlpool++] = id;
			}
		}
		p->lcount[loc] = (uint32_t)(p->nlpool - p->lstart[loc]);
	}
	*n = p->lcount[loc];
	return p->lpool + p->lstart[loc];
}

static void add_edge(struct jh_pg *p, uint32_t src, uint32_t dst, int64_t w, int inl, uint32_t mark)
{
	int added;
	uint64_t *v = jh_u64map_put(&p->emap, (uint64_t)src << 32 | dst, &added);
	if (added) {
		JH_GROW(p->e, p->ne + 1, p->ealloc);
		p->e[p->ne] = (struct jh_pg_edge){ src, dst, 0, inl, 1, 0 };
		*v = ++p->ne;
	}
	struct jh_pg_edge *e = &p->e[*v - 1];
	if (e->stamp == mark)
		return; /* once per stack */
	e->stamp = mark;
	e->w += w;
	if (!inl)
		e->inl = 0;
}

void jh_pg_build(struct jh_pg *p, const uint8_t *kept)
{
	const struct jh_graph *g = p->g;
	/* every node first: the lines of every location of the stacks */
	for (size_t s = 0; s < g->nstacks; s++) {
		const struct jh_gstack *gs = &g->stacks[s];
		uint32_t n;
		for (uint32_t i = 0; i < gs->len; i++)
			(void)jh_pg_lines(p, g->locpool[gs->off + i], &n);
	}
	size_t nn = p->nn ? p->nn : 1;
	free(p->flat);
	free(p->cum);
	free(p->stamp);
	p->flat = xcalloc(nn, sizeof(*p->flat));
	p->cum = xcalloc(nn, sizeof(*p->cum));
	p->stamp = xcalloc(nn, sizeof(*p->stamp));
	jh_u64map_release(&p->emap);
	jh_u64map_init(&p->emap);
	p->ne = 0;
	for (size_t s = 0; s < g->nstacks; s++) {
		const struct jh_gstack *gs = &g->stacks[s];
		int64_t w = jh_pg_value(g, s);
		if (w == 0)
			continue;
		const uint32_t *locs = g->locpool + gs->off;
		uint32_t mark = (uint32_t)s + 1, parent = UINT32_MAX;
		int residual = 0; /* the innermost lines seen were not kept */
		for (uint32_t i = gs->len; i-- > 0;) {
			uint32_t nl;
			const uint32_t *ids = jh_pg_lines(p, locs[i], &nl);
			for (uint32_t k = nl; k-- > 0;) {
				uint32_t n = ids[k];
				if (kept && !kept[n]) {
					residual = 1;
					continue;
				}
				if (p->stamp[n] != mark) {
					p->stamp[n] = mark;
					p->cum[n] += w;
				}
				if (parent != UINT32_MAX && parent != n)
					add_edge(p, parent, n, w, k != nl - 1, mark);
				parent = n;
				residual = 0;
			}
		}
		if (parent != UINT32_MAX && !residual)
			p->flat[parent] += w;
	}
}

static int64_t abs64(int64_t v)
{
	return v < 0 ? -v : v;
}

/* pprof's FlatNameOrder: |flat| descending, name, |cum| descending. */
static int cmp_flat_name(const void *a, const void *b, void *arg)
{
	const struct jh_pg *p = arg;
	uint32_t x = *(const uint32_t *)a, y = *(const uint32_t *)b;
	int64_t fx = abs64(p->flat[x]), fy = abs64(p->flat[y]);
	if (fx != fy)
		return fx > fy ? -1 : 1;
	int c = strcmp(p->name[x], p->name[y]);
	if (c)
		return c;
	int64_t cx = abs64(p->cum[x]), cy = abs64(p->cum[y]);
	if (cx != cy)
		return cx > cy ? -1 : 1;
	return strcmp(p->key[x], p->key[y]); /* (--files: pprof's compareNodes) */
}

/* The graph's nodes, sorted. */
static uint32_t *graph_nodes(struct jh_pg *p, size_t *n)
{
	uint32_t *v = xmalloc(jh_st_mult(p->nn + 1, sizeof(*v)));
	size_t k = 0;
	for (uint32_t i = 0; i < p->nn; i++)
		if (jh_pg_in(p, i))
			v[k++] = i;
	if (k > 1)
		qsort_r(v, k, sizeof(*v), cmp_flat_name, p);
	*n = k;
	return v;
}

static void trim_edges(struct jh_pg *p, int64_t cutoff)
{
	for (size_t i = 0; i < p->ne; i++)
		if (p->e[i].alive && jh_pg_in(p, p->e[i].dst) && abs64(p->e[i].w) < cutoff)
			p->e[i].alive = 0;
}

uint32_t *jh_pg_trimmed(struct jh_pg *p, double nodefraction, double edgefraction, int nodecount,
			size_t *n, size_t *dropped, size_t *orig)
{
	jh_pg_build(p, NULL);
	int64_t total = 0;
	for (uint32_t i = 0; i < p->nn; i++)
		total += p->flat[i];
	int64_t nodecut = abs64((int64_t)((double)total * nodefraction));
	int64_t edgecut = abs64((int64_t)((double)total * edgefraction));
	uint8_t *kept = xcalloc(p->nn + 1, 1);
	*dropped = 0;
	if (nodecut > 0) {
		size_t in = 0, nk = 0;
		for (uint32_t i = 0; i < p->nn; i++) {
			if (!jh_pg_in(p, i))
				continue;
			in++;
			if (abs64(p->cum[i]) >= nodecut)
				kept[i] = 1, nk++;
		}
		if (nk != in) {
			*dropped = in - nk;
			jh_pg_build(p, kept);
		}
	}
	uint32_t *v = graph_nodes(p, n);
	*orig = *n;
	if (nodecount > 0 && (size_t)nodecount < *n) {
		memset(kept, 0, p->nn + 1);
		for (int i = 0; i < nodecount; i++)
			kept[v[i]] = 1;
		free(v);
		jh_pg_build(p, kept);
		v = graph_nodes(p, n);
	}
	trim_edges(p, edgecut);
	free(kept);
	return v;
}

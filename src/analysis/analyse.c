/*
 * analyse.c - jeprof's FilterAndPrint steps on the symbolized model (see
 * analyse.h): totals, allocator-frame removal, frame and stack filters,
 * granularity keys with per-stack deduplication, flat and cumulative.
 */
#include "analyse_internal.h"

#include <inttypes.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

/* Per-location flags: LF_SKIP for every location (jh_mark_allocator), LF_USED
 * as stacks are added, the filters' lazily (only locations of selected
 * stacks). */
enum {
	LF_USED = 1 << 0, /* in one of the graph's stacks */
	LF_SKIP = 1 << 1,
	LF_KEEP_DONE = 1 << 2,
	LF_KEEP = 1 << 3,
	LF_FOCUS_DONE = 1 << 4,
	LF_FOCUS = 1 << 5,
	LF_IGNORE_DONE = 1 << 6,
	LF_IGNORE = 1 << 7,
};

static const char unk[] = "??"; /* short name of an unknown function (not interned) */

enum {
	FM_HEX_DONE = 1,
	FM_HEX = 2,
	FM_RUN_DONE = 16, /* jh_is_callback_run of its key's short name */
	FM_RUN = 32,
};

/*
 * Groups the model's frames by function name (interned pointer): gp->fid
 * maps each frame to one jh_fmemo per distinct name, so that what depends
 * only on the name (short name, hex tag, allocator test, node) is computed
 * once per name, not once per location and level.
 */
static void build_memos(struct jh_graph_priv *gp, const struct jh_model *m)
{
	struct slot {
		const char *func;
		uint32_t id;
	};
	size_t nf = m->frames.nr, cap = 1024, nfm = 0, alloc = 0;
	const struct jh_frame *fr = m->frames.items;
	struct slot *tab = xcalloc(cap, sizeof(*tab));
	gp->fid = xmalloc(jh_st_mult(nf ? nf : 1, sizeof(*gp->fid)));
	for (size_t i = 0; i < nf; i++) {
		const char *f = fr[i].func;
		if (i + 16 < nf) /* the table is bigger than the caches */
			__builtin_prefetch(
				&tab[jh_hash_u64((uintptr_t)fr[i + 16].func) & (cap - 1)]);
		if (!f) {
			gp->fid[i] = UINT32_MAX;
			continue;
		}
		size_t j = jh_hash_u64((uintptr_t)f) & (cap - 1);
		while (tab[j].func && tab[j].func != f)
			j = (j + 1) & (cap - 1);
		if (tab[j].func) {
			gp->fid[i] = tab[j].id;
			continue;
		}
		JH_GROW(gp->fm, nfm + 1, alloc);
		gp->fm[nfm] = (struct jh_fmemo){ .func = f };
		tab[j] = (struct slot){ f, (uint32_t)nfm };
		gp->fid[i] = (uint32_t)nfm++;
		if (2 * nfm > cap) { /* rehash from the memos */
			cap *= 2;
			free(tab);
			tab = xcalloc(cap, sizeof(*tab));
			for (size_t k = 0; k < nfm; k++) {
				size_t h = jh_hash_u64((uintptr_t)gp->fm[k].func) & (cap - 1);
				while (tab[h].func)
					h = (h + 1) & (cap - 1);
				tab[h] = (struct slot){ gp->fm[k].func, (uint32_t)k };
			}
		}
	}
	free(tab);
	gp->nfm = nfm;
}

/* The memo of a location's frame, NULL for an unknown function. */
static struct jh_fmemo *frame_memo(struct jh_graph_priv *gp, const struct jh_location *l,
				   uint32_t level)
{
	uint32_t k = gp->fid[l->first + level];
	return k == UINT32_MAX ? NULL : &gp->fm[k];
}

static const char *frame_short(struct jh_graph_priv *gp, const struct jh_model *m,
			       const struct jh_location *l, uint32_t level)
{
	(void)m;
	struct jh_fmemo *fm = frame_memo(gp, l, level);
	if (!fm)
		return unk;
	if (!fm->shrt)
		fm->shrt = jh_namer_short(&gp->namer, fm->func);
	return fm->shrt;
}

/* Length of a trailing "<hex>" of name (nm-style address tag, as in files
 * written by jeprof --raw), 0 if none. */
static size_t hex_tag(const char *name)
{
	size_t n = strlen(name);
	if (n < 3 || name[n - 1] != '>')
		return 0;
	size_t i = n - 1;
	while (i > 0 && strchr("0123456789abcdefABCDEF", name[i - 1]))
		i--;
	return (i > 0 && i < n - 1 && name[i - 1] == '<') ? n - i + 1 : 0;
}

/*
 * jeprof's FillFullnameToShortnameMap: when two different full names that
 * end in "<hex>" share a short name (outermost levels only), their keys
 * become "<short>@<hex without leading zeros>" (overloads: make@11f0).
 */
static void find_collisions(struct jh_graph *g)
{
	struct jh_graph_priv *gp = g->priv;
	const struct jh_model *m = g->m;
	struct jh_u64map first; /* short -> full name first seen (2 = collided) */
	jh_u64map_init(&first);
	for (int pass = 0; pass < 2; pass++) {
		for (size_t i = 0; i < m->nlocs; i++) {
			const struct jh_location *l = &m->locs[i];
			struct jh_fmemo *fm = l->nframes ? frame_memo(gp, l, 0) : NULL;
			if (!fm)
				continue;
			if (!(fm->flags & FM_HEX_DONE))
				fm->flags |= FM_HEX_DONE | (hex_tag(fm->func) ? FM_HEX : 0);
			if (!(fm->flags & FM_HEX))
				continue;
			const char *full = fm->func;
			const char *shrt = frame_short(gp, m, l, 0);
			int added;
			uint64_t *v = jh_u64map_put(&first, (uint64_t)(uintptr_t)shrt, &added);
			if (!pass) {
				if (added)
					*v = (uint64_t)(uintptr_t)full;
				else if (*v != (uint64_t)(uintptr_t)full)
					*v = 1; /* seen with two full names */
				continue;
			}
			if (*v != 1)
				continue;
			if (fm->key)
				continue;
			size_t t = hex_tag(full), n = strlen(full);
			const char *hex = full + n - t + 1;
			while (*hex == '0' && hex[1] != '>')
				hex++;
			jh_sb_reset(&gp->sb2);
			jh_sb_addf(&gp->sb2, "%s@%.*s", shrt, (int)(full + n - 1 - hex), hex);
			fm->key = jh_intern_n(&gp->keys, gp->sb2.buf, gp->sb2.len);
		}
	}
	jh_u64map_release(&first);
}

/* The short name a key uses: renamed on collisions. */
static const char *key_short(struct jh_graph_priv *gp, const struct jh_model *m,
			     const struct jh_location *l, uint32_t level)
{
	const struct jh_fmemo *fm = frame_memo(gp, l, level);
	return fm && fm->key ? fm->key : frame_short(gp, m, l, level);
}

/* The name retain/exclude test: outermost short name, or the location's
 * unknown name (jeprof: the bare pc key) when it has no frames. */
static const char *outer_name(struct jh_graph_priv *gp, const struct jh_model *m,
			      const struct jh_location *l)
{
	if (l->nframes)
		return frame_short(gp, m, l, 0);
	jh_sb_reset(&gp->sb2);
	jh_unknown_name(&gp->sb2, l);
	return jh_intern_n(&gp->keys, gp->sb2.buf, gp->sb2.len);
}

/* Prefetches the memo of location l's outermost frame (loops in location
 * order ask for memos all over memory). */
static void prefetch_memo(const struct jh_graph_priv *gp, const struct jh_model *m, size_t l)
{
	uint32_t k = l < m->nlocs && m->locs[l].nframes ? gp->fid[m->locs[l].first] : UINT32_MAX;
	if (k != UINT32_MAX)
		__builtin_prefetch(&gp->fm[k]);
}

static int loc_skip(struct jh_graph_priv *gp, uint32_t id)
{
	return gp->lflags[id] & LF_SKIP;
}

static int loc_keep(struct jh_graph_priv *gp, const struct jh_model *m, uint32_t id)
{
	uint8_t *f = &gp->lflags[id];
	if (!(*f & LF_KEEP_DONE)) {
		const char *name = outer_name(gp, m, &m->locs[id]);
		int keep = 1;
		if (gp->retain && !jh_filter_match_interned(gp->retain, name))
			keep = 0;
		if (keep && gp->exclude && jh_filter_match_interned(gp->exclude, name))
			keep = 0;
		*f |= LF_KEEP_DONE | (keep ? LF_KEEP : 0);
	}
	return *f & LF_KEEP;
}

/* jeprof's focus/ignore test of one pc: its key, or any inline level's short
 * name or file:line; with full, the full signatures instead. */
static int loc_matches(struct jh_graph_priv *gp, const struct jh_model *m, uint32_t id,
		       struct jh_filter *re, int full)
{
	const struct jh_location *l = &m->locs[id];
	if (full)
		return jh_loc_matches_full(l, m, re, &gp->sb2);
	jh_sb_reset(&gp->sb2);
	jh_pc_key(&gp->sb2, l->pc);
	if (jh_filter_match(re, gp->sb2.buf, gp->sb2.len))
		return 1;
	if (!l->nframes) {
		jh_sb_reset(&gp->sb2);
		jh_unknown_name(&gp->sb2, l);
		return jh_loc_shown_module(l) && jh_filter_match(re, gp->sb2.buf, gp->sb2.len);
	}
	for (uint32_t i = 0; i < l->nframes; i++) {
		if (jh_filter_match_interned(re, frame_short(gp, m, l, i)))
			return 1;
		jh_sb_reset(&gp->sb2);
		jh_frame_fileline(&gp->sb2, m, l, i);
		const char *fl = jh_intern_n(&gp->keys, gp->sb2.buf, gp->sb2.len);
		if (jh_filter_match_interned(re, fl))
			return 1;
	}
	return 0;
}

static int loc_flag(struct jh_graph_priv *gp, const struct jh_model *m, uint32_t id,
		    struct jh_filter *re, uint8_t done, uint8_t yes)
{
	uint8_t *f = &gp->lflags[id];
	int full = re == gp->focus ? gp->focus_full : gp->ignore_full;
	if (!(*f & done))
		*f |= done | (loc_matches(gp, m, id, re, full) ? yes : 0);
	return *f & yes;
}

/* Whether --focus or --ignore (re) matches full signatures instead: no
 * location (allocator frames aside) matches under jeprof's rules, and one
 * full signature does. Then the flags done and yes are cleared. */
static int use_full(struct jh_graph_priv *gp, const struct jh_model *m, struct jh_filter *re,
		    uint8_t done, uint8_t yes)
{
	for (uint32_t i = 0; i < m->nlocs; i++)
		if (!(gp->lflags[i] & LF_SKIP) && loc_flag(gp, m, i, re, done, yes))
			return 0;
	int any = 0;
	for (uint32_t i = 0; !any && i < m->nlocs; i++)
		any = !(gp->lflags[i] & LF_SKIP) && loc_matches(gp, m, i, re, 1);
	for (uint32_t i = 0; any && i < m->nlocs; i++)
		gp->lflags[i] &= (uint8_t) ~(done | yes);
	return any;
}

/* The GRAN_FUNCTIONS node of a named frame (level j of location id) + 1,
 * UINT32_MAX when its key is empty (jeprof skips those). */
static uint32_t named_node(struct jh_graph *g, const struct jh_location *l, uint32_t id, uint32_t j,
			   int inl)
{
	struct jh_graph_priv *gp = g->priv;
	const char *fn = key_short(gp, g->m, l, j);
	if (!inl) /* a plain short name is interned already (namer) */
		return fn[0] ? jh_graph_node_interned(g, fn, id, j, 0) + 1 : UINT32_MAX;
	jh_sb_reset(&gp->sb);
	jh_sb_adds(&gp->sb, fn);
	jh_sb_adds(&gp->sb, " (inline)");
	return jh_graph_node(g, gp->sb.buf, gp->sb.len, id, j, 1) + 1;
}

/* Appends the unknown-location key: "libname+0xOFF" or the bare pc key. */
static void unknown_key(struct jh_sb *sb, const struct jh_location *l)
{
	jh_unknown_name(sb, l);
}

/* Translates location id into node ids (innermost level first), jeprof's
 * TranslateStack for one pc. */
static void translate_location(struct jh_graph *g, uint32_t id)
{
	struct jh_graph_priv *gp = g->priv;
	const struct jh_model *m = g->m;
	const struct jh_location *l = &m->locs[id];
	struct jh_sb *sb = &gp->sb;
	if (l->pc > 0x7fffffffffffffffULL)
		return; /* jeprof drops kernel/wrapped addresses from keyed output */
	if (!l->nframes) {
		jh_sb_reset(sb);
		if (g->gran == JH_GRAN_ADDRESSES) {
			jh_pc_key(sb, l->pc);
			jh_sb_addc(sb, ' ');
		}
		unknown_key(sb, l);
		uint32_t nd = jh_graph_node(g, sb->buf, sb->len, id, 0, 0);
		JH_GROW(g->keypool, g->nkeypool + 1, g->keypool_alloc);
		g->keypool[g->nkeypool++] = nd;
		return;
	}
	/* the frame filters may remove frames: the outermost one kept is the
	 * location's function, the others are inlined into it */
	uint32_t j0 = jh_frames_outer(gp, l);
	for (uint32_t j = l->nframes; j-- > 0;) {
		if (gp->fhide && gp->fhide[l->first + j])
			continue;
		int inl = j > j0;
		struct jh_fmemo *fm = frame_memo(gp, l, j); /* NULL: unknown function */
		if (fm && j == 0 && g->gran != JH_GRAN_FILES && !(fm->flags & FM_RUN_DONE))
			fm->flags |= FM_RUN_DONE |
				     (jh_is_callback_run(key_short(gp, m, l, j)) ? FM_RUN : 0);
		int run = fm && j == 0 && g->gran != JH_GRAN_FILES && (fm->flags & FM_RUN);
		if (!run && g->gran == JH_GRAN_FUNCTIONS && fm) {
			/* a named frame's node depends on its name only */
			uint32_t *nd = &fm->node[inl];
			if (!*nd)
				*nd = named_node(g, l, id, j, inl);
			if (*nd != UINT32_MAX) {
				JH_GROW(g->keypool, g->nkeypool + 1, g->keypool_alloc);
				g->keypool[g->nkeypool++] = *nd - 1;
			}
			continue;
		}
		const char *fn = key_short(gp, m, l, j);
		int unknown_fn = !fm;
		if (run) {
			/* Run#n: its key depends on the stack (jh_graph_resolve_runs) */
			if (!gp->runloc)
				gp->runloc = xcalloc(m->nlocs, 1);
			gp->runloc[id] = 1;
			JH_GROW(g->keypool, g->nkeypool + 1, g->keypool_alloc);
			g->keypool[g->nkeypool++] = JH_RUN_KEY;
			continue;
		}
		jh_sb_reset(sb);
		int bare = 0;
		switch (g->gran) {
		case JH_GRAN_FUNCTIONS:
			if (unknown_fn && !inl) {
				unknown_key(sb, l);
				bare = !jh_loc_shown_module(l);
			} else {
				jh_sb_adds(sb, fn);
				if (inl)
					jh_sb_adds(sb, " (inline)");
			}
			break;
		case JH_GRAN_LINES: {
			jh_sb_adds(sb, fn);
			if (inl)
				jh_sb_adds(sb, " (inline)");
			jh_sb_addc(sb, ' ');
			size_t at = sb->len;
			jh_frame_fileline(sb, m, l, j);
			if (unknown_fn && !inl && !strcmp(sb->buf + at, "??:0")) {
				jh_sb_reset(sb);
				unknown_key(sb, l);
				bare = !jh_loc_shown_module(l);
			}
			break;
		}
		case JH_GRAN_ADDRESSES:
			jh_pc_key(sb, l->pc);
			jh_sb_addc(sb, ' ');
			jh_sb_adds(sb, fn);
			if (inl)
				jh_sb_adds(sb, " (inline)");
			jh_sb_addc(sb, ' ');
			jh_frame_fileline(sb, m, l, j);
			break;
		case JH_GRAN_FILES: {
			jh_frame_fileline(sb, m, l, j);
			if (!strcmp(sb->buf, "??:0") || !sb->len) {
				jh_sb_reset(sb);
				unknown_key(sb, l);
				bare = !jh_loc_shown_module(l);
				break;
			}
			size_t e = sb->len;
			while (e > 0 && sb->buf[e - 1] >= '0' && sb->buf[e - 1] <= '9')
				e--;
			if (e < sb->len && e > 0 && sb->buf[e - 1] == ':') {
				sb->len = e - 1;
				sb->buf[sb->len] = 0;
			}
			break;
		}
		}
		if (!sb->len)
			continue; /* jeprof skips empty keys */
		/* a plain short name is interned already (namer) */
		uint32_t nd = (sb->len == strlen(fn) && !memcmp(sb->buf, fn, sb->len) && fn != unk)
				      ? jh_graph_node_interned(g, fn, id, j, inl)
				      : jh_graph_node(g, sb->buf, sb->len, id, j, inl);
		if (bare && g->nodes[nd].label == g->nodes[nd].key) {
			/* jeprof prints a pc key that has a symbol tuple as
			 * "<short> <file:line>" of its outermost level */
			jh_sb_reset(&gp->sb2);
			jh_sb_adds(&gp->sb2, frame_short(gp, m, l, 0));
			jh_sb_addc(&gp->sb2, ' ');
			jh_frame_fileline(&gp->sb2, m, l, 0);
			g->nodes[nd].label = jh_intern_n(&gp->keys, gp->sb2.buf, gp->sb2.len);
		}
		JH_GROW(g->keypool, g->nkeypool + 1, g->keypool_alloc);
		g->keypool[g->nkeypool++] = nd;
	}
}

static int make_filter(struct jh_filter **f, const char *opt, const char *re, struct jh_diag *d)
{
	*f = NULL;
	if (!re || !*re)
		return 0;
	*f = jh_filter_new(opt, re, d);
	return *f ? 0 : -1;
}

/* One input stack (model stack id with its counts) through removal and filters. */
static void add_stack(struct jh_graph *g, uint32_t sid, double v, double before, double v2,
		      const struct jh_counts *c)
{
	struct jh_graph_priv *gp = g->priv;
	const struct jh_model *m = g->m;
	const struct jh_mstack *ms = &m->stacks[sid];
	/* leaf -> root: an allocator frame discards everything seen so far,
	 * so what stays is a suffix of the model's stack */
	uint32_t keep = 0;
	for (uint32_t i = ms->len; i-- > 0;) {
		if (loc_skip(gp, m->locpool[ms->off + i])) {
			keep = ms->len - i - 1;
			break;
		}
		if (i == 0)
			keep = ms->len;
	}
	const uint32_t *pool = m->locpool;
	size_t start = ms->off + (ms->len - keep), n = keep;
	if (gp->retain || gp->exclude) {
		JH_GROW(gp->pool, gp->npool + n, gp->pool_alloc);
		size_t k = 0;
		for (size_t i = 0; i < n; i++) {
			uint32_t id = m->locpool[start + i];
			if (loc_keep(gp, m, id))
				gp->pool[gp->npool + k++] = id;
		}
		if (!k)
			return; /* jeprof's FilterFrames drops emptied stacks */
		pool = gp->pool;
		start = gp->npool;
		n = k;
	}
	if (gp->pp)
		jh_pprof_acc_add(gp->pp, pool + start, n, v);
	if (gp->focus) {
		size_t i = 0;
		while (i < n &&
		       !loc_flag(gp, m, pool[start + i], gp->focus, LF_FOCUS_DONE, LF_FOCUS))
			i++;
		if (i == n)
			return;
	}
	if (gp->ignore) {
		for (size_t i = 0; i < n; i++)
			if (loc_flag(gp, m, pool[start + i], gp->ignore, LF_IGNORE_DONE, LF_IGNORE))
				return;
	}
	if (gp->frames_on) {
		int own = pool == gp->pool;
		JH_GROW(gp->pool, gp->npool + n, gp->pool_alloc);
		if (own)
			pool = gp->pool; /* moved */
		size_t k = jh_frames_stack(gp, m, pool + start, n, gp->pool + gp->npool);
		if (k == SIZE_MAX)
			return;
		pool = gp->pool;
		start = gp->npool;
		n = k;
	}
	int added;
	uint32_t id = gp->pp && gp->frames_on /* pprof merges before them */
			      ? jh_pprof_stack_id(gp->pp, (uint32_t)g->nstacks, &added)
			      : jh_seqset_put(&gp->stacks, pool, start, (uint32_t)n, &added);
	if (added) {
		JH_GROW(g->stacks, g->nstacks + 1, g->stacks_alloc);
		struct jh_gstack *gs = &g->stacks[g->nstacks++];
		memset(gs, 0, sizeof(*gs));
		gs->off = start;
		gs->len = (uint32_t)n;
		for (size_t i = 0; i < n; i++) /* just read (loc_skip) */
			gp->lflags[pool[start + i]] |= LF_USED;
		if (pool == gp->pool)
			gp->npool += n;
	}
	if (gp->pp)
		jh_pprof_values(gp->pp, g, id, c);
	struct jh_gstack *gs = &g->stacks[id];
	gs->v += v;
	gs->before += before;
	gs->after += before + v;
	gs->v2 += v2;
}

static void compute_nodes(struct jh_graph *g)
{
	struct jh_graph_priv *gp = g->priv;
	const struct jh_model *m = g->m;
	find_collisions(g);
	g->lockey_off = xmalloc(jh_st_mult(m->nlocs + 1, sizeof(*g->lockey_off)));
	/* translate only locations that occur in a filtered stack */
	for (size_t l = 0; l < m->nlocs; l++) {
		prefetch_memo(gp, m, l + 8);
		g->lockey_off[l] = (uint32_t)g->nkeypool;
		if (gp->lflags[l] & LF_USED)
			translate_location(g, (uint32_t)l);
	}
	g->lockey_off[m->nlocs] = (uint32_t)g->nkeypool;
	if (gp->runloc)
		jh_graph_resolve_runs(g);

	/* flat/cum in plain arrays (cache-friendly), recursion counted once */
	size_t nn = g->nnodes ? g->nnodes : 1;
	uint32_t *stamp = xcalloc(nn, sizeof(*stamp));
	double *flat = xcalloc(nn, sizeof(*flat)), *cum = xcalloc(nn, sizeof(*cum));
	double *flat2 = xcalloc(nn, sizeof(*flat2)), *cum2 = xcalloc(nn, sizeof(*cum2));
	const uint32_t *koff = g->lockey_off, *kpool = g->keypool;
	for (size_t s = 0; s < g->nstacks; s++) {
		/* the keys of a stack's locations are all over memory: fetch
		 * those of the next stacks ahead (their offsets first) */
		if (s + 4 < g->nstacks) {
			const struct jh_gstack *ps = &g->stacks[s + 4];
			for (uint32_t i = 0; i < ps->len; i++)
				__builtin_prefetch(&koff[g->locpool[ps->off + i]]);
		}
		if (s + 2 < g->nstacks) {
			const struct jh_gstack *ps = &g->stacks[s + 2];
			for (uint32_t i = 0; i < ps->len; i++)
				__builtin_prefetch(&kpool[koff[g->locpool[ps->off + i]]]);
		}
		const struct jh_gstack *gs = &g->stacks[s];
		const uint32_t *locs = g->locpool + gs->off;
		const uint32_t mark = (uint32_t)s + 1;
		const double v = gs->v, v2 = gs->v2;
		int first = 1;
		for (uint32_t i = 0; i < gs->len; i++) {
			uint32_t nk = koff[locs[i] + 1] - koff[locs[i]];
			const uint32_t *keys = kpool + koff[locs[i]];
			if (gp->runloc && gp->runloc[locs[i]])
				keys = jh_graph_stack_keys(g, locs, i, &nk);
			for (uint32_t j = 0; j < nk; j++) {
				uint32_t k = keys[j];
				if (stamp[k] == mark)
					continue;
				stamp[k] = mark;
				if (first) {
					flat[k] += v;
					flat2[k] += v2;
				}
				first = 0;
				cum[k] += v;
				cum2[k] += v2;
			}
		}
	}
	for (size_t i = 0; i < g->nnodes; i++) {
		g->nodes[i].flat = flat[i];
		g->nodes[i].cum = cum[i];
		g->nodes[i].flat2 = flat2[i];
		g->nodes[i].cum2 = cum2[i];
	}
	free(stamp);
	free(flat);
	free(cum);
	free(flat2);
	free(cum2);
	g->local_total = 0;
	for (size_t i = 0; i < g->nnodes; i++)
		g->local_total += g->nodes[i].flat;
}

static int analyse(struct jh_graph *g, const struct jh_model *m, const struct jh_analysis_opts *o,
		   int thread, int nodes, struct jh_diag *d)
{
	memset(g, 0, sizeof(*g));
	struct jh_graph_priv *gp = xcalloc(1, sizeof(*gp));
	g->priv = gp;
	g->m = m;
	g->value = o->value;
	g->value2 = jh_value_companion(o->value);
	g->gran = o->granularity;
	g->thread = thread;
	g->has_base = o->has_base;
	if (o->value == JH_INUSE_OBJECTS || o->value == JH_ALLOC_OBJECTS) {
		g->unit = JH_UNIT_OBJECTS;
		g->unit_name = "objects";
	} else if (o->show_bytes) {
		g->unit = JH_UNIT_BYTES;
		g->unit_name = "B";
	} else {
		g->unit = JH_UNIT_MB;
		g->unit_name = "MB";
	}
	jh_intern_init(&gp->keys);
	jh_namer_init(&gp->namer, &gp->keys);
	gp->namer.normalize = o->normalize;
	jh_u64map_init(&gp->node_by_key);
	jh_u64map_init(&gp->runkeys);
	jh_u64map_init(&gp->own_run_ids);
	gp->run_ids = o->run_ids ? o->run_ids : &gp->own_run_ids;
	jh_seqset_init(&gp->stacks);
	jh_sb_init(&gp->sb);
	jh_sb_init(&gp->sb2);
	gp->lflags = xcalloc(m->nlocs ? m->nlocs : 1, 1);
	build_memos(gp, m);
	gp->keep_shorts = nodes;
	jh_mark_allocator(gp, m, LF_SKIP);
	if (make_filter(&gp->focus, "focus", o->focus, d) ||
	    make_filter(&gp->ignore, "ignore", o->ignore, d) ||
	    make_filter(&gp->retain, "retain", o->retain, d) ||
	    make_filter(&gp->exclude, "exclude", o->exclude, d) || jh_frames_make(gp, m, o, d))
		return -1;
	g->frame_hidden = gp->fhide;
	if (gp->focus && (gp->focus_full = use_full(gp, m, gp->focus, LF_FOCUS_DONE, LF_FOCUS)))
		g->fullnames |= JH_FULL_FOCUS;
	if (gp->ignore &&
	    (gp->ignore_full = use_full(gp, m, gp->ignore, LF_IGNORE_DONE, LF_IGNORE)))
		g->fullnames |= JH_FULL_IGNORE;
	g->focus_re = gp->focus ? o->focus : NULL;
	g->ignore_re = gp->ignore ? o->ignore : NULL;
	g->hide_re = gp->hide ? o->hide : NULL;
	g->show_re = gp->show ? o->show : NULL;
	g->show_from_re = gp->show_from ? o->show_from : NULL;
	if (o->pprof)
		gp->pp = jh_pprof_acc_new(gp->focus || gp->ignore || gp->frames_on);

	enum jh_value v = o->value, v2 = g->value2;
	if (thread < 0) {
		for (size_t i = 0; i < m->nstacks; i++) {
			const struct jh_mstack *s = &m->stacks[i];
			if (s->dropped)
				continue;
			g->total += s->c.v[v];
			add_stack(g, (uint32_t)i, s->c.v[v],
				  m->stack_base ? m->stack_base[i].v[v] : 0, s->c.v[v2], &s->c);
		}
	} else {
		const struct jh_mthread *t = &m->threads[thread];
		for (size_t i = 0; i < t->nr; i++) {
			if (m->stacks[t->stacks[i]].dropped && t->base)
				continue;
			g->total += t->c[i].v[v];
			add_stack(g, t->stacks[i], t->c[i].v[v], t->base ? t->base[i].v[v] : 0,
				  t->c[i].v[v2], &t->c[i]);
		}
	}
	g->locpool = (gp->retain || gp->exclude || gp->frames_on) ? gp->pool : m->locpool;
	jh_seqset_release(&gp->stacks); /* the stacks are merged: reports reuse its memory */
	if (gp->pp)
		jh_pprof_acc_finish(gp->pp, g);
	if (nodes) {
		compute_nodes(g);
	} else {
		g->lockey_off = xcalloc(m->nlocs + 1, sizeof(*g->lockey_off));
		for (size_t i = 0; i < g->nstacks; i++)
			g->local_total += g->stacks[i].len ? g->stacks[i].v : 0;
	}
	return 0;
}

int jh_analyse(struct jh_graph *g, const struct jh_model *m, const struct jh_analysis_opts *o,
	       int thread, struct jh_diag *d)
{
	return analyse(g, m, o, thread, 1, d);
}

int jh_analyse_stacks(struct jh_graph *g, const struct jh_model *m,
		      const struct jh_analysis_opts *o, int thread, struct jh_diag *d)
{
	return analyse(g, m, o, thread, 0, d);
}

void jh_graph_release(struct jh_graph *g)
{
	struct jh_graph_priv *gp = g->priv;
	if (gp) {
		jh_namer_release(&gp->namer);
		jh_u64map_release(&gp->node_by_key);
		jh_u64map_release(&gp->runkeys);
		jh_u64map_release(&gp->own_run_ids);
		free(gp->runloc);
		jh_seqset_release(&gp->stacks);
		jh_filter_free(gp->focus);
		jh_filter_free(gp->ignore);
		jh_filter_free(gp->retain);
		jh_filter_free(gp->exclude);
		jh_frames_release(gp);
		jh_pprof_acc_free(gp->pp);
		jh_sb_release(&gp->sb);
		jh_sb_release(&gp->sb2);
		free(gp->lflags);
		free(gp->fid);
		free(gp->fm);
		free(gp->pool);
		jh_intern_release(&gp->keys);
		free(gp);
	}
	free(g->stacks);
	free(g->nodes);
	free(g->lockey_off);
	free(g->keypool);
	free(g->values);
	memset(g, 0, sizeof(*g));
}

uint32_t jh_graph_func_id(const struct jh_graph *g, size_t f)
{
	const struct jh_graph_priv *gp = g->priv;
	return gp->fid[f];
}

const uint32_t *jh_graph_func_ids(const struct jh_graph *g)
{
	const struct jh_graph_priv *gp = g->priv;
	return gp->fid;
}

int jh_graph_loc_used(const struct jh_graph *g, uint32_t loc)
{
	const struct jh_graph_priv *gp = g->priv;
	return gp->lflags[loc] & LF_USED;
}

size_t jh_graph_nfuncs(const struct jh_graph *g)
{
	const struct jh_graph_priv *gp = g->priv;
	return gp->nfm;
}

double jh_sort_value(double v)
{
	if (v == 0 || !isfinite(v))
		return v;
	int e;
	double m = frexp(v, &e);
	return ldexp(nearbyint(ldexp(m, 40)), e - 40);
}

struct sort_ctx {
	const struct jh_graph *g;
	int by_cum;
};

static int cmp_nodes(const void *a, const void *b, void *arg)
{
	const struct sort_ctx *c = arg;
	const struct jh_node *x = &c->g->nodes[*(const uint32_t *)a];
	const struct jh_node *y = &c->g->nodes[*(const uint32_t *)b];
	double vx = jh_sort_value(c->by_cum ? x->cum : x->flat);
	double vy = jh_sort_value(c->by_cum ? y->cum : y->flat);
	if (vx != vy)
		return vx > vy ? -1 : 1;
	return strcmp(x->key, y->key);
}

uint32_t *jh_graph_sorted(const struct jh_graph *g, int by_cum)
{
	uint32_t *order = xmalloc(jh_st_mult(g->nnodes ? g->nnodes : 1, sizeof(*order)));
	for (size_t i = 0; i < g->nnodes; i++)
		order[i] = (uint32_t)i;
	struct sort_ctx c = { g, by_cum };
	if (g->nnodes > 1)
		qsort_r(order, g->nnodes, sizeof(*order), cmp_nodes, &c);
	return order;
}

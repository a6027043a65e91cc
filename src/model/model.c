/*
 * model.c - the symbolized model: every profile and --base file read,
 * symbolized against its own mappings or symbol section, and merged into one
 * set of locations and location stacks (see model.h).
 *
 * Location identity: (module, address in the module) when the module is
 * known, else the pc. With --base the identity is symbolic (the chain of
 * function/file/line of every inline level) so that two dumps of one binary
 * loaded at different addresses cancel; locations without frames keep the
 * module/pc identity.
 */
#include "model_internal.h"
#include "jeheap/trace.h"

#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

enum { KEY_PC, KEY_MOD, KEY_SYM };

static uint64_t frames_hash(const struct jh_frame *f, uint32_t n)
{
	uint64_t h = 0x51af ^ n;
	for (uint32_t i = 0; i < n; i++) {
		h = jh_hash_u64(h ^ (uint64_t)(uintptr_t)f[i].func);
		h = jh_hash_u64(h ^ (uint64_t)(uintptr_t)f[i].file);
		h = jh_hash_u64(h ^ f[i].line);
	}
	return h;
}

/* Every level has a function name (else the frames do not identify the pc). */
static int frames_known(const struct jh_frame *f, uint32_t n)
{
	for (uint32_t i = 0; i < n; i++)
		if (!f[i].func)
			return 0;
	return 1;
}

struct loc_probe {
	const struct jh_model *m;
	const struct jh_model_priv *mp;
	int kind;
	const struct jh_location *l; /* candidate (frames in m->frames) */
};

static int loc_eq(const void *ctx, uint32_t id)
{
	const struct loc_probe *p = ctx;
	const struct jh_location *o = &p->m->locs[id];
	if (p->mp->lockind[id] != p->kind)
		return 0;
	switch (p->kind) {
	case KEY_PC: return o->pc == p->l->pc;
	case KEY_MOD: return o->module == p->l->module && o->modaddr == p->l->modaddr;
	default:
		if (o->nframes != p->l->nframes)
			return 0;
		for (uint32_t i = 0; i < o->nframes; i++) {
			const struct jh_frame *a = &p->m->frames.items[o->first + i];
			const struct jh_frame *b = &p->m->frames.items[p->l->first + i];
			if (a->func != b->func || a->file != b->file || a->line != b->line)
				return 0;
		}
		return 1;
	}
}

/* The index key of candidate l (frames in m->frames): *kind and hash. */
static uint64_t loc_key(const struct jh_model *m, const struct jh_location *l, int *kind)
{
	const struct jh_model_priv *mp = m->priv;
	uint64_t h;
	*kind = KEY_PC;
	if (mp->symbolic && l->nframes && frames_known(m->frames.items + l->first, l->nframes)) {
		*kind = KEY_SYM;
		h = frames_hash(m->frames.items + l->first, l->nframes);
	} else if (l->module) {
		*kind = KEY_MOD;
		h = jh_hash_u64((uint64_t)(uintptr_t)l->module ^ jh_hash_u64(l->modaddr));
	} else {
		h = jh_hash_u64(l->pc);
	}
	return h * 3 + (uint64_t)*kind;
}

static uint32_t loc_append(struct jh_model *m, const struct jh_location *l, int kind)
{
	struct jh_model_priv *mp = m->priv;
	JH_GROW(m->locs, m->nlocs + 1, m->locs_alloc);
	JH_GROW(mp->lockind, m->nlocs + 1, mp->lockind_alloc);
	m->locs[m->nlocs] = *l;
	mp->lockind[m->nlocs] = (uint8_t)kind;
	return (uint32_t)m->nlocs++;
}

/* Indexes the locations added without the index (see model_locations). */
static void locs_index(struct jh_model *m)
{
	struct jh_model_priv *mp = m->priv;
	jh_idtab_reserve(&mp->locs, m->nlocs);
	for (size_t id = mp->locs.nr; id < m->nlocs; id++) {
		struct loc_probe p = { m, mp, KEY_PC, &m->locs[id] };
		uint64_t h = loc_key(m, &m->locs[id], &p.kind);
		int added;
		jh_idtab_put(&mp->locs, h, loc_eq, &p, &added);
	}
}

/* Returns the location id for candidate l (frames already in m->frames). */
static uint32_t model_location(struct jh_model *m, const struct jh_location *l)
{
	struct jh_model_priv *mp = m->priv;
	if (mp->locs.nr < m->nlocs)
		locs_index(m);
	struct loc_probe p = { m, mp, KEY_PC, l };
	uint64_t h = loc_key(m, l, &p.kind);
	int added;
	uint32_t id = jh_idtab_put(&mp->locs, h, loc_eq, &p, &added);
	if (added)
		loc_append(m, l, p.kind);
	return id;
}

static void embedded_result(struct jh_model *m, struct jh_symresult *r)
{
	r->module = NULL;
	r->modaddr = 0;
	r->status = JH_SYM_EMBEDDED;
	r->allocator = 0;
	r->first = (uint32_t)m->frames.nr;
	r->nframes = 0;
}

/* Frames of a symbol-section entry "outer--inner1--inner2" (Perl split: trailing
 * empty fields dropped); a pc without an entry is named "0x<16 hex>". */
static void embedded_frames(struct jh_model *m, const char *names, uint64_t pc,
			    struct jh_symresult *r)
{
	char buf[2 + 16 + 1];
	embedded_result(m, r);
	if (!names) {
		snprintf(buf, sizeof(buf), "0x%016" PRIx64, pc);
		names = buf;
	}
	size_t keep = m->frames.nr;
	const char *s = names, *end = names + strlen(names);
	while (s) {
		const char *ps = s;
		size_t n = (size_t)(jh_names_part(ps, end, &s) - ps);
		JH_GROW(m->frames.items, m->frames.nr + 1, m->frames.alloc);
		struct jh_frame *f = &m->frames.items[m->frames.nr++];
		f->func = (n == 2 && ps[0] == '?' && ps[1] == '?') ? NULL
								   : jh_intern_n(&m->names, ps, n);
		f->file = NULL;
		f->line = 0;
		f->decl_line = 0;
		if (n)
			keep = m->frames.nr;
	}
	m->frames.nr = keep; /* drop trailing empty names */
	r->nframes = (uint32_t)(m->frames.nr - r->first);
}

/* The same for a line read with split_symbols: funcs[id] is the model's
 * name of part id (NULL for "??"). */
static void embedded_parts(struct jh_model *m, const struct jh_profile *p,
			   const struct jh_symname *sym, const char **funcs, uint32_t empty,
			   struct jh_symresult *r)
{
	embedded_result(m, r);
	const uint32_t *ids = p->sym_frames + sym->first;
	uint32_t n = sym->nparts;
	while (n && ids[n - 1] == empty)
		n--; /* trailing empty names */
	JH_GROW(m->frames.items, m->frames.nr + n, m->frames.alloc);
	for (uint32_t k = 0; k < n; k++) {
		struct jh_frame *f = &m->frames.items[m->frames.nr++];
		f->func = funcs[ids[k]];
		f->file = NULL;
		f->line = 0;
		f->decl_line = 0;
	}
	r->nframes = n;
}

/* The model's names of p's distinct symbol parts ("??" is no name); *empty
 * is the id of the empty part (parts are distinct: at most one). The
 * profile's copies of the parts become the model's (no copy, no rehash). */
static const char **part_names(struct jh_model *m, struct jh_profile *p, uint32_t *empty)
{
	const char **funcs = xmalloc(jh_st_mult(p->nsym_parts ? p->nsym_parts : 1, sizeof(*funcs)));
	*empty = UINT32_MAX;
	for (size_t i = 0; i < p->nsym_parts; i++) {
		size_t n;
		uint64_t h;
		const char *s = jh_profile_sym_part(p, (uint32_t)i, &n, &h);
		if (!n)
			*empty = (uint32_t)i;
		funcs[i] = n == 2 && s[0] == '?' && s[1] == '?'
				   ? NULL
				   : jh_intern_nocopy(&m->names, s, n, h);
	}
	jh_profile_give_parts(p, &m->names);
	return funcs;
}

static uint32_t model_thread(struct jh_model *m, uint64_t uid, const char *name)
{
	struct jh_model_priv *mp = m->priv;
	int added;
	uint64_t *v = jh_u64map_put(&mp->thread_by_uid, uid == UINT64_MAX ? UINT64_MAX - 1 : uid,
				    &added);
	if (added) {
		*v = m->nthreads;
		JH_GROW(m->threads, m->nthreads + 1, m->threads_alloc);
		struct jh_mthread *t = &m->threads[m->nthreads];
		memset(t, 0, sizeof(*t));
		t->uid = uid;
		m->nthreads++;
	}
	struct jh_mthread *t = &m->threads[*v];
	if (name && !t->name)
		t->name = jh_intern(&m->names, name);
	return (uint32_t)*v;
}

static void add_counts(struct jh_counts *dst, const struct jh_counts *src)
{
	for (int i = 0; i < JH_NVALUES; i++)
		dst->v[i] += src->v[i];
}

/* Appends a (stack, counts) entry to thread t; duplicates are merged by
 * threads_merge once every file is in (no per-entry index while reading). */
static void thread_add(struct jh_model *m, uint32_t t, uint32_t stack, const struct jh_counts *c,
		       int is_base)
{
	struct jh_model_priv *mp = m->priv;
	struct jh_mthread *th = &m->threads[t];
	if (th->nr + 1 > th->alloc) {
		size_t n = th->alloc < 16 ? 16 : th->alloc * 2;
		th->stacks = xrealloc(th->stacks, jh_st_mult(n, sizeof(*th->stacks)));
		th->c = xrealloc(th->c, jh_st_mult(n, sizeof(*th->c)));
		if (mp->symbolic || th->base)
			th->base = xrealloc(th->base, jh_st_mult(n, sizeof(*th->base)));
		th->alloc = n;
	}
	if (is_base && !th->base) /* bases without jh_model_init(m, 1) */
		th->base = xcalloc(th->alloc, sizeof(*th->base));
	th->stacks[th->nr] = stack;
	memset(&th->c[th->nr], 0, sizeof(th->c[0]));
	if (th->base)
		memset(&th->base[th->nr], 0, sizeof(th->base[0]));
	add_counts(is_base ? &th->base[th->nr] : &th->c[th->nr], c);
	th->nr++;
}

/* Sorts each thread's entries by stack id and sums the entries of one
 * stack (in the order they were added). */
static void threads_merge(struct jh_model *m)
{
	for (size_t t = 0; t < m->nthreads; t++) {
		struct jh_mthread *th = &m->threads[t];
		if (!th->nr)
			continue;
		uint64_t *key = xmalloc(jh_st_mult(th->nr, sizeof(*key)));
		for (size_t i = 0; i < th->nr; i++)
			key[i] = (uint64_t)th->stacks[i] << 32 | i;
		jh_qsort(key, th->nr, sizeof(*key), jh_cmp_u64);
		uint32_t *stacks = xmalloc(jh_st_mult(th->nr, sizeof(*stacks)));
		struct jh_counts *c = xmalloc(jh_st_mult(th->nr, sizeof(*c)));
		struct jh_counts *base = th->base ? xmalloc(jh_st_mult(th->nr, sizeof(*base)))
						  : NULL;
		size_t n = 0;
		for (size_t i = 0; i < th->nr; i++) {
			uint32_t from = (uint32_t)key[i];
			if (n && stacks[n - 1] == th->stacks[from]) {
				add_counts(&c[n - 1], &th->c[from]);
				if (base)
					add_counts(&base[n - 1], &th->base[from]);
				continue;
			}
			stacks[n] = th->stacks[from];
			c[n] = th->c[from];
			if (base)
				base[n] = th->base[from];
			n++;
		}
		free(key);
		free(th->stacks);
		free(th->c);
		free(th->base);
		th->stacks = stacks;
		th->c = c;
		th->base = base;
		th->nr = th->alloc = n;
	}
}

/*
 * The mapping of an embedded-name pc, so that pcs of a library the file
 * cannot name ("??") still match across runs with --base: module = the
 * mapped path, modaddr = its file offset (names are shown as jeprof shows
 * them, see jh_loc_shown_module).
 */
struct map_memo {
	const char *path; /* interned, NULL until the mapping is first used */
	uint8_t allocator;
};

static void embedded_module(struct jh_model *m, const struct jh_profile *p, int sorted,
			    struct map_memo *memo, uint64_t pc, struct jh_symresult *r)
{
	size_t lo = 0, hi = p->nmaps;
	if (sorted) { /* last mapping with start <= pc */
		while (lo < hi) {
			size_t mid = lo + (hi - lo) / 2;
			if (p->maps[mid].start <= pc)
				lo = mid + 1;
			else
				hi = mid;
		}
		hi = lo;
		lo = lo ? lo - 1 : 0;
	}
	for (size_t i = lo; i < hi; i++) {
		const struct jh_mapping *mp = &p->maps[i];
		if (pc >= mp->start && pc < mp->end && mp->path && mp->path[0]) {
			if (!memo[i].path) { /* once per mapping */
				memo[i].path = jh_intern(&m->names, mp->path);
				memo[i].allocator = (uint8_t)jh_allocator_library_name(mp->path);
			}
			r->module = memo[i].path;
			r->modaddr = pc - mp->start + mp->offset;
			r->allocator = memo[i].allocator;
			return;
		}
	}
}

static int maps_sorted(const struct jh_profile *p)
{
	for (size_t i = 1; i < p->nmaps; i++)
		if (p->maps[i].start < p->maps[i - 1].end)
			return 0;
	return 1;
}

/* No two mappings of one file map a common file offset (checked for a
 * few mappings only). */
static int maps_disjoint(const struct jh_profile *p)
{
	if (p->nmaps > 64)
		return 0;
	for (size_t i = 0; i < p->nmaps; i++) {
		const struct jh_mapping *a = &p->maps[i];
		for (size_t j = i + 1; a->path && j < p->nmaps; j++) {
			const struct jh_mapping *b = &p->maps[j];
			if (b->path && !strcmp(a->path, b->path) &&
			    a->offset < b->offset + (b->end - b->start) &&
			    b->offset < a->offset + (a->end - a->start))
				return 0;
		}
	}
	return 1;
}

/* The location of pc from its symbolization result r; out: its id. */
static uint32_t add_location(struct jh_model *m, uint64_t pc, const struct jh_symresult *r,
			     int unindexed)
{
	struct jh_location l = {
		.pc = pc,
		.module = r->module,
		.modaddr = r->modaddr,
		.status = r->status,
		.allocator = r->allocator,
		.first = r->first,
		.nframes = r->nframes,
	};
	return unindexed ? loc_append(m, &l, l.module ? KEY_MOD : KEY_PC) : model_location(m, &l);
}

static const struct jh_symname *id_symbol(const struct jh_profile *p, size_t id)
{
	return p->upc_syms[id] ? &p->syms[p->upc_syms[id] - 1] : NULL;
}

/* pprof input: the pcs without a symbol line, in id order, symbolized
 * from the profile's mappings (*res, one per such pc). */
static int fallback(struct jh_model *m, struct jh_profile *p, struct jh_symbolizer *s,
		    struct jh_symresult **res, struct jh_diag *d)
{
	size_t n = 0;
	uint64_t *pcs = xmalloc(jh_st_mult(p->nupcs + 1, sizeof(*pcs)));
	for (size_t i = 0; i < p->nupcs; i++)
		if (!p->upc_syms[i])
			pcs[n++] = p->upcs[i];
	*res = xcalloc(n + 1, sizeof(**res));
	int rc = jh_symbolize(s, p->maps, p->nmaps, pcs, n, &m->names, *res, &m->frames, d);
	free(pcs);
	if (rc) {
		free(*res);
		*res = NULL;
	}
	return rc;
}

/* Location ids of p's pc ids (upcs, in order); out[id]. */
static int model_locations(struct jh_model *m, struct jh_profile *p, struct jh_symbolizer *s,
			   uint32_t *out, struct jh_diag *d)
{
	size_t nu = p->nupcs;
	const uint64_t *upcs = p->upcs;
	/* The keys of the first file's distinct pcs are distinct when its
	 * names are embedded (modaddr = file offset) and no two mappings of a
	 * file share an offset: they are indexed only if another file comes. */
	struct jh_model_priv *mp = m->priv;
	int unindexed = m->nlocs == 0 && !mp->symbolic && p->has_symbols && !p->sym_fallback &&
			maps_disjoint(p);
	if (!unindexed)
		jh_idtab_reserve(&mp->locs, m->nlocs + nu);
	JH_GROW(m->locs, m->nlocs + nu, m->locs_alloc);
	JH_GROW(mp->lockind, m->nlocs + nu, mp->lockind_alloc);
	/* The first file: every
	 * id is a new location, whose frames are (at most) the parts of the
	 * symbol lines. */
	if (!m->nlocs)
		JH_GROW(m->frames.items, p->nsym_frames, m->frames.alloc);
	if (p->has_symbols) {
		int sorted = maps_sorted(p);
		struct map_memo *memo = xcalloc(p->nmaps ? p->nmaps : 1, sizeof(*memo));
		uint32_t empty = UINT32_MAX;
		struct jh_symresult *fb = NULL; /* of the pcs the symbol lines miss */
		if (s && p->sym_fallback && fallback(m, p, s, &fb, d)) {
			free(memo);
			return -1;
		}
		const char **funcs = p->split_symbols ? part_names(m, p, &empty) : NULL;
		for (size_t i = 0, f = 0; i < nu; i++) {
			const struct jh_symname *sym = id_symbol(p, i);
			if (fb && !sym) {
				out[i] = add_location(m, upcs[i], &fb[f++], unindexed);
				continue;
			}
			if (funcs && i + 8 < nu && p->upc_syms[i + 8])
				__builtin_prefetch(id_symbol(p, i + 8));
			if (funcs && i + 4 < nu && p->upc_syms[i + 4])
				__builtin_prefetch(p->sym_frames + id_symbol(p, i + 4)->first);
			struct jh_symresult r;
			if (funcs && sym)
				embedded_parts(m, p, sym, funcs, empty, &r);
			else
				embedded_frames(m, sym ? sym->names : NULL, upcs[i], &r);
			embedded_module(m, p, sorted, memo, upcs[i], &r);
			out[i] = add_location(m, upcs[i], &r, unindexed);
		}
		free(funcs);
		free(memo);
		free(fb);
		return 0;
	}
	struct jh_symresult *res = xcalloc(nu ? nu : 1, sizeof(*res));
	if (s && !p->maps_cut &&
	    jh_symbolize(s, p->maps, p->nmaps, upcs, nu, &m->names, res, &m->frames, d)) {
		free(res);
		return -1;
	}
	for (size_t i = 0; i < nu; i++) {
		if (p->no_stack && upcs[i] == JH_NO_STACK_PC)
			embedded_frames(m, "[no stack]", upcs[i], &res[i]);
		out[i] = add_location(m, upcs[i], &res[i], unindexed);
	}
	free(res);
	return 0;
}

/*
 * The location id of every pc id of p (ids are in the order of first use,
 * and locations are made in that order). *identity: every id got the new
 * location with its own number (the first file, all pcs distinct).
 */
static uint32_t *id_locations(struct jh_model *m, struct jh_profile *p, struct jh_symbolizer *s,
			      int *identity, struct jh_diag *d)
{
	size_t nu = p->nupcs;
	uint32_t *glob = xmalloc(jh_st_mult(nu ? nu : 1, sizeof(*glob)));
	if (model_locations(m, p, s, glob, d)) {
		free(glob);
		return NULL;
	}
	*identity = 1;
	for (size_t id = 0; id < nu && *identity; id++)
		*identity = glob[id] == id;
	return glob;
}

/* The stacks of the model not yet in the stack index (the first file's,
 * when they were taken without it). */
static void stacks_index(struct jh_model *m)
{
	struct jh_model_priv *mp = m->priv;
	for (size_t i = mp->stacks.t.nr; i < m->nstacks; i++) {
		int added;
		jh_seqset_put(&mp->stacks, m->locpool, m->stacks[i].off, m->stacks[i].len, &added);
	}
}

/* m->stack_base, made (zeros, as long as stacks) the first time. */
static void need_stack_base(struct jh_model *m)
{
	if (!m->stack_base)
		m->stack_base = xcalloc(m->stacks_alloc ? m->stacks_alloc : 1,
					sizeof(*m->stack_base));
}

static uint32_t new_stack(struct jh_model *m, size_t off, uint32_t len)
{
	struct jh_model_priv *mp = m->priv;
	size_t had = m->stacks_alloc;
	JH_GROW(m->stacks, m->nstacks + 1, m->stacks_alloc);
	if (m->stack_base && m->stacks_alloc != had)
		m->stack_base = xrealloc(m->stack_base,
					 jh_st_mult(m->stacks_alloc, sizeof(*m->stack_base)));
	if (m->stack_base)
		memset(&m->stack_base[m->nstacks], 0, sizeof(*m->stack_base));
	JH_GROW(mp->in_profile, m->nstacks + 1, mp->in_profile_alloc);
	struct jh_mstack *ms = &m->stacks[m->nstacks];
	memset(ms, 0, sizeof(*ms));
	ms->off = off;
	ms->len = len;
	mp->in_profile[m->nstacks] = 0;
	return (uint32_t)m->nstacks++;
}

int jh_model_add_profile(struct jh_model *m, struct jh_profile *p, int is_base,
			 struct jh_symbolizer *s, struct jh_diag *d)
{
	struct jh_model_priv *mp = m->priv;
	if (is_base)
		need_stack_base(m);
	if (jh_profile_handover(p, d))
		return -1;
	int identity;
	uint32_t *glob = id_locations(m, p, s, &identity, d);
	if (!glob) {
		jh_profile_drop_ids(p);
		return -1;
	}
	if (p->split_symbols) /* else the names may be the caller's */
		jh_profile_drop_symbols(p);

	/* jeprof reads the per-thread data of the first profile only (the
	 * others add to the whole-process counts); bases' threads are
	 * subtracted from it (jeheap's --base also applies to --thread) */
	int thread_data = (is_base || mp->nprofiles == 0) && !p->no_threads;
	if (mp->keep_first && !is_base && mp->nprofiles == 0) {
		/* the profile's pcs and their locations are kept, not copied */
		m->nfirst = p->nupcs;
		m->first_pcs = jh_profile_take_upcs(p);
		m->first_locs = glob;
	}
	if (!is_base)
		mp->nprofiles++;
	if (!mp->nfiles++)
		m->legacy = 1;
	if (p->format != JH_FMT_LEGACY_HEAP)
		m->legacy = 0;
	if (!m->program && p->binary)
		m->program = jh_intern(&m->names, p->binary);
	jh_model_keep_maps(m, p);
	jh_model_keep_input(m, p, is_base);
	if (!mp->maps_program) {
		for (size_t i = 0; i < p->nmaps; i++) {
			const char *path = p->maps[i].path;
			if (path && path[0] == '/') {
				mp->maps_program = jh_intern(&m->names, path);
				break;
			}
		}
	}

	uint32_t *pstack = xmalloc(jh_st_mult(p->nstacks ? p->nstacks : 1, sizeof(*pstack)));
	/* The first profile's pc id pool becomes the model's location pool,
	 * in place. When its pc ids are the location ids, its stacks (unique)
	 * are the model's: no index is needed until a second file. */
	int steal = m->nlocpool == 0 && !m->locpool && p->npcids;
	if (steal) {
		for (size_t i = 0; !identity && i < p->npcids; i++)
			p->pcids[i] = glob[p->pcids[i]];
		m->locpool = jh_profile_take_pcids(p, &m->nlocpool, &m->locpool_alloc);
	}
	int direct = steal && identity && m->nstacks == 0;
	if (!direct)
		stacks_index(m);
	for (size_t i = 0; i < p->nstacks; i++) {
		const struct jh_stack *st = &p->stacks[i];
		uint32_t id;
		if (direct) {
			id = new_stack(m, st->off, st->len);
		} else {
			size_t off = st->off;
			if (!steal) {
				off = m->nlocpool;
				JH_GROW(m->locpool, m->nlocpool + st->len, m->locpool_alloc);
				for (uint32_t k = 0; k < st->len; k++)
					m->locpool[m->nlocpool + k] = glob[p->pcids[st->off + k]];
			}
			int added;
			id = jh_seqset_put(&mp->stacks, m->locpool, off, st->len, &added);
			if (added) {
				new_stack(m, off, st->len);
				if (!steal)
					m->nlocpool += st->len;
			}
		}
		pstack[i] = id;
		if (!is_base)
			mp->in_profile[id] = 1;
		add_counts(is_base ? &m->stack_base[id] : &m->stacks[id].c, &st->c);
	}
	for (size_t i = 0; thread_data && i < p->ntsamples; i++) {
		const struct jh_tsample *ts = &p->tsamples[i];
		const struct jh_thread *th = &p->threads[ts->thread];
		uint32_t t = model_thread(m, th->uid, th->name);
		thread_add(m, t, pstack[ts->stack], &ts->c, is_base);
	}
	/* thread names of threads without samples are kept too */
	for (size_t i = 0; thread_data && i < p->nthreads; i++)
		model_thread(m, p->threads[i].uid, p->threads[i].name);
	free(pstack);
	if (glob != m->first_locs)
		free(glob);
	jh_profile_drop_ids(p);
	return 0;
}

void jh_model_init(struct jh_model *m, int symbolic)
{
	memset(m, 0, sizeof(*m));
	jh_intern_init(&m->names);
	struct jh_model_priv *mp = xcalloc(1, sizeof(*mp));
	jh_idtab_init(&mp->locs);
	jh_seqset_init(&mp->stacks);
	jh_u64map_init(&mp->thread_by_uid);
	mp->symbolic = symbolic;
	m->priv = mp;
}

static int cmp_thread(const void *a, const void *b)
{
	const struct jh_mthread *x = a, *y = b;
	return x->uid < y->uid ? -1 : x->uid > y->uid;
}

static void net(struct jh_counts *c, struct jh_counts *base, int drop_negative)
{
	for (int i = 0; i < JH_NVALUES; i++) {
		c->v[i] -= base->v[i];
		if (drop_negative && c->v[i] < 0)
			c->v[i] = 0;
	}
}

void jh_model_finish(struct jh_model *m, int have_bases, int drop_negative)
{
	struct jh_model_priv *mp = m->priv;
	threads_merge(m);
	if (have_bases)
		need_stack_base(m); /* also when no base file was added */
	if (have_bases) {
		for (size_t i = 0; i < m->nstacks; i++) {
			struct jh_mstack *s = &m->stacks[i];
			if (drop_negative && !mp->in_profile[i]) {
				memset(&s->c, 0, sizeof(s->c));
				s->dropped = 1;
				continue;
			}
			net(&s->c, &m->stack_base[i], drop_negative);
		}
		for (size_t t = 0; t < m->nthreads; t++) {
			struct jh_mthread *th = &m->threads[t];
			for (size_t i = 0; th->base && i < th->nr; i++)
				net(&th->c[i], &th->base[i], drop_negative);
		}
	} else {
		for (size_t t = 0; t < m->nthreads; t++) {
			free(m->threads[t].base);
			m->threads[t].base = NULL;
		}
	}
	jh_qsort(m->threads, m->nthreads, sizeof(*m->threads), cmp_thread);
	if (!m->program)
		m->program = mp->maps_program;
}

int jh_model_build(struct jh_model *m, const struct jh_model_opts *o, struct jh_symbolizer *s,
		   struct jh_diag *d)
{
	jh_model_init(m, o->nbases > 0);
	m->sym = s;
	((struct jh_model_priv *)m->priv)->keep_first = o->keep_first_pcs;
	if (o->program)
		m->program = jh_intern(&m->names, o->program);
	struct jh_model_program first = { 0 };
	for (size_t i = 0; i < o->nprofiles + o->nbases; i++) {
		int is_base = i >= o->nprofiles;
		const char *path = is_base ? o->bases[i - o->nprofiles] : o->profiles[i];
		struct jh_profile p;
		jh_profile_init(&p);
		p.split_symbols = 1;
		p.dense_pcs = 1;
		p.no_threads = !o->threads;
		int r = jh_profile_read(&p, path, d);
		JH_TRACE("model: read %s", path);
		if (!r && !is_base && !o->allow_mixed)
			r = jh_model_mixed_check(&first, &p, path, d);
		if (!r)
			r = jh_model_add_profile(m, &p, is_base, s, d);
		JH_TRACE("model: added %s", path);
		jh_profile_release(&p);
		JH_TRACE("model: profile released");
		if (r) {
			jh_model_program_release(&first);
			return -1;
		}
	}
	jh_model_program_release(&first);
	jh_model_finish(m, o->nbases > 0, o->drop_negative);
	JH_TRACE("model: finished");
	return 0;
}

void jh_model_release(struct jh_model *m)
{
	struct jh_model_priv *mp = m->priv;
	if (mp) {
		jh_idtab_release(&mp->locs);
		jh_seqset_release(&mp->stacks);
		jh_u64map_release(&mp->thread_by_uid);
		free(mp->lockind);
		free(mp->in_profile);
		free(mp);
	}
	for (size_t t = 0; t < m->nthreads; t++) {
		free(m->threads[t].stacks);
		free(m->threads[t].c);
		free(m->threads[t].base);
	}
	free(m->threads);
	free(m->locs);
	free(m->frames.items);
	free(m->locpool);
	free(m->stacks);
	free(m->stack_base);
	free(m->first_pcs);
	free(m->first_locs);
	jh_model_release_maps(m);
	jh_intern_release(&m->names);
	memset(m, 0, sizeof(*m));
}

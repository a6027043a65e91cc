/*
 * symbolize.c - the symbolizer facade: mappings -> modules, pcs -> module
 * addresses, each unique (module, address) resolved once and cached for the
 * symbolizer's lifetime, answers copied into the caller's frame array.
 *
 * Names follow llvm-symbolizer: DWARF gives the inline chain, the outermost
 * frame is renamed after the ELF symbol covering the address (which brings
 * "[clone .cold]" suffixes), everything demangled like addr2line -C; without
 * DWARF the symbol table alone (JH_SYM_SYMBOL); else JH_SYM_UNKNOWN.
 */
#include "jeheap/symbolize.h"

#include "dwarf_sched.h"
#include "jh_demangle.h"
#include "jeheap/trace.h"
#include "sym_cache.h"
#include "sym_debuginfod.h"
#include "sym_identity.h"
#include "mem_budget.h"
#include "sym_module.h"
#include "symbolizer.h"

#include <elf.h>
#include <stdlib.h>
#include <string.h>

/* One executable mapping of this call (or an --add_lib / catch-all range). */
struct range {
	uint64_t start, end, bias, offset;
	struct jh_module *m;
	int ok; /* bias known: addresses translate */
};

static char **copy_strs(char **v, size_t n)
{
	char **r = xcalloc(n ? n : 1, sizeof(*r));
	for (size_t i = 0; i < n; i++)
		r[i] = xstrdup(v[i]);
	return r;
}

static void free_strs(char **v, size_t n)
{
	for (size_t i = 0; i < n; i++)
		free(v[i]);
	free(v);
}

struct jh_symbolizer *jh_symbolizer_new(const struct jh_symbolizer_opts *o)
{
	struct jh_symbolizer *s = xcalloc(1, sizeof(*s));
	s->o = *o;
	s->o.program = o->program ? xstrdup(o->program) : NULL;
	s->o.sysroot = o->sysroot ? xstrdup(o->sysroot) : NULL;
	s->o.cache_dir = o->cache_dir ? xstrdup(o->cache_dir) : NULL;
	s->o.debuginfod = NULL; /* only the client needs them */
	s->o.debuginfod_client = jh_debuginfod_new(o->debuginfod, o->cache_dir);
	s->o.lib_prefixes = copy_strs(o->lib_prefixes, o->nlib_prefixes);
	s->o.add_libs = copy_strs(o->add_libs, o->nadd_libs);
	s->o.debug_dirs = copy_strs(o->debug_dirs, o->ndebug_dirs);
	s->o.path_maps = xcalloc(o->npath_maps ? o->npath_maps : 1, sizeof(*s->o.path_maps));
	for (size_t i = 0; i < o->npath_maps; i++) {
		s->o.path_maps[i].from = xstrdup(o->path_maps[i].from);
		s->o.path_maps[i].to = xstrdup(o->path_maps[i].to);
	}
	jh_intern_init(&s->names);
	jh_u64map_init(&s->demangled);
	jh_mem_budget_set(o->max_memory);
	return s;
}

void jh_symbolizer_free(struct jh_symbolizer *s)
{
	if (!s)
		return;
	JH_TRACE("symbolizer: free");
	for (size_t i = 0; i < s->nmods; i++)
		jh_module_close(s->mods[i]);
	JH_TRACE("symbolizer: modules closed");
	free(s->mods);
	free((char *)s->o.program);
	free((char *)s->o.sysroot);
	free((char *)s->o.cache_dir);
	jh_debuginfod_free(s->o.debuginfod_client);
	free_strs(s->o.lib_prefixes, s->o.nlib_prefixes);
	free_strs(s->o.add_libs, s->o.nadd_libs);
	free_strs(s->o.debug_dirs, s->o.ndebug_dirs);
	for (size_t i = 0; i < s->o.npath_maps; i++) {
		free(s->o.path_maps[i].from);
		free(s->o.path_maps[i].to);
	}
	free(s->o.path_maps);
	jh_intern_release(&s->names);
	jh_u64map_release(&s->demangled);
	free(s->frames);
	free(s->res);
	free(s);
}

/* The module for key, opened on first use. */
static struct jh_module *get_module(struct jh_symbolizer *s, const char *key, const char *mappath,
				    const char *filepath, int is_main)
{
	for (size_t i = 0; i < s->nmods; i++)
		if (!strcmp(s->mods[i]->key, key))
			return s->mods[i];
	JH_GROW(s->mods, s->nmods + 1, s->amods);
	s->mods[s->nmods] = jh_module_open(&s->o, key, mappath, filepath, is_main);
	jh_symbolizer_cache_load(s, s->mods[s->nmods]);
	return s->mods[s->nmods++];
}

struct jh_module *jh_symbolizer_module(struct jh_symbolizer *s, const char *mappath)
{
	for (size_t i = 0; s && i < s->nmods; i++)
		if (s->mods[i]->usable && !s->mods[i]->mismatch &&
		    !strcmp(s->mods[i]->mappath, mappath)) {
			jh_module_load(s->mods[i]);
			jh_modules_say(s->mods, s->nmods, s->o.verbose);
			return s->mods[i];
		}
	return NULL;
}

int jh_symbolizer_modinfo(struct jh_symbolizer *s, const char *module, struct jh_modinfo *mi)
{
	for (size_t i = 0; s && module && i < s->nmods; i++)
		if (!strcmp(s->mods[i]->mappath, module)) {
			jh_module_info(s->mods[i], mi);
			return 0;
		}
	return -1;
}

static struct jh_module *program_module(struct jh_symbolizer *s)
{
	struct jh_sb key = JH_SB_INIT;
	jh_sb_init(&key);
	jh_sb_addf(&key, "program:%s", s->o.program);
	struct jh_module *m = get_module(s, key.buf, s->o.program, s->o.program, 1);
	jh_sb_release(&key);
	return m;
}

/* The module of a mapping with a build ID (pprof input), opened on first use. */
static struct jh_module *module_by_id(struct jh_symbolizer *s, const struct jh_mapping *mp,
				      int is_main)
{
	struct jh_sb key = JH_SB_INIT;
	jh_sb_init(&key);
	jh_sb_addf(&key, "%s build-id:", mp->path);
	for (size_t i = 0; i < mp->build_id_len; i++)
		jh_sb_addf(&key, "%02x", mp->build_id[i]);
	struct jh_module *m = NULL;
	for (size_t i = 0; i < s->nmods && !m; i++)
		if (!strcmp(s->mods[i]->key, key.buf))
			m = s->mods[i];
	if (!m) {
		JH_GROW(s->mods, s->nmods + 1, s->amods);
		m = s->mods[s->nmods++] = jh_module_open_id(&s->o, key.buf, mp->path, mp->build_id,
							    mp->build_id_len, is_main);
		jh_symbolizer_cache_load(s, m);
	}
	jh_sb_release(&key);
	return m;
}

static int cmp_range(const void *a, const void *b)
{
	const struct range *x = a, *y = b;
	return x->start < y->start ? -1 : x->start > y->start;
}

/* The file name is a shared library's: "x.so", "x.so.6", "x.so.6.0.30" (jeprof's test). */
static int library_name(const char *path)
{
	const char *b = strrchr(path, '/');
	const char *p = strstr(b ? b : path, ".so");
	if (!p)
		return 0;
	for (p += 3; *p == '.' && p[1] >= '0' && p[1] <= '9';)
		for (p++; *p >= '0' && *p <= '9'; p++)
			;
	return *p == 0;
}

/* The main executable's path in maps (the kernel lists it first), "" when
 * the first file is a library, NULL without files. */
static const char *main_mapped(const struct jh_mapping *maps, size_t nmaps)
{
	for (size_t i = 0; i < nmaps; i++)
		if (maps[i].path && maps[i].path[0] == '/')
			return library_name(maps[i].path) ? "" : maps[i].path;
	return NULL;
}

/* Where module m sits in mapping mp: 1 with *bias set, 0 when it cannot be
 * placed. A pprof mapping that gives the file's virtual address says where
 * it is; a dump's mapping is placed by its file offset. */
static int place(struct jh_module *m, const struct jh_mapping *mp, int continued, uint64_t *bias)
{
	if (mp->has_vaddr) {
		*bias = mp->start - mp->vaddr;
		return m->usable && !m->mismatch;
	}
	return jh_module_bias(m, mp, continued, bias) == 0;
}

/* Executable file mappings of this profile, sorted by start. The program
 * given stands for the main executable unless it failed the identity
 * check: then the file the profile mapped does. */
static size_t build_ranges(struct jh_symbolizer *s, const struct jh_mapping *maps, size_t nmaps,
			   struct range **out)
{
	const char *main_path = main_mapped(maps, nmaps);
	struct range *r = xcalloc(nmaps ? nmaps : 1, sizeof(*r));
	size_t n = 0;
	for (size_t i = 0; i < nmaps; i++) {
		const struct jh_mapping *mp = &maps[i];
		if (mp->perms[2] != 'x' || !mp->path || mp->path[0] != '/' || mp->end <= mp->start)
			continue;
		int is_main = main_path && !strcmp(mp->path, main_path);
		/* an executable segment split in two executable mappings (not the
		 * normal r-xp + r--p layout, where a short r-xp means another file) */
		int continued = 0;
		for (size_t j = 0; j < nmaps && !continued; j++)
			continued = maps[j].path && !strcmp(maps[j].path, mp->path) &&
				    maps[j].perms[2] == 'x' && maps[j].start == mp->end &&
				    maps[j].offset == mp->offset + (mp->end - mp->start);
		struct jh_module *m = is_main && s->o.program ? program_module(s) : NULL;
		r[n] = (struct range){ mp->start, mp->end, 0, mp->offset, m, 0 };
		if (m && !m->mismatch)
			r[n].ok = place(m, mp, continued, &r[n].bias);
		if (m && m->mismatch) /* not the file mapped: the one the profile names */
			m = NULL;
		if (!m) {
			m = mp->build_id_len ? module_by_id(s, mp, is_main)
					     : get_module(s, mp->path, mp->path, NULL, is_main);
			r[n].m = m;
			r[n].ok = place(m, mp, continued, &r[n].bias);
		}
		n++;
	}
	jh_qsort(r, n, sizeof(*r), cmp_range);
	*out = r;
	return n;
}

static const struct range *find_range(const struct range *r, size_t n, uint64_t pc)
{
	size_t lo = 0, hi = n;
	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		if (r[mid].start <= pc)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo && pc < r[lo - 1].end ? &r[lo - 1] : NULL;
}

/* --add_lib files: their executable segments at link-time addresses. */
static size_t build_extra(struct jh_symbolizer *s, size_t nmaps, struct range **out)
{
	struct range *r = NULL;
	size_t n = 0, alloc = 0;
	for (size_t i = 0; i < s->o.nadd_libs; i++) {
		struct jh_sb key = JH_SB_INIT;
		jh_sb_init(&key);
		jh_sb_addf(&key, "add_lib:%s", s->o.add_libs[i]);
		struct jh_module *m = get_module(s, key.buf, s->o.add_libs[i], NULL, 0);
		jh_sb_release(&key);
		if (!m->usable)
			continue;
		const struct jh_elf_load *ld;
		size_t nl = jh_elf_image_loads(m->bin, &ld);
		for (size_t j = 0; j < nl; j++) {
			if (!(ld[j].flags & PF_X))
				continue;
			JH_GROW(r, n + 1, alloc);
			r[n++] = (struct range){
				ld[j].vaddr, ld[j].vaddr + ld[j].memsz, 0, 0, m, 1
			};
		}
	}
	/* jeprof's catch-all: the program at link-time addresses, when that can be right */
	if (s->o.program) {
		struct jh_module *m = program_module(s);
		if (m->usable && !m->mismatch &&
		    (nmaps == 0 || jh_elf_image_type(m->bin) == ET_EXEC)) {
			JH_GROW(r, n + 1, alloc);
			r[n++] = (struct range){ 0, UINT64_MAX, 0, 0, m, 1 };
		}
	}
	*out = r;
	return n;
}

static const char *display_name(struct jh_symbolizer *s, const char *raw)
{
	if (!raw)
		return NULL;
	int added;
	uint64_t *v = jh_u64map_put(&s->demangled, (uint64_t)(uintptr_t)raw, &added);
	if (added) {
		char *dm = jh_demangle(raw);
		*v = (uint64_t)(uintptr_t)jh_intern(&s->names, dm ? dm : raw);
		free(dm);
	}
	return (const char *)(uintptr_t)*v;
}

/* Demangles a batch of raw names on the symbolizer's threads. */
struct demangle_job {
	const char **raw;
	char **out;
	size_t n;
};

#define DEMANGLE_CHUNK 512

static void demangle_chunk(void *ctx, void *w, size_t i)
{
	struct demangle_job *j = ctx;
	(void)w;
	for (size_t k = i * DEMANGLE_CHUNK; k < j->n && k < (i + 1) * DEMANGLE_CHUNK; k++)
		j->out[k] = jh_demangle(j->raw[k]);
}

/*
 * Fills the display-name cache for the n raw names (repeats and cached ones
 * allowed) with every thread: what display_name would do, in parallel.
 */
static void demangle_all(struct jh_symbolizer *s, const char **names, size_t n)
{
	struct demangle_job j = { xmalloc(jh_st_mult(n + 1, sizeof(char *))), NULL, 0 };
	for (size_t i = 0; i < n; i++) {
		int added;
		if (!names[i])
			continue;
		uint64_t *v = jh_u64map_put(&s->demangled, (uint64_t)(uintptr_t)names[i], &added);
		if (added) {
			*v = 0; /* to be filled below */
			j.raw[j.n++] = names[i];
		}
	}
	j.out = xcalloc(j.n + 1, sizeof(char *));
	jh_sched_parallel((j.n + DEMANGLE_CHUNK - 1) / DEMANGLE_CHUNK,
			  j.n < 2 * DEMANGLE_CHUNK ? 1 : s->o.jobs, &j, NULL, demangle_chunk, NULL);
	for (size_t i = 0; i < j.n; i++) {
		*jh_u64map_get(&s->demangled, (uint64_t)(uintptr_t)j.raw[i]) =
			(uint64_t)(uintptr_t)jh_intern(&s->names, j.out[i] ? j.out[i] : j.raw[i]);
		free(j.out[i]);
	}
	free(j.raw);
	free(j.out);
}

static void add_frame(struct jh_symbolizer *s, const char *func, const char *file, uint32_t line,
		      uint32_t decl_line)
{
	JH_GROW(s->frames, s->nframes + 1, s->aframes);
	s->frames[s->nframes++] = (struct jh_frame){ func, file ? jh_intern(&s->names, file) : NULL,
						     line, decl_line };
}

/*
 * Answer from the symbol tables alone: the binary's (llvm-symbolizer's
 * choice), else the separate debug file's .symtab (e.g. ld.so's
 * _dl_start_user, which llvm leaves as ??).
 */
static void resolve_by_symbol(struct jh_symbolizer *s, struct jh_module *m, uint64_t a,
			      struct cached *c)
{
	const struct jh_elf_sym *sym = jh_module_symbol(m, a);
	c->first = (uint32_t)s->nframes;
	if (!sym) {
		c->status = JH_SYM_UNKNOWN;
		return;
	}
	add_frame(s, display_name(s, sym->name), NULL, 0, 0);
	c->status = JH_SYM_SYMBOL;
	c->nframes = 1;
}

/* Caches shown as raw's display name unless raw has one (the lookup's demangling). */
static void keep_display(struct jh_symbolizer *s, const char *raw, const char *shown)
{
	int added;
	uint64_t *v = jh_u64map_put(&s->demangled, (uint64_t)(uintptr_t)raw, &added);
	if (added)
		*v = (uint64_t)(uintptr_t)jh_intern(&s->names, shown);
}

/* Resolves the unique addresses a[0..n) of module m into new cache entries. */
static int resolve_batch(struct jh_symbolizer *s, struct jh_module *m, const uint64_t *a, size_t n,
			 struct jh_diag *d)
{
	struct jh_dwarf_answer *ans = NULL;
	struct jh_dwarf_frame *df = NULL;
	size_t ndf = 0;
	int units = jh_module_units_answer(m, s->o.cache_dir, s->o.jobs, a, n, &ans, &df, &ndf);
	if (!units)
		jh_module_load(m);
	JH_GROW(s->res, s->nres + n, s->ares);
	struct cached *c = s->res + s->nres;
	memset(c, 0, n * sizeof(*c));
	if (!m->usable) { /* let go past --max-memory: frames stay module+offset */
		for (size_t i = 0; i < n; i++) {
			c[i].status = JH_SYM_UNKNOWN;
			c[i].first = (uint32_t)s->nframes;
			*jh_u64map_put(&m->cache, a[i], NULL) = s->nres + i;
		}
		s->nres += n;
		return 0;
	}
	jh_oom_reading(jh_elf_image_path(m->dbg ? m->dbg : m->bin));
	if (!units && m->dw) {
		ans = xcalloc(n, sizeof(*ans));
		if (jh_dwarf_lookup(m->dw, a, n, s->o.jobs, ans, &df, &ndf, d) != 0) {
			free(ans);
			free(df);
			return -1;
		}
	}
	/* the names the answers show, demangled first on every thread */
	JH_TRACE("resolve: %zu answers", n);
	const struct jh_elf_sym **syms = xcalloc(n + 1, sizeof(*syms));
	const char **raw = xmalloc(jh_st_mult(ndf + n + 1, sizeof(*raw)));
	size_t nraw = 0;
	for (size_t i = 0; i < n; i++) {
		if (!ans || !ans[i].nframes)
			continue;
		const struct jh_elf_sym *sym = syms[i] = jh_elf_image_lookup(m->symimg, a[i]);
		for (uint32_t k = 0; k < ans[i].nframes; k++) {
			const struct jh_dwarf_frame *f = &df[ans[i].first + k];
			const char *shown = f->display ? f->display : f->name;
			if (k == 0 && sym) { /* the symbol is usually the DWARF name again */
				if (f->name && strcmp(sym->name, f->name) == 0)
					keep_display(s, sym->name, shown);
				else
					raw[nraw++] = sym->name;
			} else if (f->name) { /* the lookup demangled it already */
				keep_display(s, f->name, shown);
			}
		}
	}
	demangle_all(s, raw, nraw);
	free(raw);
	JH_TRACE("resolve: demangled");
	for (size_t i = 0; i < n; i++) {
		if (!ans || !ans[i].nframes) {
			resolve_by_symbol(s, m, a[i], &c[i]);
			continue;
		}
		const struct jh_elf_sym *sym = syms[i];
		c[i].status = JH_SYM_FULL;
		c[i].first = (uint32_t)s->nframes;
		c[i].nframes = ans[i].nframes;
		for (uint32_t k = 0; k < ans[i].nframes; k++) {
			const struct jh_dwarf_frame *f = &df[ans[i].first + k];
			const char *name = k == 0 && sym ? sym->name : f->name;
			add_frame(s, display_name(s, name), f->file, f->line, f->decl_line);
		}
	}
	for (size_t i = 0; i < n; i++)
		*jh_u64map_put(&m->cache, a[i], NULL) = s->nres + i;
	s->nres += n;
	m->cache_new += n;
	JH_TRACE("resolve: copied");
	free(syms);
	free(ans);
	free(df);
	return 0;
}

/* Where pc i lands. */
struct where {
	struct jh_module *m; /* NULL: in no module */
	uint64_t modaddr;
	int ok;
};

struct pend {
	struct jh_module *m;
	uint64_t a;
};

static int cmp_pend(const void *x, const void *y)
{
	const struct pend *p = x, *q = y;
	if (p->m != q->m)
		return (uintptr_t)p->m < (uintptr_t)q->m ? -1 : 1;
	return p->a < q->a ? -1 : p->a > q->a;
}

static void locate(const struct range *r, size_t nr, const struct range *x, size_t nx, uint64_t pc,
		   struct where *w)
{
	const struct range *g = find_range(r, nr, pc);
	for (size_t j = 0; !g && j < nx; j++)
		if (pc >= x[j].start && pc < x[j].end)
			g = &x[j];
	*w = (struct where){ NULL, pc, 0 };
	if (!g)
		return;
	w->m = g->m;
	w->ok = g->ok && pc != UINT64_MAX;
	/* unresolvable modules are printed as file offsets: libname+0xOFFSET */
	w->modaddr = w->ok ? pc - g->bias : pc - g->start + g->offset;
}

/* The size of the .debug_* sections of secs (NULL: 0), uncompressed. */
static uint64_t dwarf_size(const struct jh_sections *secs)
{
	uint64_t n = 0;
	for (size_t i = 1; secs && i < jh_sections_count(secs); i++) {
		const struct jh_section *sec = jh_sections_peek(secs, i);
		if (sec && sec->name && !strncmp(sec->name, ".debug_", 7))
			n += sec->size;
	}
	return n;
}

/*
 * Resolves every not-yet-cached (module, address) of w[0..n), grouped by
 * module, reporting progress after each module.
 */
static int resolve_pending(struct jh_symbolizer *s, const struct where *w, size_t n,
			   struct jh_diag *d)
{
	struct pend *p = NULL;
	size_t np = 0, ap = 0;
	for (size_t i = 0; i < n; i++) {
		if (!w[i].ok)
			continue;
		int added;
		uint64_t *v = jh_u64map_put(&w[i].m->cache, w[i].modaddr, &added);
		if (!added)
			continue;
		*v = PENDING;
		JH_GROW(p, np + 1, ap);
		p[np++] = (struct pend){ w[i].m, w[i].modaddr };
	}
	if (np)
		jh_qsort(p, np, sizeof(*p), cmp_pend);
	uint64_t *a = xmalloc(jh_st_mult(np ? np : 1, sizeof(*a)));
	struct jh_sym_progress pr = { 0, 0, 0, np, 0 };
	for (size_t i = 0; i < np; i++)
		pr.modules += i == 0 || p[i].m != p[i - 1].m;
	if (s->o.progress && np)
		s->o.progress(s->o.progress_ctx, &pr);
	int rc = 0;
	for (size_t i = 0; i < np && rc == 0;) {
		size_t j = i;
		while (j < np && p[j].m == p[i].m) {
			a[j - i] = p[j].a;
			j++;
		}
		rc = resolve_batch(s, p[i].m, a, j - i, d);
		pr.modules_done++;
		pr.addrs_done += j - i;
		pr.dwarf_bytes += p[i].m->dw
					  ? dwarf_size(p[i].m->secs) + dwarf_size(p[i].m->altsecs)
					  : 0;
		if (s->o.progress)
			s->o.progress(s->o.progress_ctx, &pr);
		i = j;
	}
	free(a);
	free(p);
	return rc;
}

/* Copies a cached answer into the caller's arrays, interning into names. */
static void emit(struct jh_symbolizer *s, const struct where *w, const struct cached *c,
		 struct jh_intern *names, struct jh_u64map *xl, struct jh_symresult *out,
		 struct jh_frames *fr)
{
	*out = (struct jh_symresult){ 0 };
	out->module = w->m ? jh_intern(names, w->m->mappath) : NULL;
	out->modaddr = w->modaddr;
	/* by name also when the file is absent or another one */
	out->allocator = w->m && w->m->allocator &&
			 (!w->m->mismatch || jh_allocator_library_name(w->m->mappath));
	out->first = (uint32_t)fr->nr;
	out->status = c ? c->status : JH_SYM_UNKNOWN;
	if (!c)
		return;
	out->nframes = c->nframes;
	JH_GROW(fr->items, fr->nr + c->nframes, fr->alloc);
	for (uint32_t k = 0; k < c->nframes; k++) {
		const struct jh_frame *f = &s->frames[c->first + k];
		const char *str[2] = { f->func, f->file };
		for (int t = 0; t < 2; t++) {
			if (!str[t])
				continue;
			int added;
			uint64_t *v = jh_u64map_put(xl, (uint64_t)(uintptr_t)str[t], &added);
			if (added)
				*v = (uint64_t)(uintptr_t)jh_intern(names, str[t]);
			str[t] = (const char *)(uintptr_t)*v;
		}
		fr->items[fr->nr++] = (struct jh_frame){ str[0], str[1], f->line, f->decl_line };
	}
}

/*
 * The binary identity check (sym_identity.h) of every module w[] lands in
 * for the first time: where more than 5 % (and at least 3) of its sampled
 * addresses do not follow a call, the file is not the one that ran; it is
 * said once and its addresses print as file offsets. The program given
 * that fails is replaced by main, the file the profile mapped, when there
 * is one: returns 1 when the caller has to locate w[] again.
 */
static int check_identity(struct jh_symbolizer *s, struct where *w, size_t n, const char *main)
{
	int again = 0;
	uint64_t *a = NULL;
	size_t aa = 0;
	for (size_t i = 0; i < n; i++) {
		struct jh_module *m = w[i].m;
		if (!w[i].ok || m->identity_checked)
			continue;
		m->identity_checked = 1;
		if (s->o.trust_binaries || m->allocator || m->debug_only)
			continue;
		size_t na = 0;
		for (size_t j = i; j < n; j++)
			if (w[j].ok && w[j].m == m) {
				JH_GROW(a, na + 1, aa);
				a[na++] = w[j].modaddr;
			}
		size_t bad = jh_module_not_returns(m, a, na);
		if (bad < 3 || bad * 20 <= na)
			continue;
		m->mismatch = 1;
		const char *base = strrchr(m->mappath, '/');
		if (!strncmp(m->key, "program:", 8) && main && *main) {
			again = 1;
			jh_warn("%s differs from the program that ran (%zu of %zu return addresses "
				"do not follow a call); its frames are named from %s, the file the "
				"profile mapped, instead",
				m->mappath, bad, na, main);
			continue;
		}
		jh_warn("%s differs from the program that ran (%zu of %zu return addresses do not "
			"follow a call); its frames are shown as %s+0xOFF",
			m->mappath, bad, na, base ? base + 1 : m->mappath);
	}
	free(a);
	if (again)
		return 1;
	for (size_t i = 0; i < n; i++) {
		uint64_t off = 0;
		if (!w[i].ok || !w[i].m->mismatch)
			continue;
		w[i].ok = 0;
		if (jh_module_file_offset(w[i].m, w[i].modaddr, &off) == 0)
			w[i].modaddr = off;
	}
	return 0;
}

int jh_symbolize(struct jh_symbolizer *s, const struct jh_mapping *maps, size_t nmaps,
		 const uint64_t *pcs, size_t npcs, struct jh_intern *names,
		 struct jh_symresult *out, struct jh_frames *fr, struct jh_diag *d)
{
	struct range *r, *x;
	char reading[1024]; /* set back at the end: the modules are read meanwhile */
	jh_oom_current(reading, sizeof(reading));
	JH_TRACE("symbolize: %zu pcs", npcs);
	size_t nr = build_ranges(s, maps, nmaps, &r);
	size_t nx = build_extra(s, nmaps, &x);
	struct where *w = xmalloc(jh_st_mult(npcs ? npcs : 1, sizeof(*w)));
	for (size_t i = 0; i < npcs; i++)
		locate(r, nr, x, nx, pcs[i], &w[i]);
	const char *main = main_mapped(maps, nmaps);
	if (check_identity(s, w, npcs, main)) { /* the program given is not the one that ran */
		free(r);
		nr = build_ranges(s, maps, nmaps, &r);
		for (size_t i = 0; i < npcs; i++)
			if (w[i].m && w[i].m->mismatch)
				locate(r, nr, x, nx, pcs[i], &w[i]);
		check_identity(s, w, npcs, NULL);
	}
	free(r);
	free(x);
	JH_TRACE("symbolize: modules open");
	int rc = resolve_pending(s, w, npcs, d);
	JH_TRACE("symbolize: resolved");
	jh_modules_say(s->mods, s->nmods, s->o.verbose);
	jh_debuginfod_warn(s->o.debuginfod_client);
	if (rc == 0)
		jh_symbolizer_cache_save(s);
	for (size_t i = 0; rc == 0 && s->o.build_index && i < s->nmods; i++)
		jh_module_units_write(s->mods[i], &s->o);
	if (rc == 0) {
		struct jh_u64map xl;
		jh_u64map_init(&xl);
		for (size_t i = 0; i < npcs; i++) {
			const struct cached *c = NULL;
			if (w[i].ok) {
				uint64_t *v = jh_u64map_get(&w[i].m->cache, w[i].modaddr);
				c = v && *v != PENDING ? &s->res[*v] : NULL;
			}
			emit(s, &w[i], c, names, &xl, &out[i], fr);
		}
		jh_u64map_release(&xl);
	}
	free(w);
	if (reading[0])
		jh_oom_reading(reading);
	JH_TRACE("symbolize: done");
	return rc;
}

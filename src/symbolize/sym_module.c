/*
 * sym_module.c - opening a module once: binary, debug file, dwz file,
 * sections, DWARF index; checking a mapping against the file's segments.
 */
#include "sym_module.h"

#include "jeheap/debug_find.h"
#include "sym_debuginfod.h"
#include "jeheap/trace.h"

#include <elf.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#define PAGE 4096u

static uint64_t page_down(uint64_t x)
{
	return x & ~(uint64_t)(PAGE - 1);
}
static uint64_t page_up(uint64_t x)
{
	return (x + PAGE - 1) & ~(uint64_t)(PAGE - 1);
}

/* The outcome of reading the DWARF, with its warning (said by jh_modules_say). */
static void loaded(struct jh_module *m, int state, const char *why, const char *fmt, ...)
	JH_PRINTF(4, 5);
static void loaded(struct jh_module *m, int state, const char *why, const char *fmt, ...)
{
	struct jh_sb sb = JH_SB_INIT;
	jh_sb_init(&sb);
	va_list ap;
	va_start(ap, fmt);
	jh_sb_vaddf(&sb, fmt, ap);
	va_end(ap);
	jh_module_loaded(m, state, why, sb.buf);
	jh_sb_release(&sb);
}

/* Past the DWARF memory ceiling: one warning, and the debug files are let go. */
static void give_up(struct jh_module *m, const struct jh_diag *d)
{
	loaded(m, JH_MOD_REFUSED, d->msg, "%s; %s left unsymbolized", d->msg, m->mappath);
	m->over_limit = 1;
	if (m->secs)
		jh_sections_close(m->secs);
	if (m->altsecs)
		jh_sections_close(m->altsecs);
	if (m->alt)
		jh_elf_image_close(m->alt);
	if (m->symfallback == m->dbg)
		m->symfallback = NULL;
	if (m->dbg != m->bin)
		jh_elf_image_close(m->dbg);
	m->secs = m->altsecs = NULL;
	m->alt = m->dbg = NULL;
	m->usable = 0; /* frames stay module+offset */
	m->warned = 1;
}

/* The debug file and dwz file: found now (cheap), read only by jh_module_load. */
static void find_dwarf(const struct jh_symbolizer_opts *o, struct jh_module *m)
{
	struct jh_sb tried = JH_SB_INIT;
	jh_sb_init(&tried);
	m->dbg = jh_find_debug(o, m->bin, &tried);
	size_t idlen;
	const unsigned char *id = jh_elf_image_build_id(m->bin, &idlen);
	if (!m->dbg && id && o->debuginfod_client)
		m->dbg = jh_debuginfod_find(o->debuginfod_client, id, idlen, 0, m->mappath);
	jh_sb_release(&tried);
	m->symimg = m->bin; /* llvm-symbolizer: names from the binary's own tables */
	if (!m->dbg)
		return;
	jh_sb_init(&tried);
	m->alt = jh_find_alt(o, m->dbg, &tried);
	const char *altname = jh_elf_image_altlink(m->dbg, &id, &idlen);
	if (altname && !m->alt)
		jh_warn("%s: dwz file %s not found (tried: %s); names from it stay unknown",
			jh_elf_image_path(m->dbg), altname, tried.buf);
	jh_sb_release(&tried);
	if (m->dbg != m->bin && jh_elf_image_has_symtab(m->dbg))
		m->symfallback = m->dbg;
}

void jh_module_load_symbols(struct jh_module *m)
{
	if (!m || !m->usable || m->syms_loaded)
		return;
	m->syms_loaded = 1;
	/* build the symbol tables now, while only one thread runs */
	jh_elf_image_lookup(m->symimg, 0);
	if (m->symfallback)
		jh_elf_image_lookup(m->symfallback, 0);
	JH_TRACE("module %s: symbols", m->mappath);
}

void jh_module_load(struct jh_module *m)
{
	if (!m || !m->usable || m->loaded)
		return;
	m->loaded = 1;
	jh_module_load_symbols(m);
	if (!m->dbg) {
		jh_module_loaded(m, JH_MOD_SYMBOLS, NULL, NULL);
		return;
	}
	jh_oom_reading(jh_elf_image_path(m->dbg));
	struct jh_diag d = { { 0 }, 0 };
	int over = 0;
	m->secs = jh_sections_open_image(m->dbg, &d, &over);
	if (over) {
		give_up(m, &d);
		return;
	}
	if (!m->secs) {
		if (d.msg[0])
			loaded(m, JH_MOD_REFUSED, d.msg, "%s: cannot read debug information: %s",
			       m->mappath, d.msg);
		else
			jh_module_loaded(m, JH_MOD_SYMBOLS, NULL, NULL);
		return;
	}
	if (m->alt)
		m->altsecs = jh_sections_open_image(m->alt, &d, &over);
	if (over) {
		give_up(m, &d);
		return;
	}
	JH_TRACE("module %s: sections open", m->mappath);
	m->dw = jh_dwarf_open(m->secs, m->altsecs, &d);
	JH_TRACE("module %s: dwarf open", m->mappath);
	if (!m->dw && d.msg[0])
		loaded(m, JH_MOD_REFUSED, d.msg, "%s: unusable DWARF, using symbols only: %s",
		       jh_elf_image_path(m->dbg), d.msg);
	else
		jh_module_loaded(m, m->dw ? JH_MOD_LINES : JH_MOD_SYMBOLS, NULL, NULL);
}

static struct jh_module *finish_open(const struct jh_symbolizer_opts *o, struct jh_module *m);

static struct jh_module *new_module(const char *key, const char *mappath, int is_main)
{
	struct jh_module *m = xcalloc(1, sizeof(*m));
	m->key = xstrdup(key);
	m->mappath = xstrdup(mappath);
	m->is_main = is_main;
	m->allocator = !is_main && jh_allocator_library_name(mappath);
	jh_u64map_init(&m->cache);
	return m;
}

struct jh_module *jh_module_open(const struct jh_symbolizer_opts *o, const char *key,
				 const char *mappath, const char *filepath, int is_main)
{
	struct jh_module *m = new_module(key, mappath, is_main);
	struct jh_sb tried = JH_SB_INIT;
	jh_sb_init(&tried);
	if (filepath) {
		m->file = xstrdup(filepath);
		jh_sb_adds(&tried, filepath);
	} else {
		m->file = jh_find_binary(o, mappath, &tried);
	}
	struct jh_diag d = { { 0 }, 0 };
	jh_oom_reading(m->file ? m->file : mappath);
	if (m->file)
		m->bin = jh_elf_image_open(m->file, &d);
	if (!m->bin) {
		struct jh_sb why = JH_SB_INIT;
		jh_sb_init(&why);
		if (m->file) {
			jh_warn("%s: cannot use %s: %s; its frames stay unresolved", mappath,
				m->file, d.msg);
			jh_sb_addf(&why, "cannot use %s: %s", m->file, d.msg);
		} else { /* said with the others in one line */
			m->missing = 1;
			jh_sb_addf(&why, "tried: %s", tried.buf);
		}
		m->reason = jh_sb_detach(&why);
		m->warned = 1;
		jh_sb_release(&tried);
		return m;
	}
	jh_sb_release(&tried);
	return finish_open(o, m);
}

/* bin open: the rest of the module (debug file and dwz file found, not read). */
static struct jh_module *finish_open(const struct jh_symbolizer_opts *o, struct jh_module *m)
{
	m->usable = 1;
	if (jh_elf_image_damage(m->bin))
		jh_warn("%s: %s; names from it may be missing", jh_elf_image_path(m->bin),
			jh_elf_image_damage(m->bin));
	m->allocator = m->allocator || (!m->is_main && jh_elf_image_type(m->bin) == ET_DYN &&
					jh_elf_image_exports(m->bin, "mallctl"));
	find_dwarf(o, m);
	return m;
}

/* Does an executable PT_LOAD of im hold file bytes (not so in a debug file)? */
static int has_code(const struct jh_elf_image *im)
{
	const struct jh_elf_load *ld;
	size_t n = jh_elf_image_loads(im, &ld);
	for (size_t i = 0; i < n; i++)
		if ((ld[i].flags & PF_X) && ld[i].filesz)
			return 1;
	return 0;
}

static void add_hex(struct jh_sb *sb, const unsigned char *id, size_t n)
{
	for (size_t i = 0; i < n; i++)
		jh_sb_addf(sb, "%02x", id[i]);
}

struct jh_module *jh_module_open_id(const struct jh_symbolizer_opts *o, const char *key,
				    const char *mappath, const unsigned char *id, size_t idlen,
				    int is_main)
{
	struct jh_module *m = new_module(key, mappath, is_main);
	struct jh_sb tried = JH_SB_INIT;
	jh_sb_init(&tried);
	jh_oom_reading(mappath);
	struct jh_elf_image *byid = jh_find_by_build_id(o, id, idlen, &tried);
	char *path = jh_find_binary(o, mappath, &tried);
	if (!byid && !path && o->debuginfod_client)
		byid = jh_debuginfod_find(o->debuginfod_client, id, idlen, 1, mappath);
	struct jh_diag d = { { 0 }, 0 };
	struct jh_elf_image *atpath = path ? jh_elf_image_open(path, &d) : NULL;
	size_t plen = 0;
	const unsigned char *pid = atpath ? jh_elf_image_build_id(atpath, &plen) : NULL;
	int same = pid && plen == idlen && !memcmp(pid, id, idlen);
	if (atpath && (same || (!byid && !pid))) { /* the file that ran (or cannot tell) */
		jh_elf_image_close(byid);
		m->bin = atpath;
		m->file = path;
	} else if (byid) {
		jh_elf_image_close(atpath);
		free(path);
		m->bin = byid;
		m->file = xstrdup(jh_elf_image_path(byid));
		m->debug_only = !has_code(byid);
	} else {
		struct jh_sb want = JH_SB_INIT;
		jh_sb_init(&want);
		add_hex(&want, id, idlen);
		if (atpath) {
			struct jh_sb has = JH_SB_INIT;
			jh_sb_init(&has);
			add_hex(&has, pid, plen);
			jh_warn("%s: %s has build ID %s, not the profile's %s (tried: %s); its "
				"frames "
				"stay unresolved",
				mappath, path, has.buf, want.buf, tried.buf);
			jh_sb_release(&has);
			jh_elf_image_close(atpath);
			m->mismatch = 1;
		} else if (path) {
			jh_warn("%s: cannot use %s: %s; its frames stay unresolved", mappath, path,
				d.msg);
		} else { /* said with the others in one line */
			m->missing = 1;
			struct jh_sb why = JH_SB_INIT;
			jh_sb_init(&why);
			jh_sb_addf(&why, "build ID %s; tried: %s", want.buf, tried.buf);
			m->reason = jh_sb_detach(&why);
		}
		jh_sb_release(&want);
		free(path);
		m->warned = 1;
	}
	jh_sb_release(&tried);
	return m->bin ? finish_open(o, m) : m;
}

const struct jh_elf_sym *jh_module_symbol(struct jh_module *m, uint64_t a)
{
	jh_module_load_symbols(m);
	const struct jh_elf_sym *sym = jh_elf_image_lookup(m->symimg, a);
	if (!sym && m->symfallback)
		sym = jh_elf_image_lookup(m->symfallback, a);
	return sym;
}

void jh_module_close(struct jh_module *m)
{
	if (!m)
		return;
	if (m->dw)
		jh_dwarf_close(m->dw);
	JH_TRACE("close %s: dwarf", m->mappath);
	if (m->secs)
		jh_sections_close(m->secs);
	JH_TRACE("close %s: sections", m->mappath);
	if (m->altsecs)
		jh_sections_close(m->altsecs);
	if (m->alt)
		jh_elf_image_close(m->alt);
	if (m->dbg && m->dbg != m->bin)
		jh_elf_image_close(m->dbg);
	jh_elf_image_close(m->bin);
	jh_u64map_release(&m->cache);
	jh_unitfile_close(m->units);
	jh_unit_strings_release(&m->ustrings);
	for (size_t i = 0; i < m->ncache_bufs; i++)
		free(m->cache_bufs[i]);
	free(m->cache_bufs);
	free(m->key);
	free(m->mappath);
	free(m->file);
	free(m->cache_name);
	free(m->cache_sig);
	free(m->reason);
	free(m->warning);
	free(m);
}

static void warn_mismatch(struct jh_module *m, const struct jh_mapping *map, const char *why)
{
	m->mismatch = 1;
	if (m->warned)
		return;
	m->warned = 1;
	jh_warn("%s: %s is not the file that was mapped at %llx-%llx (offset 0x%llx): %s; %s",
		m->mappath, m->file, (unsigned long long)map->start, (unsigned long long)map->end,
		(unsigned long long)map->offset, why,
		strncmp(m->key, "program:", 8) ? "its frames stay unresolved"
					       : "the file the profile mapped is used instead");
}

/*
 * A debug file's segments have no file offsets of the binary's: the mapping
 * is taken to be a whole executable segment (the usual r-xp mapping), the one
 * of its size, starting at the segment's first page.
 */
static int debug_bias(struct jh_module *m, const struct jh_mapping *map,
		      const struct jh_elf_load *ld, size_t n, uint64_t *bias)
{
	for (size_t i = 0; i < n; i++) {
		if (!(ld[i].flags & PF_X) || !ld[i].memsz)
			continue;
		uint64_t lo = page_down(ld[i].vaddr), hi = page_up(ld[i].vaddr + ld[i].memsz);
		if (map->end - map->start != hi - lo)
			continue;
		*bias = map->start - lo;
		if (jh_elf_image_type(m->bin) == ET_EXEC && *bias != 0) {
			warn_mismatch(m, map, "non-PIE executable loaded at another address");
			return -1;
		}
		return 0;
	}
	warn_mismatch(m, map, "no executable segment of that size");
	return -1;
}

int jh_module_bias(struct jh_module *m, const struct jh_mapping *map, int continued, uint64_t *bias)
{
	if (!m->usable || m->mismatch)
		return -1;
	const struct jh_elf_load *ld;
	size_t n = jh_elf_image_loads(m->bin, &ld);
	uint64_t len = map->end - map->start;
	if (map->brief && n) {
		/* no file offset (pprof's elfexec.GetBase with offset 0): start is
		 * where the first loaded segment's page is (they ascend by vaddr) */
		*bias = map->start - page_down(ld[0].vaddr);
		if (jh_elf_image_type(m->bin) != ET_EXEC || *bias == 0)
			return 0;
		warn_mismatch(m, map, "non-PIE executable loaded at another address");
		return -1;
	}
	if (m->debug_only)
		return debug_bias(m, map, ld, n, bias);
	for (size_t i = 0; i < n; i++) {
		if (!(ld[i].flags & PF_X) || !ld[i].filesz)
			continue;
		uint64_t seg_lo = page_down(ld[i].offset);
		uint64_t seg_hi = page_up(ld[i].offset + ld[i].filesz);
		if (map->offset < seg_lo || map->offset >= seg_hi)
			continue;
		/* a whole-segment mapping must have the segment's size; a part must fit in it */
		if (map->offset + len > seg_hi ||
		    (map->offset == seg_lo && map->offset + len != seg_hi && !continued)) {
			warn_mismatch(m, map, "executable segment size differs");
			return -1;
		}
		uint64_t vaddr = ld[i].vaddr - ld[i].offset + map->offset;
		*bias = map->start - vaddr;
		if (jh_elf_image_type(m->bin) == ET_EXEC && *bias != 0) {
			warn_mismatch(m, map, "non-PIE executable loaded at another address");
			return -1;
		}
		return 0;
	}
	warn_mismatch(m, map, "no executable segment at that file offset");
	return -1;
}

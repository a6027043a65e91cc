/*
 * cache_opts.c - where the symbol cache lives and how big it may grow.
 */
#include "cache_opts.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* "N", "NK", "NM", "NG" (binary units, case ignored) -> bytes. */
int jh_size_parse(const char *v, uint64_t *out)
{
	char *end;
	errno = 0;
	unsigned long long n = strtoull(v, &end, 10);
	if (errno || end == v || v[0] == '-')
		return -1;
	static const char units[] = "KMGT";
	const char *u = *end ? strchr(units, *end & ~0x20) : NULL;
	int shift = u ? 10 * (int)(u - units + 1) : 0;
	if (u)
		end++;
	if ((*end == 'b' || *end == 'B') && shift)
		end++;
	if (*end || n > (UINT64_MAX >> shift))
		return -1;
	*out = (uint64_t)n << shift;
	return 0;
}

static const char *env(const char *name)
{
	const char *v = getenv(name);
	return v && *v ? v : NULL;
}

/*
 * The debuginfod servers: --debuginfod=URLS (put into DEBUGINFOD_URLS, where
 * libdebuginfod reads them), else DEBUGINFOD_URLS; none with --no-cache (the
 * downloads are a cache). Bounded waits: DEBUGINFOD_TIMEOUT defaults to
 * JH_DEBUGINFOD_TIMEOUT seconds; libdebuginfod's own progress on a terminal.
 */
static int set_debuginfod(struct jh_options *o, struct jh_diag *d)
{
	o->sym.debuginfod = NULL;
#ifndef JH_HAVE_DEBUGINFOD
	if (o->debuginfod)
		return jh_diag_set(d, JH_EXIT_USAGE, NULL, 0,
				   "--debuginfod: this jeheap was built without libdebuginfod%s",
				   "");
	return 0;
#else
	if (o->debuginfod && o->no_cache)
		return jh_diag_set(d, JH_EXIT_USAGE, NULL, 0,
				   "--debuginfod downloads into a cache: not with --no-cache%s",
				   "");
	if (o->debuginfod)
		setenv("DEBUGINFOD_URLS", o->debuginfod, 1);
	const char *urls = env("DEBUGINFOD_URLS");
	if (!urls || o->no_cache)
		return 0;
	setenv("DEBUGINFOD_TIMEOUT", JH_DEBUGINFOD_TIMEOUT, 0);
	if (o->quiet < 2 && isatty(2))
		setenv("DEBUGINFOD_PROGRESS", "1", 0);
	o->sym.debuginfod = urls;
	return 0;
#endif
}

int jh_cache_options(struct jh_options *o, struct jh_diag *d)
{
	o->sym.cache_size = JH_CACHE_SIZE_DEFAULT;
	if (o->cache_size && jh_size_parse(o->cache_size, &o->sym.cache_size) != 0)
		return jh_diag_set(d, JH_EXIT_USAGE, NULL, 0,
				   "--cache-size: '%s' is not a size (e.g. 300M, 2G)",
				   o->cache_size);
	o->sym.cache_dir = NULL;
	if (set_debuginfod(o, d) != 0)
		return -1;
	if (o->no_cache && o->symbols_only)
		return jh_diag_set(d, JH_EXIT_USAGE, NULL, 0,
				   "--symbols-only fills the symbol cache: not with --no-cache%s",
				   "");
	o->sym.build_index = o->symbols_only;
	if (o->no_cache)
		return 0;
	struct jh_sb sb = JH_SB_INIT;
	jh_sb_init(&sb);
	const char *dir = o->cache_dir ? o->cache_dir : env("JEHEAP_CACHE_DIR");
	const char *xdg = env("XDG_CACHE_HOME"), *home = env("HOME");
	if (dir)
		jh_sb_adds(&sb, dir);
	else if (xdg && xdg[0] == '/') /* the XDG rule: a relative path is ignored */
		jh_sb_addf(&sb, "%s/jeheap", xdg);
	else if (home)
		jh_sb_addf(&sb, "%s/.cache/jeheap", home);
	if (!sb.len) {
		jh_sb_release(&sb);
		return 0; /* nowhere to keep it */
	}
	while (sb.len > 1 && sb.buf[sb.len - 1] == '/')
		sb.buf[--sb.len] = 0;
	o->cache_path = jh_sb_detach(&sb);
	o->sym.cache_dir = o->cache_path;
	return 0;
}

/*
 * sym_debuginfod.c - the debuginfod client (see sym_debuginfod.h).
 */
#include "sym_debuginfod.h"

#include "sym_cache.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#ifdef JH_HAVE_DEBUGINFOD
#include <elfutils/debuginfod.h>
#endif

struct jh_debuginfod {
	char *urls, *cache_dir;
#ifdef JH_HAVE_DEBUGINFOD
	debuginfod_client *c;
	int began;
#endif
	struct failure {
		char *module, *why;
	} * failed; /* not yet said */
	size_t nfailed, afailed;
};

struct jh_debuginfod *jh_debuginfod_new(const char *urls, const char *cache_dir)
{
#ifdef JH_HAVE_DEBUGINFOD
	if (!urls || !*urls)
		return NULL;
	struct jh_debuginfod *f = xcalloc(1, sizeof(*f));
	f->urls = xstrdup(urls);
	f->cache_dir = cache_dir ? xstrdup(cache_dir) : NULL;
	return f;
#else
	(void)urls;
	(void)cache_dir;
	return NULL;
#endif
}

void jh_debuginfod_free(struct jh_debuginfod *f)
{
	if (!f)
		return;
#ifdef JH_HAVE_DEBUGINFOD
	if (f->c)
		debuginfod_end(f->c);
#endif
	free(f->urls);
	free(f->cache_dir);
	jh_debuginfod_warn(f);
	free(f->failed);
	free(f);
}

#ifdef JH_HAVE_DEBUGINFOD
static void note(struct jh_debuginfod *f, const char *module, const char *why)
{
	const char *b = strrchr(module, '/');
	JH_GROW(f->failed, f->nfailed + 1, f->afailed);
	f->failed[f->nfailed].module = xstrdup(b ? b + 1 : module);
	f->failed[f->nfailed++].why = xstrdup(why);
}
#endif

void jh_debuginfod_warn(struct jh_debuginfod *f)
{
	if (!f || !f->nfailed)
		return;
	struct jh_sb sb = JH_SB_INIT;
	jh_sb_init(&sb);
	for (size_t i = 0; i < f->nfailed; i++) { /* "a, b (why), c (why2)": grouped by why */
		if (!f->failed[i].why)
			continue;
		jh_sb_adds(&sb, sb.len ? "; " : "");
		for (size_t j = i, k = 0; j < f->nfailed; j++) {
			if (!f->failed[j].why || strcmp(f->failed[j].why, f->failed[i].why))
				continue;
			jh_sb_addf(&sb, "%s%s", k++ ? ", " : "", f->failed[j].module);
			if (j != i) {
				free(f->failed[j].why);
				f->failed[j].why = NULL;
			}
		}
		jh_sb_addf(&sb, " (%s)", f->failed[i].why);
	}
	jh_warn("debuginfod (%s): nothing for %s; frames from the local files only", f->urls,
		sb.buf);
	jh_sb_release(&sb);
	for (size_t i = 0; i < f->nfailed; i++) {
		free(f->failed[i].module);
		free(f->failed[i].why);
	}
	f->nfailed = 0;
}

struct jh_elf_image *jh_debuginfod_find(struct jh_debuginfod *f, const unsigned char *id, size_t n,
					int executable, const char *module)
{
#ifdef JH_HAVE_DEBUGINFOD
	if (!f || !id || !n)
		return NULL;
	struct jh_sb hex = JH_SB_INIT, miss = JH_SB_INIT;
	jh_sb_init(&hex);
	jh_sb_init(&miss);
	for (size_t i = 0; i < n; i++)
		jh_sb_addf(&hex, "%02x", id[i]);
	jh_sb_addf(&miss, "%s.%s.neg", hex.buf, executable ? "executable" : "debuginfo");
	struct jh_elf_image *im = NULL;
	char *said = NULL;
	long long age = f->cache_dir ? jh_symcache_age(f->cache_dir, miss.buf, &said) : -1;
	if (age >= 0 && age < JH_DEBUGINFOD_MISS_TTL) {
		/* what the run that asked said, so that this one says the same */
		note(f, module, said && *said ? said : "not found");
		free(said);
		goto out;
	}
	free(said);
	if (!f->began) {
		f->began = 1;
		f->c = debuginfod_begin();
	}
	char *path = NULL;
	int fd = f->c ? (executable ? debuginfod_find_executable(
					      f->c, (const unsigned char *)hex.buf, 0, &path)
				    : debuginfod_find_debuginfo(
					      f->c, (const unsigned char *)hex.buf, 0, &path))
		      : -ENOMEM;
	if (fd < 0) {
		const char *why = fd == -ENOENT ? "not found" : strerror(-fd);
		note(f, module, why);
		if (f->cache_dir)
			jh_symcache_mark(f->cache_dir, miss.buf, why);
		goto out;
	}
	close(fd);
	struct jh_diag d = { { 0 }, 0 };
	im = jh_elf_image_open(path, &d);
	size_t l = 0;
	const unsigned char *got = im ? jh_elf_image_build_id(im, &l) : NULL;
	if (!got || l != n || memcmp(got, id, n)) {
		note(f, module, "the server's file has another build ID");
		jh_elf_image_close(im);
		im = NULL;
	} else if (!executable && !jh_elf_image_has_debug_info(im)) {
		note(f, module, "the server's debug file has no DWARF");
		jh_elf_image_close(im);
		im = NULL;
	}
	free(path);
out:
	jh_sb_release(&hex);
	jh_sb_release(&miss);
	return im;
#else
	(void)f;
	(void)id;
	(void)n;
	(void)executable;
	(void)module;
	return NULL;
#endif
}

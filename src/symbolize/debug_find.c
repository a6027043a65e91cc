/*
 * debug_find.c - locating a module's binary, debug file and dwz file.
 * Only stat/open/mmap: no process is started and no user string reaches a
 * shell.
 */
#include "jeheap/debug_find.h"

#include "confine.h"

#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>
#include <zlib.h>

static int is_file(const char *p)
{
	struct stat st;
	return stat(p, &st) == 0 && S_ISREG(st.st_mode);
}

static void note_tried(struct jh_sb *tried, const char *p)
{
	if (!tried)
		return;
	if (tried->len)
		jh_sb_adds(tried, ", ");
	jh_sb_adds(tried, p);
}

/* Tries p: a regular file? Records it in tried. */
static int try_path(const char *p, struct jh_sb *tried)
{
	note_tried(tried, p);
	return is_file(p);
}

/* Opens a candidate debug file: one that exists but is unusable (cannot be
 * mapped, not ELF, truncated) is named in a warning, not skipped silently. */
static struct jh_elf_image *open_candidate(const char *p)
{
	struct jh_diag d = { { 0 }, 0 };
	struct jh_elf_image *im = jh_elf_image_open(p, &d);
	if (!im) {
		jh_warn("%s; debug file not used", d.msg);
		return NULL;
	}
	if (jh_elf_image_damage(im)) {
		jh_warn("%s: %s; debug file not used", p, jh_elf_image_damage(im));
		jh_elf_image_close(im);
		return NULL;
	}
	return im;
}

static char *join(const char *a, const char *b)
{
	struct jh_sb sb = JH_SB_INIT;
	jh_sb_init(&sb);
	jh_sb_adds(&sb, a);
	if (sb.len && sb.buf[sb.len - 1] == '/' && b[0] == '/')
		b++;
	else if (sb.len && sb.buf[sb.len - 1] != '/' && b[0] != '/')
		jh_sb_addc(&sb, '/');
	jh_sb_adds(&sb, b);
	return jh_sb_detach(&sb);
}

static char *dir_of(const char *p)
{
	const char *s = strrchr(p, '/');
	if (!s)
		return xstrdup(".");
	if (s == p)
		return xstrdup("/");
	return xstrndup(p, (size_t)(s - p));
}

/* The first --path-map whose OLD is p's leading directory (or all of p),
 * *n = OLD's length in p; NULL if none. */
static const struct jh_path_map *path_map_of(const struct jh_symbolizer_opts *o, const char *p,
					     size_t *n)
{
	for (size_t i = 0; i < o->npath_maps; i++) {
		const char *from = o->path_maps[i].from;
		*n = strlen(from);
		while (*n > 1 && from[*n - 1] == '/')
			(*n)--;
		if (*n && !strncmp(p, from, *n) &&
		    (p[*n] == '/' || p[*n] == 0 || from[*n - 1] == '/'))
			return &o->path_maps[i];
	}
	return NULL;
}

char *jh_apply_path_map(const struct jh_symbolizer_opts *o, const char *p)
{
	size_t n;
	const struct jh_path_map *pm = path_map_of(o, p, &n);
	return pm ? join(pm->to, p + n) : xstrdup(p);
}

/* The host path of a mapped path: inside --sysroot (as chroot would), else
 * inside the NEW of its --path-map; NULL (a warning given) when it leads
 * out of them. */
static char *confined(const struct jh_symbolizer_opts *o, const char *mappath)
{
	if (o->sysroot && o->sysroot[0]) {
		char *mapped = jh_apply_path_map(o, mappath);
		char *p = jh_confine(o->sysroot, mapped);
		free(mapped);
		return p;
	}
	size_t n;
	const struct jh_path_map *pm = path_map_of(o, mappath, &n);
	return pm ? jh_confine(pm->to, mappath + n) : xstrdup(mappath);
}

char *jh_source_path(const struct jh_symbolizer_opts *o, const char *path)
{
	size_t n;
	const struct jh_path_map *pm = path_map_of(o, path, &n);
	if (pm)
		return jh_confine(pm->to, path + n);
	if (o->sysroot && o->sysroot[0] && path[0] == '/')
		return jh_confine(o->sysroot, path);
	return xstrdup(path);
}

/* The rest of p after root (from its "/"), when p lies under root; else NULL. */
static const char *under(const char *root, const char *p)
{
	size_t n = strlen(root);
	while (n > 1 && root[n - 1] == '/')
		n--;
	return !strncmp(p, root, n) && p[n] == '/' ? p + n : NULL;
}

/* A path made from a debug file's directory and a name it holds, looked up
 * inside --sysroot or the --debug-dir the debug file came from (NULL, a
 * warning given, if it leads out); as is when it lies under neither. */
static char *confined_beside(const struct jh_symbolizer_opts *o, char *joined)
{
	const char *rest = NULL;
	const char *root = NULL;
	if (o->sysroot && o->sysroot[0] && (rest = under(o->sysroot, joined)))
		root = o->sysroot;
	for (size_t i = 0; !root && i < o->ndebug_dirs; i++)
		if ((rest = under(o->debug_dirs[i], joined)))
			root = o->debug_dirs[i];
	if (!root)
		return joined;
	char *p = jh_confine(root, rest);
	free(joined);
	return p;
}

char *jh_find_binary(const struct jh_symbolizer_opts *o, const char *mappath, struct jh_sb *tried)
{
	char *p = confined(o, mappath);
	if (!p)
		return NULL;
	/* jeprof: /x/y/lib.so with prefixes a,b: a/x/y/lib.so b/x/y/lib.so a/y/lib.so ... */
	for (const char *tail = p; o->nlib_prefixes && tail;) {
		for (size_t i = 0; i < o->nlib_prefixes; i++) {
			char *c = join(o->lib_prefixes[i], tail);
			if (try_path(c, tried)) {
				free(p);
				return c;
			}
			free(c);
		}
		tail = strchr(tail + 1, '/');
	}
	if (try_path(p, tried))
		return p;
	free(p);
	return NULL;
}

/* The debug directories: --debug-dir, else <sysroot>/usr/lib/debug and /usr/lib/debug. */
static size_t debug_dirs(const struct jh_symbolizer_opts *o, char **out, size_t max)
{
	size_t n = 0;
	for (size_t i = 0; i < o->ndebug_dirs && n < max; i++)
		out[n++] = xstrdup(o->debug_dirs[i]);
	if (!o->ndebug_dirs) {
		if (o->sysroot && o->sysroot[0])
			out[n++] = join(o->sysroot, "/usr/lib/debug");
		out[n++] = xstrdup("/usr/lib/debug");
	}
	return n;
}

#define MAX_DIRS 64

static void free_dirs(char **dirs, size_t n)
{
	for (size_t i = 0; i < n; i++)
		free(dirs[i]);
}

static int same_id(struct jh_elf_image *im, const unsigned char *id, size_t len)
{
	size_t l;
	const unsigned char *b = jh_elf_image_build_id(im, &l);
	if (b && l == len && !memcmp(b, id, len))
		return 1;
	b = jh_elf_image_sup_id(im, &l); /* a .debug_sup link names the checksum */
	return b && l == len && !memcmp(b, id, len);
}

/* <dir>/.build-id/xx/rest.debug for build-id id, opened if its build-id matches. */
/* dir/rel, looked up inside dir when dir is a --debug-dir (NULL, a warning
 * given, if it leads out of it). */
static char *in_debug_dir(const struct jh_symbolizer_opts *o, const char *dir, const char *rel)
{
	return o->ndebug_dirs ? jh_confine(dir, rel) : join(dir, rel);
}

static struct jh_elf_image *by_build_id(const struct jh_symbolizer_opts *o, char **dirs,
					size_t ndirs, const unsigned char *id, size_t len,
					struct jh_sb *tried)
{
	if (!id || len < 2)
		return NULL;
	struct jh_sb rel = JH_SB_INIT;
	jh_sb_init(&rel);
	jh_sb_addf(&rel, ".build-id/%02x/", id[0]);
	for (size_t i = 1; i < len; i++)
		jh_sb_addf(&rel, "%02x", id[i]);
	jh_sb_adds(&rel, ".debug");
	struct jh_elf_image *found = NULL;
	for (size_t i = 0; i < ndirs && !found; i++) {
		char *p = in_debug_dir(o, dirs[i], rel.buf);
		if (p && try_path(p, tried)) {
			struct jh_elf_image *im = open_candidate(p);
			if (im && same_id(im, id, len))
				found = im;
			else
				jh_elf_image_close(im);
		}
		free(p);
	}
	jh_sb_release(&rel);
	return found;
}

int jh_file_crc32(const char *path, uint32_t *crc)
{
	int fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return -1;
	struct stat st;
	if (fstat(fd, &st) != 0) {
		close(fd);
		return -1;
	}
	uLong c = crc32(0L, Z_NULL, 0);
	if (st.st_size > 0) {
		void *m = mmap(NULL, (size_t)st.st_size, PROT_READ, MAP_PRIVATE, fd, 0);
		if (m == MAP_FAILED) {
			close(fd);
			return -1;
		}
		const unsigned char *p = m;
		for (size_t left = (size_t)st.st_size; left;) {
			uInt chunk = left > (1u << 30) ? (1u << 30) : (uInt)left;
			c = crc32(c, p, chunk);
			p += chunk;
			left -= chunk;
		}
		munmap(m, (size_t)st.st_size);
	}
	close(fd);
	*crc = (uint32_t)c;
	return 0;
}

static struct jh_elf_image *open_if_crc(const char *p, uint32_t want, const unsigned char *id,
					size_t idlen, struct jh_sb *tried)
{
	uint32_t crc;
	if (!try_path(p, tried) || jh_file_crc32(p, &crc) != 0 || crc != want)
		return NULL;
	struct jh_elf_image *im = open_candidate(p);
	size_t l;
	if (im && id && jh_elf_image_build_id(im, &l) && !same_id(im, id, idlen)) {
		jh_elf_image_close(im);
		return NULL;
	}
	return im;
}

struct jh_elf_image *jh_find_debug(const struct jh_symbolizer_opts *o, struct jh_elf_image *bin,
				   struct jh_sb *tried)
{
	if (jh_elf_image_has_debug_info(bin))
		return bin;
	char *dirs[MAX_DIRS];
	size_t ndirs = debug_dirs(o, dirs, MAX_DIRS - 2);
	size_t idlen;
	const unsigned char *id = jh_elf_image_build_id(bin, &idlen);
	struct jh_elf_image *found = by_build_id(o, dirs, ndirs, id, idlen, tried);
	uint32_t crc;
	const char *link = jh_elf_image_debuglink(bin, &crc);
	if (!found && link && !strchr(link, '/')) {
		char *dir = dir_of(jh_elf_image_path(bin));
		char *dotdebug = join(dir, ".debug");
		char *cands[MAX_DIRS + 2];
		size_t nc = 0;
		cands[nc++] = join(dir, link);
		char *t = join(dotdebug, link);
		cands[nc++] = t;
		for (size_t i = 0; i < ndirs; i++) {
			char *dd = join(dir, link);
			if ((cands[nc] = in_debug_dir(o, dirs[i], dd)))
				nc++;
			free(dd);
		}
		for (size_t i = 0; i < nc; i++) {
			if (!found && strcmp(cands[i], jh_elf_image_path(bin)))
				found = open_if_crc(cands[i], crc, id, idlen, tried);
			free(cands[i]);
		}
		free(dotdebug);
		free(dir);
	}
	free_dirs(dirs, ndirs);
	if (found && !jh_elf_image_has_debug_info(found)) {
		jh_elf_image_close(found);
		found = NULL;
	}
	return found;
}

struct jh_elf_image *jh_find_alt(const struct jh_symbolizer_opts *o, struct jh_elf_image *dbg,
				 struct jh_sb *tried)
{
	const unsigned char *id;
	size_t idlen;
	const char *name = jh_elf_image_altlink(dbg, &id, &idlen);
	if (!name)
		return NULL;
	char *cands[1] = { NULL };
	size_t nc = 0;
	if (name[0] == '/') {
		/* with --sysroot, only inside it (the name comes from the file) */
		if (o->sysroot && o->sysroot[0])
			cands[nc] = jh_confine(o->sysroot, name);
		else
			cands[nc] = xstrdup(name);
	} else {
		char *dir = dir_of(jh_elf_image_path(dbg));
		cands[nc] = confined_beside(o, join(dir, name));
		free(dir);
	}
	if (cands[nc])
		nc++;
	struct jh_elf_image *found = NULL;
	for (size_t i = 0; i < nc; i++) {
		if (!found && try_path(cands[i], tried)) {
			struct jh_elf_image *im = open_candidate(cands[i]);
			if (im && (!idlen || same_id(im, id, idlen)))
				found = im;
			else
				jh_elf_image_close(im);
		}
		free(cands[i]);
	}
	if (!found)
		found = jh_find_by_build_id(o, id, idlen, tried);
	return found;
}

struct jh_elf_image *jh_find_by_build_id(const struct jh_symbolizer_opts *o,
					 const unsigned char *id, size_t len, struct jh_sb *tried)
{
	char *dirs[MAX_DIRS];
	size_t ndirs = debug_dirs(o, dirs, MAX_DIRS);
	struct jh_elf_image *found = by_build_id(o, dirs, ndirs, id, len, tried);
	free_dirs(dirs, ndirs);
	return found;
}

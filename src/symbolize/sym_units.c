/*
 * sym_units.c - the unit index file of the symbol cache (sym_units.h).
 */
#include "sym_units.h"

#include "sym_cache.h"

#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>
#include <zlib.h>

#define MAGIC "JHUNITS"
#define BOM 0x01020304u
#define HEAD (8 + 4 * 4 + 8)

struct jh_unitfile {
	char *path;
	unsigned char *map;
	size_t len;
	struct jh_unit_index ix;
};

char *jh_unitfile_name(const char *cache_name)
{
	struct jh_sb sb = JH_SB_INIT;
	jh_sb_init(&sb);
	size_t l = strlen(cache_name);
	jh_sb_add(&sb, cache_name, l > 4 && !strcmp(cache_name + l - 4, ".jhc") ? l - 4 : l);
	jh_sb_adds(&sb, ".jhu");
	return jh_sb_detach(&sb);
}

static uint32_t crc_of(const unsigned char *p, size_t n)
{
	uLong c = crc32(0L, Z_NULL, 0);
	while (n) {
		uInt k = n > (1u << 30) ? (1u << 30) : (uInt)n;
		c = crc32(c, p, k);
		p += k;
		n -= k;
	}
	return (uint32_t)c;
}

static uint64_t rd64(const unsigned char *p)
{
	uint64_t v;
	memcpy(&v, p, 8);
	return v;
}

static uint32_t rd32(const unsigned char *p)
{
	uint32_t v;
	memcpy(&v, p, 4);
	return v;
}

/* Checks f's bytes and points its index into them: NULL, or what is wrong (*other: another sig). */
static const char *parse(struct jh_unitfile *f, const char *sig, int *other)
{
	const unsigned char *p = f->map;
	size_t len = f->len;
	if (len < HEAD || memcmp(p, MAGIC, 8))
		return "not a jeheap unit index";
	if (rd32(p + 8) != JH_UNITFILE_VERSION || rd32(p + 12) != BOM)
		return "written by another version of jeheap";
	uint64_t siglen = rd32(p + 16), nunits = rd32(p + 20), nranges = rd64(p + 24);
	if (siglen > len - HEAD || nranges > (len - HEAD - siglen) / 24 ||
	    nunits > (len - HEAD - siglen - nranges * 24) / 16 ||
	    len - HEAD - siglen - nranges * 24 - nunits * 16 < 4)
		return "truncated";
	size_t end = HEAD + siglen + nranges * 24 + nunits * 16;
	if (rd32(p + end) != crc_of(p, end))
		return "checksum mismatch";
	if (strlen(sig) != siglen || memcmp(p + HEAD, sig, siglen)) {
		*other = 1;
		return NULL;
	}
	struct jh_unit_index *ix = &f->ix;
	ix->nunits = nunits;
	ix->nranges = nranges;
	ix->ranges = xmalloc(jh_st_mult(nranges + 1, sizeof(*ix->ranges)));
	ix->blob = xcalloc(nunits + 1, sizeof(*ix->blob));
	ix->size = xcalloc(nunits + 1, sizeof(*ix->size));
	const unsigned char *r = p + HEAD + siglen;
	for (size_t i = 0; i < nranges; i++, r += 24) {
		ix->ranges[i] = (struct jh_sched_range){ rd64(r), rd64(r + 8), rd64(r + 16) };
		if (ix->ranges[i].lo >= ix->ranges[i].hi || ix->ranges[i].key >= nunits ||
		    (i && ix->ranges[i - 1].hi > ix->ranges[i].lo))
			return "bad address ranges";
	}
	for (size_t u = 0; u < nunits; u++, r += 16) {
		uint64_t off = rd64(r), n = rd64(r + 8);
		if (off == 0)
			continue;
		if (off < end + 4 || n == 0)
			return "bad unit table";
		if (off > len || n > len - off)
			return "truncated";
		ix->blob[u] = p + off;
		ix->size[u] = n;
	}
	return NULL;
}

static void release(struct jh_unitfile *f)
{
	if (f->map)
		munmap(f->map, f->len);
	free(f->ix.ranges);
	free(f->ix.blob);
	free(f->ix.size);
	free(f->path);
	free(f);
}

int jh_unitfile_open(const char *dir, const char *name, const char *sig, struct jh_unitfile **out)
{
	*out = NULL;
	struct jh_unitfile *f = xcalloc(1, sizeof(*f));
	struct jh_sb sb = JH_SB_INIT;
	jh_sb_init(&sb);
	jh_sb_addf(&sb, "%s/%s", dir, name);
	f->path = jh_sb_detach(&sb);
	int fd = open(f->path, O_RDONLY | O_CLOEXEC);
	struct stat st;
	if (fd < 0 || fstat(fd, &st) != 0 || !S_ISREG(st.st_mode) || st.st_size <= 0) {
		if (fd >= 0)
			close(fd);
		release(f);
		return 0;
	}
	f->len = (size_t)st.st_size;
	void *m = mmap(NULL, f->len, PROT_READ, MAP_PRIVATE, fd, 0);
	close(fd);
	if (m == MAP_FAILED) {
		release(f);
		return 0;
	}
	f->map = m;
	int other = 0;
	const char *why = parse(f, sig, &other);
	if (why) {
		jh_unitfile_reject(f, why);
		release(f);
		return -1;
	}
	if (other) {
		release(f);
		return 0;
	}
	utimensat(AT_FDCWD, f->path, NULL, 0); /* used now: the last to go */
	*out = f;
	return 1;
}

const struct jh_unit_index *jh_unitfile_index(const struct jh_unitfile *f)
{
	return &f->ix;
}

void jh_unitfile_reject(const struct jh_unitfile *f, const char *what)
{
	jh_warn("symbol cache file %s ignored (%s); jeheap --symbols-only writes it again", f->path,
		what);
	unlink(f->path);
}

void jh_unitfile_close(struct jh_unitfile *f)
{
	if (f)
		release(f);
}

static void put32(struct jh_sb *sb, uint32_t v)
{
	jh_sb_add(sb, &v, 4);
}

static void put64(struct jh_sb *sb, uint64_t v)
{
	jh_sb_add(sb, &v, 8);
}

int jh_unitfile_write(const char *dir, const char *name, const char *sig,
		      const struct jh_unit_index *ix, uint64_t limit)
{
	struct jh_sb out = JH_SB_INIT;
	jh_sb_init(&out);
	size_t siglen = strlen(sig);
	jh_sb_add(&out, MAGIC, 8);
	put32(&out, JH_UNITFILE_VERSION);
	put32(&out, BOM);
	put32(&out, (uint32_t)siglen);
	put32(&out, (uint32_t)ix->nunits);
	put64(&out, ix->nranges);
	jh_sb_add(&out, sig, siglen);
	for (size_t i = 0; i < ix->nranges; i++) {
		put64(&out, ix->ranges[i].lo);
		put64(&out, ix->ranges[i].hi);
		put64(&out, ix->ranges[i].key);
	}
	uint64_t off = out.len + ix->nunits * 16 + 4;
	for (size_t u = 0; u < ix->nunits; u++) {
		put64(&out, ix->blob[u] ? off : 0);
		put64(&out, ix->blob[u] ? ix->size[u] : 0);
		off += ix->blob[u] ? ix->size[u] : 0;
	}
	put32(&out, crc_of((const unsigned char *)out.buf, out.len));
	for (size_t u = 0; u < ix->nunits; u++)
		if (ix->blob[u])
			jh_sb_add(&out, ix->blob[u], ix->size[u]);
	int rc = jh_symcache_put(dir, name, out.buf, out.len, limit);
	jh_sb_release(&out);
	return rc;
}

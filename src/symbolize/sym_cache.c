/*
 * sym_cache.c - reading, writing and bounding the symbol cache files
 * (format in sym_cache.h).
 */
#include "sym_cache.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>
#include <zlib.h>

#define MAGIC "JHSYMCAC"
#define BOM 0x01020304u
#define HEAD (8 + 6 * 4)

static uint32_t crc_of(const void *p, size_t n)
{
	uLong c = crc32(0L, Z_NULL, 0);
	const unsigned char *b = p;
	while (n) {
		uInt k = n > (1u << 30) ? (1u << 30) : (uInt)n;
		c = crc32(c, b, k);
		b += k;
		n -= k;
	}
	return (uint32_t)c;
}

static char *path_of(const char *dir, const char *name)
{
	struct jh_sb sb = JH_SB_INIT;
	jh_sb_init(&sb);
	jh_sb_addf(&sb, "%s/%s", dir, name);
	return jh_sb_detach(&sb);
}

void jh_symcache_file_release(struct jh_symcache_file *f)
{
	free(f->buf);
	free(f->recs);
	free(f->frames);
	memset(f, 0, sizeof(*f));
}

/* A bounds-checked cursor over the file's bytes. */
struct cur {
	const char *p;
	size_t left;
	int bad;
};

static uint32_t get32(struct cur *c)
{
	uint32_t v = 0;
	if (c->left < 4) {
		c->bad = 1;
		return 0;
	}
	memcpy(&v, c->p, 4);
	c->p += 4;
	c->left -= 4;
	return v;
}

static uint64_t get64(struct cur *c)
{
	uint64_t lo = get32(c), hi = get32(c);
	return lo | hi << 32;
}

static const char *get_bytes(struct cur *c, size_t n)
{
	if (c->left < n) {
		c->bad = 1;
		return NULL;
	}
	const char *p = c->p;
	c->p += n;
	c->left -= n;
	return p;
}

static char *slurp(const char *path, size_t *len)
{
	int fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return NULL;
	struct stat st;
	char *buf = NULL;
	if (fstat(fd, &st) == 0 && S_ISREG(st.st_mode) && st.st_size >= 0 &&
	    (uint64_t)st.st_size < ((uint64_t)1 << 40)) {
		size_t n = (size_t)st.st_size, got = 0;
		buf = xmalloc(n + 1);
		while (got < n) {
			ssize_t r = read(fd, buf + got, n - got);
			if (r <= 0)
				break;
			got += (size_t)r;
		}
		*len = got;
	}
	close(fd);
	return buf;
}

/* Parses the body; NULL when fine, else what is wrong. */
static const char *parse(struct jh_symcache_file *f, const char *sig, char *buf, size_t len,
			 int *other_sig)
{
	if (len < HEAD + 4 || memcmp(buf, MAGIC, 8))
		return "not a jeheap symbol cache file";
	struct cur c = { buf + 8, len - 8 - 4, 0 };
	uint32_t version = get32(&c), bom = get32(&c);
	if (version != JH_SYMCACHE_VERSION || bom != BOM)
		return "written by another version of jeheap";
	uint32_t crc;
	memcpy(&crc, buf + len - 4, 4);
	if (crc != crc_of(buf, len - 4))
		return "checksum mismatch";
	uint32_t siglen = get32(&c), nstr = get32(&c), nrec = get32(&c), nfr = get32(&c);
	const char *s = get_bytes(&c, siglen);
	if (c.bad)
		return "truncated";
	if (strlen(sig) != siglen || memcmp(s, sig, siglen)) {
		*other_sig = 1;
		return NULL;
	}
	/* every string gets a NUL: each is moved one byte down over its length */
	char **strs = xcalloc((size_t)nstr + 1, sizeof(*strs));
	const char *why = NULL;
	for (uint32_t i = 0; i < nstr && !why; i++) {
		uint32_t l = get32(&c);
		char *lenp = (char *)c.p - 4;
		const char *b = get_bytes(&c, l);
		if (c.bad || memchr(b, 0, l))
			why = "bad string table";
		else {
			memmove(lenp, b, l);
			lenp[l] = 0;
			strs[i] = lenp;
		}
	}
	if (!why && ((uint64_t)nrec * 20 > c.left || (uint64_t)nfr * 16 > c.left))
		why = "truncated";
	if (!why) {
		f->recs = xmalloc(jh_st_mult((size_t)nrec + 1, sizeof(*f->recs)));
		f->frames = xmalloc(jh_st_mult((size_t)nfr + 1, sizeof(*f->frames)));
	}
	for (uint32_t i = 0; i < nrec && !why; i++) {
		struct jh_symcache_rec *r = &f->recs[i];
		r->addr = get64(&c);
		r->first = get32(&c);
		r->nframes = get32(&c);
		uint32_t st = get32(&c);
		r->status = (uint8_t)st;
		if (st > JH_SYM_EMBEDDED || r->first > nfr || r->nframes > nfr - r->first)
			why = "bad record";
	}
	for (uint32_t i = 0; i < nfr && !why; i++) {
		uint32_t fn = get32(&c), fl = get32(&c), line = get32(&c), decl = get32(&c);
		if (fn > nstr || fl > nstr)
			why = "bad frame";
		else
			f->frames[i] = (struct jh_frame){ fn ? strs[fn - 1] : NULL,
							  fl ? strs[fl - 1] : NULL, line, decl };
	}
	uint32_t state = get32(&c), reason = get32(&c), warning = get32(&c);
	if (!why && (state > JH_MOD_REFUSED && state != UINT32_MAX))
		why = "bad module state";
	if (!why && (reason > nstr || warning > nstr))
		why = "bad module state";
	if (!why && (c.bad || c.left))
		why = c.bad ? "truncated" : "trailing bytes";
	if (!why) {
		f->state = state == UINT32_MAX ? -1 : (int)state;
		f->reason = reason ? strs[reason - 1] : NULL;
		f->warning = warning ? strs[warning - 1] : NULL;
	}
	free(strs);
	f->nrecs = nrec;
	f->nframes = nfr;
	return why;
}

int jh_symcache_read(const char *dir, const char *name, const char *sig, int quiet,
		     struct jh_symcache_file *f)
{
	memset(f, 0, sizeof(*f));
	char *path = path_of(dir, name);
	size_t len = 0;
	char *buf = slurp(path, &len);
	if (!buf) {
		free(path);
		return 0;
	}
	int other = 0;
	const char *why = parse(f, sig, buf, len, &other);
	if (why || other) {
		if (why && !quiet)
			jh_warn("symbol cache file %s ignored (%s); it is rebuilt", path, why);
		jh_symcache_file_release(f);
		free(buf);
		free(path);
		return why ? -1 : 0;
	}
	f->buf = buf;
	utimensat(AT_FDCWD, path, NULL, 0); /* used now: the last to go */
	free(path);
	return 1;
}

static void put32(struct jh_sb *sb, uint32_t v)
{
	jh_sb_add(sb, (const char *)&v, 4);
}

static void put64(struct jh_sb *sb, uint64_t v)
{
	put32(sb, (uint32_t)v);
	put32(sb, (uint32_t)(v >> 32));
}

/* The string table of a file being written: each distinct string once. */
struct strtab {
	struct jh_u64map byptr; /* a string's pointer -> its copy in canon */
	struct jh_u64map idx;   /* a copy in canon -> index + 1 */
	struct jh_intern canon; /* equal strings from anywhere (DWARF, a file read) meet */
	const char **strs;
	size_t n, a;
};

/* The string index + 1 of s, added to the table. */
static uint32_t str_index(struct strtab *t, const char *s)
{
	if (!s)
		return 0;
	int added;
	uint64_t *c = jh_u64map_put(&t->byptr, (uint64_t)(uintptr_t)s, &added);
	if (added)
		*c = (uint64_t)(uintptr_t)jh_intern(&t->canon, s);
	uint64_t *v = jh_u64map_put(&t->idx, *c, &added);
	if (added) {
		JH_GROW(t->strs, t->n + 1, t->a);
		t->strs[t->n++] = (const char *)(uintptr_t)*c;
		*v = t->n;
	}
	return (uint32_t)*v;
}

static void encode(struct jh_sb *out, const char *sig, const struct jh_symcache_state *ms,
		   const struct jh_symcache_rec *recs, size_t n, const struct jh_frame *fr)
{
	struct strtab st = { 0 };
	jh_u64map_init(&st.byptr);
	jh_u64map_init(&st.idx);
	jh_intern_init(&st.canon);
	size_t nfr = 0;
	struct jh_sb frames = JH_SB_INIT, rs = JH_SB_INIT;
	jh_sb_init(&frames);
	jh_sb_init(&rs);
	for (size_t i = 0; i < n; i++) {
		put64(&rs, recs[i].addr);
		put32(&rs, (uint32_t)nfr);
		put32(&rs, recs[i].nframes);
		put32(&rs, recs[i].status);
		for (uint32_t k = 0; k < recs[i].nframes; k++) {
			const struct jh_frame *f = &fr[recs[i].first + k];
			put32(&frames, str_index(&st, f->func));
			put32(&frames, str_index(&st, f->file));
			put32(&frames, f->line);
			put32(&frames, f->decl_line);
			nfr++;
		}
	}
	uint32_t reason = str_index(&st, ms->reason), warning = str_index(&st, ms->warning);
	jh_sb_add(out, MAGIC, 8);
	put32(out, JH_SYMCACHE_VERSION);
	put32(out, BOM);
	put32(out, (uint32_t)strlen(sig));
	put32(out, (uint32_t)st.n);
	put32(out, (uint32_t)n);
	put32(out, (uint32_t)nfr);
	jh_sb_adds(out, sig);
	for (size_t i = 0; i < st.n; i++) {
		put32(out, (uint32_t)strlen(st.strs[i]));
		jh_sb_adds(out, st.strs[i]);
	}
	jh_sb_add(out, rs.buf, rs.len);
	jh_sb_add(out, frames.buf, frames.len);
	put32(out, ms->state < 0 ? UINT32_MAX : (uint32_t)ms->state);
	put32(out, reason);
	put32(out, warning);
	put32(out, crc_of(out->buf, out->len));
	jh_sb_release(&frames);
	jh_sb_release(&rs);
	free(st.strs);
	jh_u64map_release(&st.byptr);
	jh_u64map_release(&st.idx);
	jh_intern_release(&st.canon);
}

static int mkdirs(const char *dir)
{
	char *p = xstrdup(dir);
	int rc = 0;
	for (char *s = p + 1; rc == 0; s++) {
		if (*s && *s != '/')
			continue;
		char c = *s;
		*s = 0;
		if (mkdir(p, 0700) != 0 && errno != EEXIST)
			rc = -1;
		*s = c;
		if (!c)
			break;
	}
	free(p);
	return rc;
}

static int write_all(int fd, const char *p, size_t n)
{
	while (n) {
		ssize_t w = write(fd, p, n);
		if (w < 0 && errno == EINTR)
			continue;
		if (w <= 0)
			return -1;
		p += w;
		n -= (size_t)w;
	}
	return 0;
}

struct entry {
	char *name;
	struct timespec mtime;
	uint64_t size;
};

static int cmp_age(const void *a, const void *b)
{
	const struct entry *x = a, *y = b;
	if (x->mtime.tv_sec != y->mtime.tv_sec)
		return x->mtime.tv_sec < y->mtime.tv_sec ? -1 : 1;
	return x->mtime.tv_nsec < y->mtime.tv_nsec ? -1 : x->mtime.tv_nsec > y->mtime.tv_nsec;
}

static int ours(const char *name)
{
	size_t l = strlen(name);
	return name[0] != '.' && ((l > 4 && !strcmp(name + l - 4, ".jhc")) ||
				  (l > 4 && !strcmp(name + l - 4, ".neg")) ||
				  (l > 4 && !strcmp(name + l - 4, ".jhu")));
}

/* Removes the least recently used cache files of dir (not keep) above limit bytes. */
static void bound(const char *dir, const char *keep, uint64_t limit)
{
	DIR *dh = opendir(dir);
	if (!dh)
		return;
	struct entry *e = NULL;
	size_t n = 0, alloc = 0;
	uint64_t total = 0;
	struct dirent *de;
	while ((de = readdir(dh))) {
		struct stat st;
		if (!ours(de->d_name) || fstatat(dirfd(dh), de->d_name, &st, 0) != 0 ||
		    !S_ISREG(st.st_mode))
			continue;
		JH_GROW(e, n + 1, alloc);
		e[n++] = (struct entry){ xstrdup(de->d_name), st.st_mtim, (uint64_t)st.st_size };
		total += (uint64_t)st.st_size;
	}
	if (n)
		jh_qsort(e, n, sizeof(*e), cmp_age);
	for (size_t i = 0; i < n; i++) {
		if (total > limit && strcmp(e[i].name, keep) &&
		    unlinkat(dirfd(dh), e[i].name, 0) == 0)
			total -= e[i].size;
		free(e[i].name);
	}
	free(e);
	closedir(dh);
}

/* Writes data as dir/name through a temporary file and a rename. */
static int replace_file(const char *dir, const char *name, const char *data, size_t n)
{
	if (mkdirs(dir) != 0) {
		jh_warn("symbol cache: cannot create %s: %s", dir, strerror(errno));
		return -1;
	}
	char *path = path_of(dir, name);
	struct jh_sb tmp = JH_SB_INIT;
	jh_sb_init(&tmp);
	jh_sb_addf(&tmp, "%s/.%s.XXXXXX", dir, name);
	int fd = mkstemp(tmp.buf);
	int rc = -1;
	if (fd >= 0) {
		rc = write_all(fd, data, n);
		if (close(fd) != 0)
			rc = -1;
		if (rc == 0)
			rc = rename(tmp.buf, path);
		if (rc != 0)
			unlink(tmp.buf);
	}
	if (rc != 0)
		jh_warn("symbol cache: cannot write %s: %s", path, strerror(errno));
	jh_sb_release(&tmp);
	free(path);
	return rc;
}

int jh_symcache_write(const char *dir, const char *name, const char *sig,
		      const struct jh_symcache_state *st, const struct jh_symcache_rec *recs,
		      size_t n, const struct jh_frame *fr, uint64_t limit)
{
	struct jh_sb out = JH_SB_INIT;
	jh_sb_init(&out);
	encode(&out, sig, st, recs, n, fr);
	int rc = replace_file(dir, name, out.buf, out.len);
	jh_sb_release(&out);
	if (rc == 0 && limit)
		bound(dir, name, limit);
	return rc;
}

int jh_symcache_put(const char *dir, const char *name, const void *data, size_t n, uint64_t limit)
{
	int rc = replace_file(dir, name, data, n);
	if (rc == 0 && limit)
		bound(dir, name, limit);
	return rc;
}

int jh_symcache_mark(const char *dir, const char *name, const char *note)
{
	return replace_file(dir, name, note, strlen(note));
}

long long jh_symcache_age(const char *dir, const char *name, char **note)
{
	char *path = path_of(dir, name);
	struct stat st;
	int rc = stat(path, &st);
	size_t len = 0;
	*note = rc == 0 ? slurp(path, &len) : NULL;
	if (*note)
		(*note)[strnlen(*note, len)] = 0;
	free(path);
	if (rc != 0)
		return -1;
	time_t now = time(NULL);
	return now > st.st_mtime ? (long long)(now - st.st_mtime) : 0;
}

/* base.c - memory, strbuf, arena, interning, hash map, diagnostics. */
#include "jeheap/base.h"

#include <malloc.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

/* Two buffers: a new name is written into the one not in use, then published. */
static char oom_what[2][1024];
static atomic_int oom_cur = -1;

void jh_oom_reading(const char *what)
{
	int next = atomic_load(&oom_cur) == 0;
	snprintf(oom_what[next], sizeof(oom_what[next]), "%s", what);
	atomic_store(&oom_cur, next);
}

void jh_oom_current(char *buf, size_t n)
{
	int cur = atomic_load(&oom_cur);
	snprintf(buf, n, "%s", cur >= 0 ? oom_what[cur] : "");
}

/*
 * One line and status 70, the same whatever thread runs out: write(2) and
 * _exit, which need no memory and run no atexit code beside other threads.
 */
static void oom(size_t n)
{
	char line[1200];
	int cur = atomic_load(&oom_cur), k;
	if (cur >= 0)
		k = snprintf(line, sizeof(line), "jeheap: out of memory while reading %s\n",
			     oom_what[cur]);
	else
		k = snprintf(line, sizeof(line), "jeheap: out of memory (allocating %zu bytes)\n",
			     n);
	if (k > (int)sizeof(line) - 1)
		k = (int)sizeof(line) - 1;
	if (write(STDERR_FILENO, line, (size_t)k) < 0) {
		/* stderr is gone: the status still says it */
	}
	_exit(JH_EXIT_INTERNAL);
}

/*
 * Blocks of JH_HUGE_MIN bytes or more (the big tables and arrays of a large profile) are
 * offered to transparent huge pages: one page fault then maps 2 MB instead of 4 KB. On a
 * VM where a fault costs 10-20 us that is a quarter of --collapsed's wall time on the
 * 197 MB bench file (docs/BENCHMARKS.md). Only a hint: nothing is touched or pre-faulted
 * here, and a kernel without THP (or with it set to "never") just says no.
 */
#define JH_HUGE_MIN ((size_t)4 << 20)

static void hint_huge(void *p, size_t n)
{
#ifdef MADV_HUGEPAGE
	if (n < JH_HUGE_MIN)
		return;
	uintptr_t lo = ((uintptr_t)p + 4095) & ~(uintptr_t)4095;
	uintptr_t hi = ((uintptr_t)p + n) & ~(uintptr_t)4095;
	(void)madvise((void *)lo, hi - lo, MADV_HUGEPAGE);
#else
	(void)p;
	(void)n;
#endif
}

void *xmalloc(size_t n)
{
	void *p;
	if (n >= JH_HUGE_MIN) {
		/* aligned to a huge page, so that all of it can be one */
		if (posix_memalign(&p, (size_t)2 << 20, n))
			oom(n);
		hint_huge(p, n);
		return p;
	}
	p = malloc(n ? n : 1);
	if (!p)
		oom(n);
	return p;
}

void *xcalloc(size_t nmemb, size_t size)
{
	void *p = calloc(nmemb ? nmemb : 1, size ? size : 1);
	if (!p)
		oom(jh_st_mult(nmemb, size));
	hint_huge(p, jh_st_mult(nmemb, size));
	return p;
}

void *xrealloc(void *p, size_t n)
{
#ifdef __GLIBC__
	/* a big block that moves is copied into memory offered to huge pages first, rather
	 * than into 4 KB pages realloc would fault in one by one */
	size_t old = p ? malloc_usable_size(p) : 0;
	if (n >= JH_HUGE_MIN && n > old) {
		void *q = xmalloc(n);
		memcpy(q, p, old);
		free(p);
		return q;
	}
#endif
	void *q = realloc(p, n ? n : 1);
	if (!q)
		oom(n);
	return q;
}

char *xstrdup(const char *s)
{
	return xstrndup(s, strlen(s));
}

char *xstrndup(const char *s, size_t n)
{
	char *p = xmalloc(n + 1);
	memcpy(p, s, n);
	p[n] = 0;
	return p;
}

size_t jh_st_mult(size_t n, size_t size)
{
	if (size && n > SIZE_MAX / size) {
		fprintf(stderr, "jeheap: size overflow (%zu * %zu)\n", n, size);
		exit(JH_EXIT_INTERNAL);
	}
	return n * size;
}

/* ---- strbuf ---- */

static char jh_sb_empty[1];

void jh_sb_init(struct jh_sb *sb)
{
	sb->buf = jh_sb_empty;
	sb->len = sb->alloc = 0;
}

void jh_sb_release(struct jh_sb *sb)
{
	if (sb->alloc)
		free(sb->buf);
	jh_sb_init(sb);
}

void jh_sb_reset(struct jh_sb *sb)
{
	if (!sb->buf)
		jh_sb_init(sb);
	sb->len = 0;
	if (sb->alloc)
		sb->buf[0] = 0;
}

void jh_sb_grow(struct jh_sb *sb, size_t extra)
{
	if (!sb->buf)
		jh_sb_init(sb);
	if (sb->len + extra + 1 <= sb->alloc)
		return;
	size_t n = sb->alloc < 64 ? 64 : sb->alloc * 2;
	while (n < sb->len + extra + 1)
		n *= 2;
	if (sb->alloc)
		sb->buf = xrealloc(sb->buf, n);
	else {
		sb->buf = xmalloc(n);
		sb->buf[0] = 0;
	}
	sb->alloc = n;
}

void jh_sb_add(struct jh_sb *sb, const void *data, size_t n)
{
	jh_sb_grow(sb, n);
	memcpy(sb->buf + sb->len, data, n);
	sb->len += n;
	sb->buf[sb->len] = 0;
}

void jh_sb_adds(struct jh_sb *sb, const char *s)
{
	jh_sb_add(sb, s, strlen(s));
}

void jh_sb_addc(struct jh_sb *sb, char c)
{
	jh_sb_grow(sb, 1);
	sb->buf[sb->len++] = c;
	sb->buf[sb->len] = 0;
}

void jh_sb_vaddf(struct jh_sb *sb, const char *fmt, va_list ap)
{
	va_list cp;
	va_copy(cp, ap);
	jh_sb_grow(sb, 64);
	int n = vsnprintf(sb->buf + sb->len, sb->alloc - sb->len, fmt, cp);
	va_end(cp);
	if (n < 0)
		return;
	if ((size_t)n >= sb->alloc - sb->len) {
		jh_sb_grow(sb, (size_t)n);
		vsnprintf(sb->buf + sb->len, sb->alloc - sb->len, fmt, ap);
	}
	sb->len += (size_t)n;
}

void jh_sb_addf(struct jh_sb *sb, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	jh_sb_vaddf(sb, fmt, ap);
	va_end(ap);
}

char *jh_sb_detach(struct jh_sb *sb)
{
	char *r = sb->alloc ? sb->buf : xstrdup("");
	jh_sb_init(sb);
	return r;
}

/* ---- arena ---- */

struct jh_arena_block {
	struct jh_arena_block *next;
	max_align_t data[];
};

void *jh_arena_alloc(struct jh_arena *a, size_t n)
{
	n = (n + 7) & ~(size_t)7;
	if (!a->head || a->used + n > a->cap) {
		/* blocks double from 64 KiB to JH_HUGE_MIN: few blocks, and big ones get
		 * huge pages */
		size_t cap = a->cap < 32768             ? 65536
			     : a->cap < JH_HUGE_MIN / 2 ? a->cap * 2
							: JH_HUGE_MIN;
		if (cap < n)
			cap = n;
		struct jh_arena_block *b = xmalloc(sizeof(*b) + cap);
		b->next = a->head;
		a->head = b;
		a->used = 0;
		a->cap = cap;
	}
	void *p = (char *)a->head->data + a->used;
	a->used += n;
	return p;
}

char *jh_arena_strndup(struct jh_arena *a, const char *s, size_t n)
{
	char *p = jh_arena_alloc(a, n + 1);
	memcpy(p, s, n);
	p[n] = 0;
	return p;
}

char *jh_arena_name(struct jh_arena *a, const char *s, size_t n)
{
	char *p = (char *)jh_arena_alloc(a, JH_NAME_PAD + n + 1) + JH_NAME_PAD;
	memcpy(p - JH_NAME_PAD, JH_NAME_PREFIX, JH_NAME_PAD);
	memcpy(p, s, n);
	p[n] = 0;
	return p;
}

void jh_arena_release(struct jh_arena *a)
{
	struct jh_arena_block *b = a->head;
	while (b) {
		struct jh_arena_block *n = b->next;
		free(b);
		b = n;
	}
	a->head = NULL;
	a->used = a->cap = 0;
}

/* ---- hashing ---- */

static inline uint64_t mum(uint64_t a, uint64_t b)
{
	__uint128_t r = (__uint128_t)a * b;
	return (uint64_t)r ^ (uint64_t)(r >> 64);
}

uint64_t jh_hash_str(const void *p, size_t n)
{
	const char *s = p;
	uint64_t h = n * 0x9e3779b97f4a7c15ULL, a = 0, b = 0;
	for (; n >= 16; s += 16, n -= 16) {
		memcpy(&a, s, 8);
		memcpy(&b, s + 8, 8);
		h = mum(a ^ 0xa0761d6478bd642fULL, b ^ h ^ 0xe7037ed1a0b428dbULL);
	}
	a = b = 0;
	if (n > 8) {
		memcpy(&a, s, 8);
		memcpy(&b, s + 8, n - 8);
	} else {
		memcpy(&a, s, n);
	}
	return mum(a ^ 0xa0761d6478bd642fULL, b ^ h ^ 0x8ebc6af09c88c6e3ULL);
}

/* ---- interning ---- */

void jh_intern_init(struct jh_intern *t)
{
	memset(t, 0, sizeof(*t));
}

void jh_intern_release(struct jh_intern *t)
{
	jh_arena_release(&t->arena);
	free(t->slots);
	free(t->hashes);
	memset(t, 0, sizeof(*t));
}

/* Slots keep their string's hash: probes compare hashes before touching
 * strings, and growing rehashes no string. Returns the slot of s[0..n):
 * its string, or the empty slot where it goes. */
static size_t intern_slot(struct jh_intern *t, const char *s, size_t n, uint64_t h)
{
	if (2 * (t->nr + 1) > t->cap) {
		size_t cap = t->cap ? t->cap * 2 : 1024;
		const char **slots = xcalloc(cap, sizeof(*slots));
		uint64_t *hashes = xmalloc(jh_st_mult(cap, sizeof(*hashes)));
		for (size_t i = 0; i < t->cap; i++) {
			if (!t->slots[i])
				continue;
			size_t j = t->hashes[i] & (cap - 1);
			while (slots[j])
				j = (j + 1) & (cap - 1);
			slots[j] = t->slots[i];
			hashes[j] = t->hashes[i];
		}
		free(t->slots);
		free(t->hashes);
		t->slots = slots;
		t->hashes = hashes;
		t->cap = cap;
	}
	size_t j = h & (t->cap - 1);
	while (t->slots[j]) {
		const char *x = t->slots[j];
		if (t->hashes[j] == h && strncmp(x, s, n) == 0 && x[n] == 0)
			return j;
		j = (j + 1) & (t->cap - 1);
	}
	return j;
}

static const char *intern_add(struct jh_intern *t, size_t j, const char *x, uint64_t h)
{
	t->slots[j] = x;
	t->hashes[j] = h;
	t->nr++;
	return x;
}

const char *jh_intern_n(struct jh_intern *t, const char *s, size_t n)
{
	uint64_t h = jh_hash_str(s, n);
	size_t j = intern_slot(t, s, n, h);
	if (t->slots[j])
		return t->slots[j];
	return intern_add(t, j, jh_arena_name(&t->arena, s, n), h);
}

const char *jh_intern_nocopy(struct jh_intern *t, const char *s, size_t n, uint64_t h)
{
	size_t j = intern_slot(t, s, n, h);
	return t->slots[j] ? t->slots[j] : intern_add(t, j, s, h);
}

void jh_intern_keep(struct jh_intern *t, struct jh_arena *a)
{
	if (!a->head)
		return;
	struct jh_arena_block *last = a->head;
	while (last->next)
		last = last->next;
	if (t->arena.head) { /* behind the block still being filled */
		last->next = t->arena.head->next;
		t->arena.head->next = a->head;
	} else {
		t->arena = *a;
	}
	a->head = NULL;
	a->used = a->cap = 0;
}

const char *jh_intern(struct jh_intern *t, const char *s)
{
	return jh_intern_n(t, s, strlen(s));
}

/* ---- u64 map ---- */

#define EMPTY UINT64_MAX

void jh_u64map_init(struct jh_u64map *m)
{
	memset(m, 0, sizeof(*m));
}

void jh_u64map_release(struct jh_u64map *m)
{
	free(m->keys);
	free(m->vals);
	memset(m, 0, sizeof(*m));
}

uint64_t *jh_u64map_get(const struct jh_u64map *m, uint64_t key)
{
	if (!m->cap)
		return NULL;
	size_t j = jh_hash_u64(key) & (m->cap - 1);
	while (m->keys[j] != EMPTY) {
		if (m->keys[j] == key)
			return &m->vals[j];
		j = (j + 1) & (m->cap - 1);
	}
	return NULL;
}

uint64_t *jh_u64map_put(struct jh_u64map *m, uint64_t key, int *added)
{
	if (2 * (m->nr + 1) > m->cap) {
		size_t cap = m->cap ? m->cap * 2 : 256;
		uint64_t *keys = xmalloc(jh_st_mult(cap, sizeof(*keys)));
		uint64_t *vals = xmalloc(jh_st_mult(cap, sizeof(*vals)));
		memset(keys, 0xff, cap * sizeof(*keys));
		for (size_t i = 0; i < m->cap; i++) {
			if (m->keys[i] == EMPTY)
				continue;
			size_t j = jh_hash_u64(m->keys[i]) & (cap - 1);
			while (keys[j] != EMPTY)
				j = (j + 1) & (cap - 1);
			keys[j] = m->keys[i];
			vals[j] = m->vals[i];
		}
		free(m->keys);
		free(m->vals);
		m->keys = keys;
		m->vals = vals;
		m->cap = cap;
	}
	size_t j = jh_hash_u64(key) & (m->cap - 1);
	while (m->keys[j] != EMPTY) {
		if (m->keys[j] == key) {
			if (added)
				*added = 0;
			return &m->vals[j];
		}
		j = (j + 1) & (m->cap - 1);
	}
	m->keys[j] = key;
	m->vals[j] = 0;
	m->nr++;
	if (added)
		*added = 1;
	return &m->vals[j];
}

/* ---- diagnostics ---- */

int jh_diag_set(struct jh_diag *d, int code, const char *file, unsigned long line, const char *fmt,
		...)
{
	if (!d)
		return -1;
	int off = 0;
	if (file && line)
		off = snprintf(d->msg, sizeof(d->msg), "%s:%lu: ", file, line);
	else if (file)
		off = snprintf(d->msg, sizeof(d->msg), "%s: ", file);
	if (off < 0 || (size_t)off >= sizeof(d->msg))
		off = 0;
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(d->msg + off, sizeof(d->msg) - (size_t)off, fmt, ap);
	va_end(ap);
	/* one line: control characters (in names, paths) become '?' */
	for (char *p = d->msg; *p; p++)
		if ((unsigned char)*p < 0x20 || *p == 0x7f)
			*p = '?';
	d->code = code;
	return -1;
}

/*
 * Names in text output: a control character (a byte below 0x20, or 0x7f) is
 * written as a visible escape ("\n", "\r", "\t", "\x01"), so a name can
 * never start another line or record. Every text format's own escaping
 * (DOT's quoting, callgrind's compressed names) builds on this.
 */
/* The escape of byte c ("\n", "\x01") in out[0..4], or 0 if c needs none. */
size_t jh_visible_escape(unsigned char c, char out[5])
{
	static const char hex[] = "0123456789abcdef";
	if (c >= 0x20 && c != 0x7f)
		return 0;
	out[0] = '\\';
	switch (c) {
	case '\n': out[1] = 'n'; return 2;
	case '\r': out[1] = 'r'; return 2;
	case '\t': out[1] = 't'; return 2;
	default:
		out[1] = 'x';
		out[2] = hex[c >> 4];
		out[3] = hex[c & 15];
		return 4;
	}
}

int jh_has_control(const char *s)
{
	for (; *s; s++)
		if ((unsigned char)*s < 0x20 || *s == 0x7f)
			return 1;
	return 0;
}

void jh_sb_add_visible(struct jh_sb *sb, const char *s)
{
	const char *run = s;
	char esc[5];
	for (; *s; s++) {
		size_t n = jh_visible_escape((unsigned char)*s, esc);
		if (!n)
			continue;
		jh_sb_add(sb, run, (size_t)(s - run));
		jh_sb_add(sb, esc, n);
		run = s + 1;
	}
	jh_sb_add(sb, run, (size_t)(s - run));
}

/* Set once at start-up (jh_set_warn), read by every thread after. */
static jh_warn_fn warn_sink;

void jh_set_warn(jh_warn_fn fn)
{
	warn_sink = fn;
}

static void message(enum jh_msg kind, const char *fmt, va_list ap)
{
	if (!warn_sink)
		return;
	struct jh_sb sb, line;
	jh_sb_init(&sb);
	jh_sb_init(&line);
	jh_sb_vaddf(&sb, fmt, ap);
	jh_sb_add_visible(&line, sb.buf); /* a name's newline cannot start a line */
	warn_sink(kind, line.buf);
	jh_sb_release(&sb);
	jh_sb_release(&line);
}

void jh_warn(const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	message(JH_MSG_WARNING, fmt, ap);
	va_end(ap);
}

void jh_note(const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	message(JH_MSG_NOTE, fmt, ap);
	va_end(ap);
}

/*
 * sections.c - an ELF file's sections for the DWARF reader (see sections.h).
 *
 * The file's bytes are a private mapping made here (jh_sections_open) or the
 * jh_elf_image's (jh_sections_open_image), read by libelf with elf_memory();
 * section bytes are taken from that mapping, so uncompressed sections are
 * zero-copy. Compressed
 * sections (SHF_COMPRESSED zlib/zstd, legacy .zdebug_*) are validated at
 * open and inflated on first access (each under its own mutex), or ahead of
 * time and in parallel by jh_sections_prefetch. After inflating, the
 * compressed bytes' pages are given back to the kernel (MADV_DONTNEED).
 * A section can also be streamed (jh_sections_stream): a thread of its own
 * inflates it chunk by chunk straight into the final buffer and publishes
 * how many bytes are final, so readers can start on its beginning while
 * the rest inflates.
 */
#include "sections.h"

#include "dwarf_sched.h"
#include "inflate.h"
#include "mem_budget.h"
#include "jeheap/trace.h"

#include <errno.h>
#include <fcntl.h>
#include <gelf.h>
#include <libelf.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>
#include <zlib.h>
#include <zstd.h>

#if defined(__x86_64__)
#define JH_HOST_MACHINE EM_X86_64
#elif defined(__aarch64__)
#define JH_HOST_MACHINE EM_AARCH64
#elif defined(__i386__)
#define JH_HOST_MACHINE EM_386
#elif defined(__powerpc64__)
#define JH_HOST_MACHINE EM_PPC64
#elif defined(__s390x__)
#define JH_HOST_MACHINE EM_S390
#elif defined(__riscv)
#define JH_HOST_MACHINE EM_RISCV
#else
#define JH_HOST_MACHINE EM_NONE /* accept any */
#endif

enum jh_comp { JH_COMP_NONE, JH_COMP_ZLIB, JH_COMP_ZSTD };

struct jh_sec_slot {
	struct jh_section pub;
	char *name_buf;              /* renamed .zdebug_x, or NULL */
	const unsigned char *packed; /* compressed payload (after the header) */
	uint64_t packed_size;
	enum jh_comp comp;
	atomic_int ready;     /* 1 = pub.data final (maybe NULL on failure) */
	unsigned char *owned; /* malloc'd inflated bytes */
	pthread_mutex_t lock;
	/*
	 * Streaming (jh_sections_stream), all under lock (no lock-free path, so
	 * helgrind sees every hand-over): ready stays 0, done ends it.
	 */
	int streaming, guard, done, cancel;
	int waiters; /* threads blocked on cv */
	pthread_t thread;
	pthread_cond_t cv;
	struct jh_section partial; /* pub with data = the buffer being filled */
	uint64_t avail;            /* bytes of partial.data that are final */
	uint64_t chunk;
	size_t map_len; /* guard mode: the buffer is an mmap of map_len */
};

struct jh_sections {
	char *path;
	int fd;
	Elf *elf;
	const unsigned char *raw;
	size_t raw_size;
	size_t n;
	struct jh_sec_slot *slots;
	int is64, big_endian;
	uint16_t machine;
	int own_map;       /* raw is our mapping (else the jh_elf_image's) */
	uint64_t reserved; /* bytes of the DWARF memory ceiling (mem_budget.h) */
};

static pthread_once_t elf_once = PTHREAD_ONCE_INIT;

static void elf_init_once(void)
{
	(void)elf_version(EV_CURRENT);
}

static uint64_t rd_be64(const unsigned char *p)
{
	uint64_t v = 0;
	for (int i = 0; i < 8; i++)
		v = v << 8 | p[i];
	return v;
}

static uint64_t rd_u(const unsigned char *p, int n, int big)
{
	uint64_t v = 0;
	for (int i = 0; i < n; i++)
		v |= (uint64_t)p[big ? n - 1 - i : i] << (8 * i);
	return v;
}

/*
 * Largest believable inflation (documented in man/jeheap.1): real DWARF
 * stays under 100:1 per section (a tiny CU's .debug_abbrev) and far under
 * 64:1 over a whole file; zlib itself tops out near 1032:1 and zstd's RLE
 * goes much further, which is what a decompression bomb uses.
 */
#define JH_SEC_RATIO 256u         /* one section: uncompressed <= 256 x compressed */
#define JH_FILE_RATIO 64u         /* all of a file's: uncompressed <= 64 x the file */
#define JH_RATIO_SLACK (1u << 20) /* plus 1 MiB, for tiny sections */

static int size_plausible(uint64_t packed, uint64_t size)
{
	return size <= (UINT64_C(1) << 40) &&
	       (size <= JH_RATIO_SLACK || size - JH_RATIO_SLACK <= packed * JH_SEC_RATIO);
}

/* Parses a compressed section's header. Returns 0 or -1 with d set. */
static int parse_compressed(struct jh_sections *s, struct jh_sec_slot *sl, const char *name,
			    int shf_compressed, struct jh_diag *d)
{
	const unsigned char *p = sl->pub.data;
	uint64_t n = sl->pub.size;
	if (shf_compressed) {
		size_t hsz = s->is64 ? 24 : 12;
		if (n < hsz)
			return jh_diag_set(d, JH_EXIT_INPUT, s->path, 0,
					   "section %s: compression header truncated", name);
		uint32_t type = (uint32_t)rd_u(p, 4, s->big_endian);
		uint64_t size = s->is64 ? rd_u(p + 8, 8, s->big_endian)
					: rd_u(p + 4, 4, s->big_endian);
		if (type == ELFCOMPRESS_ZLIB)
			sl->comp = JH_COMP_ZLIB;
		else if (type == 2 /* ELFCOMPRESS_ZSTD */)
			sl->comp = JH_COMP_ZSTD;
		else
			return jh_diag_set(d, JH_EXIT_INPUT, s->path, 0,
					   "section %s: unknown compression type %u", name, type);
		sl->packed = p + hsz;
		sl->packed_size = n - hsz;
		sl->pub.size = size;
	} else {
		if (n < 12 || memcmp(p, "ZLIB", 4) != 0)
			return jh_diag_set(d, JH_EXIT_INPUT, s->path, 0,
					   "section %s: bad .zdebug header", name);
		sl->comp = JH_COMP_ZLIB;
		sl->packed = p + 12;
		sl->packed_size = n - 12;
		sl->pub.size = rd_be64(p + 4);
		size_t len = strlen(name);
		sl->name_buf = xmalloc(len);
		sl->name_buf[0] = '.';
		memcpy(sl->name_buf + 1, name + 2, len - 1); /* ".zdebug_x" -> ".debug_x" */
		sl->pub.name = sl->name_buf;
	}
	if (!size_plausible(sl->packed_size, sl->pub.size))
		return jh_diag_set(d, JH_EXIT_INPUT, s->path, 0,
				   "section %s: %llu compressed bytes claim to inflate to %llu "
				   "(more than %u:1), not inflated",
				   name, (unsigned long long)sl->packed_size,
				   (unsigned long long)sl->pub.size, JH_SEC_RATIO);
	sl->pub.data = NULL;
	return 0;
}

/* Gives the pages fully inside [p, p+n) of the private file map back. */
static void drop_pages(const unsigned char *p, uint64_t n)
{
	uintptr_t pg = (uintptr_t)sysconf(_SC_PAGESIZE);
	uintptr_t lo = ((uintptr_t)p + pg - 1) & ~(pg - 1);
	uintptr_t hi = ((uintptr_t)p + n) & ~(pg - 1);
	if (hi > lo)
		madvise((void *)lo, hi - lo, MADV_DONTNEED);
}

/*
 * Waits (under sl->lock) for the stream to publish more. A guard-mode
 * stream starts on its first waiter, who wakes it; nobody else signals
 * here (two waiters waking each other would spin).
 */
static void wait_final(struct jh_sec_slot *sl)
{
	if (sl->guard && !sl->waiters)
		pthread_cond_broadcast(&sl->cv);
	sl->waiters++;
	pthread_cond_wait(&sl->cv, &sl->lock);
	sl->waiters--;
}

static void load_slot(struct jh_sec_slot *sl)
{
	if (atomic_load_explicit(&sl->ready, memory_order_acquire))
		return;
	pthread_mutex_lock(&sl->lock);
	while (sl->streaming && !sl->done) {
		wait_final(sl);
	}
	if (!sl->streaming && !atomic_load_explicit(&sl->ready, memory_order_relaxed)) {
		JH_TRACE("inflate %s %llu", sl->pub.name, (unsigned long long)sl->pub.size);
		struct jh_packed pk = { sl->packed, sl->packed_size, sl->pub.size,
					sl->comp == JH_COMP_ZSTD };
		unsigned char *buf = jh_inflate_grow(&pk);
		JH_TRACE("inflated %s", sl->pub.name);
		sl->owned = buf;
		sl->pub.data = buf; /* NULL: callers see a section without bytes */
		if (buf)
			drop_pages(sl->packed, sl->packed_size);
		atomic_store_explicit(&sl->ready, 1, memory_order_release);
	}
	pthread_mutex_unlock(&sl->lock);
}

static int host_big_endian(void)
{
	const uint16_t one = 1;
	return *(const unsigned char *)&one == 0;
}

static int read_headers(struct jh_sections *s, struct jh_diag *d)
{
	GElf_Ehdr eh;
	if (elf_kind(s->elf) != ELF_K_ELF || !gelf_getehdr(s->elf, &eh))
		return jh_diag_set(d, JH_EXIT_INPUT, s->path, 0, "not an ELF file");
	s->is64 = eh.e_ident[EI_CLASS] == ELFCLASS64;
	s->big_endian = eh.e_ident[EI_DATA] == ELFDATA2MSB;
	s->machine = eh.e_machine;
	if ((JH_HOST_MACHINE != EM_NONE && eh.e_machine != JH_HOST_MACHINE) ||
	    s->is64 != (sizeof(void *) == 8) || s->big_endian != host_big_endian())
		return jh_diag_set(d, JH_EXIT_INPUT, s->path, 0,
				   "ELF file for another architecture (e_machine %u, %d-bit)",
				   eh.e_machine, s->is64 ? 64 : 32);
	size_t shnum, shstrndx;
	if (elf_getshdrnum(s->elf, &shnum) != 0 || elf_getshdrstrndx(s->elf, &shstrndx) != 0)
		return jh_diag_set(d, JH_EXIT_INPUT, s->path, 0, "bad section header table: %s",
				   elf_errmsg(-1));
	uint64_t nsh = shnum > eh.e_shnum ? shnum : eh.e_shnum;
	uint64_t shsz = nsh * (eh.e_shentsize ? eh.e_shentsize : 1);
	if ((nsh > 0 || eh.e_shoff) &&
	    (eh.e_shoff > s->raw_size || shsz > s->raw_size - eh.e_shoff))
		return jh_diag_set(d, JH_EXIT_INPUT, s->path, 0,
				   "section header table past the end of the file (truncated?)");
	s->n = shnum;
	s->slots = xcalloc(shnum ? shnum : 1, sizeof(*s->slots));
	for (size_t i = 0; i < shnum; i++) {
		pthread_mutex_init(&s->slots[i].lock, NULL);
		pthread_cond_init(&s->slots[i].cv, NULL);
	}
	for (size_t i = 1; i < shnum; i++) {
		struct jh_sec_slot *sl = &s->slots[i];
		GElf_Shdr sh;
		Elf_Scn *scn = elf_getscn(s->elf, i);
		if (!scn || !gelf_getshdr(scn, &sh))
			return jh_diag_set(d, JH_EXIT_INPUT, s->path, 0, "bad section header %zu",
					   i);
		const char *name = elf_strptr(s->elf, shstrndx, sh.sh_name);
		sl->pub.name = name ? name : "";
		sl->pub.size = sh.sh_size;
		sl->pub.addr = sh.sh_addr;
		sl->pub.type = sh.sh_type;
		sl->pub.flags = sh.sh_flags & ~(uint64_t)SHF_COMPRESSED;
		sl->pub.link = sh.sh_link;
		sl->pub.info = sh.sh_info;
		sl->pub.entsize = sh.sh_entsize;
		atomic_init(&sl->ready, 1);
		if (sh.sh_type == SHT_NOBITS)
			continue;
		if (sh.sh_offset > s->raw_size || sh.sh_size > s->raw_size - sh.sh_offset)
			return jh_diag_set(
				d, JH_EXIT_INPUT, s->path, 0,
				"section %s extends past the end of the file (truncated?)",
				sl->pub.name);
		sl->pub.data = s->raw + sh.sh_offset;
		int shf = (sh.sh_flags & SHF_COMPRESSED) != 0;
		if (shf || strncmp(sl->pub.name, ".zdebug", 7) == 0) {
			if (parse_compressed(s, sl, sl->pub.name, shf, d) != 0)
				return -1;
			atomic_store(&sl->ready, 0);
		}
	}
	return 0;
}

/*
 * Checks the file-wide inflation bound and reserves the file's mapping and
 * everything its compressed sections inflate to against the DWARF memory
 * ceiling (mem_budget.h); *over is set when that ceiling is the reason.
 */
static int reserve(struct jh_sections *s, struct jh_diag *d, int *over)
{
	uint64_t total = s->raw_size, limit = jh_mem_budget_limit();
	uint64_t used = jh_mem_budget_used(), file_max = s->raw_size * JH_FILE_RATIO;
	uint64_t room = limit - (used < limit ? used : limit);
	const char *crossing = total > room ? "" : NULL;
	for (size_t i = 1; i < s->n; i++) {
		const struct jh_sec_slot *sl = &s->slots[i];
		if (!sl->packed)
			continue; /* not compressed */
		total += sl->pub.size;
		if (total - s->raw_size > file_max + JH_RATIO_SLACK)
			return jh_diag_set(d, JH_EXIT_INPUT, s->path, 0,
					   "section %s: the compressed sections inflate to more "
					   "than %u times the file's %zu bytes, not inflated",
					   sl->pub.name, JH_FILE_RATIO, s->raw_size);
		if (!crossing && total > room)
			crossing = sl->pub.name;
	}
	if (jh_mem_reserve(total) != 0) {
		*over = 1;
		return jh_diag_set(d, JH_EXIT_INPUT, s->path, 0,
				   "%s%s: %llu MB of debug data would pass the DWARF memory "
				   "ceiling (--max-memory=%llu MB, %llu MB in use)",
				   *crossing ? "section " : "mapping the file", crossing,
				   (unsigned long long)(total >> 20),
				   (unsigned long long)(limit >> 20),
				   (unsigned long long)(used >> 20));
	}
	s->reserved = total;
	return 0;
}

/* The rest of opening, on the mapped bytes raw[0, n). */
static struct jh_sections *open_mapped(struct jh_sections *s, struct jh_diag *d, int *over)
{
	s->elf = elf_memory((char *)s->raw, s->raw_size);
	if (!s->elf) {
		jh_diag_set(d, JH_EXIT_INPUT, s->path, 0, "not an ELF file: %s", elf_errmsg(-1));
		goto fail;
	}
	if (read_headers(s, d) != 0 || reserve(s, d, over) != 0)
		goto fail;
	return s;
fail:
	jh_sections_close(s);
	return NULL;
}

static struct jh_sections *sections_new(const char *path)
{
	pthread_once(&elf_once, elf_init_once);
	struct jh_sections *s = xcalloc(1, sizeof(*s));
	s->path = xstrdup(path);
	s->fd = -1;
	return s;
}

struct jh_sections *jh_sections_open(const char *path, struct jh_diag *d)
{
	int fd = open(path, O_RDONLY | O_CLOEXEC), over = 0;
	if (fd < 0) {
		jh_diag_set(d, JH_EXIT_INPUT, path, 0, "cannot open: %s", strerror(errno));
		return NULL;
	}
	struct stat st;
	if (fstat(fd, &st) != 0 || !S_ISREG(st.st_mode) || st.st_size < 16) {
		jh_diag_set(d, JH_EXIT_INPUT, path, 0,
			    "not an ELF file (not a regular file or too short)");
		close(fd);
		return NULL;
	}
	struct jh_sections *s = sections_new(path);
	s->fd = fd;
	/* writable private pages: libelf may convert in place; nothing is written back */
	void *map = mmap(NULL, (size_t)st.st_size, PROT_READ | PROT_WRITE, MAP_PRIVATE, fd, 0);
	if (map == MAP_FAILED) {
		jh_diag_set(d, JH_EXIT_INPUT, path, 0, "cannot map the file: %s", strerror(errno));
		jh_sections_close(s);
		return NULL;
	}
	s->raw = map;
	s->raw_size = (size_t)st.st_size;
	s->own_map = 1;
	return open_mapped(s, d, &over);
}

struct jh_sections *jh_sections_open_image(const struct jh_elf_image *im, struct jh_diag *d,
					   int *over)
{
	struct jh_sections *s = sections_new(jh_elf_image_path(im));
	*over = 0;
	s->raw = jh_elf_image_raw(im, &s->raw_size);
	if (!s->raw || s->raw_size < 16) {
		jh_diag_set(d, JH_EXIT_INPUT, s->path, 0, "not an ELF file (too short)");
		jh_sections_close(s);
		return NULL;
	}
	return open_mapped(s, d, over);
}

void jh_sections_close(struct jh_sections *s)
{
	if (!s)
		return;
	for (size_t i = 0; i < s->n; i++) {
		struct jh_sec_slot *sl = &s->slots[i];
		if (sl->streaming) {
			pthread_mutex_lock(&sl->lock);
			sl->cancel = 1;
			pthread_cond_broadcast(&sl->cv);
			pthread_mutex_unlock(&sl->lock);
			pthread_join(sl->thread, NULL);
		}
		if (sl->map_len)
			munmap(sl->owned, sl->map_len);
		else
			free(sl->owned);
		free(sl->name_buf);
		pthread_mutex_destroy(&sl->lock);
		pthread_cond_destroy(&sl->cv);
	}
	free(s->slots);
	if (s->elf)
		elf_end(s->elf);
	if (s->own_map)
		munmap((void *)s->raw, s->raw_size);
	if (s->fd >= 0)
		close(s->fd);
	jh_mem_release(s->reserved);
	free(s->path);
	free(s);
}

size_t jh_sections_count(const struct jh_sections *s)
{
	return s->n;
}

const struct jh_section *jh_sections_peek(const struct jh_sections *s, size_t i)
{
	return i < s->n ? &s->slots[i].pub : NULL;
}

const struct jh_section *jh_sections_at(const struct jh_sections *s, size_t i)
{
	if (i >= s->n)
		return NULL;
	load_slot(&s->slots[i]);
	return &s->slots[i].pub;
}

size_t jh_sections_index(const struct jh_sections *s, const char *name)
{
	const char *want = name[0] == '.' ? name + 1 : name;
	for (size_t i = 1; i < s->n; i++)
		if (strcmp(s->slots[i].pub.name + (s->slots[i].pub.name[0] == '.'), want) == 0)
			return i;
	return 0;
}

const struct jh_section *jh_sections_find(const struct jh_sections *s, const char *name)
{
	size_t i = jh_sections_index(s, name);
	return i ? jh_sections_at(s, i) : NULL;
}

static int is_streaming(struct jh_sec_slot *sl)
{
	pthread_mutex_lock(&sl->lock);
	int r = sl->streaming;
	pthread_mutex_unlock(&sl->lock);
	return r;
}

struct prefetch_ctx {
	const struct jh_sections *s;
	size_t *idx, n;
};

static void prefetch_one(void *ctx, void *w, size_t i)
{
	struct prefetch_ctx *c = ctx;
	(void)w;
	load_slot(&c->s->slots[c->idx[i]]);
}

void jh_sections_prefetch(const struct jh_sections *s, const char *const *names, int jobs)
{
	struct prefetch_ctx c = { .s = s, .idx = xmalloc(jh_st_mult(s->n + 1, sizeof(size_t))) };
	uint64_t total = 0;
	for (size_t i = 1; i < s->n; i++) {
		if (atomic_load(&s->slots[i].ready) || is_streaming(&s->slots[i]))
			continue; /* a streamed section inflates on its own thread */
		for (const char *const *nm = names; *nm; nm++) {
			if (strcmp(s->slots[i].pub.name, *nm) == 0) {
				c.idx[c.n++] = i;
				total += s->slots[i].pub.size;
				break;
			}
		}
	}
	/* Biggest first, so the threads finish close together. */
	for (size_t i = 1; i < c.n; i++)
		for (size_t j = i;
		     j > 0 && s->slots[c.idx[j]].pub.size > s->slots[c.idx[j - 1]].pub.size; j--) {
			size_t t = c.idx[j];
			c.idx[j] = c.idx[j - 1];
			c.idx[j - 1] = t;
		}
	if (total < (8u << 20))
		jobs = 1; /* not worth a thread */
	jh_sched_parallel(c.n, jobs, &c, NULL, prefetch_one, NULL);
	free(c.idx);
}

int jh_sections_is_64bit(const struct jh_sections *s)
{
	return s->is64;
}

int jh_sections_is_big_endian(const struct jh_sections *s)
{
	return s->big_endian;
}

uint16_t jh_sections_machine(const struct jh_sections *s)
{
	return s->machine;
}

const char *jh_sections_path(const struct jh_sections *s)
{
	return s->path;
}

/* ---- streaming ---- */

/* Makes [0, n) of a guard-mode buffer accessible (the rest stays PROT_NONE). */
static void guard_open(struct jh_sec_slot *sl, uint64_t n)
{
	uintptr_t pg = (uintptr_t)sysconf(_SC_PAGESIZE);
	size_t len = (size_t)((n + pg - 1) & ~(uint64_t)(pg - 1));
	if (len > sl->map_len)
		len = sl->map_len;
	mprotect(sl->owned, len, PROT_READ | PROT_WRITE);
}

/* Makes the first n bytes final; returns 1 when the stream is to stop (close). */
static int publish(struct jh_sec_slot *sl, uint64_t n)
{
	pthread_mutex_lock(&sl->lock);
	sl->avail = n;
	int stop = sl->cancel;
	pthread_cond_broadcast(&sl->cv);
	pthread_mutex_unlock(&sl->lock);
	return stop;
}

/*
 * zlib, chunk by chunk: the output goes straight into the final buffer
 * (guard mode: through a scratch chunk, copied once its pages are opened),
 * each chunk published when done. Raw deflate as in zlib_begin.
 */
static int stream_zlib(struct jh_sec_slot *sl)
{
	uint64_t out_n = sl->pub.size, done = 0, in_left;
	z_stream zs;
	if (jh_zlib_begin(&zs, sl->packed, sl->packed_size, &in_left) != 0)
		return -1;
	unsigned char *scratch = sl->guard ? xmalloc(sl->chunk) : NULL;
	int rc = Z_OK;
	const unsigned char *dropped = sl->packed;
	int stop = 0;
	while (rc == Z_OK && done < out_n && !stop) {
		uint64_t want = out_n - done < sl->chunk ? out_n - done : sl->chunk;
		zs.next_out = scratch ? scratch : sl->owned + done;
		zs.avail_out = (uInt)want;
		while (rc == Z_OK && zs.avail_out)
			rc = jh_zlib_step(&zs, &in_left, 0);
		uint64_t got = want - zs.avail_out;
		if (scratch) {
			guard_open(sl, done + got);
			memcpy(sl->owned + done, scratch, got);
			usleep(200); /* let readers run into the frontier */
		}
		done += got;
		if (got != want)
			break;
		stop = publish(sl, done);
		/* the input read so far is not needed again: give its pages back */
		uintptr_t pg = (uintptr_t)sysconf(_SC_PAGESIZE);
		const unsigned char *upto = (const unsigned char *)((uintptr_t)zs.next_in &
								    ~(pg - 1));
		if (upto > dropped) {
			drop_pages(dropped, (uint64_t)(upto - dropped));
			dropped = upto;
		}
	}
	if (rc == Z_OK && done == out_n) { /* full: the stream must end exactly here */
		zs.avail_out = 0;
		rc = jh_zlib_step(&zs, &in_left, 0);
	}
	int ok = done == out_n && rc == Z_STREAM_END;
	inflateEnd(&zs);
	free(scratch);
	return ok ? 0 : -1;
}

static void *stream_main(void *arg)
{
	struct jh_sec_slot *sl = arg;
	if (sl->guard) { /* tests: nothing is final until a reader waits */
		pthread_mutex_lock(&sl->lock);
		while (!sl->waiters && !sl->cancel)
			pthread_cond_wait(&sl->cv, &sl->lock);
		pthread_mutex_unlock(&sl->lock);
	}
	JH_TRACE("stream %s %llu", sl->pub.name, (unsigned long long)sl->pub.size);
	int ok;
	if (sl->comp == JH_COMP_ZSTD) {
		if (sl->guard)
			guard_open(sl, sl->pub.size);
		ok = jh_zstd_once(sl->owned, sl->pub.size, sl->packed, sl->packed_size) == 0;
	} else {
		ok = stream_zlib(sl) == 0;
	}
	JH_TRACE("streamed %s", sl->pub.name);
	if (ok)
		drop_pages(sl->packed, sl->packed_size);
	pthread_mutex_lock(&sl->lock);
	/* on failure the published prefix stays valid; pub.data says the rest */
	if (ok)
		sl->avail = sl->pub.size;
	sl->pub.data = ok ? sl->owned : NULL;
	sl->done = 1;
	pthread_cond_broadcast(&sl->cv);
	pthread_mutex_unlock(&sl->lock);
	return NULL;
}

int jh_sections_stream(const struct jh_sections *s, size_t i, uint64_t chunk, int guard)
{
	if (i == 0 || i >= s->n)
		return -1;
	struct jh_sec_slot *sl = &s->slots[i];
	int rc = -1;
	pthread_mutex_lock(&sl->lock);
	if (!sl->streaming && !atomic_load_explicit(&sl->ready, memory_order_relaxed)) {
		uint64_t size = sl->pub.size ? sl->pub.size : 1;
		sl->chunk = chunk ? chunk : (4u << 20);
		sl->guard = guard;
		if (guard) {
			uintptr_t pg = (uintptr_t)sysconf(_SC_PAGESIZE);
			sl->map_len = (size_t)((size + pg - 1) & ~(uint64_t)(pg - 1));
			void *p = mmap(NULL, sl->map_len, PROT_NONE, MAP_PRIVATE | MAP_ANONYMOUS,
				       -1, 0);
			if (p == MAP_FAILED) {
				sl->map_len = 0;
				pthread_mutex_unlock(&sl->lock);
				return -1;
			}
			sl->owned = p;
		} else {
			sl->owned = xmalloc(size);
		}
		sl->partial = sl->pub;
		sl->partial.data = sl->owned;
		sl->avail = 0;
		if (pthread_create(&sl->thread, NULL, stream_main, sl) == 0) {
			sl->streaming = 1;
			rc = 0;
		} else {
			if (sl->map_len)
				munmap(sl->owned, sl->map_len);
			else
				free(sl->owned);
			sl->owned = NULL;
			sl->map_len = 0;
		}
	}
	pthread_mutex_unlock(&sl->lock);
	return rc;
}

const struct jh_section *jh_sections_partial(const struct jh_sections *s, size_t i)
{
	if (i >= s->n)
		return NULL;
	struct jh_sec_slot *sl = &s->slots[i];
	if (is_streaming(sl))
		return &sl->partial;
	load_slot(sl);
	return &sl->pub;
}

uint64_t jh_sections_wait(const struct jh_sections *s, size_t i, uint64_t n)
{
	if (i >= s->n)
		return 0;
	struct jh_sec_slot *sl = &s->slots[i];
	pthread_mutex_lock(&sl->lock);
	if (!sl->streaming) {
		pthread_mutex_unlock(&sl->lock);
		load_slot(sl);
		return sl->pub.data ? sl->pub.size : 0;
	}
	uint64_t a;
	int waited = 0;
	while ((a = sl->avail) < n && !sl->done) {
		if (!waited++)
			JH_TRACE("wait %s %llu", sl->pub.name, (unsigned long long)n);
		wait_final(sl);
	}
	pthread_mutex_unlock(&sl->lock);
	if (waited)
		JH_TRACE("waited %s", sl->pub.name);
	return a;
}

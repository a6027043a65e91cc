/*
 * report_raw.c - --raw: the first profile as a `.symbolized` file (jeprof's
 * format, spec §4.2):
 *
 *   --- symbol
 *   binary=<program>
 *   0x<16 hex pc> outer--inlined--innermost     one per distinct caller-adjusted pc, ascending
 *   ---
 *   --- heap
 *   <the profile, verbatim>
 *
 * jeprof can only do this for remote profiles; here the local file is read a
 * second time through the input module (so gzip/zstd files work), once to
 * collect its pcs and once to copy it. Names come from the model's
 * locations, so they are exactly what every other report shows; reading the
 * output back gives the same report (round trip).
 */
#include "report_graph.h"

#include "input.h"
#include "jeheap/names.h"

#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* The text after a "---" and its spaces, or NULL when s is no "---" line. */
static const char *after_dashes(const char *s)
{
	if (strncmp(s, "---", 3))
		return NULL;
	for (s += 3; *s == ' ';)
		s++;
	return s;
}

/* "--- symbol" (also "---symbols"): a symbolized file's first line. */
static int is_symbol_header(const char *s)
{
	s = after_dashes(s);
	return s && !strncmp(s, "symbol", 6);
}

/* "--- heap", "---heap", "--- growth": the optional marker after the symbols. */
static int is_section_marker(const char *s)
{
	s = after_dashes(s);
	return s && (!strncmp(s, "heap", 4) || !strncmp(s, "growth", 6));
}

/*
 * Walks the profile part of a file: calls fn for every line of the profile
 * body (after a symbol section and its markers, if the file has one).
 * Returns 0, or -1 with d set.
 */
typedef int (*body_fn)(const char *line, size_t len, void *arg);

static int walk_body(const char *path, body_fn fn, void *arg, struct jh_diag *d)
{
	struct jh_input *in = jh_input_open(path, d);
	if (!in)
		return -1;
	enum { START, SYMBOLS, MARKER, BODY } state = START;
	char *line;
	size_t len;
	int r;
	while ((r = jh_input_line(in, &line, &len, d)) > 0) {
		line[len] = '\0';
		switch (state) {
		case START:
			if (line[0] == '%')
				continue;
			if (is_symbol_header(line)) {
				state = SYMBOLS;
				continue;
			}
			state = BODY;
			break;
		case SYMBOLS:
			/* The first "---" line ends the symbols and is consumed. */
			if (!strncmp(line, "---", 3))
				state = MARKER;
			continue;
		case MARKER:
			if (line[0] == '%' || is_section_marker(line)) {
				if (line[0] != '%')
					state = BODY;
				continue;
			}
			state = BODY;
			break;
		case BODY:
			break;
		}
		if (fn(line, len, arg)) {
			r = jh_diag_set(d, JH_EXIT_OUTPUT, NULL, 0, "error writing output");
			break;
		}
	}
	jh_input_close(in);
	return r < 0 ? -1 : 0;
}

struct pcset {
	struct jh_u64map seen;
	uint64_t *pcs;
	size_t nr, alloc;
	int in_maps; /* past MAPPED_LIBRARIES: / --- Memory map: */
};

static void add_pc(struct pcset *s, uint64_t pc)
{
	int added;
	if (pc == UINT64_MAX) /* the map's reserved key; no location has it */
		return;
	jh_u64map_put(&s->seen, pc, &added);
	if (added) {
		JH_GROW(s->pcs, s->nr + 1, s->alloc);
		s->pcs[s->nr++] = pc;
	}
}

/*
 * Collects the pcs of one stack line: heap_v2 "@ 0x.. 0x.." or legacy
 * "N: N [N: N] @ 0x.. 0x..". The leaf is kept, every caller minus 1, as
 * every reader of the format does (spec §5.1).
 */
static int collect_pcs(const char *line, size_t len, void *arg)
{
	struct pcset *s = arg;
	(void)len;
	if (s->in_maps)
		return 0;
	if (!strncmp(line, "MAPPED_LIBRARIES:", 17) || !strncmp(line, "--- Memory map:", 15)) {
		s->in_maps = 1;
		return 0;
	}
	const char *p = line;
	while (*p == ' ' || *p == '\t')
		p++;
	if (*p != '@') {
		if (*p < '0' || *p > '9')
			return 0;
		p = strchr(p, '@');
		if (!p)
			return 0;
	}
	p++;
	int first = 1;
	for (;;) {
		while (*p == ' ' || *p == '\t')
			p++;
		if (!*p)
			break;
		char *end;
		uint64_t pc = strtoull(p, &end, 16);
		if (end == p)
			break;
		add_pc(s, first ? pc : pc - 1);
		first = 0;
		p = end;
	}
	return 0;
}

static int copy_line(const char *line, size_t len, void *arg)
{
	FILE *out = arg;
	fwrite(line, 1, len, out);
	return putc('\n', out) == EOF;
}

/*
 * The names of l as a symbol line writes them: full names outermost first
 * joined with "--". A location without a name gets the name every report
 * shows for it ("libname+0xOFF" or the bare pc key), so that reading the
 * file back shows the same; jeprof would print "0x<pc>" for a pc missing
 * from the symbol section.
 */
static void raw_name(struct jh_sb *sb, const struct jh_model *m, const struct jh_location *l)
{
	if (!l->nframes) {
		jh_unknown_name(sb, l);
		return;
	}
	for (uint32_t k = 0; k < l->nframes; k++) {
		const char *fn = m->frames.items[l->first + k].func;
		if (k)
			jh_sb_adds(sb, "--");
		if (fn)
			jh_sb_adds(sb, fn);
		else if (k == 0 && l->module)
			jh_unknown_name(sb, l);
		else
			jh_sb_adds(sb, "??");
	}
}

int jh_report_raw(FILE *out, const struct jh_model *m, const struct jh_options *o,
		  struct jh_diag *d)
{
	if (!o->nprofiles)
		return jh_diag_set(d, JH_EXIT_USAGE, NULL, 0, "--raw needs a profile");
	const char *path = o->profiles[0];
	if (!strcmp(path, "-")) /* jh_raw_spool_stdin was not called */
		return jh_diag_set(d, JH_EXIT_INTERNAL, NULL, 0, "--raw: stdin was not kept");
	if (o->nprofiles > 1 || o->nbases)
		jh_warn("--raw writes the first profile only (%s), without --base", path);

	struct pcset s = {0};
	jh_u64map_init(&s.seen);
	if (walk_body(path, collect_pcs, &s, d)) {
		jh_u64map_release(&s.seen);
		free(s.pcs);
		return -1;
	}
	jh_qsort(s.pcs, s.nr, sizeof(*s.pcs), jh_cmp_u64);

	/* pc -> location: the first location with that pc is the first profile's. */
	struct jh_u64map byloc;
	jh_u64map_init(&byloc);
	for (size_t i = 0; i < m->nlocs; i++) {
		int added;
		if (m->locs[i].pc == UINT64_MAX)
			continue;
		uint64_t *v = jh_u64map_put(&byloc, m->locs[i].pc, &added);
		if (added)
			*v = i;
	}

	struct jh_sb name = JH_SB_INIT;
	jh_sb_init(&name);
	fputs("--- symbol\n", out);
	const char *prog = o->program ? o->program : m->program;
	if (prog)
		fprintf(out, "binary=%s\n", prog);
	for (size_t i = 0; i < s.nr; i++) {
		uint64_t *li = jh_u64map_get(&byloc, s.pcs[i]);
		if (!li)
			continue;
		const struct jh_location *l = &m->locs[*li];
		jh_sb_reset(&name);
		raw_name(&name, m, l);
		fprintf(out, "0x%016" PRIx64 " %s\n", s.pcs[i], name.buf);
	}
	jh_sb_release(&name);
	fputs("---\n--- heap\n", out);
	jh_u64map_release(&byloc);
	jh_u64map_release(&s.seen);
	free(s.pcs);
	return walk_body(path, copy_line, out, d);
}

const struct jh_options *jh_raw_spool_stdin(struct jh_raw_spool *sp, const struct jh_options *o,
					    struct jh_diag *d)
{
	memset(sp, 0, sizeof(*sp));
	if (!o->nprofiles || strcmp(o->profiles[0], "-"))
		return o;
	const char *dir = getenv("TMPDIR");
	struct jh_sb path = JH_SB_INIT;
	jh_sb_init(&path);
	jh_sb_addf(&path, "%s/jeheap-stdin.XXXXXX", dir && *dir ? dir : "/tmp");
	int fd = mkostemp(path.buf, O_CLOEXEC);
	if (fd < 0) {
		jh_diag_set(d, JH_EXIT_INPUT, path.buf, 0, "cannot create: %s", strerror(errno));
		jh_sb_release(&path);
		return NULL;
	}
	sp->path = jh_sb_detach(&path);
	/* Copied as it comes (compressed or not): the input module reads it twice. */
	char buf[1 << 16];
	for (;;) {
		ssize_t n = read(0, buf, sizeof(buf));
		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0 || (n > 0 && write(fd, buf, (size_t)n) != n)) {
			jh_diag_set(d, JH_EXIT_INPUT, n < 0 ? "-" : sp->path, 0, "%s: %s",
				    n < 0 ? "read error" : "cannot write", strerror(errno));
			close(fd);
			jh_raw_spool_release(sp);
			return NULL;
		}
		if (n == 0)
			break;
	}
	if (close(fd)) {
		jh_diag_set(d, JH_EXIT_INPUT, sp->path, 0, "cannot write: %s", strerror(errno));
		jh_raw_spool_release(sp);
		return NULL;
	}
	sp->profiles = xmalloc(jh_st_mult(o->nprofiles, sizeof(*sp->profiles)));
	memcpy(sp->profiles, o->profiles, o->nprofiles * sizeof(*sp->profiles));
	sp->profiles[0] = sp->path;
	sp->o = *o;
	sp->o.profiles = sp->profiles;
	return &sp->o;
}

void jh_raw_spool_release(struct jh_raw_spool *sp)
{
	if (sp->path) {
		unlink(sp->path);
		free(sp->path);
	}
	free(sp->profiles);
	memset(sp, 0, sizeof(*sp));
}

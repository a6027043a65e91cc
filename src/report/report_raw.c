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
 * jeprof can only do this for remote profiles; here the pcs are the model's
 * (the first profile's, jh_model.first_pcs) and the local file is read a
 * second time through the input module (so gzip/zstd files work) to copy
 * its body verbatim. Names come from the model's locations, so they are exactly what every other report shows; reading the
 * output back gives the same report (round trip).
 */
#include "jeheap/report_graph.h"

#include "jeheap/input.h"
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
 * Copies the profile part of a file to out: every line of the profile body
 * (after a symbol section and its markers, if the file has one). Returns
 * 0, or -1 with d set.
 */
static int copy_body(const char *path, FILE *out, struct jh_diag *d)
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
		fwrite(line, 1, len, out);
		if (putc('\n', out) == EOF) {
			r = jh_diag_set(d, JH_EXIT_OUTPUT, NULL, 0, "error writing output");
			break;
		}
	}
	jh_input_close(in);
	return r < 0 ? -1 : 0;
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

/* A pc of the first profile and its index in first_pcs/first_locs. */
struct first_pc {
	uint64_t pc;
	size_t i;
};

static int cmp_first_pc(const void *a, const void *b)
{
	return jh_cmp_u64(&((const struct first_pc *)a)->pc, &((const struct first_pc *)b)->pc);
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

	/* the first profile's pcs ascending, each with its location */
	size_t n = m->nfirst;
	struct first_pc *key = xmalloc(jh_st_mult(n ? n : 1, sizeof(*key)));
	for (size_t i = 0; i < n; i++)
		key[i] = (struct first_pc){m->first_pcs[i], i};
	jh_qsort(key, n, sizeof(*key), cmp_first_pc);

	struct jh_sb name = JH_SB_INIT;
	jh_sb_init(&name);
	fputs("--- symbol\n", out);
	const char *prog = o->program ? o->program : m->program;
	if (prog)
		fprintf(out, "binary=%s\n", prog);
	for (size_t i = 0; i < n; i++) {
		const struct jh_location *l = &m->locs[m->first_locs[key[i].i]];
		jh_sb_reset(&name);
		raw_name(&name, m, l);
		fprintf(out, "0x%016" PRIx64 " %s\n", key[i].pc, name.buf);
	}
	jh_sb_release(&name);
	free(key);
	fputs("---\n--- heap\n", out);
	return copy_body(path, out, d);
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

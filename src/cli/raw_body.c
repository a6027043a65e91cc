/*
 * raw_body.c - the command line's part of --raw: the profile's body copied
 * verbatim after the symbol part that report_raw.c writes (the file is
 * read a second time through the input stage, so gzip/zstd files work),
 * and stdin kept in a temporary file so that it can be read twice.
 */
#include "cli.h"

#include "jeheap/input.h"

#include <errno.h>
#include <fcntl.h>
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
 * 0, or -1 with d set (d->code 0 and errno set on a write error).
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
		case BODY: break;
		}
		fwrite(line, 1, len, out);
		if (putc('\n', out) == EOF) {
			r = -1; /* a write error: d is left unset, errno kept */
			break;
		}
	}
	int err = errno;
	jh_input_close(in);
	errno = err;
	return r < 0 ? -1 : 0;
}

int jh_raw_write(FILE *out, const struct jh_model *m, const struct jh_options *o, struct jh_diag *d)
{
	if (!o->nprofiles)
		return jh_diag_set(d, JH_EXIT_USAGE, NULL, 0, "--raw needs a profile");
	const char *path = o->profiles[0];
	if (!strcmp(path, "-")) /* jh_raw_spool_stdin was not called */
		return jh_diag_set(d, JH_EXIT_INTERNAL, NULL, 0, "--raw: stdin was not kept");
	if (o->nprofiles > 1 || o->nbases)
		jh_warn("--raw writes the first profile only (%s), without --base", path);
	struct jh_report_opts ro;
	jh_report_opts_from(&ro, o);
	if (jh_report_raw_symbols(out, m, &ro))
		return -1; /* a write error */
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

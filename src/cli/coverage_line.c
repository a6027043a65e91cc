/*
 * coverage_line.c - the one line a run on raw dumps ends with: the share of
 * sampled bytes fully symbolized (model.h: jh_coverage.percent), then the
 * modules that leave the most bytes short of lines, each with its state and
 * what to do (the Debian debug package that holds its debug file, or -g). A
 * module a warning of the run already explained (missing, differs, refused)
 * is not named again; --verbose adds every module (jh_model_coverage).
 */
#include "coverage_line.h"

#include <stdlib.h>
#include <string.h>

#define NAMED 3 /* modules named on the line at most */

static const char *base_name(const char *path)
{
	const char *s = strrchr(path, '/');
	return s ? s + 1 : path;
}

/* A module the line names: short of lines, not explained, something to do. */
static int worth(const struct jh_coverage_module *cm)
{
	return cm->bytes_short > 0 && !cm->explained &&
	       (cm->state == JH_MOD_SYMBOLS || cm->state == JH_MOD_NOSYMBOLS);
}

void jh_coverage_line(const struct jh_model *m, FILE *f)
{
	struct jh_coverage c;
	if (!jh_model_coverage_tally(m, &c))
		return; /* names from .symbolized files only: nothing to say */
	/* the modules named, by bytes short of lines (c.mods' order) */
	size_t n = 0, more = 0;
	for (size_t j = 0; j < c.nmods; j++) {
		if (!worth(&c.mods[j]))
			continue;
		if (n < NAMED)
			c.mods[n++] = c.mods[j]; /* actions are not set yet: nothing to free */
		else
			more++;
	}
	c.nmods = n;
	jh_coverage_actions(&c, n);
	struct jh_sb sb;
	jh_sb_init(&sb);
	jh_sb_addf(&sb, "jeheap: %.1f%% of bytes fully symbolized", c.percent);
	for (size_t j = 0; j < n; j++) {
		const struct jh_coverage_module *cm = &c.mods[j];
		jh_sb_addf(&sb, "; %s (%s, %.1f%% of bytes short of lines): %s",
			   base_name(cm->module), jh_modstate_name(cm->state),
			   c.total_bytes > 0 ? 100 * cm->bytes_short / c.total_bytes : 0.0,
			   cm->action ? cm->action : "");
	}
	if (more)
		jh_sb_addf(&sb, "; %zu more module%s: --verbose", more, more > 1 ? "s" : "");
	struct jh_sb line = JH_SB_INIT;
	jh_sb_init(&line);
	jh_sb_add_visible(&line, sb.buf); /* a path's newline cannot start a line */
	fprintf(f, "%s\n", line.buf);
	jh_sb_release(&line);
	jh_sb_release(&sb);
	jh_coverage_release(&c);
}

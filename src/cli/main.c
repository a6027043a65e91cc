/* main.c - the only place that prints errors and picks exit codes. */
#include <malloc.h>
#include <sys/resource.h>
#include "jeheap/model.h"
#include "jeheap/options.h"
#include "progress.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int quiet; /* -qq: no warnings (--quiet alone hides the coverage line only) */

static void warn_stderr(enum jh_msg kind, const char *msg)
{
	jh_progress_interrupt();
	if (kind == JH_MSG_NOTE)
		fprintf(stderr, "%s\n", msg);
	else if (!quiet)
		fprintf(stderr, "jeheap: warning: %s\n", msg);
}

/* The last check of stdout (the reports check theirs as they write): a
 * failed flush or close is exit 3 with the reason; a reader that has gone
 * (EPIPE, SIGPIPE ignored) is not an error, as in coreutils' `| head`. */
static int close_stdout(int code)
{
	errno = 0;
	if (fclose(stdout) && code == JH_EXIT_OK && errno != EPIPE) {
		fprintf(stderr, "jeheap: cannot write standard output: %s\n", strerror(errno));
		code = JH_EXIT_OUTPUT;
	}
	return code;
}

/*
 * Under an address-space limit (ulimit -v, prlimit --as), one malloc arena:
 * glibc reserves 64 MB of address space per arena and makes one per thread as
 * timing allows, so that running out would otherwise come at a different
 * point, with a different status, from run to run.
 */
static void one_arena_if_limited(void)
{
	struct rlimit rl;
	if (getrlimit(RLIMIT_AS, &rl) == 0 && rl.rlim_cur != RLIM_INFINITY)
		mallopt(M_ARENA_MAX, 1);
}

int main(int argc, char **argv)
{
	one_arena_if_limited();
	jh_set_warn(warn_stderr);
	struct jh_options o;
	struct jh_diag d = { { 0 }, 0 };
	int r = jh_options_parse(&o, argc, argv, &d);
	if (r) {
		jh_options_release(&o);
		if (r > 0)
			return close_stdout(JH_EXIT_OK);
		fprintf(stderr, "jeheap: %s\n", d.msg);
		return d.code ? d.code : JH_EXIT_USAGE;
	}
	quiet = o.quiet >= 2;
	int code = jh_run(&o, &d);
	if (code != JH_EXIT_OK && d.msg[0])
		fprintf(stderr, "jeheap: %s\n", d.msg);
	jh_options_release(&o);
	return close_stdout(code);
}

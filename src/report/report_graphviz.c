/*
 * report_graphviz.c - --svg --pdf --ps --gif --png --web --gv --evince:
 * the --dot text piped through Graphviz's `dot`, and the viewers.
 *
 * Every external program is started with posix_spawnp and an argv; no
 * shell ever sees a user string. The dot text is written into a pipe while
 * dot writes the image straight to the output file descriptor, so nothing
 * is read back and no deadlock is possible. SVG (--svg, --web) goes to an
 * anonymous temporary file instead, and is written out after jeprof's
 * pan/zoom rewriting (report_svg.c).
 */
#include "jeheap/report.h"

#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <spawn.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

extern char **environ;

/* Graphviz output format for each image mode. */
static const char *dot_format(enum jh_output mode)
{
	switch (mode) {
	case JH_OUT_SVG:
	case JH_OUT_WEB: return "svg";
	case JH_OUT_PDF:
	case JH_OUT_EVINCE: return "pdf";
	case JH_OUT_PS:
	case JH_OUT_GV: return "ps2";
	case JH_OUT_GIF: return "gif";
	case JH_OUT_PNG: return "png";
	default: return NULL;
	}
}

/* File name extension of the temporary file of a viewer mode. */
static const char *viewer_ext(enum jh_output mode)
{
	return mode == JH_OUT_WEB         ? ".svg"
	       : mode == JH_OUT_WEB_FLAME ? ".html"
	       : mode == JH_OUT_GV        ? ".ps"
					  : ".pdf";
}

static const char *viewer_prog(enum jh_output mode)
{
	return mode == JH_OUT_WEB || mode == JH_OUT_WEB_FLAME ? "xdg-open"
	       : mode == JH_OUT_GV                            ? "gv"
							      : "evince";
}

static int write_all(int fd, const char *p, size_t n)
{
	while (n) {
		ssize_t w = write(fd, p, n);
		if (w < 0) {
			if (errno == EINTR)
				continue;
			return -1;
		}
		p += w;
		n -= (size_t)w;
	}
	return 0;
}

/* Waits for pid; returns its exit status, 128+signal, or -1. */
static int wait_child(pid_t pid)
{
	int st;
	while (waitpid(pid, &st, 0) < 0) {
		if (errno != EINTR)
			return -1;
	}
	if (WIFEXITED(st))
		return WEXITSTATUS(st);
	if (WIFSIGNALED(st))
		return 128 + WTERMSIG(st);
	return -1;
}

int jh_graphviz_run(const char *dot, size_t len, const char *format, int out_fd, struct jh_diag *d)
{
	int pfd[2];
	if (pipe2(pfd, O_CLOEXEC) < 0)
		return jh_diag_set(d, JH_EXIT_OUTPUT, NULL, 0, "cannot create a pipe: %s",
				   strerror(errno));
	char fmtarg[32];
	snprintf(fmtarg, sizeof(fmtarg), "-T%s", format);
	char *argv[] = { "dot", fmtarg, NULL };

	posix_spawn_file_actions_t fa;
	posix_spawnattr_t attr;
	posix_spawn_file_actions_init(&fa);
	posix_spawn_file_actions_adddup2(&fa, pfd[0], 0);
	posix_spawn_file_actions_adddup2(&fa, out_fd, 1);
	posix_spawnattr_init(&attr);
	sigset_t def;
	sigemptyset(&def);
	sigaddset(&def, SIGPIPE);
	posix_spawnattr_setsigdefault(&attr, &def);
	posix_spawnattr_setflags(&attr, POSIX_SPAWN_SETSIGDEF);

	pid_t pid;
	int err = posix_spawnp(&pid, "dot", &fa, &attr, argv, environ);
	posix_spawn_file_actions_destroy(&fa);
	posix_spawnattr_destroy(&attr);
	close(pfd[0]);
	if (err) {
		close(pfd[1]);
		if (err == ENOENT)
			return jh_diag_set(d, JH_EXIT_OUTPUT, NULL, 0,
					   "cannot run 'dot': not found in PATH; install Graphviz"
					   " or use --dot");
		return jh_diag_set(d, JH_EXIT_OUTPUT, NULL, 0, "cannot run 'dot': %s",
				   strerror(err));
	}

	/* A dot that dies early must not kill us with SIGPIPE. */
	struct sigaction ign = { 0 }, old;
	ign.sa_handler = SIG_IGN;
	sigemptyset(&ign.sa_mask);
	sigaction(SIGPIPE, &ign, &old);
	int werr = write_all(pfd[1], dot, len) ? errno : 0;
	close(pfd[1]);
	sigaction(SIGPIPE, &old, NULL);

	int st = wait_child(pid);
	if (st == 128 + SIGPIPE) { /* dot's reader has gone: a plain write error */
		errno = EPIPE;
		return -1;
	}
	if (st != 0)
		return jh_diag_set(d, JH_EXIT_OUTPUT, NULL, 0, "'dot %s' failed (exit status %d)",
				   fmtarg, st);
	if (werr)
		return jh_diag_set(d, JH_EXIT_OUTPUT, NULL, 0, "cannot write to 'dot %s': %s",
				   fmtarg, strerror(werr));
	return 0;
}

/* dot -T<fmt> into out_fd; SVG through the pan/zoom rewriting. dot writes
 * to a temporary file, copied here: a failing output is then reported by
 * one line with the system's reason, never by dot. */
static int render(const char *dot, size_t len, const char *fmt, int out_fd, struct jh_diag *d)
{
	FILE *tmp = tmpfile();
	if (!tmp)
		return jh_diag_set(d, JH_EXIT_OUTPUT, NULL, 0, "cannot create a temporary file: %s",
				   strerror(errno));
	int r = jh_graphviz_run(dot, len, fmt, fileno(tmp), d);
	struct jh_sb svg = JH_SB_INIT, out = JH_SB_INIT;
	jh_sb_init(&svg);
	jh_sb_init(&out);
	if (r == 0) {
		char buf[65536];
		size_t n;
		rewind(tmp);
		while ((n = fread(buf, 1, sizeof(buf), tmp)) > 0)
			jh_sb_add(&svg, buf, n);
		if (ferror(tmp))
			r = jh_diag_set(d, JH_EXIT_OUTPUT, NULL, 0, "cannot read dot's output: %s",
					strerror(errno));
	}
	if (r == 0) {
		if (!strcmp(fmt, "svg"))
			jh_svg_pan_zoom(&out, svg.buf, svg.len);
		else
			jh_sb_add(&out, svg.buf, svg.len);
		if (write_all(out_fd, out.buf, out.len))
			r = -1; /* a plain write error: d unset, errno kept */
	}
	int err = errno;
	jh_sb_release(&svg);
	jh_sb_release(&out);
	fclose(tmp);
	errno = err;
	return r;
}

/* Creates the temporary file of a viewer mode; its name goes to path. */
static int make_temp(enum jh_output mode, struct jh_sb *path, struct jh_diag *d)
{
	const char *dir = getenv("TMPDIR");
	if (!dir || !*dir)
		dir = "/tmp";
	jh_sb_reset(path);
	jh_sb_addf(path, "%s/jeheap.XXXXXX%s", dir, viewer_ext(mode));
	int fd = mkostemps(path->buf, (int)strlen(viewer_ext(mode)), O_CLOEXEC);
	if (fd < 0)
		return jh_diag_set(d, JH_EXIT_OUTPUT, path->buf, 0, "cannot create: %s",
				   strerror(errno));
	return fd;
}

/* Opens file in a viewer when a display exists; otherwise says where it is. */
static void show(enum jh_output mode, const char *file, int background)
{
	const char *x = getenv("DISPLAY"), *w = getenv("WAYLAND_DISPLAY");
	if ((!x || !*x) && (!w || !*w)) {
		jh_note("jeheap: no display (DISPLAY and WAYLAND_DISPLAY are unset);"
			" the graph is in %s",
			file);
		return;
	}
	const char *prog = viewer_prog(mode);
	char *argv[] = { (char *)prog, (char *)file, NULL };
	pid_t pid;
	int err = posix_spawnp(&pid, prog, NULL, NULL, argv, environ);
	if (err) {
		jh_note("jeheap: cannot run '%s': %s; the graph is in %s", prog, strerror(err),
			file);
		return;
	}
	jh_note("jeheap: opening %s with %s", file, prog);
	if (!background)
		wait_child(pid);
}

/* A viewer mode's file: data (dot's text rendered as fmt, or as it is when
 * fmt is NULL) written to --output FILE (already open as out), else to a new
 * temporary file, then shown. */
static int to_viewer(const char *data, size_t len, const char *fmt, enum jh_output mode, FILE *out,
		     const char *output_file, int background, struct jh_diag *d)
{
	/* The image goes to --output FILE (already open as out),
	 * else to a new temporary file. */
	struct jh_sb path = JH_SB_INIT;
	jh_sb_init(&path);
	int fd;
	if (output_file) {
		jh_sb_adds(&path, output_file);
		if (fflush(out)) {
			jh_sb_release(&path);
			return jh_diag_set(d, JH_EXIT_OUTPUT, output_file, 0, "cannot write: %s",
					   strerror(errno));
		}
		fd = dup(fileno(out));
		if (fd < 0)
			jh_diag_set(d, JH_EXIT_OUTPUT, output_file, 0, "cannot write: %s",
				    strerror(errno));
	} else {
		fd = make_temp(mode, &path, d);
	}
	if (fd < 0) {
		jh_sb_release(&path);
		return -1;
	}
	int r = fmt ? render(data, len, fmt, fd, d) : 0;
	if (!fmt && write_all(fd, data, len))
		r = jh_diag_set(d, JH_EXIT_OUTPUT, path.buf, 0, "cannot write: %s",
				strerror(errno));
	if (close(fd) && r == 0)
		r = jh_diag_set(d, JH_EXIT_OUTPUT, path.buf, 0, "cannot write: %s",
				strerror(errno));
	if (r == 0)
		show(mode, path.buf, background);
	jh_sb_release(&path);
	return r;
}

int jh_graphviz_output(const char *dot, size_t len, enum jh_output mode, FILE *out,
		       const char *output_file, int background, struct jh_diag *d)
{
	const char *fmt = dot_format(mode);
	if (!fmt)
		return jh_diag_set(d, JH_EXIT_INTERNAL, NULL, 0, "not a graphviz output mode");
	if (mode != JH_OUT_WEB && mode != JH_OUT_GV && mode != JH_OUT_EVINCE) {
		if (fflush(out))
			return jh_diag_set(d, JH_EXIT_OUTPUT, NULL, 0, "error writing output: %s",
					   strerror(errno));
		return render(dot, len, fmt, fileno(out), d);
	}

	return to_viewer(dot, len, fmt, mode, out, output_file, background, d);
}

int jh_viewer_show(const char *data, size_t len, enum jh_output mode, FILE *out,
		   const char *output_file, int background, struct jh_diag *d)
{
	return to_viewer(data, len, NULL, mode, out, output_file, background, d);
}

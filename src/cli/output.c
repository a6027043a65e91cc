/*
 * output.c - where a report goes: stdout, or --output=FILE written
 * atomically. FILE's report is written to a temporary file beside it
 * (FILE.XXXXXX, FILE's mode) and renamed over FILE only when everything,
 * Graphviz included, succeeded and the data is flushed and closed; on any
 * failure FILE keeps its old content and the temporary file is removed. A
 * FILE that exists and is not a regular file (a device, a FIFO), and the
 * file a viewer opens (--web --gv --evince: before the report returns), are
 * written in place, as is a FILE in a directory where no other file can be
 * created. Every failure carries the system's reason; a closed pipe on
 * stdout (EPIPE, when SIGPIPE is ignored) ends the run quietly, as
 * `| head` expects.
 */
#include "cli.h"

#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

FILE *jh_outfile_open(struct jh_outfile *of, const char *file, int in_place, struct jh_diag *d)
{
	memset(of, 0, sizeof(*of));
	of->name = file ? file : "standard output";
	if (!file)
		return of->f = stdout;
	struct stat st;
	int exists = stat(file, &st) == 0;
	if (in_place || (exists && !S_ISREG(st.st_mode))) {
		if (!(of->f = fopen(file, "w")))
			jh_diag_set(d, JH_EXIT_OUTPUT, NULL, 0, "cannot open %s for writing: %s",
				    file, strerror(errno));
		return of->f;
	}
	/* a symbolic link is followed: its target is replaced, not the link */
	char *target = exists ? realpath(file, NULL) : NULL;
	of->final = target ? target : xstrdup(file);
	struct jh_sb tmp = JH_SB_INIT;
	jh_sb_init(&tmp);
	jh_sb_addf(&tmp, "%s.XXXXXX", of->final);
	int fd = mkostemp(tmp.buf, O_CLOEXEC);
	if (fd < 0) {
		int err = errno;
		jh_sb_release(&tmp);
		free(of->final);
		of->final = NULL;
		if (err == EACCES && exists) /* F writable in a closed directory */
			return jh_outfile_open(of, file, 1, d);
		jh_diag_set(d, JH_EXIT_OUTPUT, NULL, 0, "cannot open %s for writing: %s", file,
			    strerror(err));
		return NULL;
	}
	of->tmp = jh_sb_detach(&tmp);
	mode_t mask = umask(0);
	umask(mask);
	if (fchmod(fd, exists ? st.st_mode & 07777 : 0666 & ~mask) || !(of->f = fdopen(fd, "w"))) {
		jh_diag_set(d, JH_EXIT_OUTPUT, NULL, 0, "cannot open %s for writing: %s", file,
			    strerror(errno));
		close(fd);
		jh_outfile_close(of, JH_EXIT_OUTPUT, d);
		return NULL;
	}
	return of->f;
}

int jh_outfile_error(struct jh_outfile *of, int err, struct jh_diag *d)
{
	if (err == EPIPE && of->f == stdout) {
		of->quiet = 1; /* the reader has gone: nothing more to say */
		return JH_EXIT_OK;
	}
	jh_diag_set(d, JH_EXIT_OUTPUT, NULL, 0, "cannot write %s: %s", of->name,
		    strerror(err ? err : EIO));
	return JH_EXIT_OUTPUT;
}

int jh_outfile_close(struct jh_outfile *of, int code, struct jh_diag *d)
{
	int err = 0;
	if (of->f) {
		if (fflush(of->f))
			err = errno;
		else if (ferror(of->f))
			err = EIO; /* the reason was given when the write failed */
		if (of->f != stdout && fclose(of->f) && !err)
			err = errno;
		if (of->f == stdout && of->quiet)
			err = 0;
		if (code == JH_EXIT_OK && err)
			code = jh_outfile_error(of, err, d);
		of->f = NULL;
	}
	if (of->tmp) {
		if (code == JH_EXIT_OK && rename(of->tmp, of->final))
			code = jh_outfile_error(of, errno, d);
		if (code != JH_EXIT_OK)
			unlink(of->tmp);
		free(of->tmp);
		free(of->final);
		of->tmp = of->final = NULL;
	}
	return code;
}

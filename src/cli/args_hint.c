/*
 * args_hint.c - usage errors that teach: nearest option spellings, and the
 * roles of the positional arguments and --base files checked against what
 * the files are (a few bytes of each regular file are read; stdin, pipes
 * and devices are never touched).
 */
#include "args_hint.h"

#include <errno.h>
#include <fcntl.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

/* Optimal string alignment distance; '-' and '_' are the same letter. */
static size_t edit_distance(const char *a, size_t la, const char *b)
{
	size_t lb = strlen(b);
	if (la > 64 || lb > 64)
		return 99;
	size_t d[65][65];
	for (size_t i = 0; i <= la; i++)
		d[i][0] = i;
	for (size_t j = 0; j <= lb; j++)
		d[0][j] = j;
	for (size_t i = 1; i <= la; i++) {
		for (size_t j = 1; j <= lb; j++) {
			char x = a[i - 1] == '-' ? '_' : a[i - 1];
			char y = b[j - 1] == '-' ? '_' : b[j - 1];
			size_t best = d[i - 1][j - 1] + (x != y);
			if (d[i - 1][j] + 1 < best)
				best = d[i - 1][j] + 1;
			if (d[i][j - 1] + 1 < best)
				best = d[i][j - 1] + 1;
			if (i > 1 && j > 1 && a[i - 1] == b[j - 2] && a[i - 2] == b[j - 1] &&
			    d[i - 2][j - 2] + 1 < best)
				best = d[i - 2][j - 2] + 1;
			d[i][j] = best;
		}
	}
	return d[la][lb];
}

int jh_opt_same(const char *a, const char *b, size_t n)
{
	for (size_t i = 0; i < n; i++) {
		char x = a[i] == '-' ? '_' : a[i], y = b[i] == '-' ? '_' : b[i];
		if (x != y)
			return 0;
		if (!x)
			return 1;
	}
	return 1;
}

/* Appends " --NAME" (or " or --NAME" when last) to buf if it fits. */
static void append_name(char *buf, size_t size, const char *sep, const char *name)
{
	size_t used = strlen(buf), lsep = strlen(sep), lname = strlen(name);
	if (used + lsep + lname + 3 >= size)
		return;
	/* copied, not snprintf'd: gcc -O3 cannot see the bound above and warns of truncation */
	char *p = buf + used;
	memcpy(p, sep, lsep);
	memcpy(p + lsep, "--", 2);
	memcpy(p + lsep + 2, name, lname);
	p[lsep + 2 + lname] = '\0';
}

int jh_hint_unknown_opt(struct jh_diag *d, const char *name, size_t len, jh_opt_name_fn names)
{
	/* close enough to be a typo: one edit in four letters, at least one */
	size_t limit = len < 8 ? 1 : len / 4, best = limit + 1, nbest = 0;
	for (size_t i = 0; names(i); i++) {
		size_t e = edit_distance(name, len, names(i));
		if (e < best)
			best = e, nbest = 1;
		else if (e == best)
			nbest++;
	}
	if (best > limit || nbest > 4)
		return jh_diag_set(d, JH_EXIT_USAGE, NULL, 0,
				   "unknown option '--%.*s' (see --help)", (int)len, name);
	char list[256] = "";
	size_t k = 0;
	for (size_t i = 0; names(i); i++)
		if (edit_distance(name, len, names(i)) == best)
			append_name(list, sizeof(list),
				    k == 0           ? ""
				    : k + 1 == nbest ? " or "
						     : ", ",
				    names(i)),
				k++;
	return jh_diag_set(d, JH_EXIT_USAGE, NULL, 0,
			   "unknown option '--%.*s'; did you mean %s? (see --help)", (int)len, name,
			   list);
}

int jh_hint_ambiguous_opt(struct jh_diag *d, const char *name, size_t len, size_t skip,
			  jh_opt_name_fn names)
{
	char list[512] = "";
	for (size_t i = 0; names(i); i++)
		if (jh_opt_same(names(i), name + skip, len - skip))
			append_name(list, sizeof(list), list[0] ? " " : "", names(i));
	return jh_diag_set(d, JH_EXIT_USAGE, NULL, 0, "option '--%.*s' is ambiguous: %s", (int)len,
			   name, list);
}

enum file_kind {
	F_MISSING,
	F_UNREAD, /* not a regular file, or not readable: not looked at */
	F_ELF,
	F_PROFILE,
	F_SCRIPT,
	F_REPORT, /* see report_name */
	F_OTHER,
};

struct sniff {
	enum file_kind kind;
	const char *what; /* F_REPORT: "a --text report", ... */
	int err;          /* F_MISSING: errno */
};

static int starts(const char *buf, size_t n, const char *magic)
{
	size_t l = strlen(magic);
	return n >= l && !memcmp(buf, magic, l);
}

/* A --collapsed line: "frame;frame N" (or "... BEFORE AFTER" with --base). */
static int collapsed_line(const char *buf, size_t n)
{
	const char *nl = memchr(buf, '\n', n);
	if (!nl || memchr(buf, 0, (size_t)(nl - buf)))
		return 0;
	const char *p = nl;
	while (p > buf && p[-1] >= '0' && p[-1] <= '9')
		p--;
	return p != nl && p > buf && p[-1] == ' ';
}

static struct sniff sniff(const char *path)
{
	static const struct {
		const char *magic, *what;
	} reports[] = {
		{ "Total: ", "a --text report" },
		{ "digraph ", "a --dot graph" },
		{ "events: ", "a --callgrind report" },
		{ "<?xml", "an SVG image" },
		{ "<svg", "an SVG image" },
		{ "%PDF", "a PDF document" },
		{ "%!PS", "a PostScript document" },
		{ "\x89PNG", "a PNG image" },
		{ "GIF8", "a GIF image" },
	};
	struct sniff s = { F_UNREAD, NULL, 0 };
	struct stat st;
	if (!strcmp(path, "-"))
		return s;
	if (stat(path, &st)) {
		s.kind = F_MISSING;
		s.err = errno;
		return s;
	}
	int fd = S_ISREG(st.st_mode) ? open(path, O_RDONLY | O_CLOEXEC) : -1;
	if (fd < 0)
		return s;
	char buf[4096];
	ssize_t r = read(fd, buf, sizeof(buf));
	close(fd);
	size_t n = r > 0 ? (size_t)r : 0;
	s.kind = F_OTHER;
	for (size_t i = 0; i < JH_ARRAY_SIZE(reports); i++)
		if (starts(buf, n, reports[i].magic)) {
			s.kind = F_REPORT;
			s.what = reports[i].what;
			return s;
		}
	if (starts(buf, n,
		   "\x7f"
		   "ELF"))
		s.kind = F_ELF;
	else if (starts(buf, n, "\x1f\x8b") || starts(buf, n, "\x28\xb5\x2f\xfd") ||
		 starts(buf, n, "heap") || starts(buf, n, "---") || starts(buf, n, "%"))
		s.kind = F_PROFILE;
	else if (starts(buf, n, "#!"))
		s.kind = F_SCRIPT;
	else if (collapsed_line(buf, n)) {
		s.kind = F_REPORT;
		s.what = "a --collapsed report";
	}
	return s;
}

/* A report or a program given where a profile should be (role: "--base" or NULL). */
static int check_profile(const char *path, const char *role, struct jh_diag *d)
{
	struct sniff s = sniff(path);
	const char *what = s.kind == F_REPORT ? s.what : s.kind == F_ELF ? "a program" : NULL;
	if (!what)
		return 0;
	if (role)
		return jh_diag_set(
			d, JH_EXIT_INPUT, path, 0,
			"%s, not a profile; %s takes a heap profile (.heap, .symbolized) "
			"to subtract",
			what, role);
	return jh_diag_set(d, JH_EXIT_INPUT, path, 0,
			   "%s, not a profile; jeheap reads heap profiles (.heap, .symbolized)",
			   what);
}

int jh_hint_check_args(const struct jh_options *o, char **pos, size_t npos, size_t first,
		       struct jh_diag *d)
{
	for (size_t k = first; k < npos; k++) {
		if (sniff(pos[k]).kind != F_ELF)
			continue;
		if (first)
			return jh_diag_set(d, JH_EXIT_USAGE, NULL, 0,
					   "'%s' is a program too: '%s' was taken as the program "
					   "and the arguments after it as profiles",
					   pos[k], pos[0]);
		return jh_diag_set(d, JH_EXIT_USAGE, NULL, 0,
				   "'%s' is a program but comes after the profile '%s' (taken as "
				   "the profile); the program goes first: jeheap [options] %s %s",
				   pos[k], pos[0], pos[k], pos[0]);
	}
	if (!first && npos >= 2) {
		struct sniff s = sniff(pos[0]);
		if (s.kind == F_MISSING)
			return jh_diag_set(d, JH_EXIT_INPUT, pos[0], 0,
					   "cannot open: %s (taken as a profile; a program must be "
					   "an existing ELF file given before the profiles)",
					   strerror(s.err));
		if (s.kind == F_SCRIPT)
			return jh_diag_set(
				d, JH_EXIT_USAGE, NULL, 0,
				"'%s' is a script, not an ELF program, so it was taken as "
				"a profile; give the program's binary (a libtool wrapper's "
				"is in .libs/) before the profiles",
				pos[0]);
	}
	for (size_t k = first; k < npos; k++)
		if (check_profile(pos[k], NULL, d))
			return -1;
	for (size_t k = 0; k < o->nbases; k++)
		if (check_profile(o->bases[k], "--base", d))
			return -1;
	return 0;
}

int jh_hint_check_symbols(const char *prog, struct jh_diag *d)
{
	if (sniff(prog).kind != F_PROFILE)
		return 0;
	return jh_diag_set(d, JH_EXIT_USAGE, NULL, 0,
			   "--symbols takes the program, and '%s' is a profile (--symbols reads "
			   "the maps and addresses from stdin; for a report: jeheap [options] "
			   "[program] %s)",
			   prog, prog);
}

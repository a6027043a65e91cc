/*
 * interactive.c - jeprof's interactive mode: a "(jeheap) " prompt whose
 * commands re-run the analysis with changed options on the model that was
 * built once (no file is read again) and print a report.
 *
 * Commands (jeprof's, plus persistent filters):
 *   top[N] [--cum] [-IGNORE]...   first N rows of --text (10), optionally by cum
 *   text [--cum] [-IGNORE]...     the whole --text report
 *   list RE [-IGNORE]...          --list=RE
 *   dot [-IGNORE]...              --dot on stdout
 *   collapsed                     --collapsed on stdout
 *   callgrind [FILE]              --callgrind on stdout or into FILE
 *   web | gv | evince [-IGNORE]   the graph in a viewer (or where it was written)
 *   traces | tree [-IGNORE]...    Go pprof's text views
 *   peek RE [-IGNORE]...          --peek=RE
 *   focus=RE  ignore=RE           set (empty: clear) --focus / --ignore for what follows
 *   hide=RE show=RE show_from=RE prune_from=RE   the same for pprof's frame filters
 *   noinlines                     turn --noinlines on or off
 *   help, quit (or end of input)
 * With a terminal on stdin, lines are read with libedit (editing, history).
 */
#include "cli.h"

#include <histedit.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

struct session {
	const struct jh_model *m;
	const struct jh_options *base; /* the command line */
	char *focus, *ignore;          /* persistent filters (owned), NULL = none */
	char *pf[4];                   /* --hide --show --show_from --prune_from (owned) */
	int noinlines;
};

/* pprof's frame filters, as commands "NAME=RE" (session.pf[i]). */
static const char *const pf_names[4] = { "hide", "show", "show_from", "prune_from" };

static void help(void)
{
	fputs("Interactive jeheap mode (jeprof's commands)\n"
	      "\n"
	      "Commands:\n"
	      "  top [--cum] [-ignore1] [-ignore2]\n"
	      "  top20 [--cum] [-ignore1] [-ignore2]\n"
	      "      Show the top lines ordered by flat value, or by cumulative value\n"
	      "      with --cum (10 lines, or the number after 'top').\n"
	      "  text [--cum] [-ignore1] ...   the whole text report\n"
	      "  list <routine_regexp> [-ignore1] ...\n"
	      "      Annotated source of the routines whose names match.\n"
	      "  dot [-ignore1] ...            the call graph in Graphviz's dot language\n"
	      "  web | gv | evince [-ignore1] ...\n"
	      "      The call graph as svg / ps / pdf in a viewer (or the file's name\n"
	      "      when no display is set).\n"
	      "  collapsed                     folded stacks for flamegraph.pl\n"
	      "  traces [-ignore1] ...         every stack with its value (Go pprof's)\n"
	      "  tree [-ignore1] ...           callers and callees of every function\n"
	      "  peek <regexp> [-ignore1] ...  callers and callees of the matching ones\n"
	      "  callgrind [filename]          callgrind format (stdout or the file)\n"
	      "  focus=<regexp>                keep only stacks with a matching frame from now\n"
	      "  ignore=<regexp>               drop stacks with a matching frame from now\n"
	      "  hide=<regexp> show=<regexp>   remove the matching / the other frames\n"
	      "  show_from=<regexp>            stacks start at the outermost match\n"
	      "  prune_from=<regexp>           stacks end at the innermost match\n"
	      "                                (an empty regexp clears the filter)\n"
	      "  noinlines                     merge inlined frames into their caller (on/off)\n"
	      "  help - This listing\n"
	      "  quit or ^D - End jeheap\n"
	      "\n"
	      "Samples in stacks where any routine matches one of the -ignore regular\n"
	      "expressions are ignored.\n",
	      stderr);
}

/* Splits a command's arguments like jeprof's ParseInteractiveArgs: --cum,
 * --lines, -RE (ignore, joined with '|'), anything else (joined with '|'). */
struct args {
	struct jh_sb focus, ignore;
	int cum, lines;
};

static void parse_args(struct args *a, char *s)
{
	jh_sb_init(&a->focus);
	jh_sb_init(&a->ignore);
	a->cum = a->lines = 0;
	for (char *tok = strtok(s, " \t"); tok; tok = strtok(NULL, " \t")) {
		if (!strcmp(tok, "--cum") || !strcmp(tok, "-cum")) {
			a->cum = 1;
		} else if (!strcmp(tok, "--lines") || !strcmp(tok, "-lines")) {
			a->lines = 1;
		} else if (tok[0] == '-') {
			if (a->ignore.len)
				jh_sb_addc(&a->ignore, '|');
			jh_sb_adds(&a->ignore, tok + 1);
		} else {
			if (a->focus.len)
				jh_sb_addc(&a->focus, '|');
			jh_sb_adds(&a->focus, tok);
		}
	}
	if (a->ignore.len)
		fprintf(stderr, "Ignoring samples in call stacks that match '%s'\n", a->ignore.buf);
}

static void args_release(struct args *a)
{
	jh_sb_release(&a->focus);
	jh_sb_release(&a->ignore);
}

/* "a|b" of the persistent and the command's ignore patterns, or NULL. */
static const char *join_ignore(struct jh_sb *sb, const char *persistent, const char *extra)
{
	jh_sb_reset(sb);
	if (persistent && *persistent)
		jh_sb_addf(sb, "(?:%s)", persistent);
	if (extra && *extra) {
		if (sb->len)
			jh_sb_addc(sb, '|');
		jh_sb_addf(sb, "(?:%s)", extra);
	}
	return sb->len ? sb->buf : NULL;
}

/* Runs the analysis with o and one report to standard output (or the
 * callgrind file); errors are printed, not fatal. */
static void run(struct session *ss, struct jh_options *o, const char *list_re,
		const char *callgrind_file)
{
	struct jh_diag d = { { 0 }, 0 };
	struct jh_graph g;
	memset(&g, 0, sizeof(g));
	o->list_re = list_re;
	o->output_file = NULL;
	if (jh_analyse_for(&g, o->output, ss->m, o, -1, &d)) {
		fprintf(stderr, "jeheap: %s\n", d.msg);
		return;
	}
	FILE *out = stdout;
	if (callgrind_file) {
		out = fopen(callgrind_file, "w");
		if (!out) {
			perror(callgrind_file);
			jh_graph_release(&g);
			return;
		}
		fprintf(stderr, "Writing callgrind file to '%s'.\n", callgrind_file);
	}
	if (jh_report_one(out, o->output, &g, o, 1, &d)) {
		if (!d.code)
			jh_diag_set(&d, JH_EXIT_OUTPUT, NULL, 0, "error writing output");
		fprintf(stderr, "jeheap: %s\n", d.msg);
	}
	if (out != stdout && fclose(out))
		perror(callgrind_file);
	fflush(stdout);
	jh_graph_release(&g);
}

/* Sets or clears a persistent filter: "focus=RE" / "ignore=RE". */
static void set_filter(char **slot, const char *name, const char *re)
{
	while (*re == ' ' || *re == '\t')
		re++;
	free(*slot);
	*slot = *re ? xstrdup(re) : NULL;
	if (*slot)
		fprintf(stderr, "%s = '%s'\n", name, *slot);
	else
		fprintf(stderr, "%s cleared\n", name);
}

/* Does s start with word w followed by the end or a blank? Returns the
 * rest, or NULL. */
static char *command(char *s, const char *w)
{
	size_t n = strlen(w);
	if (strncmp(s, w, n))
		return NULL;
	if (s[n] && s[n] != ' ' && s[n] != '\t')
		return NULL;
	return s + n;
}

/* The commands that only pick a report: "text", "dot", ... (top, which
 * takes a count, is parsed apart). Sets *mode; returns the rest or NULL. */
static char *report_command(char *line, enum jh_output *mode)
{
	static const struct {
		const char *word;
		enum jh_output mode;
	} cmds[] = {
		{ "text", JH_OUT_TEXT },     { "list", JH_OUT_LIST },
		{ "dot", JH_OUT_DOT },       { "collapsed", JH_OUT_COLLAPSED },
		{ "traces", JH_OUT_TRACES }, { "tree", JH_OUT_TREE },
		{ "peek", JH_OUT_PEEK },     { "callgrind", JH_OUT_CALLGRIND },
		{ "web", JH_OUT_WEB },       { "gv", JH_OUT_GV },
		{ "evince", JH_OUT_EVINCE },
	};
	for (size_t i = 0; i < sizeof(cmds) / sizeof(cmds[0]); i++) {
		char *rest = command(line, cmds[i].word);
		if (rest) {
			*mode = cmds[i].mode;
			return rest;
		}
	}
	return NULL;
}

/* One command line; returns 0 to quit. */
static int execute(struct session *ss, char *line)
{
	line[strcspn(line, "\r\n")] = '\0';
	while (*line == ' ' || *line == '\t')
		line++;
	if (!*line)
		return 1;
	if (!strncmp(line, "quit", 4) || !strncmp(line, "exit", 4))
		return 0;
	if (!strncmp(line, "help", 4)) {
		help();
		return 1;
	}
	if (!strncmp(line, "focus=", 6)) {
		set_filter(&ss->focus, "focus", line + 6);
		return 1;
	}
	if (!strncmp(line, "ignore=", 7)) {
		set_filter(&ss->ignore, "ignore", line + 7);
		return 1;
	}
	for (int i = 0; i < 4; i++) {
		size_t n = strlen(pf_names[i]);
		if (!strncmp(line, pf_names[i], n) && line[n] == '=') {
			set_filter(&ss->pf[i], pf_names[i], line + n + 1);
			return 1;
		}
	}
	if (command(line, "noinlines")) {
		ss->noinlines = !ss->noinlines;
		fprintf(stderr, "noinlines %s\n", ss->noinlines ? "on" : "off");
		return 1;
	}

	struct jh_options o = *ss->base;
	o.focus = ss->focus;
	o.hide = ss->pf[0];
	o.show = ss->pf[1];
	o.show_from = ss->pf[2];
	o.prune_from = ss->pf[3];
	o.noinlines = ss->noinlines;
	o.cum = 0;
	struct jh_sb ign = JH_SB_INIT;
	jh_sb_init(&ign);
	struct args a;
	char *rest;
	const char *list_re = NULL, *cgfile = NULL;

	if (!strncmp(line, "top", 3) && (line[3] == '\0' || strchr(" \t0123456789", line[3]))) {
		char *end;
		long n = strtol(line + 3, &end, 10);
		o.output = JH_OUT_TOP;
		o.top_n = end == line + 3 ? 10 : (int)n;
		rest = end;
	} else if ((rest = report_command(line, &o.output))) {
	} else {
		fputs("Unknown command: try 'help'.\n", stderr);
		jh_sb_release(&ign);
		return 1;
	}

	if (o.output == JH_OUT_CALLGRIND) {
		while (*rest == ' ' || *rest == '\t')
			rest++;
		rest[strcspn(rest, " \t")] = '\0';
		cgfile = *rest ? rest : NULL;
		o.ignore = ss->ignore;
		run(ss, &o, NULL, cgfile);
		jh_sb_release(&ign);
		return 1;
	}
	parse_args(&a, rest);
	o.cum = a.cum;
	if (a.lines)
		o.granularity = JH_GRAN_LINES;
	o.ignore = join_ignore(&ign, ss->ignore, a.ignore.buf);
	int needs_re = o.output == JH_OUT_LIST || o.output == JH_OUT_PEEK;
	if (needs_re) {
		if (!a.focus.len)
			fprintf(stderr, "%s: give a routine regexp (%s <regexp>)\n",
				o.output == JH_OUT_LIST ? "list" : "peek",
				o.output == JH_OUT_LIST ? "list" : "peek");
		else
			list_re = a.focus.buf;
	}
	if (!needs_re || list_re)
		run(ss, &o, list_re, NULL);
	args_release(&a);
	jh_sb_release(&ign);
	return 1;
}

static const char *prompt(EditLine *el)
{
	(void)el;
	return "(jeheap) ";
}

/* Line editing and history with libedit (stdin is a terminal). */
static void loop_editline(struct session *ss)
{
	EditLine *el = el_init("jeheap", stdin, stdout, stderr);
	History *hist = history_init();
	HistEvent ev;
	history(hist, &ev, H_SETSIZE, 1000);
	history(hist, &ev, H_SETUNIQUE, 1);
	el_set(el, EL_EDITOR, "emacs");
	el_set(el, EL_PROMPT, prompt);
	el_set(el, EL_HIST, history, hist);
	el_set(el, EL_SIGNAL, 1);
	for (;;) {
		int n;
		const char *l = el_gets(el, &n);
		if (!l || n <= 0) {
			fputc('\n', stderr);
			break;
		}
		char *line = xstrdup(l);
		if (strspn(line, " \t\r\n") != strlen(line))
			history(hist, &ev, H_ENTER, l);
		int more = execute(ss, line);
		free(line);
		if (!more)
			break;
	}
	history_end(hist);
	el_end(el);
}

/* Plain lines (no terminal): the prompt still goes to stderr, as jeprof does. */
static void loop_plain(struct session *ss)
{
	char *line = NULL;
	size_t cap = 0;
	for (;;) {
		fputs("(jeheap) ", stderr);
		fflush(stderr);
		if (getline(&line, &cap, stdin) < 0)
			break;
		if (!execute(ss, line))
			break;
	}
	free(line);
}

int jh_interactive(const struct jh_model *m, const struct jh_options *o, struct jh_diag *d)
{
	(void)d;
	struct session ss = { m,
			      o,
			      o->focus ? xstrdup(o->focus) : NULL,
			      o->ignore ? xstrdup(o->ignore) : NULL,
			      { NULL },
			      o->noinlines };
	const char *pf[4] = { o->hide, o->show, o->show_from, o->prune_from };
	for (int i = 0; i < 4; i++)
		ss.pf[i] = pf[i] ? xstrdup(pf[i]) : NULL;
	fputs("Welcome to jeheap!  For help, type 'help'.\n", stderr);
	if (isatty(0))
		loop_editline(&ss);
	else
		loop_plain(&ss);
	free(ss.focus);
	free(ss.ignore);
	for (int i = 0; i < 4; i++)
		free(ss.pf[i]);
	return JH_EXIT_OK;
}

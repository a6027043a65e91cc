/*
 * options.c - command-line parsing with jeprof's (Getopt::Long) rules:
 * "--name" and "-name", "--name=V" and "--name V", unique prefixes (an exact
 * name always wins), "--no-name"/"--noname" for flags, "--" ends options;
 * '-' and '_' between words are one letter (--show-bytes is --show_bytes).
 * The table's spelling is the canonical one (--help, man page, completion).
 */
#include "jeheap/options.h"

#include "args_hint.h"
#include "cache_opts.h"

#include "jeheap/names.h"

#include "jeheap/gate.h"

#include <ctype.h>
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

enum kind {
	K_FLAG,     /* boolean; --no-x allowed */
	K_OUTPUT,   /* output mode flag */
	K_OUTPUT_S, /* output mode with a required string (list, disasm) */
	K_OUTPUT_O, /* output mode with an optional =N (top) */
	K_GRAN,
	K_VALUE,
	K_STR,     /* string, last wins */
	K_STRLIST, /* repeatable string */
	K_INT,
	K_FLOAT,
	K_IGNORED, /* accepted, warned about, no effect */
	K_IGNORED_S,
	K_REFUSED, /* not supported yet */
	K_REFUSED_S,
	K_HELP,
	K_VERSION,
};

enum id {
	O_NONE,
	O_CUM,
	O_BASE,
	O_SECONDS,
	O_ADD_LIB,
	O_LIB_PREFIX,
	O_FOCUS,
	O_IGNORE,
	O_RETAIN,
	O_EXCLUDE,
	O_THREAD,
	O_NODECOUNT,
	O_NODEFRACTION,
	O_EDGEFRACTION,
	O_MAXDEGREE,
	O_SCALE,
	O_HEAPCHECK,
	O_SHOW_BYTES,
	O_DROP_NEGATIVE,
	O_TOOLS,
	O_OUTPUT_FILE,
	O_PATH_MAP,
	O_SYSROOT,
	O_DEBUG_DIR,
	O_JOBS,
	O_QUIET,
	O_TITLE,
	O_WIDTH,
	O_MINWIDTH,
	O_INVERTED,
	O_REVERSE,
	O_BASE_WIDTHS,
	O_MAXFRAMES,
	O_VERBOSE,
	O_TRUST_BINARIES,
	O_MAX_MEMORY,
	O_ALL_TYPES,
	O_HIDE,
	O_SHOW,
	O_SHOW_FROM,
	O_PRUNE_FROM,
	O_NOINLINES,
	O_CACHE,
	O_CACHE_DIR,
	O_CACHE_SIZE,
	O_SYMBOLS_ONLY,
	O_DEBUGINFOD,
	O_SERIES,
	O_ALLOW_MIXED,
	O_STACKS,
	O_NORMALIZE,
	O_FAIL_ON_GROWTH,
	O_DIFF_BASE,
};

struct opt {
	const char *name;
	enum kind kind;
	int arg; /* enum jh_output / jh_granularity / jh_value / enum id */
};

static const struct opt opts[] = {
	{ "help", K_HELP, 0 },
	{ "version", K_VERSION, 0 },
	{ "cum", K_FLAG, O_CUM },
	{ "base", K_STRLIST, O_BASE },
	{ "seconds", K_IGNORED_S, O_SECONDS },
	{ "add_lib", K_STRLIST, O_ADD_LIB },
	{ "lib_prefix", K_STR, O_LIB_PREFIX },
	{ "functions", K_GRAN, JH_GRAN_FUNCTIONS },
	{ "lines", K_GRAN, JH_GRAN_LINES },
	{ "addresses", K_GRAN, JH_GRAN_ADDRESSES },
	{ "files", K_GRAN, JH_GRAN_FILES },
	{ "text", K_OUTPUT, JH_OUT_TEXT },
	{ "top", K_OUTPUT_O, JH_OUT_TOP },
	{ "callgrind", K_OUTPUT, JH_OUT_CALLGRIND },
	{ "list", K_OUTPUT_S, JH_OUT_LIST },
	{ "disasm", K_OUTPUT_S, JH_OUT_DISASM },
	{ "symbols", K_OUTPUT, JH_OUT_SYMBOLS },
	{ "gv", K_OUTPUT, JH_OUT_GV },
	{ "evince", K_OUTPUT, JH_OUT_EVINCE },
	{ "web", K_OUTPUT, JH_OUT_WEB },
	{ "dot", K_OUTPUT, JH_OUT_DOT },
	{ "ps", K_OUTPUT, JH_OUT_PS },
	{ "pdf", K_OUTPUT, JH_OUT_PDF },
	{ "svg", K_OUTPUT, JH_OUT_SVG },
	{ "gif", K_OUTPUT, JH_OUT_GIF },
	{ "png", K_OUTPUT, JH_OUT_PNG },
	{ "raw", K_OUTPUT, JH_OUT_RAW },
	{ "collapsed", K_OUTPUT, JH_OUT_COLLAPSED },
	{ "interactive", K_OUTPUT, JH_OUT_INTERACTIVE },
	{ "nodecount", K_INT, O_NODECOUNT },
	{ "nodefraction", K_FLOAT, O_NODEFRACTION },
	{ "edgefraction", K_FLOAT, O_EDGEFRACTION },
	{ "maxdegree", K_INT, O_MAXDEGREE },
	{ "focus", K_STR, O_FOCUS },
	{ "thread", K_STR, O_THREAD },
	{ "ignore", K_STR, O_IGNORE },
	{ "scale", K_INT, O_SCALE },
	{ "heapcheck", K_FLAG, O_HEAPCHECK },
	{ "retain", K_STR, O_RETAIN },
	{ "exclude", K_STR, O_EXCLUDE },
	{ "inuse_space", K_VALUE, JH_INUSE_SPACE },
	{ "inuse_objects", K_VALUE, JH_INUSE_OBJECTS },
	{ "alloc_space", K_VALUE, JH_ALLOC_SPACE },
	{ "alloc_objects", K_VALUE, JH_ALLOC_OBJECTS },
	{ "show_bytes", K_FLAG, O_SHOW_BYTES },
	{ "drop_negative", K_FLAG, O_DROP_NEGATIVE },
	{ "total_delay", K_REFUSED, 0 },
	{ "contentions", K_REFUSED, 0 },
	{ "mean_delay", K_REFUSED, 0 },
	{ "tools", K_IGNORED_S, O_TOOLS },
	{ "test", K_REFUSED, 0 },
	{ "debug", K_IGNORED, 0 },
	{ "debug-syms-by-id", K_IGNORED, 0 },
	{ "test_stride", K_REFUSED_S, 0 },
	/* jeheap's own */
	{ "output", K_STR, O_OUTPUT_FILE },
	{ "path-map", K_STRLIST, O_PATH_MAP },
	{ "sysroot", K_STR, O_SYSROOT },
	{ "debug-dir", K_STRLIST, O_DEBUG_DIR },
	{ "jobs", K_INT, O_JOBS },
	{ "quiet", K_FLAG, O_QUIET },
	{ "flamegraph", K_OUTPUT, JH_OUT_FLAMEGRAPH },
	{ "html", K_OUTPUT, JH_OUT_HTML },
	{ "title", K_STR, O_TITLE },
	{ "width", K_FLOAT, O_WIDTH },
	{ "minwidth", K_FLOAT, O_MINWIDTH },
	{ "inverted", K_FLAG, O_INVERTED },
	{ "reverse", K_FLAG, O_REVERSE },
	{ "base-widths", K_FLAG, O_BASE_WIDTHS },
	{ "maxframes", K_INT, O_MAXFRAMES },
	{ "verbose", K_FLAG, O_VERBOSE },
	{ "trust-binaries", K_FLAG, O_TRUST_BINARIES },
	{ "max-memory", K_STR, O_MAX_MEMORY },
	{ "proto", K_OUTPUT, JH_OUT_PROTO },
	{ "speedscope", K_OUTPUT, JH_OUT_SPEEDSCOPE },
	{ "all-types", K_FLAG, O_ALL_TYPES },
	/* Go pprof's */
	{ "traces", K_OUTPUT, JH_OUT_TRACES },
	{ "tree", K_OUTPUT, JH_OUT_TREE },
	{ "peek", K_OUTPUT_S, JH_OUT_PEEK },
	{ "hide", K_STR, O_HIDE },
	{ "show", K_STR, O_SHOW },
	{ "show_from", K_STR, O_SHOW_FROM },
	{ "prune_from", K_STR, O_PRUNE_FROM },
	{ "noinlines", K_FLAG, O_NOINLINES },
	{ "cache", K_FLAG, O_CACHE },
	{ "cache-dir", K_STR, O_CACHE_DIR },
	{ "cache-size", K_STR, O_CACHE_SIZE },
	{ "symbols-only", K_FLAG, O_SYMBOLS_ONLY },
	{ "debuginfod", K_STR, O_DEBUGINFOD },
	{ "series", K_FLAG, O_SERIES },
	{ "allow-mixed", K_FLAG, O_ALLOW_MIXED },
	{ "stacks", K_FLAG, O_STACKS },
	{ "normalize", K_STR, O_NORMALIZE },
	{ "json", K_OUTPUT, JH_OUT_JSON },
	{ "fail-on-growth", K_STR, O_FAIL_ON_GROWTH },
	{ "diff_base", K_STRLIST, O_DIFF_BASE },
	{ "threads", K_OUTPUT, JH_OUT_THREADS },
	{ "stats", K_OUTPUT, JH_OUT_STATS },
};

void jh_options_usage(FILE *f)
{
	fputs("Usage: jeheap [options] [program] profile...\n"
	      "Analyse jemalloc heap profiles (a fast, drop-in replacement for jeprof).\n"
	      "Profiles: jemalloc dumps, .symbolized, gperftools, pprof profile.proto;\n"
	      "gzip/zstd read as is; '-' is stdin; several are summed.\n"
	      "\n"
	      "Output (default: interactive on a terminal, else --text):\n"
	      "  --text --top[=N] --collapsed --flamegraph --html --dot --svg --pdf --png --web\n"
	      "  --callgrind --proto --speedscope --json --stats --threads --list=RE --raw\n"
	      "  --traces --tree --peek=RE (Go pprof's text views)  --output=FILE\n"
	      "Values:  --inuse_space (default) --inuse_objects --alloc_space --alloc_objects\n"
	      "Filters: --focus=RE --ignore=RE (stacks)  --retain=RE --exclude=RE (frames)\n"
	      "         --hide --show --show_from --prune_from (=RE, pprof's)  --noinlines\n"
	      "Compare: --base=FILE  --diff_base=FILE  --fail-on-growth=SIZE|PCT (exit 5)\n"
	      "         --series DUMP... (leak suspects; --svg, --json)  --stacks  --normalize\n"
	      "Symbols: --debug-dir=DIR --lib_prefix=DIR --path-map=OLD=NEW --sysroot=DIR\n"
	      "         --debuginfod=URL  --no-cache --cache-dir=DIR --symbols-only (cache)\n"
	      "Other:   --thread=N --cum --lines --show_bytes --quiet (-qq) --verbose --version\n"
	      "\n"
	      "Examples:\n"
	      "  jeheap --text ./server jeprof.1234.0.f.heap   top allocation sites\n"
	      "  jeheap --text --base=before.heap after.heap   what grew between two dumps\n"
	      "Exit status: 0 ok, 1 usage, 2 bad input, 3 output error, 4 nothing to show,\n"
	      "5 grew more than --fail-on-growth, 70 internal error or out of memory.\n"
	      "Every option (graph, flame graph, symbols, jeprof's): man jeheap\n",
	      f);
}

static const char *opt_name(size_t i)
{
	return i < JH_ARRAY_SIZE(opts) ? opts[i].name : NULL;
}

static int usage_error(struct jh_diag *d, const char *fmt, const char *a)
{
	jh_diag_set(d, JH_EXIT_USAGE, NULL, 0, fmt, a);
	return -1;
}

static void strlist_add(char ***items, size_t *nr, const char *s)
{
	*items = xrealloc(*items, (*nr + 1) * sizeof(**items));
	(*items)[(*nr)++] = xstrdup(s);
}

/* Finds the option for name (exact, else unique prefix; '-' and '_' alike).
 * *neg set for --no-x, --no_x and --nox. */
static const struct opt *find_opt(const char *name, size_t len, int *neg, struct jh_diag *d)
{
	*neg = 0;
	if (len == 1 && name[0] == 'h')
		return &opts[0]; /* -h: help (jeprof: ambiguous) */
	for (int pass = 0; pass < 2; pass++) {
		const char *n = name;
		size_t l = len;
		if (pass == 1) {
			if (len > 3 && jh_opt_same(name, "no-", 3))
				n = name + 3, l = len - 3;
			else if (len > 2 && !strncmp(name, "no", 2))
				n = name + 2, l = len - 2;
			else
				break;
		}
		const struct opt *hit = NULL;
		int nhits = 0;
		for (size_t i = 0; i < JH_ARRAY_SIZE(opts); i++) {
			if (strlen(opts[i].name) == l && jh_opt_same(opts[i].name, n, l)) {
				hit = &opts[i];
				nhits = 1;
				break;
			}
			if (jh_opt_same(opts[i].name, n, l)) {
				hit = &opts[i];
				nhits++;
			}
		}
		if (nhits == 1) {
			if (pass == 1) {
				if (hit->kind != K_FLAG && hit->kind != K_OUTPUT &&
				    hit->kind != K_GRAN && hit->kind != K_VALUE)
					break;
				*neg = 1;
			}
			return hit;
		}
		if (nhits > 1) {
			jh_hint_ambiguous_opt(d, name, len, (size_t)(n - name), opt_name);
			return NULL;
		}
	}
	jh_hint_unknown_opt(d, name, len, opt_name);
	return NULL;
}

static int parse_int(const char *name, const char *v, int *out, struct jh_diag *d)
{
	char *end;
	errno = 0;
	long x = strtol(v, &end, 10);
	if (errno || end == v || *end || x < 0 || x > 1000000000)
		return jh_diag_set(d, JH_EXIT_USAGE, NULL, 0,
				   "--%s: '%s' is not a non-negative integer", name, v);
	*out = (int)x;
	return 0;
}

/* SIZE: bytes, or a number with K, M, G or T (powers of 1024), at least 1 MiB. */
static int parse_size(const char *name, const char *v, uint64_t *out, struct jh_diag *d)
{
	if (jh_size_parse(v, out) != 0 || *out < (1u << 20))
		return jh_diag_set(d, JH_EXIT_USAGE, NULL, 0,
				   "--%s: '%s' is not a size of at least 1M (bytes, or with K, "
				   "M, G or T)",
				   name, v);
	return 0;
}

static int parse_float(const char *name, const char *v, double *out, struct jh_diag *d)
{
	char *end;
	errno = 0;
	double x = strtod(v, &end);
	if (errno || end == v || *end || !isfinite(x) || x < 0)
		return jh_diag_set(d, JH_EXIT_USAGE, NULL, 0,
				   "--%s: '%s' is not a non-negative number", name, v);
	*out = x;
	return 0;
}

static int set_output(struct jh_options *o, enum jh_output out, const char *name, struct jh_diag *d)
{
	if (o->output != JH_OUT_DEFAULT && o->output != out)
		return jh_diag_set(d, JH_EXIT_USAGE, NULL, 0,
				   "only specify one output mode (--%s and --%s)",
				   o->output_mode_name, name);
	o->output = out;
	o->output_mode_name = name;
	return 0;
}

static int set_lib_prefix(struct jh_options *o, const char *v)
{
	char *s = xstrdup(v);
	for (char *tok = strtok(s, ","); tok; tok = strtok(NULL, ",")) {
		size_t l = strlen(tok);
		while (l > 1 && tok[l - 1] == '/')
			tok[--l] = 0;
		if (l)
			strlist_add(&o->sym.lib_prefixes, &o->sym.nlib_prefixes, tok);
	}
	free(s);
	return 0;
}

static int apply(struct jh_options *o, const struct opt *op, int neg, const char *v,
		 struct jh_diag *d, int *seen_value, int *seen_gran)
{
	switch (op->kind) {
	case K_HELP: jh_options_usage(stdout); return 1;
	case K_VERSION: printf("jeheap %s\n", JEHEAP_VERSION); return 1;
	case K_OUTPUT:
		if (neg)
			return 0;
		if (v && op->arg == JH_OUT_WEB) { /* --web=flame */
			if (strcmp(v, "flame"))
				return usage_error(d, "--web=%s: only --web=flame is known", v);
			return set_output(o, JH_OUT_WEB_FLAME, "web=flame", d);
		}
		return set_output(o, (enum jh_output)op->arg, op->name, d);
	case K_OUTPUT_S:
		if (op->arg == JH_OUT_DISASM)
			return usage_error(d, "--%s: not supported yet", op->name);
		if (set_output(o, (enum jh_output)op->arg, op->name, d))
			return -1;
		o->list_re = v;
		return 0;
	case K_OUTPUT_O:
		if (set_output(o, (enum jh_output)op->arg, op->name, d))
			return -1;
		if (v)
			return parse_int(op->name, v, &o->top_n, d);
		return 0;
	case K_GRAN:
		if (neg)
			return 0;
		if (*seen_gran && o->granularity != (enum jh_granularity)op->arg)
			return usage_error(d, "only specify one granularity option (--%s)",
					   op->name);
		*seen_gran = 1;
		o->granularity = (enum jh_granularity)op->arg;
		return 0;
	case K_VALUE:
		if (neg)
			return 0;
		if (*seen_value && o->value != (enum jh_value)op->arg)
			return usage_error(d,
					   "specify at most one of --inuse/--alloc options (--%s)",
					   op->name);
		*seen_value = 1;
		o->value = (enum jh_value)op->arg;
		return 0;
	case K_IGNORED:
	case K_IGNORED_S:
		if (!neg)
			jh_warn("--%s has no effect in jeheap (accepted for jeprof compatibility)",
				op->name);
		return 0;
	case K_REFUSED:
	case K_REFUSED_S: return usage_error(d, "--%s: not supported yet", op->name);
	case K_FLAG: {
		int on = !neg;
		switch (op->arg) {
		case O_CUM: o->cum = on; break;
		case O_HEAPCHECK: o->heapcheck = on; break;
		case O_SHOW_BYTES: o->show_bytes = on; break;
		case O_DROP_NEGATIVE: o->drop_negative = on; break;
		case O_QUIET: o->quiet = on ? o->quiet + 1 : 0; break;
		case O_VERBOSE: o->verbose = o->sym.verbose = on; break;
		case O_TRUST_BINARIES: o->sym.trust_binaries = on; break;
		case O_INVERTED: o->flame.inverted = on; break;
		case O_REVERSE: o->flame.reverse = on; break;
		case O_BASE_WIDTHS: o->flame.base_widths = on; break;
		case O_ALL_TYPES: o->all_types = on; break;
		case O_NOINLINES: o->noinlines = on; break;
		case O_CACHE: o->no_cache = !on; break;
		case O_SYMBOLS_ONLY: o->symbols_only = on; break;
		case O_SERIES: o->series = on; break;
		case O_ALLOW_MIXED: o->allow_mixed = on; break;
		case O_STACKS: o->stacks = on; break;
		}
		return 0;
	}
	case K_INT:
		switch (op->arg) {
		case O_NODECOUNT: return parse_int(op->name, v, &o->nodecount, d);
		case O_MAXDEGREE: return parse_int(op->name, v, &o->maxdegree, d);
		case O_SCALE: return parse_int(op->name, v, &o->scale, d);
		case O_JOBS: return parse_int(op->name, v, &o->sym.jobs, d);
		case O_MAXFRAMES: {
			int n = 0;
			if (parse_int(op->name, v, &n, d))
				return -1;
			o->flame.maxframes = (size_t)n;
			return 0;
		}
		}
		return 0;
	case K_FLOAT:
		if (op->arg == O_NODEFRACTION)
			return parse_float(op->name, v, &o->nodefraction, d);
		if (op->arg == O_WIDTH)
			return parse_float(op->name, v, &o->flame.width, d);
		if (op->arg == O_MINWIDTH)
			return parse_float(op->name, v, &o->flame.minwidth, d);
		return parse_float(op->name, v, &o->edgefraction, d);
	case K_STR:
		switch (op->arg) {
		case O_LIB_PREFIX: return set_lib_prefix(o, v);
		case O_FOCUS: o->focus = v; break;
		case O_IGNORE: o->ignore = v; break;
		case O_RETAIN: o->retain = v; break;
		case O_EXCLUDE: o->exclude = v; break;
		case O_HIDE: o->hide = v; break;
		case O_SHOW: o->show = v; break;
		case O_SHOW_FROM: o->show_from = v; break;
		case O_PRUNE_FROM: o->prune_from = v; break;
		case O_OUTPUT_FILE: o->output_file = v; break;
		case O_TITLE: o->flame.title = v; break;
		case O_SYSROOT: o->sym.sysroot = v; break;
		case O_CACHE_DIR: o->cache_dir = v; break;
		case O_CACHE_SIZE: o->cache_size = v; break;
		case O_DEBUGINFOD: o->debuginfod = v; break;
		case O_NORMALIZE:
			if (!strcmp(v, "clones"))
				o->normalize = JH_NORM_CLONES;
			else if (!strcmp(v, "templates"))
				o->normalize = JH_NORM_CLONES | JH_NORM_TEMPLATES;
			else if (!strcmp(v, "none"))
				o->normalize = JH_NORM_NONE;
			else
				return usage_error(d, "--normalize=%s: clones, templates or none",
						   v);
			break;
		case O_FAIL_ON_GROWTH: o->fail_on_growth = v; break;
		case O_MAX_MEMORY: return parse_size(op->name, v, &o->sym.max_memory, d);
		case O_THREAD: {
			o->have_thread = 1;
			o->thread_all = 0;
			if (!strcmp(v, "*")) {
				o->thread_all = 1;
				break;
			}
			char *end;
			errno = 0;
			unsigned long long t = strtoull(v, &end, 10);
			if (errno || end == v || *end || v[0] == '-')
				return usage_error(
					d, "--thread: '%s' is not a thread number or '*'", v);
			o->thread = t;
			break;
		}
		}
		return 0;
	case K_STRLIST:
		switch (op->arg) {
		case O_BASE: strlist_add(&o->bases, &o->nbases, v); break;
		case O_DIFF_BASE: /* pprof's -diff_base: a base, shown relative to its total */
			strlist_add(&o->bases, &o->nbases, v);
			o->diff_base = 1;
			break;
		case O_ADD_LIB: strlist_add(&o->sym.add_libs, &o->sym.nadd_libs, v); break;
		case O_DEBUG_DIR: strlist_add(&o->sym.debug_dirs, &o->sym.ndebug_dirs, v); break;
		case O_PATH_MAP: {
			const char *eq = strchr(v, '=');
			if (!eq || eq == v)
				return usage_error(d, "--path-map: '%s' is not OLD=NEW", v);
			o->sym.path_maps = xrealloc(o->sym.path_maps,
						    (o->sym.npath_maps + 1) *
							    sizeof(*o->sym.path_maps));
			struct jh_path_map *pm = &o->sym.path_maps[o->sym.npath_maps++];
			pm->from = xstrndup(v, (size_t)(eq - v));
			pm->to = xstrdup(eq + 1);
			break;
		}
		}
		return 0;
	}
	return 0;
}

static int takes_value(const struct opt *op)
{
	switch (op->kind) {
	case K_OUTPUT_S:
	case K_STR:
	case K_STRLIST:
	case K_INT:
	case K_FLOAT:
	case K_IGNORED_S:
	case K_REFUSED_S: return 1;
	default: return 0;
	}
}

static int all_digits(const char *s)
{
	if (!*s)
		return 0;
	while (isdigit((unsigned char)*s))
		s++;
	return !*s;
}

static int is_elf(const char *path)
{
	FILE *f = fopen(path, "rb");
	if (!f)
		return 0;
	unsigned char m[4] = { 0 };
	size_t n = fread(m, 1, 4, f);
	fclose(f);
	return n == 4 && m[0] == 0x7f && m[1] == 'E' && m[2] == 'L' && m[3] == 'F';
}

int jh_options_parse(struct jh_options *o, int argc, char **argv, struct jh_diag *d)
{
	memset(o, 0, sizeof(*o));
	o->value = JH_INUSE_SPACE;
	o->top_n = 10;
	o->nodecount = 80;
	o->nodefraction = 0.005;
	o->edgefraction = 0.001;
	o->maxdegree = 8;
	o->flame.width = JH_FLAME_WIDTH;
	o->flame.minwidth = JH_FLAME_MINWIDTH;
	o->flame.maxframes = JH_FLAME_MAXFRAMES;
	int seen_value = 0, seen_gran = 0, only_args = 0;
	char **pos = xcalloc((size_t)argc + 1, sizeof(*pos));
	size_t npos = 0;

	for (int i = 1; i < argc; i++) {
		const char *a = argv[i];
		if (only_args || a[0] != '-' || !a[1]) {
			pos[npos++] = argv[i];
			continue;
		}
		if (!strcmp(a, "--")) {
			only_args = 1;
			continue;
		}
		if (!strcmp(a, "-qq")) {
			o->quiet = 2; /* no coverage line, no warnings */
			continue;
		}
		const char *name = a + 1 + (a[1] == '-');
		const char *eq = strchr(name, '=');
		size_t len = eq ? (size_t)(eq - name) : strlen(name);
		int neg;
		const struct opt *op = find_opt(name, len, &neg, d);
		if (!op)
			goto fail;
		const char *v = eq ? eq + 1 : NULL;
		if (takes_value(op) && !v) {
			if (i + 1 >= argc) {
				usage_error(d, "option --%s requires a value", op->name);
				goto fail;
			}
			v = argv[++i];
		} else if (op->kind == K_OUTPUT_O && !v && i + 1 < argc &&
			   all_digits(argv[i + 1])) {
			v = argv[++i]; /* --top 20 */
		} else if (!takes_value(op) && v && op->kind != K_OUTPUT_O &&
			   !(op->kind == K_OUTPUT && op->arg == JH_OUT_WEB)) {
			usage_error(d, "option --%s does not take a value", op->name);
			goto fail;
		}
		int r = apply(o, op, neg, v, d, &seen_value, &seen_gran);
		if (r) {
			free(pos);
			return r;
		}
	}
	if (o->output == JH_OUT_SYMBOLS) {
		if (npos != 1) {
			usage_error(d, "--symbols takes exactly one argument, the program%s", "");
			goto fail;
		}
		o->program = pos[0];
		o->sym.trust_binaries = 1; /* addresses, not sampled return addresses */
		free(pos);
		if (jh_hint_check_symbols(o->program, d))
			return -1;
		return jh_cache_options(o, d);
	}
	if (npos == 0) {
		usage_error(d, "no profile given (usage: jeheap [options] [program] profile...%s)",
			    "");
		goto fail;
	}
	size_t first = 0;
	if (strcmp(pos[0], "-") && is_elf(pos[0])) {
		o->program = pos[0];
		first = 1;
		if (npos == 1) {
			usage_error(d, "'%s' is a program; give at least one profile after it",
				    pos[0]);
			goto fail;
		}
	}
	if (jh_hint_check_args(o, pos, npos, first, d))
		goto fail;
	o->sym.program = o->program;
	for (size_t i = first; i < npos; i++)
		strlist_add(&o->profiles, &o->nprofiles, pos[i]);
	free(pos);
	o->flame.inputs = o->profiles;
	o->flame.ninputs = o->nprofiles;
	o->flame.bases = o->bases;
	o->flame.nbases = o->nbases;
	struct jh_gate gate;
	if (o->fail_on_growth && !o->nbases && !o->series)
		return usage_error(d,
				   "--fail-on-growth=%s needs --base or --series (the dumps to "
				   "compare)",
				   o->fail_on_growth);
	if (o->fail_on_growth && jh_gate_parse(&gate, o->fail_on_growth, "--fail-on-growth", d))
		return -1;
	if (o->flame.width < 30)
		return usage_error(d, "--width: at least 30 pixels%s", "");
	return jh_cache_options(o, d);
fail:
	free(pos);
	return -1;
}

void jh_options_release(struct jh_options *o)
{
	for (size_t i = 0; i < o->nbases; i++)
		free(o->bases[i]);
	free(o->bases);
	for (size_t i = 0; i < o->nprofiles; i++)
		free(o->profiles[i]);
	free(o->profiles);
	for (size_t i = 0; i < o->sym.nlib_prefixes; i++)
		free(o->sym.lib_prefixes[i]);
	free(o->sym.lib_prefixes);
	for (size_t i = 0; i < o->sym.nadd_libs; i++)
		free(o->sym.add_libs[i]);
	free(o->sym.add_libs);
	for (size_t i = 0; i < o->sym.ndebug_dirs; i++)
		free(o->sym.debug_dirs[i]);
	free(o->sym.debug_dirs);
	for (size_t i = 0; i < o->sym.npath_maps; i++) {
		free(o->sym.path_maps[i].from);
		free(o->sym.path_maps[i].to);
	}
	free(o->sym.path_maps);
	free(o->cache_path);
	memset(o, 0, sizeof(*o));
}

struct jh_model_opts jh_options_model(const struct jh_options *o)
{
	return (struct jh_model_opts){
		.profiles = o->profiles,
		.nprofiles = o->nprofiles,
		.bases = o->bases,
		.nbases = o->nbases,
		.program = o->program,
		.drop_negative = o->drop_negative,
		.threads = o->have_thread || o->output == JH_OUT_THREADS ||
			   o->output == JH_OUT_STATS, /* only they read them */
		.keep_first_pcs = o->output == JH_OUT_RAW,
		.allow_mixed = o->allow_mixed || o->symbols_only, /* no report: nothing summed */
	};
}

struct jh_analysis_opts jh_options_analysis(const struct jh_options *o, struct jh_u64map *run_ids)
{
	return (struct jh_analysis_opts){
		.granularity = o->granularity,
		.value = o->value,
		.show_bytes = o->show_bytes,
		.has_base = o->nbases > 0,
		.focus = o->focus,
		.ignore = o->ignore,
		.retain = o->retain,
		.exclude = o->exclude,
		.hide = o->hide,
		.show = o->show,
		.show_from = o->show_from,
		.prune_from = o->prune_from,
		.noinlines = o->noinlines,
		.run_ids = run_ids,
		.normalize = o->normalize & (JH_NORM_CLONES | JH_NORM_TEMPLATES),
	};
}

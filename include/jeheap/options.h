/*
 * options.h - the parsed command line. Filled once by jh_options_parse and
 * passed down as const; nothing else reads argv.
 */
#ifndef JEHEAP_OPTIONS_H
#define JEHEAP_OPTIONS_H

#include "jeheap/base.h"
#include "jeheap/analyse.h"
#include "jeheap/report.h"
#include "jeheap/report_output.h"
#include "jeheap/symbolize.h"

struct jh_options {
	enum jh_output output;
	const char *output_mode_name; /* "text", "dot", ... as given */
	const char *list_re;          /* --list=REGEX, --peek=REGEX */
	const char *disasm_re;        /* --disasm=REGEX */
	int top_n;                    /* --top[=N], default 10 */
	enum jh_granularity granularity;
	enum jh_value value; /* --inuse_space (default) ... */
	int show_bytes, drop_negative, cum, heapcheck;

	char **bases;  /* --base, repeatable (summed) */
	int diff_base; /* the bases came (also) from --diff_base */
	size_t nbases;
	const char *focus, *ignore, *retain, *exclude;    /* PCRE2 (Perl) patterns */
	const char *hide, *show, *show_from, *prune_from; /* Go pprof's frame filters */
	int noinlines;                                    /* --noinlines */

	int nodecount;       /* 80 */
	double nodefraction; /* 0.005 */
	double edgefraction; /* 0.001 */
	int maxdegree;       /* 8 */
	int scale;           /* --scale (dot) */

	int have_thread; /* --thread given */
	int thread_all;  /* --thread='*' */
	uint64_t thread; /* --thread=N */

	struct jh_symbolizer_opts sym; /* lib_prefix, add_lib, path maps, sysroot, ... */

	const char *output_file;    /* --output=FILE, NULL = stdout */
	int quiet;                  /* --quiet: no coverage line; -qq (2): no warnings either */
	int verbose;                /* --verbose: the coverage per module */
	struct jh_flame_opts flame; /* --title --width --minwidth --inverted --reverse
	                             * --base-widths; inputs and bases set by the parser */
	int all_types;              /* --all-types: --speedscope writes every value */
	int series;                 /* --series: the profiles are a series of dumps */
	int allow_mixed;            /* --allow-mixed: a series of several processes */
	int stacks;                 /* --stacks: series rows per stack */
	unsigned normalize;         /* --normalize: JH_NORM_* (names.h) */

	int no_cache;               /* --no-cache */
	const char *cache_dir;      /* --cache-dir=DIR */
	const char *cache_size;     /* --cache-size=N[KMG] */
	char *cache_path;           /* the cache folder used (o->sym.cache_dir), owned */
	int symbols_only;           /* --symbols-only: fill the cache, no report */
	const char *debuginfod;     /* --debuginfod=URLS */
	const char *fail_on_growth; /* --fail-on-growth=SIZE|PCT (with --base), or NULL */

	const char *program; /* ELF program argument, or NULL */
	char **profiles;     /* profile paths ("-" = stdin) */
	size_t nprofiles;
};

/*
 * Parses argv (jeprof's spellings: --x and -x, --x=V and --x V, unique
 * prefixes, --no-x for flags). Returns 0; 1 when --help/--version was
 * printed (exit 0); -1 with d set on a usage error.
 */
int jh_options_parse(struct jh_options *o, int argc, char **argv, struct jh_diag *d);
void jh_options_release(struct jh_options *o);
void jh_options_usage(FILE *f);

/* Runs the whole program for parsed options: model, analysis, report
 * (pipeline.c). Returns an exit code (enum jh_exit); on failure d holds
 * the message. */
int jh_run(const struct jh_options *o, struct jh_diag *d);
/* The model's and the analysis' options of o. */
struct jh_model_opts jh_options_model(const struct jh_options *o);
struct jh_analysis_opts jh_options_analysis(const struct jh_options *o, struct jh_u64map *run_ids);

#endif

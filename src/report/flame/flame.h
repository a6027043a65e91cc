/*
 * flame.h - private parts of --flamegraph and --html: the flame tree
 * (flame_tree.c), the SVG (flame_svg.c) and the script both outputs carry
 * (flame_script.c).
 */
#ifndef JEHEAP_FLAME_H
#define JEHEAP_FLAME_H

#include "collapsed.h"
#include "jeheap/report_flame.h"

/*
 * A frame of the flame graph: a node of the tree of --collapsed's stacks,
 * merged as flamegraph.pl merges them: the lines in their sorted order
 * (--reverse: the reversed stacks in their order), each merged with the
 * path of the line before it. Values are the lines' counts (integers, as
 * --collapsed prints them) summed over the frame's lines; v2 likewise from
 * the companion sample type's lines (objects for space and vice versa).
 */
struct jh_fnode {
	uint32_t rank;  /* the text of its name (struct jh_coll rstr); root: UINT32_MAX */
	uint32_t depth; /* 0 = the root, "all" */
	uint32_t loc;   /* the first location it was made of (UINT32_MAX: root) */
	uint32_t level; /* and the frame of that location */
	int64_t start;  /* left edge, in width units */
	int64_t width;  /* the width's value: the profile's (--base-widths: the bases') */
	int64_t after;  /* the profile's value */
	int64_t before; /* the bases' value (with --base) */
	int64_t v2;     /* the companion value (jh_gstack.v2: with --base, its change) */
};

/* flamegraph.pl's geometry: side margins, frame height, font. */
enum { JH_FLAME_XPAD = 10, JH_FLAME_FRAME_H = 16, JH_FLAME_FONT = 12 };

/* The tree, nodes in preorder (a frame's descendants follow it): only the
 * frames drawn, those at least o->minwidth wide (and the root). */
struct jh_flame {
	const struct jh_graph *g;
	const struct jh_flame_opts *o;
	struct jh_coll c; /* the names (c.rstr) */
	struct jh_arena strs;
	struct jh_sb counts;
	struct jh_fnode *n;
	size_t nn, alloc;
	size_t hidden; /* frames left out, narrower than o->minwidth */
	double wpt;    /* pixels per unit of width */
	double width;  /* of the image, pixels */
	double min_px; /* frames drawn are at least this wide (--minwidth, --maxframes) */
};

/* Builds f for g. */
void jh_flame_build(struct jh_flame *f, const struct jh_graph *g, const struct jh_flame_opts *o);
void jh_flame_release(struct jh_flame *f);

/* The SVG of f appended to sb; script: with its <script> (a page that
 * carries the script itself: 0). */
void jh_flame_svg(struct jh_sb *sb, const struct jh_flame *f, int script);
/* The --html page of g to sb. */
int jh_flame_html(struct jh_sb *sb, const struct jh_graph *g, const struct jh_flame_opts *o);
/* The script and style of the flame graph (static text, no data). */
extern const char jh_flame_script[];
extern const char jh_flame_table_script[];
extern const char jh_flame_style[];

/* "inuse_space" ... of g. */
const char *jh_flame_value_name(const struct jh_graph *g);
/* "objects" or "bytes": the unit of sample type v. */
const char *jh_flame_unit(enum jh_value v);
/* v with thousands separators (and a '+' when plus and v >= 0). */
void jh_flame_int(struct jh_sb *sb, int64_t v, int plus);

#endif

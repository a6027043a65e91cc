/*
 * flame_svg.c - the flame graph as SVG: flamegraph.pl's geometry (see
 * docs/formats.md §3: xpad 10, frames 16 px high,
 * widths from the value per pixel, frames narrower than --minwidth left
 * out), every frame a <g> with its <title>, <rect> and <text> written in
 * the file, nested in its parent's <g> (so that it renders without the
 * script, and the script finds a frame's ancestors in the DOM).
 */
#include "flame.h"

#include "jeheap/report_flame.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

enum { XPAD = JH_FLAME_XPAD, FRAME_H = JH_FLAME_FRAME_H, FONT = JH_FLAME_FONT };
enum { YPAD1 = 60, YPAD2 = 34 };
#define FONT_WIDTH 0.59

/* Tables of strings a frame refers to by index (modules, file:line). */
struct strtab {
	struct jh_intern in;
	struct jh_u64map idx; /* interned pointer -> index + 1 */
	struct jh_sb out;     /* <text> per entry */
	uint32_t n;
};

static void strtab_init(struct strtab *t)
{
	jh_intern_init(&t->in);
	jh_u64map_init(&t->idx);
	jh_sb_init(&t->out);
	t->n = 0;
}

static void strtab_release(struct strtab *t)
{
	jh_intern_release(&t->in);
	jh_u64map_release(&t->idx);
	jh_sb_release(&t->out);
}

static uint32_t strtab_add(struct strtab *t, const char *s)
{
	const char *p = jh_intern(&t->in, s);
	int added;
	uint64_t *v = jh_u64map_put(&t->idx, (uint64_t)(uintptr_t)p, &added);
	if (added) {
		*v = ++t->n;
		jh_sb_adds(&t->out, "<text>");
		jh_markup_escape(&t->out, s, strlen(s));
		jh_sb_adds(&t->out, "</text>\n");
	}
	return (uint32_t)*v - 1;
}

const char *jh_flame_value_name(const struct jh_graph *g)
{
	switch (g->value) {
	case JH_INUSE_OBJECTS: return "inuse_objects";
	case JH_INUSE_SPACE: return "inuse_space";
	case JH_ALLOC_OBJECTS: return "alloc_objects";
	case JH_ALLOC_SPACE: return "alloc_space";
	default: return "?";
	}
}

const char *jh_flame_unit(enum jh_value v)
{
	return v == JH_INUSE_OBJECTS || v == JH_ALLOC_OBJECTS ? "objects" : "bytes";
}

static const char *unit_word(const struct jh_graph *g)
{
	return jh_flame_unit(g->value);
}

void jh_flame_int(struct jh_sb *sb, int64_t v, int plus)
{
	char digits[32];
	uint64_t u = v < 0 ? (uint64_t)0 - (uint64_t)v : (uint64_t)v;
	int n = snprintf(digits, sizeof(digits), "%llu", (unsigned long long)u);
	if (v < 0)
		jh_sb_addc(sb, '-');
	else if (plus)
		jh_sb_addc(sb, '+');
	for (int i = 0; i < n; i++) {
		if (i && (n - i) % 3 == 0)
			jh_sb_addc(sb, ',');
		jh_sb_addc(sb, digits[i]);
	}
}

/* FNV-1a of a name: its colour, the same in every graph. */
static uint64_t name_hash(const char *s, size_t n)
{
	uint64_t h = 0xcbf29ce484222325ULL;
	for (size_t i = 0; i < n; i++)
		h = (h ^ (unsigned char)s[i]) * 0x100000001b3ULL;
	return h;
}

enum { MOD_PROGRAM, MOD_LIBRARY, MOD_UNKNOWN };

static int module_class(const struct jh_model *m, const struct jh_fnode *n)
{
	const struct jh_location *l = &m->locs[n->loc];
	if (n->level >= l->nframes || !m->frames.items[l->first + n->level].func)
		return MOD_UNKNOWN;
	if (!l->module || (m->program && !strcmp(l->module, m->program)))
		return MOD_PROGRAM;
	const char *b = strrchr(l->module, '/');
	return strstr(b ? b + 1 : l->module, ".so") ? MOD_LIBRARY : MOD_PROGRAM;
}

static uint32_t rgb(int r, int g, int b)
{
	return (uint32_t)r << 16 | (uint32_t)g << 8 | (uint32_t)b;
}

/* The fill of a frame (0xRRGGBB): by module and name, or by its change
 * (differential: flamegraph.pl's shades, white at no change to pure red or
 * blue at the largest). */
static uint32_t frame_fill(const struct jh_flame *f, const struct jh_fnode *n,
			   const struct jh_coll_str *t, int64_t delta_max)
{
	if (f->g->has_base) {
		int64_t d = n->after - n->before;
		double a = d < 0 ? -(double)d : (double)d;
		int v = (int)(210.0 * (delta_max - a) / delta_max);
		v = v < 0 ? 0 : v;
		if (d > 0)
			return rgb(255, v, v);
		if (d < 0)
			return rgb(v, v, 255);
		return rgb(250, 250, 250);
	}
	if (!t)
		return rgb(240, 160, 60);
	uint64_t h = name_hash(t->s, t->len);
	double v1 = (double)(h & 0xffff) / 65535.0, v2 = (double)(h >> 16 & 0xffff) / 65535.0,
	       v3 = (double)(h >> 32 & 0xffff) / 65535.0;
	switch (module_class(f->g->m, n)) {
	case MOD_LIBRARY:
		return rgb(50 + (int)(60 * v1), 160 + (int)(70 * v2), 190 + (int)(50 * v3));
	case MOD_UNKNOWN: {
		int c = 170 + (int)(50 * v1);
		return rgb(c, c, c);
	}
	default: return rgb(205 + (int)(50 * v3), (int)(230 * v1), (int)(55 * v2));
	}
}

/* One sRGB channel (0..255) made linear, as WCAG's relative luminance takes it. */
static double linear(uint32_t c)
{
	double x = (double)c / 255.0;
	return x <= 0.04045 ? x / 12.92 : pow((x + 0.055) / 1.055, 2.4);
}

/*
 * Whether a label on fill is written white rather than black: the one of
 * the two that contrasts more (WCAG's (L1 + 0.05) / (L2 + 0.05)). Black's
 * contrast is (L + 0.05) / 0.05, white's 1.05 / (L + 0.05); the better one
 * is at least 4.58:1 for any fill, above WCAG AA's 4.5.
 */
static int white_text(uint32_t fill)
{
	double l = 0.2126 * linear(fill >> 16 & 0xff) + 0.7152 * linear(fill >> 8 & 0xff) +
		   0.0722 * linear(fill & 0xff);
	return 1.05 / (l + 0.05) > (l + 0.05) / 0.05;
}

/* x rounded as "%.1f" prints it. */
static double round1(double x)
{
	char b[64];
	snprintf(b, sizeof(b), "%.1f", x);
	return strtod(b, NULL);
}

/* flamegraph.pl's label: the name in as many characters as fit, the last
 * two of them ".." when cut; nothing when fewer than 3 fit. */
static void add_label(struct jh_sb *sb, const char *s, size_t n, double w)
{
	long chars = (long)(w / (FONT * FONT_WIDTH)), total = 0;
	if (chars < 3)
		return;
	size_t keep = n; /* where the first chars - 2 characters end */
	for (size_t i = 0; i < n; i++) {
		if (((unsigned char)s[i] & 0xc0) == 0x80)
			continue;
		if (total == chars - 2)
			keep = i;
		total++;
	}
	if (total <= chars) {
		jh_markup_escape(sb, s, n);
		return;
	}
	jh_markup_escape(sb, s, keep);
	jh_sb_adds(sb, "..");
}

/* "VALUE UNIT, P%[, +DELTA UNIT]" of a frame. */
static void add_amounts(struct jh_sb *sb, const struct jh_flame *f, const struct jh_fnode *n,
			int root)
{
	const struct jh_fnode *r = &f->n[0];
	const char *unit = unit_word(f->g);
	jh_flame_int(sb, n->after, 0);
	jh_sb_addf(sb, " %s, ", unit);
	if (root)
		jh_sb_adds(sb, "100%");
	else
		jh_sb_addf(sb, "%.2f%%",
			   r->after ? 100.0 * (double)n->after / (double)r->after : 0);
	if (f->g->has_base) {
		jh_sb_adds(sb, ", ");
		jh_flame_int(sb, n->after - n->before, 1);
		jh_sb_addf(sb, " %s", unit);
	}
}

struct frame_ctx {
	const struct jh_flame *f;
	double wpt, height;
	int64_t delta_max;
	struct strtab mods, files;
	struct jh_sb tmp;
};

/* Frame n's <g> opened, with its title, rect and text (not closed). */
static void add_frame(struct jh_sb *sb, struct frame_ctx *x, const struct jh_fnode *n)
{
	const struct jh_flame *f = x->f;
	const struct jh_model *m = f->g->m;
	int root = n->rank == UINT32_MAX;
	const struct jh_coll_str *t = root ? NULL : &f->c.rstr[n->rank];
	uint32_t fill = frame_fill(f, n, t, x->delta_max);
	jh_sb_adds(sb, root ? "<g class=\"f r" : t->inl ? "<g class=\"f i" : "<g class=\"f");
	jh_sb_adds(sb, white_text(fill) ? " w\"" : "\""); /* w: a white label */
	jh_sb_addf(sb, " data-o=\"%lld\"", (long long)n->v2);
	if (!root) {
		const struct jh_location *l = &m->locs[n->loc];
		if (l->module)
			jh_sb_addf(sb, " data-m=\"%u\"", strtab_add(&x->mods, l->module));
		const struct jh_frame *fr = n->level < l->nframes
						    ? &m->frames.items[l->first + n->level]
						    : NULL;
		if (fr && fr->file) {
			jh_sb_reset(&x->tmp);
			jh_sb_addf(&x->tmp, "%s:%u", fr->file, fr->line);
			jh_sb_addf(sb, " data-l=\"%u\"", strtab_add(&x->files, x->tmp.buf));
		}
	}
	jh_sb_reset(&x->tmp); /* the name */
	if (root) {
		jh_sb_adds(&x->tmp, "all");
	} else {
		jh_sb_add(&x->tmp, t->s, t->len);
		if (t->inl)
			jh_sb_adds(&x->tmp, "[inline]");
	}
	jh_sb_adds(sb, "><title>");
	jh_markup_escape(sb, x->tmp.buf, x->tmp.len);
	jh_sb_adds(sb, " (");
	add_amounts(sb, f, n, root);
	double x1 = XPAD + (double)n->start * x->wpt;
	double x2 = XPAD + (double)(n->start + n->width) * x->wpt;
	double y1 = f->o->inverted ? YPAD1 + n->depth * FRAME_H
				   : x->height - YPAD2 - (n->depth + 1) * FRAME_H + 1;
	jh_sb_addf(sb,
		   ")</title><rect x=\"%.1f\" y=\"%.0f\" width=\"%.1f\" height=\"15.0\" fill=\"",
		   x1, y1, round1(x2) - round1(x1));
	jh_sb_addf(sb, "#%06x\"/>", (unsigned)fill);
	if ((long)((x2 - x1) / (FONT * FONT_WIDTH)) >= 3) { /* else no label */
		jh_sb_addf(sb, "<text x=\"%.2f\" y=\"%.1f\">", x1 + 3, y1 + 10.5);
		add_label(sb, x->tmp.buf, x->tmp.len, x2 - x1);
		jh_sb_adds(sb, "</text>");
	}
	jh_sb_addc(sb, '\n');
}

/* The title and the subtitle (inputs, sample type, total). */
static void add_titles(struct jh_sb *sb, const struct jh_flame *f, double width)
{
	const struct jh_flame_opts *o = f->o;
	const char *title = o->title ? o->title : o->inverted ? "Icicle Graph" : "Flame Graph";
	jh_sb_addf(sb, "<text id=\"jh-title\" class=\"t\" x=\"%.0f\" y=\"24\">", width / 2);
	jh_markup_escape(sb, title, strlen(title));
	jh_sb_addf(sb, "</text>\n<text id=\"jh-sub\" x=\"%.0f\" y=\"44\">", width / 2);
	jh_sb_adds(sb, jh_flame_value_name(f->g));
	jh_sb_adds(sb, " of ");
	for (size_t i = 0; i < o->ninputs; i++) {
		jh_sb_adds(sb, i ? ", " : "");
		jh_markup_escape(sb, o->inputs[i], strlen(o->inputs[i]));
	}
	for (size_t i = 0; i < o->nbases; i++) {
		jh_sb_adds(sb, i ? ", " : " minus ");
		jh_markup_escape(sb, o->bases[i], strlen(o->bases[i]));
	}
	jh_sb_adds(sb, ": total ");
	jh_flame_int(sb, f->n[0].after, 0);
	jh_sb_addf(sb, " %s", unit_word(f->g));
	if (f->g->has_base) {
		jh_sb_adds(sb, " (");
		jh_flame_int(sb, f->n[0].after - f->n[0].before, 1);
		jh_sb_adds(sb, o->base_widths ? "; widths from the bases)" : ")");
	}
	jh_sb_adds(sb, "</text>\n");
}

void jh_flame_svg(struct jh_sb *sb, const struct jh_flame *f, int script)
{
	const struct jh_flame_opts *o = f->o;
	double width = f->width;
	struct frame_ctx x = { .f = f, .delta_max = 1, .wpt = f->wpt };
	size_t hidden = f->hidden;
	uint32_t depth_max = 0;
	for (size_t i = 0; i < f->nn; i++) {
		const struct jh_fnode *n = &f->n[i];
		depth_max = n->depth > depth_max ? n->depth : depth_max;
		int64_t d = n->after - n->before;
		d = d < 0 ? -d : d;
		if (i && d > x.delta_max)
			x.delta_max = d;
	}
	x.height = (depth_max + 1.0) * FRAME_H + YPAD1 + YPAD2;
	jh_sb_addf(sb,
		   "<svg version=\"1.1\" id=\"jh-flame\" width=\"%.0f\" height=\"%.0f\""
		   " viewBox=\"0 0 %.0f %.0f\" xmlns=\"http://www.w3.org/2000/svg\""
		   " data-width=\"%.0f\" data-inverted=\"%d\"",
		   width, x.height, width, x.height, width, o->inverted != 0);
	/* the unit of the frames' data-o (the companion value; its change with --base) */
	jh_sb_addf(sb, " data-o-unit=\"%s\" data-diff=\"%d\">\n", jh_flame_unit(f->g->value2),
		   f->g->has_base != 0);
	jh_sb_addf(sb, "<style>%s</style>\n", jh_flame_style);
	if (script)
		jh_sb_addf(sb, "<script type=\"text/ecmascript\"><![CDATA[\n%s]]></script>\n",
			   jh_flame_script);
	jh_sb_adds(sb,
		   "<defs><linearGradient id=\"jh-bg\" y1=\"0\" y2=\"1\" x1=\"0\" x2=\"0\">"
		   "<stop stop-color=\"#eeeeee\" offset=\"5%\"/>"
		   "<stop stop-color=\"#eeeeb0\" offset=\"95%\"/></linearGradient></defs>\n"
		   "<rect x=\"0\" y=\"0\" width=\"100%\" height=\"100%\" fill=\"url(#jh-bg)\"/>\n");
	add_titles(sb, f, width);
	jh_sb_addf(sb,
		   "<text id=\"jh-reset\" class=\"b hide\" x=\"%d\" y=\"24\">Reset Zoom</text>\n"
		   "<text id=\"jh-search\" class=\"b\" x=\"%.0f\" y=\"24\" text-anchor=\"end\">"
		   "Search</text>\n"
		   "<text id=\"jh-details\" x=\"%d\" y=\"%.0f\"> </text>\n"
		   "<text id=\"jh-matched\" x=\"%.0f\" y=\"%.0f\" text-anchor=\"end\"> </text>\n"
		   "<text id=\"jh-hidden\" x=\"%d\" y=\"%.0f\">%zu frame%s hidden (narrower than ",
		   XPAD, width - XPAD, XPAD, x.height - 19, width - XPAD, x.height - 19, XPAD,
		   x.height - 5, hidden, hidden == 1 ? "" : "s");
	jh_sb_addf(sb, f->min_px >= 10 ? "%.0f px)</text>\n" : "%.2g px)</text>\n", f->min_px);
	strtab_init(&x.mods);
	strtab_init(&x.files);
	jh_sb_init(&x.tmp);
	struct jh_sb frames = JH_SB_INIT;
	jh_sb_init(&frames);
	uint32_t open = 0; /* frames open: depths 0 .. open - 1 */
	for (size_t i = 0; i < f->nn; i++) {
		const struct jh_fnode *n = &f->n[i];
		for (; open > n->depth; open--)
			jh_sb_adds(&frames, "</g>\n");
		add_frame(&frames, &x, n);
		open = n->depth + 1;
	}
	for (; open > 0; open--)
		jh_sb_adds(&frames, "</g>\n");
	jh_sb_adds(sb, "<g id=\"jh-mods\" display=\"none\">\n");
	jh_sb_add(sb, x.mods.out.buf, x.mods.out.len);
	jh_sb_adds(sb, "</g>\n<g id=\"jh-files\" display=\"none\">\n");
	jh_sb_add(sb, x.files.out.buf, x.files.out.len);
	jh_sb_adds(sb, "</g>\n<g id=\"jh-frames\">\n");
	jh_sb_add(sb, frames.buf, frames.len);
	jh_sb_adds(sb, "</g>\n</svg>\n");
	jh_sb_release(&frames);
	jh_sb_release(&x.tmp);
	strtab_release(&x.mods);
	strtab_release(&x.files);
}

int jh_report_flamegraph(FILE *out, const struct jh_graph *g, const struct jh_flame_opts *o)
{
	struct jh_flame f;
	jh_flame_build(&f, g, o);
	struct jh_sb sb = JH_SB_INIT;
	jh_sb_init(&sb);
	jh_sb_adds(&sb, "<?xml version=\"1.0\" encoding=\"UTF-8\" standalone=\"no\"?>\n");
	jh_flame_svg(&sb, &f, 1);
	fwrite(sb.buf, 1, sb.len, out);
	jh_sb_release(&sb);
	jh_flame_release(&f);
	return ferror(out) ? -1 : 0;
}

/*
 * analyse_frames.c - Go pprof's frame filters (--hide, --show, --show_from,
 * --prune_from, --noinlines) with pprof's meanings (Go 1.19
 * profile/filter.go, prune.go, driver's aggregate), on jeheap's locations:
 *
 *   --hide=RE        frames whose function name or source file matches are
 *                    removed (every frame of a location whose module file
 *                    matches); a location left without frames leaves its stacks
 *   --show=RE        only such frames stay (all of a matching module's)
 *   --show_from=RE   each stack starts at its outermost matching location
 *                    (frames outside the match removed there); stacks
 *                    without one are dropped
 *   --prune_from=RE  each stack ends at its innermost location whose function
 *                    name (argument list removed) matches; frames inlined
 *                    into the match are removed
 *   --noinlines      only the outermost remaining frame of every location
 *
 * A location's frames are decided once (they depend on the location only);
 * the per-frame result is jh_graph.frame_hidden.
 */
#include "analyse_internal.h"

#include <stdlib.h>
#include <string.h>

enum {
	VF_DONE = 1,
	VF_GONE = 2,  /* every frame hidden: the location leaves its stacks */
	VF_FROM = 4,  /* matched --show_from */
	VF_PRUNE = 8, /* matched --prune_from */
};

int jh_frames_make(struct jh_graph_priv *gp, const struct jh_model *m,
		   const struct jh_analysis_opts *o, struct jh_diag *d)
{
	static const char names[][12] = { "hide", "show", "show_from", "prune_from" };
	const char *res[] = { o->hide, o->show, o->show_from, o->prune_from };
	struct jh_filter **f[] = { &gp->hide, &gp->show, &gp->show_from, &gp->prune_from };
	for (int i = 0; i < 4; i++) {
		*f[i] = NULL;
		if (res[i] && *res[i] && !(*f[i] = jh_filter_new(names[i], res[i], d)))
			return -1;
	}
	gp->noinlines = o->noinlines;
	gp->frames_on = gp->hide || gp->show || gp->show_from || gp->prune_from || gp->noinlines;
	if (gp->frames_on) {
		gp->vflags = xcalloc(m->nlocs ? m->nlocs : 1, 1);
		gp->fhide = xcalloc(m->frames.nr ? m->frames.nr : 1, 1);
	}
	return 0;
}

void jh_frames_release(struct jh_graph_priv *gp)
{
	jh_filter_free(gp->hide);
	jh_filter_free(gp->show);
	jh_filter_free(gp->show_from);
	jh_filter_free(gp->prune_from);
	free(gp->vflags);
	free(gp->fhide);
}

/* Whether a frame's function name or source file matches (pprof's test). */
static int frame_matches(struct jh_filter *re, const struct jh_frame *f)
{
	if (jh_filter_match_interned(re, f->func ? f->func : "??"))
		return 1;
	return f->file && jh_filter_match_interned(re, f->file);
}

/* pprof's simplifyFunc: the name up to its first '(' that does not start
 * "(anonymous namespace)" or belong to "operator()". */
static size_t simplified_len(const char *s)
{
	static const char anon[] = "(anonymous namespace)", op[] = "operator()";
	size_t i = 0;
	if (s[0] == '.')
		s++, i = 1;
	for (const char *p = s; *p;) {
		if (!strncmp(p, anon, sizeof(anon) - 1))
			p += sizeof(anon) - 1;
		else if (!strncmp(p, op, sizeof(op) - 1))
			p += sizeof(op) - 1;
		else if (*p == '(')
			return i + (size_t)(p - s);
		else
			p++;
	}
	return i + strlen(s);
}

static int prune_matches(struct jh_filter *re, const char *name)
{
	size_t n = simplified_len(name);
	if (name[0] == '.')
		return jh_filter_match(re, name + 1, n - 1);
	return jh_filter_match(re, name, n);
}

/* A location without frames: pprof sees one line named "libname+0xOFF"
 * (what --proto writes), none for a kernel address. */
static uint8_t unnamed_location(struct jh_graph_priv *gp, const struct jh_location *l)
{
	int has_line = l->pc < 0x8000000000000000ULL;
	jh_sb_reset(&gp->sb2);
	jh_unknown_name(&gp->sb2, l);
	const char *mod = l->module;
	int vis = has_line;
	uint8_t out = VF_DONE;
	if (gp->hide && ((mod && jh_filter_match_interned(gp->hide, mod)) ||
			 (has_line && jh_filter_match(gp->hide, gp->sb2.buf, gp->sb2.len))))
		vis = 0;
	if (gp->show && !((mod && jh_filter_match_interned(gp->show, mod)) ||
			  jh_filter_match(gp->show, gp->sb2.buf, gp->sb2.len)))
		vis = 0;
	if ((gp->hide || gp->show) && !vis)
		return out | VF_GONE;
	if (gp->show_from &&
	    ((mod && jh_filter_match_interned(gp->show_from, mod)) ||
	     (has_line && jh_filter_match(gp->show_from, gp->sb2.buf, gp->sb2.len))))
		out |= VF_FROM;
	if (gp->prune_from && has_line && prune_matches(gp->prune_from, gp->sb2.buf))
		out |= VF_PRUNE;
	return out;
}

static uint8_t loc_frames(struct jh_graph_priv *gp, const struct jh_model *m, uint32_t id)
{
	uint8_t *vf = &gp->vflags[id];
	if (*vf & VF_DONE)
		return *vf;
	const struct jh_location *l = &m->locs[id];
	if (!l->nframes)
		return *vf = unnamed_location(gp, l);
	const struct jh_frame *fr = m->frames.items + l->first;
	uint8_t *hid = gp->fhide + l->first;
	uint32_t n = l->nframes;
	const char *mod = l->module;
	uint8_t out = VF_DONE;
	int mod_hide = gp->hide && mod && jh_filter_match_interned(gp->hide, mod);
	int mod_show = gp->show && mod && jh_filter_match_interned(gp->show, mod);
	uint32_t nvis = 0;
	for (uint32_t j = 0; j < n; j++) {
		if (gp->hide && (mod_hide || frame_matches(gp->hide, &fr[j])))
			hid[j] = 1;
		if (gp->show && !mod_show && !frame_matches(gp->show, &fr[j]))
			hid[j] = 1;
		nvis += !hid[j];
	}
	if (!nvis)
		return *vf = out | VF_GONE;
	if (gp->show_from) {
		/* frames are outermost first: the outermost match is the first */
		if (mod && jh_filter_match_interned(gp->show_from, mod)) {
			out |= VF_FROM;
		} else {
			for (uint32_t j = 0; j < n; j++) {
				if (hid[j] || !frame_matches(gp->show_from, &fr[j]))
					continue;
				out |= VF_FROM;
				for (uint32_t k = 0; k < j; k++)
					hid[k] = 1;
				break;
			}
		}
	}
	if (gp->prune_from) {
		for (uint32_t j = n; j-- > 0;) {
			if (hid[j] ||
			    !prune_matches(gp->prune_from, fr[j].func ? fr[j].func : "??"))
				continue;
			out |= VF_PRUNE;
			for (uint32_t k = j + 1; k < n; k++)
				hid[k] = 1;
			break;
		}
	}
	if (gp->noinlines) {
		uint32_t j = 0;
		while (j < n && hid[j])
			j++;
		for (uint32_t k = j + 1; k < n; k++)
			hid[k] = 1;
	}
	return *vf = out;
}

size_t jh_frames_stack(struct jh_graph_priv *gp, const struct jh_model *m, const uint32_t *in,
		       size_t n, uint32_t *out)
{
	size_t k = 0;
	for (size_t i = 0; i < n; i++) {
		uint32_t id = in[i];
		if (!(loc_frames(gp, m, id) & VF_GONE))
			out[k++] = id;
	}
	if ((gp->hide || gp->show) && !k)
		return SIZE_MAX; /* pprof removes samples left without locations */
	if (gp->show_from) {
		size_t i = k;
		while (i > 0 && !(gp->vflags[out[i - 1]] & VF_FROM))
			i--;
		if (!i)
			return SIZE_MAX;
		k = i; /* leaf .. the outermost match */
	}
	if (gp->prune_from) {
		size_t i = 0;
		while (i < k && !(gp->vflags[out[i]] & VF_PRUNE))
			i++;
		if (i < k) { /* the innermost match .. root */
			memmove(out, out + i, (k - i) * sizeof(*out));
			k -= i;
		}
	}
	return k;
}

uint32_t jh_frames_outer(const struct jh_graph_priv *gp, const struct jh_location *l)
{
	uint32_t j = 0;
	if (gp->fhide)
		while (j + 1 < l->nframes && gp->fhide[l->first + j])
			j++;
	return j;
}

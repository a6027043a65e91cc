/*
 * report_speedscope.c - --speedscope: speedscope's JSON file format
 * (https://www.speedscope.app/file-format-schema.json), one "sampled"
 * profile per value written (the selected one, or all four), weights in
 * bytes or objects. Frames are --collapsed's, inline frames included (as
 * frames named "f (inline)"); stacks root first.
 */
#include "json_str.h"

#include "jeheap/names.h"
#include "jeheap/report.h"

#include <math.h>
#include <string.h>

static const char value_names[JH_NVALUES][16] = { "inuse_objects", "inuse_space", "alloc_objects",
						  "alloc_space" };

struct ss {
	FILE *out;
	const struct jh_model *m;
	struct jh_u64map frame_of; /* name hash -> frame index + 1 */
	char **names;              /* frame names, by index */
	size_t nframes, alloc;
	uint32_t **loc_frames; /* per model location: frame ids, outermost first, [0] = count */
	struct jh_sb sb;
	const uint8_t *hidden; /* per model frame: removed by the frame filters (or NULL) */
};

static uint32_t frame_id(struct ss *w, const char *name, size_t n)
{
	uint64_t h = jh_hash_str(name, n);
	for (;; h++) { /* a colliding hash: the next key */
		int added;
		uint64_t *slot = jh_u64map_put(&w->frame_of, h, &added);
		if (added) {
			JH_GROW(w->names, w->nframes + 1, w->alloc);
			w->names[w->nframes] = xstrndup(name, n);
			*slot = ++w->nframes;
			return (uint32_t)(*slot - 1);
		}
		if (!strcmp(w->names[*slot - 1], name) && strlen(w->names[*slot - 1]) == n)
			return (uint32_t)(*slot - 1);
	}
}

/* The frames of location l: --collapsed's names split at ';'. */
static const uint32_t *loc_frames(struct ss *w, uint32_t l)
{
	if (w->loc_frames[l])
		return w->loc_frames[l];
	jh_sb_reset(&w->sb);
	jh_collapsed_name(&w->sb, w->m, &w->m->locs[l]);
	size_t cnt = 1;
	for (size_t i = 0; i < w->sb.len; i++)
		cnt += w->sb.buf[i] == ';';
	uint32_t *f = xmalloc((cnt + 1) * sizeof(*f));
	f[0] = 0;
	const char *s = w->sb.buf, *e = s + w->sb.len;
	const struct jh_location *loc = &w->m->locs[l];
	uint32_t j0 = 0; /* the outermost frame the frame filters keep */
	while (w->hidden && j0 + 1 < loc->nframes && w->hidden[loc->first + j0])
		j0++;
	for (uint32_t k = 0; s <= e && w->sb.len; k++) { /* element k: frame k */
		const char *q = memchr(s, ';', (size_t)(e - s));
		if (!q)
			q = e;
		size_t n = (size_t)(q - s);
		static const char inl[] = "[inline]";
		int hid = w->hidden && k < loc->nframes && w->hidden[loc->first + k];
		if (hid) {
			/* removed by --hide, --noinlines ... */
		} else if (w->hidden && k == j0) {
			f[++f[0]] = frame_id(w, s, n >= 8 && !memcmp(q - 8, inl, 8) ? n - 8 : n);
		} else if (n >= sizeof(inl) - 1 &&
			   !memcmp(q - (sizeof(inl) - 1), inl, sizeof(inl) - 1)) {
			struct jh_sb t = JH_SB_INIT;
			jh_sb_init(&t);
			jh_sb_add(&t, s, n - (sizeof(inl) - 1));
			jh_sb_adds(&t, " (inline)");
			f[++f[0]] = frame_id(w, t.buf, t.len);
			jh_sb_release(&t);
		} else {
			f[++f[0]] = frame_id(w, s, n);
		}
		s = q + 1;
	}
	w->loc_frames[l] = f;
	return f;
}

static void profile(struct ss *w, const struct jh_graph *g, int first)
{
	FILE *out = w->out;
	double total = 0;
	for (size_t s = 0; s < g->nstacks; s++)
		if (g->stacks[s].len && g->stacks[s].v > 0)
			total += floor(g->stacks[s].v);
	const char *vn = value_names[g->value];
	fprintf(out, "%s{\"type\":\"sampled\",\"name\":\"%s", first ? "" : ",", vn);
	if (g->thread >= 0)
		fprintf(out, " thread %llu", (unsigned long long)w->m->threads[g->thread].uid);
	fprintf(out, "\",\"unit\":\"%s\",\"startValue\":0,\"endValue\":%.0f,\"samples\":[",
		g->unit == JH_UNIT_OBJECTS ? "none" : "bytes", total);
	int sep = 0;
	for (size_t s = 0; s < g->nstacks; s++) {
		const struct jh_gstack *gs = &g->stacks[s];
		if (!gs->len || floor(gs->v) <= 0)
			continue; /* speedscope takes positive weights only */
		fputs(sep++ ? ",[" : "[", out);
		int fsep = 0;
		for (uint32_t i = gs->len; i-- > 0;) {
			const uint32_t *f = loc_frames(w, g->locpool[gs->off + i]);
			for (uint32_t k = 1; k <= f[0]; k++)
				fprintf(out, fsep++ ? ",%u" : "%u", f[k]);
		}
		putc(']', out);
	}
	fputs("],\"weights\":[", out);
	sep = 0;
	for (size_t s = 0; s < g->nstacks; s++) {
		const struct jh_gstack *gs = &g->stacks[s];
		if (gs->len && floor(gs->v) > 0)
			fprintf(out, sep++ ? ",%.0f" : "%.0f", floor(gs->v));
	}
	fputs("]}", out);
}

int jh_report_speedscope(FILE *out, const struct jh_graph *const *g, size_t nviews,
			 enum jh_value def, int all_types, const struct jh_report_opts *o,
			 struct jh_diag *d)
{
	(void)d;
	struct ss w;
	memset(&w, 0, sizeof(w));
	w.out = out;
	w.m = g[0]->m;
	w.hidden = g[0]->frame_hidden; /* every view has the same filters */
	jh_u64map_init(&w.frame_of);
	jh_sb_init(&w.sb);
	w.loc_frames = xcalloc(w.m->nlocs + 1, sizeof(*w.loc_frames));
	/* the profiles first (they name the frames), into a memory stream */
	char *body = NULL;
	size_t blen = 0;
	FILE *mem = open_memstream(&body, &blen);
	if (!mem)
		return -1;
	w.out = mem;
	int first = 1;
	static const enum jh_value order[JH_NVALUES] = { JH_INUSE_SPACE, JH_INUSE_OBJECTS,
							 JH_ALLOC_SPACE, JH_ALLOC_OBJECTS };
	for (size_t v = 0; v < nviews; v++)
		for (int k = 0; k < JH_NVALUES; k++) {
			enum jh_value val = all_types ? order[k] : def;
			if (!all_types && k)
				break;
			profile(&w, g[v * JH_NVALUES + val], first);
			first = 0;
		}
	int rc = fclose(mem) ? -1 : 0;
	fprintf(out, "{\"$schema\":\"https://www.speedscope.app/file-format-schema.json\","
		     "\"name\":\"");
	jh_json_str(out, o->nprofiles ? o->profiles[0] : "jeheap",
		    o->nprofiles ? strlen(o->profiles[0]) : 6);
	fprintf(out,
		"\",\"exporter\":\"jeheap %s\",\"activeProfileIndex\":0,"
		"\"shared\":{\"frames\":[",
		JEHEAP_VERSION);
	for (size_t i = 0; i < w.nframes; i++) {
		fputs(i ? ",{\"name\":\"" : "{\"name\":\"", out);
		jh_json_str(out, w.names[i], strlen(w.names[i]));
		fputs("\"}", out);
		free(w.names[i]);
	}
	fputs("]},\"profiles\":[", out);
	fwrite(body, 1, blen, out);
	fputs("]}\n", out);
	free(body);
	for (size_t l = 0; l < w.m->nlocs; l++)
		free(w.loc_frames[l]);
	free(w.loc_frames);
	free(w.names);
	jh_u64map_release(&w.frame_of);
	jh_sb_release(&w.sb);
	return rc || fflush(out) || ferror(out) ? -1 : 0;
}

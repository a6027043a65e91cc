/*
 * parse_pprof.c - pprof's profile.proto (perftools.profiles.Profile, gzip
 * or not) as a raw profile. protobuf-c's generated unpack decodes the
 * message; everything it cannot check is checked here (string, location,
 * function and mapping ids, value counts) before anything is used.
 *
 * Values are taken as they are (pprof's are already unsampled). Sample
 * types are matched by name: inuse_space/inuse_objects/alloc_space/
 * alloc_objects (Go, jemalloc_pprof), space/objects (pprof's legacy
 * import). Names are per location: one whose lines name functions becomes
 * a symbol line ("outer--inner", innermost last); one without lines, or
 * whose functions are all named "??" or "", is symbolized from its mapping
 * like a raw dump (jh_profile.sym_fallback). Addresses are return
 * addresses minus one (pprof's convention): callers keep them, the leaf
 * gets its one back (jeheap's pcs, parse_line.c).
 *
 * A location's module is its mapping_id's file. When the mappings do not
 * place the addresses by range (jemalloc_pprof since 2025: every mapping
 * at 0-0 or 0-ffffffffffffffff, addresses ELF virtual addresses of their
 * object; overlapping or missed ranges), each used mapping is moved to a
 * range of its own and its locations' addresses with it (mappings_place).
 * jemalloc_pprof's "executableInfo=3;<offset>;<vaddr>" comments (one per
 * mapping, up to 0.7) give the ELF address of a mapping's start.
 */
#include "parse.h"

#include <profile.pb-c.h> /* generated at build time (src/CMakeLists.txt) */

#include <stdlib.h>
#include <string.h>

typedef Perftools__Profiles__Profile Profile;

#define JH_PPROF_MAX ((size_t)1 << 32) /* a larger message is refused */

int jh_is_pprof(struct jh_reader *r)
{
	const unsigned char *b;
	size_t n;
	if (jh_input_peek(r->in, &b, &n, r->d) < 0)
		return -1;
	if (n < 2)
		return 0;
	/* the first byte is the tag of a field of Profile (1..14; Go's
	 * runtime writes period_type, 11, first): length-delimited, or a
	 * varint for the integer ones; and protobuf holds bytes no text
	 * profile has */
	unsigned field = b[0] >> 3, wire = b[0] & 7;
	/* "heap..." opens a text profile ('h' would be comment's tag, 'a' then
	 * a fixed64 period, which no encoder writes) */
	if (n >= 4 && !memcmp(b, "heap", 4))
		return 0;
	if (field < 1 || field > 14 || (wire != 2 && (wire != 0 || field < 7 || field == 11)))
		return 0;
	for (size_t i = 0; i < n; i++)
		if ((b[i] < 0x20 && b[i] != '\t' && b[i] != '\n' && b[i] != '\r') || b[i] == 0x7f)
			return 1;
	return 0;
}

static int bad(struct jh_reader *r, const char *what, unsigned long long a)
{
	return jh_diag_set(r->d, JH_EXIT_INPUT, jh_input_name(r->in), 0, what, a);
}

/* id -> index + 1 for the ids of one kind; duplicates and 0 refused */
static int index_ids(struct jh_reader *r, struct jh_u64map *m, const char *kind, size_t n,
		     uint64_t (*id)(const Profile *, size_t), const Profile *pf)
{
	char msg[96];
	for (size_t i = 0; i < n; i++) {
		uint64_t v = id(pf, i);
		int added;
		if (!v) {
			snprintf(msg, sizeof(msg), "profile.proto: %s %%llu has id 0", kind);
			return bad(r, msg, (unsigned long long)i);
		}
		uint64_t *slot = jh_u64map_put(m, v, &added);
		if (!added) {
			snprintf(msg, sizeof(msg), "profile.proto: two %ss with id %%llu", kind);
			return bad(r, msg, (unsigned long long)v);
		}
		*slot = i + 1;
	}
	return 0;
}

static uint64_t loc_id(const Profile *p, size_t i)
{
	return p->location[i]->id;
}
static uint64_t fn_id(const Profile *p, size_t i)
{
	return p->function[i]->id;
}
static uint64_t map_id(const Profile *p, size_t i)
{
	return p->mapping[i]->id;
}

struct pp {
	struct jh_reader *r;
	const Profile *pf;
	struct jh_u64map locs, fns, maps;
	int col[JH_NVALUES]; /* sample value column of each jeheap value, -1 = none */
	int symbolized;      /* some location names a function */
	int unnamed;         /* some location names none */
	uint8_t *named;      /* per location: its lines name a function */
	uint64_t *addr;      /* per location: its address in the profile's pcs */
};

/* A string index must be in the table. */
static int str_ok(struct pp *pp, int64_t s, const char *what)
{
	if (s < 0 || (uint64_t)s >= pp->pf->n_string_table) {
		char msg[96];
		snprintf(msg, sizeof(msg), "profile.proto: %s: string %%llu out of the table",
			 what);
		return bad(pp->r, msg, (unsigned long long)s) + 1;
	}
	return 1;
}
#define STR(pp, s, what)                  \
	do {                              \
		if (!str_ok(pp, s, what)) \
			return -1;        \
	} while (0)

static int check(struct pp *pp)
{
	const Profile *pf = pp->pf;
	struct jh_reader *r = pp->r;
	if (!pf->n_string_table || pf->string_table[0][0])
		return bad(r, "profile.proto: string_table[0] is not the empty string%.0llu", 0);
	if (!pf->n_sample_type)
		return bad(r, "profile.proto: no sample types%.0llu", 0);
	if (index_ids(r, &pp->locs, "location", pf->n_location, loc_id, pf) ||
	    index_ids(r, &pp->fns, "function", pf->n_function, fn_id, pf) ||
	    index_ids(r, &pp->maps, "mapping", pf->n_mapping, map_id, pf))
		return -1;
	for (size_t i = 0; i < pf->n_sample_type; i++) {
		STR(pp, pf->sample_type[i]->type, "sample_type");
		STR(pp, pf->sample_type[i]->unit, "sample_type");
	}
	for (size_t i = 0; i < pf->n_mapping; i++) {
		STR(pp, pf->mapping[i]->filename, "mapping");
		STR(pp, pf->mapping[i]->build_id, "mapping");
	}
	for (size_t i = 0; i < pf->n_function; i++) {
		STR(pp, pf->function[i]->name, "function");
		STR(pp, pf->function[i]->system_name, "function");
	}
	for (size_t i = 0; i < pf->n_location; i++) {
		const Perftools__Profiles__Location *l = pf->location[i];
		if (l->mapping_id && !jh_u64map_get(&pp->maps, l->mapping_id))
			return bad(
				r,
				"profile.proto: location refers to mapping %llu, not in the file",
				(unsigned long long)l->mapping_id);
		for (size_t k = 0; k < l->n_line; k++) {
			if (!jh_u64map_get(&pp->fns, l->line[k]->function_id))
				return bad(r,
					   "profile.proto: line refers to function %llu, "
					   "not in the file",
					   (unsigned long long)l->line[k]->function_id);
		}
	}
	for (size_t i = 0; i < pf->n_sample; i++) {
		const Perftools__Profiles__Sample *s = pf->sample[i];
		if (s->n_value != pf->n_sample_type)
			return bad(r, "profile.proto: a sample has %llu values, not one per type",
				   (unsigned long long)s->n_value);
		for (size_t k = 0; k < s->n_location_id; k++)
			if (!jh_u64map_get(&pp->locs, s->location_id[k]))
				return bad(r,
					   "profile.proto: sample refers to location %llu, "
					   "not in the file",
					   (unsigned long long)s->location_id[k]);
	}
	return 0;
}

/* Sample type columns by name; p->values and p->types. */
static void sample_types(struct pp *pp, struct jh_profile *p)
{
	static const char names[JH_NVALUES][2][16] = {
		[JH_INUSE_OBJECTS] = { "inuse_objects", "objects" },
		[JH_INUSE_SPACE] = { "inuse_space", "space" },
		[JH_ALLOC_OBJECTS] = { "alloc_objects", "" },
		[JH_ALLOC_SPACE] = { "alloc_space", "" },
	};
	struct jh_sb sb = JH_SB_INIT;
	jh_sb_init(&sb);
	for (int v = 0; v < JH_NVALUES; v++)
		pp->col[v] = -1;
	for (size_t i = 0; i < pp->pf->n_sample_type; i++) {
		const char *t = pp->pf->string_table[pp->pf->sample_type[i]->type];
		jh_sb_addf(&sb, "%s%s", i ? ", " : "", t);
		for (int v = 0; v < JH_NVALUES; v++)
			for (int k = 0; k < 2; k++)
				if (names[v][k][0] && !strcmp(t, names[v][k]) && pp->col[v] < 0)
					pp->col[v] = (int)i;
	}
	p->values = 0;
	for (int v = 0; v < JH_NVALUES; v++)
		if (pp->col[v] >= 0)
			p->values |= 1u << v;
	if (!p->values)
		p->values = 1u << JH_NVALUES; /* none: every value is missing */
	p->types = jh_sb_detach(&sb);
}

static const char *fn_name(const struct pp *pp, uint64_t id)
{
	const Perftools__Profiles__Function *f = pp->pf->function[*jh_u64map_get(&pp->fns, id) - 1];
	const char *n = pp->pf->string_table[f->name];
	return n[0] ? n : pp->pf->string_table[f->system_name];
}

/* The names of location l as a symbol line at pc: "outer--inner". */
static void add_names(struct pp *pp, struct jh_profile *p, uint64_t pc,
		      const Perftools__Profiles__Location *l, struct jh_sb *sb, uint32_t **seps,
		      size_t *salloc)
{
	if (!l->n_line)
		return;
	jh_sb_reset(sb);
	JH_GROW(*seps, l->n_line, *salloc);
	for (size_t k = l->n_line; k-- > 0;) {
		if (k + 1 < l->n_line) {
			(*seps)[l->n_line - 2 - k] = (uint32_t)sb->len;
			jh_sb_adds(sb, "--");
		}
		const char *n = fn_name(pp, l->line[k]->function_id);
		jh_sb_adds(sb, n[0] ? n : "??");
	}
	struct jh_symbatch b;
	jh_symbatch_init(&b);
	jh_symbatch_add(p, &b, pc, sb->buf, 0, sb->len, *seps, l->n_line - 1);
	jh_symbatch_flush(p, &b);
	jh_symbatch_release(&b);
}

/* Which locations name functions (pp->named): some line's function is
 * named, other than "??". */
static void names_pass(struct pp *pp)
{
	const Profile *pf = pp->pf;
	for (size_t i = 0; i < pf->n_location; i++) {
		const Perftools__Profiles__Location *l = pf->location[i];
		for (size_t k = 0; k < l->n_line && !pp->named[i]; k++) {
			const char *n = fn_name(pp, l->line[k]->function_id);
			pp->named[i] = n[0] && strcmp(n, "??") != 0;
		}
		pp->symbolized |= pp->named[i];
		pp->unnamed |= !pp->named[i];
	}
}

/* Per location: the pc it has in stacks, and where it was used (1 leaf, 2 caller). */
static int body(struct pp *pp, struct jh_profile *p)
{
	const Profile *pf = pp->pf;
	size_t nl = pf->n_location;
	uint8_t *used = xcalloc(nl + 1, 1);
	uint64_t *pcs = NULL;
	size_t alloc = 0;
	/* symbolized: addresses may be 0 or repeat (names are what counts):
	 * then each named location gets a pc of its own, and so does an
	 * unnamed one whose address could be one of those */
	int own = 0;
	if (pp->symbolized) {
		struct jh_u64map seen;
		jh_u64map_init(&seen);
		for (size_t i = 0; i < nl && !own; i++) {
			int added;
			uint64_t a = pp->addr[i];
			own = !a || a == UINT64_MAX || (jh_u64map_put(&seen, a, &added), !added);
		}
		jh_u64map_release(&seen);
	}
	for (size_t i = 0; own && i < nl; i++)
		if (pp->named[i] || pp->addr[i] <= (nl + 1) << 4)
			pp->addr[i] = (i + 1) << 4;

	/* samples without locations (allocator frames only) after the others:
	 * the stack pool then exists; without any other they are dropped */
	size_t nonempty = 0;
	for (size_t i = 0; i < pf->n_sample; i++)
		nonempty += pf->sample[i]->n_location_id != 0;
	for (size_t j = 0; j < 2 * pf->n_sample; j++) {
		size_t i = j % pf->n_sample;
		const Perftools__Profiles__Sample *s = pf->sample[i];
		if ((j < pf->n_sample) != (s->n_location_id != 0) ||
		    (!nonempty && !s->n_location_id))
			continue;
		if (s->n_location_id > UINT32_MAX - 1) {
			free(used);
			free(pcs);
			return bad(pp->r, "profile.proto: a sample with %llu locations",
				   (unsigned long long)s->n_location_id);
		}
		JH_GROW(pcs, s->n_location_id + 1, alloc);
		for (size_t k = 0; k < s->n_location_id; k++) {
			size_t li = *jh_u64map_get(&pp->locs, s->location_id[k]) - 1;
			pcs[k] = pp->addr[li] + (k == 0);
			used[li] |= k == 0 ? 1 : 2;
		}
		struct jh_counts c;
		for (int v = 0; v < JH_NVALUES; v++)
			c.v[v] = pp->col[v] >= 0 ? (double)s->value[pp->col[v]] : 0;
		uint32_t id = jh_profile_intern_stack(p, pcs, (uint32_t)s->n_location_id);
		jh_profile_add(p, id, &c);
	}
	if (pp->symbolized) {
		struct jh_sb sb = JH_SB_INIT;
		uint32_t *seps = NULL;
		size_t salloc = 0;
		jh_sb_init(&sb);
		for (size_t li = 0; li < nl; li++) {
			uint64_t a = pp->addr[li];
			if (!pp->named[li])
				continue;
			if (used[li] & 1)
				add_names(pp, p, a + 1, pf->location[li], &sb, &seps, &salloc);
			if (used[li] & 2)
				add_names(pp, p, a, pf->location[li], &sb, &seps, &salloc);
		}
		jh_sb_release(&sb);
		free(seps);
	}
	free(used);
	free(pcs);
	return 0;
}

/* A hex build ID (ELF's, as pprof and jemalloc_pprof write it) into mp;
 * anything else (Go's build IDs, odd lengths) is not an ELF one: ignored. */
static void build_id(const char *hex, struct jh_mapping *mp)
{
	size_t n = strlen(hex);
	if (n % 2 || n / 2 > JH_BUILD_ID_MAX || n < 4)
		return;
	for (size_t i = 0; i < n / 2; i++) {
		unsigned v = 0;
		for (int k = 0; k < 2; k++) {
			char c = hex[2 * i + (size_t)k];
			int d = c >= '0' && c <= '9'   ? c - '0'
				: c >= 'a' && c <= 'f' ? c - 'a' + 10
				: c >= 'A' && c <= 'F' ? c - 'A' + 10
						       : -1;
			if (d < 0)
				return;
			v = v << 4 | (unsigned)d;
		}
		mp->build_id[i] = (unsigned char)v;
	}
	mp->build_id_len = n / 2;
}

/* jemalloc_pprof's comments: "executableInfo=<type>;<file offset>;<vaddr>"
 * (hex), one per mapping in mapping order; vaddr[i] or 0 when they are not
 * exactly that. */
static int exec_infos(const Profile *pf, uint64_t *vaddr)
{
	if (!pf->n_mapping || pf->n_comment != pf->n_mapping)
		return 0;
	for (size_t i = 0; i < pf->n_comment; i++) {
		int64_t c = pf->comment[i];
		if (c < 0 || (uint64_t)c >= pf->n_string_table)
			return 0;
		const char *s = pf->string_table[c];
		unsigned long long t, off, va;
		int n = -1;
		if (sscanf(s, "executableInfo=%llx;%llx;%llx%n", &t, &off, &va, &n) != 3 || s[n] ||
		    off != pf->mapping[i]->file_offset)
			return 0;
		vaddr[i] = va;
	}
	return 1;
}

/* jemalloc_pprof's mappings since 2025: no range at all. */
static int no_range(const Perftools__Profiles__Mapping *m)
{
	return !m->memory_start && !m->file_offset &&
	       (!m->memory_limit || m->memory_limit == UINT64_MAX);
}

#define PLACE_FIRST ((uint64_t)1 << 40) /* where moved mappings start */
#define PLACE_END ((uint64_t)1 << 62)   /* and must end */

/*
 * The profile's mappings (p->maps, one per Mapping in file order) and the
 * address of every location (pp->addr). A mapping no location refers to
 * is not executable (it holds no frame); when no location names a mapping
 * at all, the ranges decide (as before). When the ranges cannot place each
 * location in its own mapping, every used mapping is moved (see the top).
 */
static int mappings(struct pp *pp, struct jh_profile *p)
{
	const Profile *pf = pp->pf;
	size_t nm = pf->n_mapping, nl = pf->n_location;
	uint64_t *lo = xmalloc((nm + 1) * sizeof(*lo)), *hi = xcalloc(nm + 1, sizeof(*hi));
	uint64_t *vaddr = xcalloc(nm + 1, sizeof(*vaddr));
	uint8_t *used = xcalloc(nm + 1, 1);
	int any = 0, move = 0, infos = exec_infos(pf, vaddr);
	for (size_t i = 0; i < nm; i++)
		lo[i] = UINT64_MAX;
	for (size_t i = 0; i < nl; i++) {
		const Perftools__Profiles__Location *l = pf->location[i];
		pp->addr[i] = l->address;
		if (!l->mapping_id)
			continue;
		size_t k = *jh_u64map_get(&pp->maps, l->mapping_id) - 1;
		const Perftools__Profiles__Mapping *m = pf->mapping[k];
		any = used[k] = 1;
		lo[k] = l->address < lo[k] ? l->address : lo[k];
		hi[k] = l->address > hi[k] ? l->address : hi[k];
		move |= no_range(m) || l->address < m->memory_start ||
			l->address >= m->memory_limit;
	}
	for (size_t i = 0; i < nm && !move; i++)
		for (size_t j = i + 1; used[i] && j < nm && !move; j++)
			move = used[j] &&
			       pf->mapping[i]->memory_start < pf->mapping[j]->memory_limit &&
			       pf->mapping[j]->memory_start < pf->mapping[i]->memory_limit;
	uint64_t *delta = xcalloc(nm + 1, sizeof(*delta)), at = PLACE_FIRST;
	int rc = 0;
	p->maps = xcalloc(nm ? nm : 1, sizeof(*p->maps));
	p->maps_alloc = nm ? nm : 1;
	for (size_t i = 0; i < nm; i++) {
		const Perftools__Profiles__Mapping *m = pf->mapping[i];
		struct jh_mapping *mp = &p->maps[p->nmaps++];
		mp->start = m->memory_start;
		mp->end = m->memory_limit;
		mp->offset = m->file_offset;
		memcpy(mp->perms, !any || used[i] ? "r-xp" : "r--p", 5);
		mp->path = xstrdup(pf->string_table[m->filename]);
		build_id(pf->string_table[m->build_id], mp);
		mp->has_vaddr = infos;
		mp->vaddr = vaddr[i];
		if (!move || rc)
			continue;
		if (!used[i]) { /* holds no frame: out of the way */
			mp->start = mp->end = 0;
			continue;
		}
		/* the span of the mapping and its addresses (a leaf's pc is one more) */
		int rel = no_range(m);
		uint64_t s = rel ? lo[i] : (m->memory_start < lo[i] ? m->memory_start : lo[i]);
		uint64_t top = m->memory_limit > m->memory_start ? m->memory_limit - 1 : hi[i];
		uint64_t e = rel || top < hi[i] ? hi[i] : top;
		if (e - s > PLACE_END - at || PLACE_END - at - (e - s) < 0x2000) {
			rc = bad(pp->r, "profile.proto: mapping %llu: its addresses span too much",
				 (unsigned long long)m->id);
			continue;
		}
		delta[i] = at - s;
		if (rel) { /* the addresses are ELF virtual addresses */
			mp->start = lo[i];
			mp->end = hi[i] + 2;
			mp->offset = mp->vaddr = lo[i];
			mp->has_vaddr = 1;
		}
		mp->start += delta[i];
		mp->end += delta[i];
		at = (at + (e - s) + 0x2000) & ~(uint64_t)0xfff;
	}
	for (size_t i = 0; move && !rc && i < nl; i++) {
		uint64_t id = pf->location[i]->mapping_id;
		if (id)
			pp->addr[i] += delta[*jh_u64map_get(&pp->maps, id) - 1];
	}
	free(lo);
	free(hi);
	free(vaddr);
	free(used);
	free(delta);
	return rc;
}

int jh_parse_pprof(struct jh_reader *r)
{
	struct jh_sb buf = JH_SB_INIT;
	jh_sb_init(&buf);
	if (jh_input_slurp(r->in, &buf, JH_PPROF_MAX, r->d) < 0) {
		jh_sb_release(&buf);
		return -1;
	}
	Profile *pf = perftools__profiles__profile__unpack(NULL, buf.len, (uint8_t *)buf.buf);
	jh_sb_release(&buf);
	if (!pf)
		return bad(r,
			   "not a valid profile.proto message (truncated, or wrong field types "
			   "or lengths)%.0llu",
			   0);
	struct pp pp = { .r = r, .pf = pf };
	jh_u64map_init(&pp.locs);
	jh_u64map_init(&pp.fns);
	jh_u64map_init(&pp.maps);
	struct jh_profile *p = r->p;
	p->format = JH_FMT_PPROF;
	int rc = check(&pp);
	if (!rc) {
		pp.named = xcalloc(pf->n_location + 1, 1);
		pp.addr = xmalloc((pf->n_location + 1) * sizeof(*pp.addr));
		sample_types(&pp, p);
		p->period = pf->period > 0 ? (uint64_t)pf->period : 0;
		names_pass(&pp);
		p->has_symbols = pp.symbolized;
		p->sym_fallback = pp.symbolized && pp.unnamed;
		rc = mappings(&pp, p);
	}
	if (!rc)
		rc = body(&pp, p);
	free(pp.named);
	free(pp.addr);
	jh_u64map_release(&pp.locs);
	jh_u64map_release(&pp.fns);
	jh_u64map_release(&pp.maps);
	perftools__profiles__profile__free_unpacked(pf, NULL);
	return rc;
}

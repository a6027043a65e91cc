/*
 * dwarf_index.c - address -> inline frame chain with libdwarf 20210528.
 *
 * libdwarf reads our section store through dwarf_object_init_b (zero-copy,
 * compressed sections inflated by sections.c, .debug_loc/.debug_loclists
 * hidden). Every Dwarf_Debug is used by one thread at a time: handles sit in
 * a pool and a worker takes one for its whole run. libdwarf provides the CU
 * list, aranges, file names (dwarf_srcfiles, serialized: static buffers)
 * and names (abstract_origin/specification chains). The per-CU walk for
 * covering subroutines uses our own scanner and range readers
 * (dwarf_walk.c: libdwarf's Dwarf_Die per DIE was 3/4 of the time, and its
 * rnglists reader crashes on corrupt input); libdwarf's tree walk remains
 * as the fallback. Line rows come from our own decoder (dwarf_lines.c).
 * The rules for picking CU, subroutine chain, names and rows follow
 * llvm-symbolizer 14. The alternate (dwz / .debug_sup) file has its own
 * Dwarf_Debug; references and strings in alt forms are routed to it by
 * form, reading the raw value bytes where libdwarf cannot (ref_sup4/8,
 * strp_alt, strp_sup). JH_DWARF_WALK=fast|libdwarf (tests) forces a walker.
 * jh_dwarf_open and the lookup's scheduling are in dwarf_lookup.c.
 */
#include "dwarf_internal.h"

#include <libdwarf/dwarf.h>
#include <libdwarf/libdwarf.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>

#include "dwarf_lines.h"
#include "dwarf_sched.h"
#include "jeheap/trace.h"

/*
 * libdwarf's dwarf_finish reads the FIRST BYTE of the object and, if it is
 * 'F', 'M' or 'P', destroys it as its own ELF/Mach-O/PE reader would: with a
 * pointer there, whether that happens depends on an address byte. So the
 * object starts with a byte none of its readers use.
 */
struct obj_ctx {
	char kind; /* 'J' */
	const struct jh_sections *s;
};

struct jh_dwh {
	struct jh_dwarf *dw;
	Dwarf_Debug dbg, alt;
	struct obj_ctx ctx, alt_ctx;
	Dwarf_Obj_Access_Interface iface, alt_iface;
	struct jh_intern strings;
	struct jh_u64map names;   /* die offset (| ALT_BIT) -> interned name + 1 */
	struct jh_u64map decls;   /* die offset (| ALT_BIT) -> DW_AT_decl_line + 1 */
	struct jh_u64map display; /* interned name -> its demangled form */
	int spec;                 /* .debug_info final only in [lo, hi) for sure */
	uint64_t lo, hi;
};

#define ALT_BIT (UINT64_C(1) << 63)

static pthread_mutex_t init_lock = PTHREAD_MUTEX_INITIALIZER;
static pthread_mutex_t srcfiles_lock = PTHREAD_MUTEX_INITIALIZER;
static pthread_once_t alloc_once = PTHREAD_ONCE_INIT;

static void alloc_flag_once(void)
{
	dwarf_set_de_alloc_flag(0);
}

/* ---- object access over jh_sections ---- */

/*
 * Hidden from libdwarf: location lists (never needed) and range lists, which
 * jeheap reads itself (dwarf_ranges.c) because libdwarf 20210528's eager
 * rnglists loader double-frees or crashes on corrupt input (fuzz_elf found
 * inputs whose unit headers look sane, testdata/fuzz-regressions/elf/).
 */
static int is_hidden(const char *name)
{
	return !strcmp(name, ".debug_loc") || !strcmp(name, ".debug_loclists") ||
	       !strcmp(name, ".debug_rnglists");
}

static int oa_section_info(void *obj, Dwarf_Half i, Dwarf_Obj_Access_Section *ret, int *err)
{
	const struct obj_ctx *c = obj;
	const struct jh_section *sec = jh_sections_peek(c->s, i);
	(void)err;
	if (!sec)
		return DW_DLV_NO_ENTRY;
	memset(ret, 0, sizeof(*ret));
	ret->addr = sec->addr;
	ret->type = sec->type;
	ret->size = sec->type == 8 /* SHT_NOBITS */ ? 0 : sec->size;
	ret->name = i == 0 ? "" : is_hidden(sec->name) ? ".jeheap_hidden" : sec->name;
	ret->link = sec->link;
	ret->info = sec->info;
	ret->entrysize = sec->entsize;
	return DW_DLV_OK;
}

static Dwarf_Endianness oa_byte_order(void *obj)
{
	const struct obj_ctx *c = obj;
	return jh_sections_is_big_endian(c->s) ? DW_OBJECT_MSB : DW_OBJECT_LSB;
}

static Dwarf_Small oa_length_size(void *obj)
{
	(void)obj;
	return 4; /* what libdwarf's own ELF reader says for non-MIPS ELF */
}

static Dwarf_Small oa_pointer_size(void *obj)
{
	const struct obj_ctx *c = obj;
	return jh_sections_is_64bit(c->s) ? 8 : 4;
}

static Dwarf_Unsigned oa_section_count(void *obj)
{
	const struct obj_ctx *c = obj;
	size_t n = jh_sections_count(c->s);
	return n > 0xffff ? 0xffff : n; /* libdwarf indexes with Dwarf_Half */
}

static int oa_load_section(void *obj, Dwarf_Half i, Dwarf_Small **data, int *err)
{
	const struct obj_ctx *c = obj;
	/* a streamed section's buffer while it fills: jh_units_wait guards reads */
	const struct jh_section *sec = jh_sections_partial(c->s, i);
	if (!sec || sec->type == 8)
		return DW_DLV_NO_ENTRY;
	if (!sec->data) {
		*err = DW_DLE_SECTION_SIZE_ERROR;
		return DW_DLV_ERROR;
	}
	*data = (Dwarf_Small *)sec->data;
	return DW_DLV_OK;
}

static const Dwarf_Obj_Access_Methods oa_methods = {
	oa_section_info,  oa_byte_order,   oa_length_size, oa_pointer_size,
	oa_section_count, oa_load_section, NULL,
};

static int open_dbg(const struct jh_sections *s, struct obj_ctx *ctx,
		    Dwarf_Obj_Access_Interface *iface, Dwarf_Debug *out)
{
	Dwarf_Error err = NULL;
	ctx->kind = 'J';
	ctx->s = s;
	iface->object = ctx;
	iface->methods = &oa_methods;
	pthread_mutex_lock(&init_lock); /* dwarf_groups.c keeps globals */
	int rc = dwarf_object_init_b(iface, NULL, NULL, DW_GROUPNUMBER_ANY, out, &err);
	pthread_mutex_unlock(&init_lock);
	if (rc != DW_DLV_OK) {
		if (rc == DW_DLV_ERROR)
			dwarf_dealloc_error(NULL, err);
		*out = NULL;
		return -1;
	}
	return 0;
}

static void handle_free(struct jh_dwh *h)
{
	Dwarf_Error err = NULL;
	if (h->dbg && dwarf_finish(h->dbg, &err) == DW_DLV_ERROR)
		dwarf_dealloc_error(NULL, err);
	if (h->alt && dwarf_finish(h->alt, &err) == DW_DLV_ERROR)
		dwarf_dealloc_error(NULL, err);
	jh_intern_release(&h->strings);
	jh_u64map_release(&h->names);
	jh_u64map_release(&h->decls);
	jh_u64map_release(&h->display);
	free(h);
}

static struct jh_dwh *handle_new(struct jh_dwarf *dw)
{
	struct jh_dwh *h = xcalloc(1, sizeof(*h));
	h->dw = dw;
	jh_intern_init(&h->strings);
	jh_u64map_init(&h->names);
	jh_u64map_init(&h->decls);
	jh_u64map_init(&h->display);
	if (open_dbg(dw->main, &h->ctx, &h->iface, &h->dbg) != 0) {
		handle_free(h);
		return NULL;
	}
	if (dw->alt && open_dbg(dw->alt, &h->alt_ctx, &h->alt_iface, &h->alt) == 0) {
		Dwarf_Error err = NULL;
		/* lets dwarf_srcfiles resolve comp_dir/file strings moved by dwz */
		if (dwarf_set_tied_dbg(h->dbg, h->alt, &err) == DW_DLV_ERROR)
			dwarf_dealloc_error(h->dbg, err);
	}
	pthread_mutex_lock(&dw->pool_lock);
	JH_GROW(dw->all, dw->nall + 1, dw->aall);
	dw->all[dw->nall++] = h;
	pthread_mutex_unlock(&dw->pool_lock);
	return h;
}

struct jh_dwh *jh_dwh_get(struct jh_dwarf *dw)
{
	pthread_mutex_lock(&dw->pool_lock);
	struct jh_dwh *h = dw->npool ? dw->pool[--dw->npool] : NULL;
	pthread_mutex_unlock(&dw->pool_lock);
	return h ? h : handle_new(dw);
}

void jh_dwh_put(struct jh_dwh *h)
{
	struct jh_dwarf *dw = h->dw;
	pthread_mutex_lock(&dw->pool_lock);
	JH_GROW(dw->pool, dw->npool + 1, dw->apool);
	dw->pool[dw->npool++] = h;
	pthread_mutex_unlock(&dw->pool_lock);
}

/* ---- small attribute helpers (every error object is freed) ---- */

static int chk(Dwarf_Debug dbg, int rc, Dwarf_Error *err)
{
	if (rc == DW_DLV_ERROR) {
		dwarf_dealloc_error(dbg, *err);
		*err = NULL;
	}
	return rc == DW_DLV_OK;
}

static int attr_udata(Dwarf_Debug dbg, Dwarf_Attribute a, uint64_t *v)
{
	Dwarf_Error err = NULL;
	Dwarf_Half form = 0;
	if (!chk(dbg, dwarf_whatform(a, &form, &err), &err))
		return 0;
	if (form == DW_FORM_implicit_const) { /* formudata rejects it (libdwarf bug) */
		Dwarf_Signed s = 0;
		if (!chk(dbg, dwarf_formsdata(a, &s, &err), &err))
			return 0;
		*v = (uint64_t)s;
		return 1;
	}
	Dwarf_Unsigned u = 0;
	if (!chk(dbg, dwarf_formudata(a, &u, &err), &err))
		return 0;
	*v = u;
	return 1;
}

/* Raw value bytes of an attribute, for the forms libdwarf cannot follow. */
static int attr_raw(struct jh_dwh *h, int in_alt, Dwarf_Die die, Dwarf_Attribute a, unsigned n,
		    uint64_t *v)
{
	Dwarf_Debug dbg = in_alt ? h->alt : h->dbg;
	const struct jh_section *info = in_alt ? h->dw->alt_info : h->dw->secs.info;
	Dwarf_Error err = NULL;
	Dwarf_Off off = 0;
	if (!info || !info->data || !chk(dbg, dwarf_attr_offset(die, a, &off, &err), &err))
		return 0;
	if (off > info->size || info->size - off < n)
		return 0;
	uint64_t x = 0;
	for (unsigned i = 0; i < n; i++)
		x |= (uint64_t)info->data[off + i] << (8 * i);
	*v = x;
	return 1;
}

static unsigned die_offset_size(Dwarf_Die die)
{
	Dwarf_Half ver = 0, offsz = 4;
	if (dwarf_get_version_of_die(die, &ver, &offsz) != DW_DLV_OK || (offsz != 4 && offsz != 8))
		offsz = 4;
	return offsz;
}

/* A string attribute, interned; NULL if unresolvable. */
static const char *attr_string(struct jh_dwh *h, int in_alt, Dwarf_Die die, Dwarf_Attribute a)
{
	Dwarf_Debug dbg = in_alt ? h->alt : h->dbg;
	Dwarf_Error err = NULL;
	Dwarf_Half form = 0;
	if (!chk(dbg, dwarf_whatform(a, &form, &err), &err))
		return NULL;
	if (form == DW_FORM_GNU_strp_alt || form == DW_FORM_strp_sup) {
		uint64_t off;
		const struct jh_section *str = h->dw->alt_str;
		if (in_alt || !str || !str->data ||
		    !attr_raw(h, in_alt, die, a, die_offset_size(die), &off) || off >= str->size)
			return NULL;
		const char *s = (const char *)str->data + off;
		const char *nul = memchr(s, 0, str->size - off);
		return nul ? jh_intern_n(&h->strings, s, (size_t)(nul - s)) : NULL;
	}
	char *s = NULL;
	if (!chk(dbg, dwarf_formstring(a, &s, &err), &err) || !s)
		return NULL;
	return jh_intern(&h->strings, s);
}

/* The DIE a reference attribute points at: offset and whether in the alt file. */
static int attr_ref(struct jh_dwh *h, int in_alt, Dwarf_Die die, Dwarf_Attribute a, uint64_t *off,
		    int *to_alt)
{
	Dwarf_Debug dbg = in_alt ? h->alt : h->dbg;
	Dwarf_Error err = NULL;
	Dwarf_Half form = 0;
	if (!chk(dbg, dwarf_whatform(a, &form, &err), &err))
		return 0;
	if (form == DW_FORM_GNU_ref_alt || form == DW_FORM_ref_sup4 || form == DW_FORM_ref_sup8) {
		unsigned n = form == DW_FORM_ref_sup4   ? 4
			     : form == DW_FORM_ref_sup8 ? 8
							: die_offset_size(die);
		*to_alt = 1;
		return !in_alt && h->alt && attr_raw(h, in_alt, die, a, n, off);
	}
	Dwarf_Off o = 0;
	if (!chk(dbg, dwarf_global_formref(a, &o, &err), &err))
		return 0;
	*off = o;
	*to_alt = in_alt;
	return 1;
}

/*
 * ---- names: llvm's findRecursively over abstract_origin/specification ----
 * The name (linkage name first) and the declaration line (llvm's "Function
 * start line", pprof's start_line), each the first found on that walk.
 */

static const char *resolve_name(struct jh_dwh *h, uint64_t off0, int alt0, uint32_t *decl_line)
{
	uint64_t key = off0 | (alt0 ? ALT_BIT : 0);
	uint64_t *cached = jh_u64map_get(&h->names, key);
	if (cached) {
		uint64_t *dl = jh_u64map_get(&h->decls, key);
		*decl_line = dl ? (uint32_t)(*dl - 1) : 0;
		return (const char *)(uintptr_t)(*cached - 1);
	}
	uint64_t stack[16], seen[16];
	size_t nstack = 0, nseen = 0;
	const char *linkage = NULL, *name = NULL;
	uint64_t decl = 0;
	int have_decl = 0;
	stack[nstack++] = key;
	seen[nseen++] = key;
	while (nstack && (!linkage || !have_decl)) {
		uint64_t k = stack[--nstack];
		int in_alt = (k & ALT_BIT) != 0;
		Dwarf_Debug dbg = in_alt ? h->alt : h->dbg;
		Dwarf_Die die = NULL;
		Dwarf_Error err = NULL;
		uint64_t lo, hi;
		if (h->spec && !in_alt && (k < h->lo || k >= h->hi) &&
		    jh_units_wait(&h->dw->units, k, &lo, &hi) != 0)
			continue; /* in a unit not inflated (past a failure) */
		if (!dbg || !chk(dbg, dwarf_offdie_b(dbg, k & ~ALT_BIT, 1, &die, &err), &err))
			continue;
		Dwarf_Attribute *attrs = NULL;
		Dwarf_Signed na = 0;
		uint64_t next[2] = { 0, 0 }; /* abstract_origin, specification */
		int have[2] = { 0, 0 };
		if (chk(dbg, dwarf_attrlist(die, &attrs, &na, &err), &err)) {
			for (Dwarf_Signed i = 0; i < na; i++) {
				Dwarf_Half at = 0;
				if (chk(dbg, dwarf_whatattr(attrs[i], &at, &err), &err)) {
					if ((at == DW_AT_linkage_name ||
					     at == DW_AT_MIPS_linkage_name) &&
					    !linkage)
						linkage = attr_string(h, in_alt, die, attrs[i]);
					else if (at == DW_AT_name && !name)
						name = attr_string(h, in_alt, die, attrs[i]);
					else if (at == DW_AT_decl_line && !have_decl)
						have_decl = attr_udata(dbg, attrs[i], &decl);
					else if (at == DW_AT_abstract_origin ||
						 at == DW_AT_specification) {
						int j = at == DW_AT_specification, ta = 0;
						uint64_t o = 0;
						if (attr_ref(h, in_alt, die, attrs[i], &o, &ta)) {
							next[j] = o | (ta ? ALT_BIT : 0);
							have[j] = 1;
						}
					}
				}
				dwarf_dealloc_attribute(attrs[i]);
			}
			dwarf_dealloc(dbg, attrs, DW_DLA_LIST);
		}
		dwarf_dealloc_die(die);
		/* push abstract_origin, then specification: specification pops first */
		for (int j = 0; j < 2; j++) {
			if (!have[j] || nstack == 16 || nseen == 16)
				continue;
			int dup = 0;
			for (size_t s = 0; s < nseen; s++)
				dup |= seen[s] == next[j];
			if (!dup) {
				seen[nseen++] = next[j];
				stack[nstack++] = next[j];
			}
		}
	}
	const char *r = linkage ? linkage : name;
	*jh_u64map_put(&h->names, key, NULL) = (uint64_t)(uintptr_t)r + 1;
	*decl_line = have_decl && decl <= UINT32_MAX ? (uint32_t)decl : 0;
	if (*decl_line)
		*jh_u64map_put(&h->decls, key, NULL) = (uint64_t)*decl_line + 1;
	return r;
}

/* ---- address ranges of a DIE ---- */

/*
 * A DIE's code ranges (llvm's rule: low_pc/high_pc, else DW_AT_ranges).
 * dwarf_lowpc/highpc_b/hasattr allocate nothing, unlike dwarf_attrlist;
 * lists are read by our own readers (u NULL: the unit is unreadable, lists
 * are ignored), never by libdwarf, which crashes on some corrupt ones.
 */
static void die_ranges(Dwarf_Debug dbg, const struct jh_dwarf_secs *dw, Dwarf_Die die,
		       const struct jh_unit_info *u, struct jh_rangevec *rv, uint64_t id)
{
	Dwarf_Error err = NULL;
	Dwarf_Addr lo = 0, hi = 0;
	Dwarf_Half form = 0;
	enum Dwarf_Form_Class cls = DW_FORM_CLASS_UNKNOWN;
	Dwarf_Bool has = 0;
	if (chk(dbg, dwarf_lowpc(die, &lo, &err), &err)) {
		if (chk(dbg, dwarf_highpc_b(die, &hi, &form, &cls, &err), &err)) {
			jh_rangevec_add(rv, lo, cls == DW_FORM_CLASS_CONSTANT ? lo + hi : hi, id);
			return;
		}
	}
	if (!u || !chk(dbg, dwarf_hasattr(die, DW_AT_ranges, &has, &err), &err) || !has)
		return;
	Dwarf_Attribute a = NULL;
	if (!chk(dbg, dwarf_attr(die, DW_AT_ranges, &a, &err), &err))
		return;
	uint64_t v = 0;
	int ok = chk(dbg, dwarf_whatform(a, &form, &err), &err);
	if (ok && form == DW_FORM_sec_offset) {
		Dwarf_Off o = 0;
		ok = chk(dbg, dwarf_global_formref(a, &o, &err), &err);
		v = o;
	} else if (ok) {
		ok = attr_udata(dbg, a, &v);
	}
	dwarf_dealloc_attribute(a);
	if (ok)
		jh_list_ranges(dw, u, form, v, rv, id);
}

/* An unsigned attribute (implicit_const too), 0 if absent. */
static uint32_t die_udata(Dwarf_Debug dbg, Dwarf_Die die, Dwarf_Half at)
{
	Dwarf_Error err = NULL;
	Dwarf_Attribute a = NULL;
	uint64_t v = 0;
	if (chk(dbg, dwarf_attr(die, at, &a, &err), &err)) {
		if (!attr_udata(dbg, a, &v))
			v = 0;
		dwarf_dealloc_attribute(a);
	}
	return (uint32_t)v;
}

/* ---- one CU: lines, files, subroutine tree, answers ---- */

/*
 * One preorder walk over the CU's scopes; nodes get ids in preorder. Only
 * subroutines covering one of the CU's query addresses qa become nodes.
 * Inside a subroutine that covers none, inlined subtrees are skipped
 * unread (their code lies inside it), but everything else is still walked:
 * a concrete subprogram can nest there (local classes, lambdas) with code
 * elsewhere.
 */
static void walk_cu(Dwarf_Debug dbg, const struct jh_dwarf_secs *dw, Dwarf_Die cudie,
		    const struct jh_unit_info *u, const uint64_t *qa, size_t nq, struct jh_walk *t)
{
	struct frame {
		Dwarf_Die die;
		int64_t parent;
		int cold;
	} *st = NULL;
	size_t nst = 0, ast = 0;
	Dwarf_Error err = NULL;
	Dwarf_Die kid = NULL;
	if (!chk(dbg, dwarf_child(cudie, &kid, &err), &err))
		return;
	JH_GROW(st, 1, ast);
	st[nst++] = (struct frame){ kid, -1, 0 };
	while (nst) {
		Dwarf_Die die = st[nst - 1].die;
		int64_t par = st[nst - 1].parent, me = par;
		int cold = st[nst - 1].cold, skip = 0;
		Dwarf_Half tag = 0;
		chk(dbg, dwarf_tag(die, &tag, &err), &err);
		if (tag == DW_TAG_inlined_subroutine && cold) {
			skip = 1;
		} else if (tag == DW_TAG_subprogram || tag == DW_TAG_inlined_subroutine) {
			size_t r0 = t->rv.n, hot = 0;
			die_ranges(dbg, dw, die, u, &t->rv, t->nnodes);
			int has_code = t->rv.n > r0;
			for (size_t r = r0; r < t->rv.n && !hot; r++)
				hot = jh_covers(qa, nq, t->rv.v[r].lo, t->rv.v[r].hi);
			if (hot) {
				Dwarf_Off off = 0;
				chk(dbg, dwarf_dieoffset(die, &off, &err), &err);
				me = (int64_t)t->nnodes;
				JH_GROW(t->nodes, t->nnodes + 1, t->anodes);
				int inl = tag == DW_TAG_inlined_subroutine;
				t->nodes[t->nnodes++] = (struct jh_walk_node){
					off, par, inl ? die_udata(dbg, die, DW_AT_call_file) : 0,
					inl ? die_udata(dbg, die, DW_AT_call_line) : 0, inl
				};
			} else {
				t->rv.n = r0;
			}
			/* a DIE without code (a declaration) keeps its parent's state */
			if (has_code)
				cold = !hot;
		}
		Dwarf_Die sib = NULL;
		kid = NULL;
		int has_sib = chk(dbg, dwarf_siblingof_b(dbg, die, 1, &sib, &err), &err);
		if (!skip && jh_walk_descend(tag))
			chk(dbg, dwarf_child(die, &kid, &err), &err);
		dwarf_dealloc_die(die);
		if (has_sib)
			st[nst - 1].die = sib;
		else
			nst--;
		if (kid) {
			JH_GROW(st, nst + 1, ast);
			st[nst++] = (struct frame){ kid, me, cold };
		}
	}
	free(st);
}

static const char *unit_name(void *ctx, uint64_t die_off, uint32_t *decl_line)
{
	return resolve_name(ctx, die_off, 0, decl_line);
}

const char *jh_dwh_name(struct jh_dwh *h, uint64_t die_off, uint32_t *decl_line)
{
	return unit_name(h, die_off, decl_line);
}

int jh_dwh_tables(struct jh_dwh *h, uint64_t hdr_off, uint64_t die_off, int spec, uint64_t lo,
		  uint64_t hi, const uint64_t *qa, size_t nq, struct jh_unit_tables *t)
{
	struct jh_dwarf *dw = h->dw;
	Dwarf_Debug dbg = h->dbg;
	Dwarf_Error err = NULL;
	Dwarf_Die cudie = NULL;
	memset(t, 0, sizeof(*t));
	h->spec = spec;
	h->lo = lo;
	h->hi = hi;
	if (!chk(dbg, dwarf_offdie_b(dbg, die_off, 1, &cudie, &err), &err))
		return -1;
	struct jh_unit_info u;
	struct jh_scan_die cd;
	Dwarf_Addr cu_base = 0;
	if (!chk(dbg, dwarf_lowpc(cudie, &cu_base, &err), &err))
		cu_base = 0;
	Dwarf_Attribute a = NULL;
	if (chk(dbg, dwarf_attr(cudie, DW_AT_stmt_list, &a, &err), &err)) {
		Dwarf_Off off = 0;
		uint64_t u = 0;
		Dwarf_Half form = 0;
		int ok = chk(dbg, dwarf_whatform(a, &form, &err), &err);
		if (ok && form == DW_FORM_sec_offset)
			ok = chk(dbg, dwarf_global_formref(a, &off, &err), &err);
		else if (ok && (ok = attr_udata(dbg, a, &u)))
			off = u;
		dwarf_dealloc_attribute(a);
		if (ok && dw->line && dw->line->data &&
		    jh_lines_decode(dw->line->data, dw->line->size, off, &t->lt) == 0) {
			t->have_lt = 1;
			/* dwarf_srcfiles joins paths in static buffers (helgrind): one at a time */
			pthread_mutex_lock(&srcfiles_lock);
			Dwarf_Signed nf = 0;
			int ok_files = chk(dbg, dwarf_srcfiles(cudie, &t->files, &nf, &err), &err);
			t->nfiles = ok_files && nf > 0 ? (size_t)nf : 0;
			pthread_mutex_unlock(&srcfiles_lock);
			if (!ok_files)
				t->files = NULL, t->nfiles = 0;
		}
	}
	int rc = 0;
	if (dw->walk == 'l' || jh_walk_unit(&dw->secs, hdr_off, cu_base, qa, nq, &t->w) != 0) {
		t->w.nnodes = 0;
		t->w.rv.n = 0;
		if (dw->walk == 'f')
			rc = -1; /* test mode: the scanner must cope alone */
		else
			walk_cu(dbg, &dw->secs, cudie,
				jh_unit_info_scan(&dw->secs, hdr_off, cu_base, &u, &cd) == 0 ? &u
											     : NULL,
				qa, nq, &t->w);
	}
	dwarf_dealloc_die(cudie);
	return rc;
}

void jh_dwh_tables_release(struct jh_dwh *h, struct jh_unit_tables *t)
{
	for (size_t i = 0; i < t->nfiles; i++)
		dwarf_dealloc(h->dbg, t->files[i], DW_DLA_STRING);
	if (t->files)
		dwarf_dealloc(h->dbg, t->files, DW_DLA_LIST);
	jh_lines_free(&t->lt);
	free(t->w.nodes);
	free(t->w.rv.v);
	memset(t, 0, sizeof(*t));
}

void jh_dwh_unit(struct jh_dwh *h, struct jh_batch_task *k, struct jh_batch_query *qs,
		 uint64_t hdr_off, uint64_t die_off, int spec, uint64_t lo, uint64_t hi)
{
	size_t nq = k->q1 - k->q0;
	uint64_t *addrs = xmalloc(jh_st_mult(nq + 1, sizeof(*addrs)));
	uint64_t *leaf = xmalloc(jh_st_mult(nq + 1, sizeof(*leaf)));
	for (size_t i = 0; i < nq; i++)
		addrs[i] = qs[k->q0 + i].addr;
	struct jh_unit_tables t;
	if (jh_dwh_tables(h, hdr_off, die_off, spec, lo, hi, addrs, nq, &t) != 0) {
		k->failed = 1;
	} else {
		jh_sched_cover(t.w.rv.v, t.w.rv.n, addrs, nq, leaf);
		for (size_t i = 0; i < nq; i++)
			jh_batch_answer(k, &qs[k->q0 + i], &t, leaf[i], &h->strings, &h->display,
					unit_name, h);
	}
	jh_dwh_tables_release(h, &t);
	free(addrs);
	free(leaf);
}

/* ---- open: address -> CU index ---- */

/*
 * .debug_aranges claims into rv (keys: unit header offsets), their units
 * into covered (may be NULL). with_die: also check each unit header, which
 * reads .debug_info (the full index does; the streaming one cannot).
 */
static void read_aranges(Dwarf_Debug dbg, struct jh_rangevec *rv, struct jh_u64map *covered,
			 int with_die)
{
	Dwarf_Error err = NULL;
	Dwarf_Arange *ar = NULL;
	Dwarf_Signed nar = 0;
	if (!chk(dbg, dwarf_get_aranges(dbg, &ar, &nar, &err), &err))
		return;
	for (Dwarf_Signed i = 0; i < nar; i++) {
		Dwarf_Unsigned seg = 0, segsz = 0, len = 0;
		Dwarf_Addr start = 0;
		Dwarf_Off cu_die = 0, cu_hdr = 0;
		if (chk(dbg,
			dwarf_get_arange_info_b(ar[i], &seg, &segsz, &start, &len,
						with_die ? &cu_die : NULL, &err),
			&err) &&
		    chk(dbg, dwarf_get_arange_cu_header_offset(ar[i], &cu_hdr, &err), &err)) {
			if (covered)
				jh_u64map_put(covered, cu_hdr, NULL);
			if (start + len > start)
				jh_rangevec_add(rv, start, start + len, cu_hdr);
		}
		dwarf_dealloc(dbg, ar[i], DW_DLA_ARANGE);
	}
	dwarf_dealloc(dbg, ar, DW_DLA_LIST);
}

/*
 * The address -> CU index. streamed: .debug_info may still be inflating;
 * each unit is waited for (jh_units_wait) before libdwarf reads it, and the
 * aranges are taken without the unit-header check that reads .debug_info
 * (*arv, *covered: what was used, for jh_dwarf_build_index to compare).
 * Returns 0 (*partly: libdwarf stopped early), -1 with d set, or -2 when a
 * streamed unit never arrived (the inflate failed).
 */
static int build_index(struct jh_dwarf *dw, struct jh_dwh *h, struct jh_diag *d, int streamed,
		       struct jh_rangevec *arv, struct jh_u64map *covered, int *partly)
{
	Dwarf_Debug dbg = h->dbg;
	Dwarf_Error err = NULL;
	struct jh_rangevec rv = { NULL, 0, 0 };
	read_aranges(dbg, arv, covered, !streamed);
	for (size_t i = 0; i < arv->n; i++)
		jh_rangevec_add(&rv, arv->v[i].lo, arv->v[i].hi, arv->v[i].key);
	uint64_t off = 0, lo, hi;
	int rc;
	for (;;) {
		if (streamed && off < dw->secs.info->size &&
		    (jh_units_wait(&dw->units, off, &lo, &hi) != 0 ||
		     (lo != off && jh_sections_wait(dw->main, dw->info_idx, UINT64_MAX) <
					   dw->secs.info->size))) {
			free(rv.v);
			return -2;
		}
		Dwarf_Unsigned hlen = 0, toff = 0, next = 0;
		Dwarf_Half ver = 0, asz = 0, lsz = 0, esz = 0, type = 0;
		Dwarf_Off abbr = 0;
		Dwarf_Sig8 sig;
		rc = dwarf_next_cu_header_d(dbg, 1, &hlen, &ver, &abbr, &asz, &lsz, &esz, &sig,
					    &toff, &next, &type, &err);
		if (!chk(dbg, rc, &err))
			break;
		Dwarf_Die cudie = NULL;
		Dwarf_Half tag = 0;
		Dwarf_Off die_off = 0;
		if (chk(dbg, dwarf_siblingof_b(dbg, NULL, 1, &cudie, &err), &err)) {
			if (chk(dbg, dwarf_tag(cudie, &tag, &err), &err) &&
			    tag == DW_TAG_compile_unit &&
			    chk(dbg, dwarf_dieoffset(cudie, &die_off, &err), &err)) {
				JH_GROW(dw->cus, dw->ncus + 1, dw->acus);
				dw->cus[dw->ncus++] = (struct jh_cu){ off, die_off, next - off };
				if (!jh_u64map_get(covered, off)) {
					Dwarf_Addr base = 0;
					if (!chk(dbg, dwarf_lowpc(cudie, &base, &err), &err))
						base = 0;
					struct jh_unit_info u;
					struct jh_scan_die cd;
					if (jh_unit_info_scan(&dw->secs, off, base, &u, &cd) == 0)
						jh_scan_ranges(&dw->secs, &u, &cd, &rv, off);
					else
						die_ranges(dbg, &dw->secs, cudie, NULL, &rv, off);
				}
			}
			dwarf_dealloc_die(cudie);
		}
		off = next;
	}
	if (rc == DW_DLV_ERROR && dw->ncus == 0) {
		free(rv.v);
		return jh_diag_set(d, JH_EXIT_INPUT, jh_sections_path(dw->main), 0,
				   "unreadable DWARF (.debug_info)");
	}
	*partly = rc == DW_DLV_ERROR;
	dw->nranges = jh_sched_disjoint(rv.v, rv.n);
	dw->ranges = rv.v;
	return 0;
}

int jh_dwarf_index_pass(struct jh_dwarf *dw, struct jh_diag *d, int streamed,
			struct jh_rangevec *arv, struct jh_u64map *covered, int *partly)
{
	struct jh_dwh *h = handle_new(dw); /* fresh: libdwarf's unit iteration from the start */
	if (!h)
		return jh_diag_set(d, JH_EXIT_INPUT, jh_sections_path(dw->main), 0,
				   "libdwarf cannot read the DWARF");
	int rc = build_index(dw, h, d, streamed, arv, covered, partly);
	jh_dwh_put(h);
	return rc;
}

void jh_dwarf_aranges(struct jh_dwarf *dw, struct jh_rangevec *arv, struct jh_u64map *covered,
		      int with_die)
{
	struct jh_dwh *h = jh_dwh_get(dw);
	if (h) {
		read_aranges(h->dbg, arv, covered, with_die);
		jh_dwh_put(h);
	}
}


void jh_dwarf_init_once(void)
{
	pthread_once(&alloc_once, alloc_flag_once);
}

void jh_dwarf_close(struct jh_dwarf *dw)
{
	if (!dw)
		return;
	for (size_t i = 0; i < dw->nall; i++)
		handle_free(dw->all[i]);
	free(dw->all);
	free(dw->pool);
	free(dw->cus);
	free(dw->ranges);
	free(dw->spec);
	if (dw->streaming)
		jh_units_release(&dw->units);
	pthread_mutex_destroy(&dw->pool_lock);
	pthread_mutex_destroy(&dw->index_lock);
	free(dw);
}

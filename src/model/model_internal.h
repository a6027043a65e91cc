/*
 * model_internal.h - model.c's private indexes, and the steps of
 * jh_model_build exposed for unit tests (hand-built profiles).
 */
#ifndef JEHEAP_MODEL_INTERNAL_H
#define JEHEAP_MODEL_INTERNAL_H

#include "jeheap/idtab.h"
#include "jeheap/model.h"

struct jh_model_priv {
	int symbolic; /* locations keyed by frames (--base) */
	struct jh_idtab locs;
	uint8_t *lockind;
	size_t lockind_alloc;
	struct jh_seqset stacks;
	uint8_t *in_profile; /* stack seen in a profile (not only in bases) */
	size_t in_profile_alloc;
	struct jh_u64map thread_by_uid;
	size_t nfiles;
	size_t nprofiles; /* profiles (not bases) added so far */
	const char *maps_program;
	int keep_first; /* fill first_pcs/first_locs (--raw) */
};

/* symbolic: key locations by their frames (set when --base is used). */
void jh_model_init(struct jh_model *m, int symbolic);
/* Adds one read profile (is_base: subtracted). s may be NULL. p is
 * densified (jh_profile_densify), its pc ids are overwritten (or taken); with
 * split_symbols its symbol lines and their parts are freed (the caller releases p
 * afterwards). Thread data is not read from a profile read with no_threads. */
int jh_model_add_profile(struct jh_model *m, struct jh_profile *p, int is_base,
			 struct jh_symbolizer *s, struct jh_diag *d);
/* Keeps p's executable file mappings in m->maps, and its period if it is
 * the first (model_maps.c); jh_model_release frees them. */
void jh_model_keep_maps(struct jh_model *m, const struct jh_profile *p);
void jh_model_release_maps(struct jh_model *m);
/* Records p as one of m->inputs (model_maps.c). */
void jh_model_keep_input(struct jh_model *m, const struct jh_profile *p, int is_base);
/* The program of the first profile summed (model_mixed.c). */
struct jh_model_program {
	char *file, *path; /* NULL until a profile names its program */
	unsigned char id[JH_BUILD_ID_MAX];
	size_t idlen;
};
/* Records p's program in first (the first profile that names one), or
 * compares it with first's: a different program, or a different build ID
 * when both profiles give one, is a usage error (-1, d set). file: p's name. */
int jh_model_mixed_check(struct jh_model_program *first, const struct jh_profile *p,
			 const char *file, struct jh_diag *d);
void jh_model_program_release(struct jh_model_program *pg);
/* Subtracts bases, applies --drop_negative, sorts threads. */
void jh_model_finish(struct jh_model *m, int have_bases, int drop_negative);

#endif

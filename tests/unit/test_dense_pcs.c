/* The reader's fast paths for the model: dense pc ids (dense_pcs), thread
 * lines checked but not stored (no_threads), and the model's indexes that
 * are built only when a second file comes. Each is compared with the plain
 * reading of the same text. */
#include "readers_test.h"
#include "model_internal.h"

#include <inttypes.h>

static const char sym_text[] = "--- symbol\n"
			       "binary=/bin/x\n"
			       "0x0000000000001010 f--inl\n"
			       "0x0000000000001000 main\n"
			       "0x0000000000001020 g\n"
			       "0x0000000000001040 unused\n"
			       "---\n"
			       "--- heap\n"
			       "heap_v2/0\n"
			       "  t*: 9: 900 [0: 0]\n"
			       "  t1: 4: 400 [0: 0] worker\n"
			       "@ 0x1010 0x1001\n"
			       "  t*: 2: 200 [0: 0]\n"
			       "  t1: 2: 200 [0: 0]\n"
			       "@ 0x1020 0x1031 0x1001\n"
			       "  t*: 3: 300 [0: 0]\n"
			       "  t2: 3: 300 [0: 0]\n"
			       "@ 0x1010 0x1001\n"
			       "  t*: 4: 400 [0: 0]\n"
			       "@ 0x9999\n";

static int read_flags(struct jh_profile *p, const char *text, int dense, int no_threads,
		      struct jh_diag *d)
{
	jh_profile_init(p);
	memset(d, 0, sizeof(*d));
	p->split_symbols = 1;
	p->dense_pcs = dense;
	p->no_threads = no_threads;
	return jh_profile_read_mem(p, text, strlen(text), "t.heap", d);
}

/* pc k of stack s, from either representation. */
static uint64_t stack_pc(const struct jh_profile *p, size_t s, uint32_t k)
{
	size_t i = p->stacks[s].off + k;
	return p->dense_pcs ? p->upcs[p->pcids[i]] : p->pcs[i];
}

static void test_same_stacks(void **state)
{
	(void)state;
	struct jh_profile a, b;
	struct jh_diag d;
	assert_int_equal(read_flags(&a, sym_text, 0, 0, &d), 0);
	assert_int_equal(read_flags(&b, sym_text, 1, 1, &d), 0);
	/* the record without a count line adds no stack and no pc id */
	assert_int_equal(a.nstacks, 2);
	assert_int_equal(b.nstacks, a.nstacks);
	for (size_t s = 0; s < a.nstacks; s++) {
		assert_int_equal(a.stacks[s].len, b.stacks[s].len);
		assert_memory_equal(&a.stacks[s].c, &b.stacks[s].c, sizeof(a.stacks[s].c));
		for (uint32_t k = 0; k < a.stacks[s].len; k++)
			assert_true(stack_pc(&a, s, k) == stack_pc(&b, s, k));
	}
	/* ids in the order of first use, symbol lines attached */
	assert_int_equal(b.nupcs, 4);
	static const uint64_t order[] = { 0x1010, 0x1000, 0x1020, 0x1030 };
	static const char *names[] = { "f--inl", "main", "g", NULL };
	for (size_t i = 0; i < 4; i++) {
		assert_true(b.upcs[i] == order[i]);
		if (names[i]) {
			assert_int_equal(b.syms[b.upc_syms[i] - 1].pc, order[i]);
			assert_int_equal(b.syms[b.upc_syms[i] - 1].nparts, i == 0 ? 2 : 1);
		} else {
			assert_int_equal(b.upc_syms[i], 0);
		}
	}
	/* threads: a keeps every sample; b only the header's names */
	assert_int_equal(a.ntsamples, 2);
	assert_int_equal(b.ntsamples, 0);
	assert_int_equal(b.nthreads, 1);
	assert_string_equal(b.threads[0].name, "worker");
	jh_profile_release(&a);
	jh_profile_release(&b);
}

/* A thread line that is not stored is still checked: same error, same line. */
static void test_no_threads_checks(void **state)
{
	(void)state;
	static const char *bad[] = {
		"heap_v2/524288\n@ 0x1 0x2\n  t*: 1: 8 [0: 0]\n  t3: 5: 0 [0: 0]\n",
		"heap_v2/524288\n@ 0x1\n  t*: 1: 8 [0: 0]\n  t3: 1: 8 [2: 0]\n",
		"heap_v2/524288\n@ 0x1\n  t3: 1: 8 [0 0]\n",
		"heap_v2/524288\n@ 0x1\n  t3: 1: 8 [0: 0] x\n",
	};
	for (size_t i = 0; i < JH_ARRAY_SIZE(bad); i++) {
		struct jh_profile a, b;
		struct jh_diag da, db;
		assert_int_equal(read_flags(&a, bad[i], 0, 0, &da), -1);
		assert_int_equal(read_flags(&b, bad[i], 1, 1, &db), -1);
		assert_string_equal(da.msg, db.msg);
		jh_profile_release(&a);
		jh_profile_release(&b);
	}
	/* a truncated thread line is dropped in both */
	const char *cut = "heap_v2/524288\n@ 0x1\n  t*: 1: 8 [0: 0]\n  t3: 5: 0 [0";
	struct jh_profile a, b;
	struct jh_diag d;
	assert_int_equal(read_flags(&a, cut, 0, 0, &d), 0);
	assert_int_equal(read_flags(&b, cut, 1, 1, &d), 0);
	assert_int_equal(a.nstacks, 1);
	assert_int_equal(b.nstacks, 1);
	jh_profile_release(&a);
	jh_profile_release(&b);
}

/*
 * pcs in three upper halves (the most symbol lines in 0x55b0...: the narrow
 * table; the others in the wide one), equal lower halves in different
 * upper ones, pcs with and without a symbol line in each, and enough of
 * them for both tables to grow: every id's pc and symbol line are those of
 * the plain reading.
 */
static void test_two_tables(void **state)
{
	(void)state;
	static const uint64_t hi[] = { 0x55b0, 0x7f7e, 0x1 };
	struct jh_sb t = JH_SB_INIT;
	jh_sb_init(&t);
	jh_sb_adds(&t, "--- symbol\n");
	static uint64_t sympc[3000];
	size_t nsym = 0;
	for (uint64_t i = 0; i < 3000; i += 2) /* mostly upper half 0 */
		sympc[nsym++] = hi[i % 3 == 0 || i % 5 == 0 ? 0 : 1 + i % 7 % 2] << 32 |
				(0x1000 + 16 * i);
	sympc[nsym++] = hi[1] << 32 | 0x1000; /* lower halves of upper half 0 */
	sympc[nsym++] = hi[2] << 32 | 0x1010;
	for (size_t i = 0; i < nsym; i++)
		jh_sb_addf(&t, "0x%016" PRIx64 " n%zu\n", sympc[i], i);
	jh_sb_adds(&t, "---\nheap_v2/0\n  t*: 1: 1 [0: 0]\n");
	for (uint64_t s = 0; s < 1500; s++) {
		jh_sb_adds(&t, "@");
		for (uint64_t k = 0; k < 4; k++) {
			uint64_t i = (s * 7 + k * 1999) % 3000;
			/* caller-adjusted by the reader: +1 but the leaf */
			jh_sb_addf(&t, " 0x%" PRIx64,
				   (hi[(s + k) % 3] << 32 | (0x1000 + 16 * i)) + (k > 0));
		}
		jh_sb_adds(&t, "\n  t*: 1: 8 [0: 0]\n");
	}
	struct jh_profile a, b;
	struct jh_diag d;
	assert_int_equal(read_flags(&a, t.buf, 0, 0, &d), 0);
	assert_int_equal(read_flags(&b, t.buf, 1, 1, &d), 0);
	assert_int_equal(a.nstacks, 1500);
	assert_int_equal(b.nstacks, a.nstacks);
	assert_true(b.pc_hi == 0x55b0);
	assert_true(b.pc_narrow_nr > 1000 && b.pc_slots_nr > 1000);
	for (size_t s = 0; s < a.nstacks; s++) {
		assert_int_equal(a.stacks[s].len, b.stacks[s].len);
		for (uint32_t k = 0; k < a.stacks[s].len; k++)
			assert_true(stack_pc(&a, s, k) == stack_pc(&b, s, k));
	}
	/* ids dense in the order of first use, each with its own symbol line */
	size_t named = 0;
	for (size_t id = 0; id < b.nupcs; id++) {
		uint64_t pc = b.upcs[id];
		int want = 0;
		for (size_t i = 0; i < nsym && !want; i++)
			want = sympc[i] == pc;
		assert_int_equal(b.upc_syms[id] != 0, want);
		if (want) {
			named++;
			assert_true(b.syms[b.upc_syms[id] - 1].pc == pc);
		}
		if (id)
			for (size_t j = 0; j < b.npcids && b.pcids[j] != id; j++)
				assert_true(b.pcids[j] < id); /* first used after id - 1 */
	}
	assert_true(named > 100 && named < b.nupcs);
	jh_profile_release(&a);
	jh_profile_release(&b);
	jh_sb_release(&t);
}

/* A profile of pcs turned into ids afterwards, as the model does with
 * profiles built by hand. */
static void test_densify(void **state)
{
	(void)state;
	struct jh_profile p;
	jh_profile_init(&p);
	uint64_t s1[] = { 7, 3, 9 }, s2[] = { 3, 5 }, s3[] = { 7, 3, 9 };
	assert_int_equal(jh_profile_intern_stack(&p, s1, 3), 0);
	assert_int_equal(jh_profile_intern_stack(&p, s2, 2), 1);
	assert_int_equal(jh_profile_intern_stack(&p, s3, 3), 0);
	jh_profile_densify(&p);
	assert_true(p.dense_pcs && !p.pcs && p.npcids == 5 && p.nupcs == 4);
	static const uint32_t ids[] = { 0, 1, 2, 1, 3 };
	assert_memory_equal(p.pcids, ids, sizeof(ids));
	assert_true(p.upcs[3] == 5);
	/* interning goes on with ids: equal stacks are still found */
	assert_int_equal(jh_profile_intern_stack(&p, s2, 2), 1);
	uint64_t s4[] = { 5, 11 };
	assert_int_equal(jh_profile_intern_stack(&p, s4, 2), 2);
	jh_profile_densify(&p); /* flushes the ids still pending */
	assert_int_equal(p.nupcs, 5);
	assert_true(p.pcids[5] == 3 && p.pcids[6] == 4 && p.upcs[4] == 11);
	jh_profile_release(&p);
}

/* Two files whose pcs overlap: the first one's locations and stacks were
 * taken without indexes, the second must still find them. */
static void test_second_file(void **state)
{
	(void)state;
	struct jh_model m;
	jh_model_init(&m, 0);
	struct jh_profile p;
	struct jh_diag d;
	for (int f = 0; f < 2; f++) {
		assert_int_equal(read_flags(&p, sym_text, 1, 1, &d), 0);
		assert_int_equal(jh_model_add_profile(&m, &p, 0, NULL, &d), 0);
		jh_profile_release(&p);
		assert_int_equal(m.nlocs, 4);
		assert_int_equal(m.nstacks, 2);
	}
	jh_model_finish(&m, 0, 0);
	assert_true(m.stacks[0].c.v[JH_INUSE_SPACE] == 2 * 600.0);
	assert_true(m.stacks[1].c.v[JH_INUSE_SPACE] == 2 * 300.0);
	assert_int_equal(m.nthreads, 0);
	jh_model_release(&m);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_same_stacks), cmocka_unit_test(test_no_threads_checks),
		cmocka_unit_test(test_two_tables),  cmocka_unit_test(test_densify),
		cmocka_unit_test(test_second_file),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}

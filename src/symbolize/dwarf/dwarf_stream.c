/*
 * dwarf_stream.c - waiting for whole units of a streamed .debug_info
 * (dwarf_stream.h).
 */
#include "dwarf_stream.h"
#include "dwarf_read.h"

#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "jeheap/base.h"

int jh_units_stream(const struct jh_sections *s, size_t idx)
{
	const char *e = getenv("JH_DWARF_STREAM");
	int guard = e && !strcmp(e, "guard"), force = guard || (e && !strcmp(e, "on"));
	if ((e && !strcmp(e, "off")) || (!force && (jh_sections_peek(s, idx)->size < (16u << 20) ||
						    sysconf(_SC_NPROCESSORS_ONLN) < 2)))
		return -1;
	return jh_sections_stream(s, idx, guard ? 4096 : force ? 8192 : (1u << 20), guard);
}

void jh_units_init(struct jh_units *u, const struct jh_sections *s, size_t idx)
{
	const struct jh_section *sec = jh_sections_partial(s, idx);
	*u = (struct jh_units){ .s = s, .idx = idx, .data = sec->data, .size = sec->size };
	pthread_mutex_init(&u->lock, NULL);
}

void jh_units_release(struct jh_units *u)
{
	pthread_mutex_destroy(&u->lock);
	free(u->start);
	u->start = NULL;
}

/* The known unit holding off (off < u->next), under the lock. */
static void known_unit(const struct jh_units *u, uint64_t off, uint64_t *lo, uint64_t *hi)
{
	size_t a = 0, b = u->n; /* last start <= off */
	while (b - a > 1) {
		size_t mid = a + (b - a) / 2;
		if (u->start[mid] <= off)
			a = mid;
		else
			b = mid;
	}
	*lo = u->start[a];
	*hi = a + 1 < u->n ? u->start[a + 1] : u->next;
}

int jh_units_wait(struct jh_units *u, uint64_t off, uint64_t *lo, uint64_t *hi)
{
	if (off >= u->size)
		return -1;
	pthread_mutex_lock(&u->lock);
	for (;;) {
		if (off < u->next) {
			known_unit(u, off, lo, hi);
			break;
		}
		if (u->broken) {
			*lo = u->next;
			*hi = u->size;
			break;
		}
		/* learn the next unit's length: 4 bytes, or 12 for 64-bit DWARF */
		uint64_t at = u->next, need = at + 12 > u->size ? u->size : at + 12;
		pthread_mutex_unlock(&u->lock);
		uint64_t avail = jh_sections_wait(u->s, u->idx, need);
		pthread_mutex_lock(&u->lock);
		if (avail < need) {
			pthread_mutex_unlock(&u->lock);
			return -1;
		}
		if (u->next != at)
			continue; /* another thread got there first */
		struct jh_cur c = { u->data + at, u->data + need, 0 };
		unsigned offsz;
		uint64_t len = jh_cur_initial_length(&c, &offsz), hdr = offsz == 8 ? 12 : 4;
		if (c.bad || len < 2 || len > u->size - at - hdr) {
			u->broken = 1;
			continue;
		}
		JH_GROW(u->start, u->n + 1, u->a);
		u->start[u->n++] = at;
		u->next = at + hdr + len;
	}
	pthread_mutex_unlock(&u->lock);
	return jh_sections_wait(u->s, u->idx, *hi) >= *hi ? 0 : -1;
}

uint64_t jh_units_die_off(const struct jh_units *u, uint64_t lo, uint64_t hi)
{
	const unsigned char *p = u->data + lo;
	uint64_t n = hi - lo;
	struct jh_cur c = { p, p + n, 0 };
	unsigned offsz;
	jh_cur_initial_length(&c, &offsz);
	uint64_t len = (uint64_t)(c.p - p);
	unsigned ver = (unsigned)jh_cur_uint(&c, 2);
	if (c.bad) /* a 64-bit header cut short never held a DIE either */
		return UINT64_MAX;
	uint64_t h;
	if (ver >= 2 && ver <= 4) {
		h = len + 2 + offsz + 1; /* version, abbrev offset, address size */
	} else if (ver == 5 && n > len + 2) {
		unsigned ut = p[len + 2]; /* unit type, address size, abbrev offset */
		h = len + 2 + 2 + offsz;
		if (ut == 4 /* DW_UT_skeleton */ || ut == 5 /* DW_UT_split_compile */)
			h += 8;
		else if (ut == 2 /* DW_UT_type */ || ut == 6 /* DW_UT_split_type */)
			h += 8 + offsz;
	} else {
		return UINT64_MAX;
	}
	return h < n ? lo + h : UINT64_MAX;
}

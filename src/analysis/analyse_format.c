/*
 * analyse_format.c - jeprof's Unparse and Percent (docs/jeprof.md §5),
 * without printf on the hot path: "%d" of a double is truncation toward
 * zero, "%.1f" is the exact binary value rounded half-to-even, as glibc's
 * printf (which Perl uses) does.
 */
#include "jeheap/analyse.h"

#include <float.h>
#include <math.h>
#include <string.h>

/* Perl's %d of a float: truncation toward zero, saturated to the IV range. */
long long jh_perl_int(double v)
{
	if (isnan(v))
		return 0;
	if (v >= 9223372036854775807.0)
		return INT64_MAX;
	if (v <= -9223372036854775808.0)
		return INT64_MIN;
	return (long long)v;
}

static void add_u64(struct jh_sb *sb, unsigned long long u)
{
	char tmp[24];
	int i = sizeof(tmp);
	do {
		tmp[--i] = (char)('0' + u % 10);
		u /= 10;
	} while (u);
	jh_sb_add(sb, tmp + i, sizeof(tmp) - (size_t)i);
}

static void add_int(struct jh_sb *sb, long long v)
{
	if (v < 0) {
		jh_sb_addc(sb, '-');
		add_u64(sb, 0ULL - (unsigned long long)v);
	} else {
		add_u64(sb, (unsigned long long)v);
	}
}

/* printf("%.1f", x) */
static void add_fixed1(struct jh_sb *sb, double x)
{
#if LDBL_MANT_DIG >= 57
	if (isfinite(x) && fabs(x) < 1e15) {
		long double y = fabsl((long double)x * 10); /* exact: 53 + 4 bits */
		long double ip = floorl(y), frac = y - ip;
		unsigned long long n = (unsigned long long)ip;
		if (frac > 0.5L || (frac == 0.5L && (n & 1)))
			n++;
		if (signbit(x))
			jh_sb_addc(sb, '-');
		add_u64(sb, n / 10);
		jh_sb_addc(sb, '.');
		jh_sb_addc(sb, (char)('0' + n % 10));
		return;
	}
#endif
	jh_sb_addf(sb, "%.1f", x);
}

void jh_fmt_value(struct jh_sb *sb, enum jh_unit unit, double v)
{
	if (unit == JH_UNIT_MB)
		add_fixed1(sb, v / 1048576.0);
	else
		add_int(sb, jh_perl_int(v));
}

void jh_fmt_percent(struct jh_sb *sb, double num, double tot)
{
	if (tot != 0) {
		add_fixed1(sb, num * 100.0 / tot);
		jh_sb_addc(sb, '%');
	} else {
		jh_sb_adds(sb, num == 0 ? "nan" : num > 0 ? "+inf" : "-inf");
	}
}

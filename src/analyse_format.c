/* analyse_format.c - jeprof's Unparse and Percent (jeprof-behaviour.md §8.1). */
#include "jeheap/analyse.h"

#include <math.h>

/* Perl's %d of a float: truncation toward zero, saturated to the IV range. */
static long long perl_int(double v)
{
	if (isnan(v))
		return 0;
	if (v >= 9223372036854775807.0)
		return INT64_MAX;
	if (v <= -9223372036854775808.0)
		return INT64_MIN;
	return (long long)v;
}

void jh_fmt_value(struct jh_sb *sb, enum jh_unit unit, double v)
{
	if (unit == JH_UNIT_MB)
		jh_sb_addf(sb, "%.1f", v / 1048576.0);
	else
		jh_sb_addf(sb, "%lld", perl_int(v));
}

void jh_fmt_percent(struct jh_sb *sb, double num, double tot)
{
	if (tot != 0)
		jh_sb_addf(sb, "%.1f%%", num * 100.0 / tot);
	else
		jh_sb_adds(sb, num == 0 ? "nan" : num > 0 ? "+inf" : "-inf");
}

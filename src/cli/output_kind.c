/* output_kind.c - properties of the output modes (output_kind.h). */
#include "output_kind.h"

#include "jeheap/base.h"

static const struct {
	unsigned char graph, binary;
} kinds[] = {
	[JH_OUT_DOT] = { 1, 0 },   [JH_OUT_SVG] = { 1, 0 },    [JH_OUT_WEB] = { 1, 0 },
	[JH_OUT_GV] = { 1, 0 },    [JH_OUT_EVINCE] = { 1, 0 }, [JH_OUT_PS] = { 1, 1 },
	[JH_OUT_PDF] = { 1, 1 },   [JH_OUT_GIF] = { 1, 1 },    [JH_OUT_PNG] = { 1, 1 },
	[JH_OUT_PROTO] = { 0, 1 },
};

int jh_output_is_graph(enum jh_output mode)
{
	return (size_t)mode < JH_ARRAY_SIZE(kinds) && kinds[mode].graph;
}

int jh_output_is_binary(enum jh_output mode)
{
	return (size_t)mode < JH_ARRAY_SIZE(kinds) && kinds[mode].binary;
}

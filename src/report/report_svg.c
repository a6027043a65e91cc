/*
 * report_svg.c - jeprof's RewriteSvg for --svg and --web: dot's SVG is
 * made to fill the browser window (width/height 100%, no viewBox) and its
 * graph is wrapped in a group with id "viewport" that a script of our own
 * pans (drag) and zooms (mouse wheel, around the pointer).
 *
 * jeprof inserts SVGPan 1.2 and also renames the graph's own group
 * "graph0" to "viewport", which gives two elements that id (invalid XML
 * ids); here the graph group keeps its id, so the result stays valid SVG.
 * An input without dot's layout (no <svg width= ... viewBox=, no graph
 * group) is passed through, as jeprof's regex substitutions leave it.
 */
#include "jeheap/report.h"

#include <string.h>

/* Our pan/zoom script: no "]]>" inside, looks the viewport up lazily (the
 * script runs before the group is parsed). */
static const char pan_zoom_script[] =
	"<script type=\"text/ecmascript\"><![CDATA[\n"
	"// jeheap: drag to pan, mouse wheel to zoom around the pointer.\n"
	"(function () {\n"
	"  var root = document.documentElement, grab = null;\n"
	"  function view() { return document.getElementById('viewport'); }\n"
	"  function at(e, m) {\n"
	"    var p = root.createSVGPoint();\n"
	"    p.x = e.clientX; p.y = e.clientY;\n"
	"    return p.matrixTransform(m.inverse());\n"
	"  }\n"
	"  function put(m) {\n"
	"    view().setAttribute('transform', 'matrix(' +\n"
	"      [m.a, m.b, m.c, m.d, m.e, m.f].join(',') + ')');\n"
	"  }\n"
	"  root.addEventListener('wheel', function (e) {\n"
	"    var v = view();\n"
	"    if (!v || !e.deltaY) return;\n"
	"    e.preventDefault();\n"
	"    var m = v.getCTM(), p = at(e, m), z = e.deltaY < 0 ? 1.25 : 0.8;\n"
	"    put(m.translate(p.x, p.y).scale(z).translate(-p.x, -p.y));\n"
	"  }, {passive: false});\n"
	"  root.addEventListener('mousedown', function (e) {\n"
	"    var v = view();\n"
	"    if (!v || e.button !== 0) return;\n"
	"    var m = v.getCTM();\n"
	"    grab = {m: m, p: at(e, m)};\n"
	"    e.preventDefault();\n"
	"  });\n"
	"  root.addEventListener('mousemove', function (e) {\n"
	"    if (!grab) return;\n"
	"    var p = at(e, grab.m);\n"
	"    put(grab.m.translate(p.x - grab.p.x, p.y - grab.p.y));\n"
	"  });\n"
	"  root.addEventListener('mouseup', function () { grab = null; });\n"
	"  root.addEventListener('mouseleave', function () { grab = null; });\n"
	"})();\n"
	"]]></script>\n";

static const char *find(const char *s, const char *end, const char *what)
{
	size_t n = strlen(what);
	return (size_t)(end - s) >= n ? memmem(s, (size_t)(end - s), what, n) : NULL;
}

/* The end of `name="..."` at s (after the closing quote; at least one
 * character inside), or NULL. */
static const char *attr(const char *s, const char *end, const char *name)
{
	size_t n = strlen(name);
	if ((size_t)(end - s) < n + 3 || memcmp(s, name, n) || memcmp(s + n, "=\"", 2))
		return NULL;
	const char *v = s + n + 2, *q = memchr(v, '"', (size_t)(end - v));
	return q && q > v ? q + 1 : NULL;
}

/* The first `<g id="graphD"` (one digit, as jeprof's /<g id="graph\d"/). */
static const char *graph_group(const char *s, const char *end)
{
	static const char g[] = "<g id=\"graph";
	for (const char *p = s; (p = find(p, end, g)); p++) {
		const char *d = p + sizeof(g) - 1;
		if (end - d >= 2 && d[0] >= '0' && d[0] <= '9' && d[1] == '"')
			return p;
	}
	return NULL;
}

void jh_svg_pan_zoom(struct jh_sb *out, const char *svg, size_t len)
{
	if (!len)
		return;
	const char *end = svg + len, *p = svg;
	/* <svg width="W" height="H" ...viewBox="..." -> <svg width="100%" height="100%" ... */
	const char *s = find(svg, end, "<svg width=\"");
	const char *h = s ? attr(s + 5, end, "width") : NULL;
	h = h && h < end && *h == ' ' ? attr(h + 1, end, "height") : NULL;
	const char *vb = h ? find(h, end, "viewBox=\"") : NULL;
	const char *vbe = vb ? attr(vb, end, "viewBox") : NULL;
	if (vbe) {
		jh_sb_add(out, svg, (size_t)(s - svg));
		jh_sb_adds(out, "<svg width=\"100%\" height=\"100%\"");
		jh_sb_add(out, h, (size_t)(vb - h));
		p = vbe;
	}
	/* script and viewport group before the graph group, closed before </svg> */
	const char *g = graph_group(p, end), *close = NULL;
	for (const char *c = g; c && (c = find(c, end, "</svg>")); c++)
		close = c;
	if (!g || !close) {
		jh_sb_add(out, p, (size_t)(end - p));
		return;
	}
	jh_sb_add(out, p, (size_t)(g - p));
	jh_sb_adds(out, pan_zoom_script);
	jh_sb_adds(out, "<g id=\"viewport\" transform=\"translate(0,0)\">\n");
	jh_sb_add(out, g, (size_t)(close - g));
	jh_sb_adds(out, "</g>");
	jh_sb_add(out, close, (size_t)(end - close));
}

// demo.cpp - a small program whose heap is worth looking at, for scripts/demo.
// It builds a word index (std::map of std::string -> std::vector<int>), keeps a cache of
// 4 KiB pages, leaks a few buffers, and writes a jemalloc heap profile at the end with
// mallctl("prof.dump") (looked up at run time, so it also runs without jemalloc).
// noipa keeps each function a real call (no inlining, no .constprop clones) so the report
// names read like the source.
// Usage: demo OUT.heap   (run with LD_PRELOAD=libjemalloc.so.2 MALLOC_CONF=prof:true)
#include <dlfcn.h>

#include <cstdio>
#include <map>
#include <memory>
#include <string>
#include <vector>

namespace demo {

using Index = std::map<std::string, std::vector<int>>;

__attribute__((noipa)) void index_words(Index &idx, int docs)
{
	for (int d = 0; d < docs; d++)
		for (int w = 0; w < 200; w++)
			idx["word" + std::to_string((d * 7 + w * 13) % 5000)].push_back(d);
}

struct PageCache {
	std::vector<std::unique_ptr<char[]>> pages;
	__attribute__((noipa)) void fill(int n)
	{
		for (int i = 0; i < n; i++)
			pages.emplace_back(new char[4096]());
	}
};

__attribute__((noipa)) void leak_buffers(int n)
{
	for (int i = 0; i < n; i++) {
		volatile char *p = new char[100000];
		p[0] = 1; // never freed
	}
}

void dump(const char *path)
{
	using mallctl_fn = int (*)(const char *, void *, size_t *, void *, size_t);
	auto m = reinterpret_cast<mallctl_fn>(dlsym(RTLD_DEFAULT, "mallctl"));
	if (!m) {
		std::fprintf(stderr, "demo: not running under jemalloc, no profile written\n");
		return;
	}
	if (m("prof.dump", nullptr, nullptr, &path, sizeof path) != 0)
		std::fprintf(stderr, "demo: prof.dump failed (is MALLOC_CONF=prof:true set?)\n");
}

} // namespace demo

int main(int argc, char **argv)
{
	using namespace demo;
	Index idx;
	index_words(idx, 2000);
	PageCache cache;
	cache.fill(3000);
	leak_buffers(30);
	if (argc > 1)
		dump(argv[1]);
	std::printf("demo: %zu words indexed, %zu pages cached\n", idx.size(), cache.pages.size());
	return 0;
}

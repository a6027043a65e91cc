#!/usr/bin/env bash
# Writes small ELF seed files for fuzz_elf into DIR: one tiny program built
# with gcc and clang, DWARF 4 and 5, zlib/zstd/.zdebug-compressed, stripped.
set -euo pipefail
dir=$1
mkdir -p "$dir"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
cat > "$tmp/s.c" <<'C'
static inline __attribute__((always_inline)) int leaf(int x) { return x * 3 + 1; }
__attribute__((noinline)) int mid(int x) { return leaf(x) + leaf(x + 1); }
int main(int argc, char **argv) { (void)argv; return mid(argc); }
C
gcc -g -O2 -o "$dir/gcc5" "$tmp/s.c"
gcc -g -O2 -gdwarf-4 -o "$dir/gcc4" "$tmp/s.c"
clang -g -O2 -o "$dir/clang5" "$tmp/s.c"
clang -g -O2 -gdwarf-4 -no-pie -o "$dir/clang4" "$tmp/s.c"
objcopy --compress-debug-sections=zlib-gabi "$dir/gcc5" "$dir/gcc5.zlib"
objcopy --compress-debug-sections=zlib-gnu "$dir/gcc4" "$dir/gcc4.zdebug"
objcopy --compress-debug-sections=zstd "$dir/clang5" "$dir/clang5.zstd" 2>/dev/null || true
strip -o "$dir/gcc5.stripped" "$dir/gcc5"

/* libFuzzer target: the heapv2 reader (see fuzz_common.h). */
#include <stddef.h>
#include <stdint.h>

#include "fuzz_common.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	return fuzz_run("heap_v2/4096\n", data, size);
}

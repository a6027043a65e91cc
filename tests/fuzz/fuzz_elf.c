/*
 * libFuzzer target: the ELF/DWARF reader on mutated small ELF files (seeds:
 * tests/fuzz/make-elf-seeds.sh). The bytes go to a memfd because the readers
 * open paths; the work is in elf_exercise.h.
 */
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <sys/mman.h>
#include <unistd.h>

#include "elf_exercise.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	int fd = memfd_create("fuzz.elf", 0);
	if (fd < 0)
		return 0;
	if (write(fd, data, size) == (ssize_t)size) {
		char path[64];
		snprintf(path, sizeof(path), "/proc/self/fd/%d", fd);
		jh_exercise_elf(path);
	}
	close(fd);
	return 0;
}

/* libFuzzer target: kernel symbol sources (ksyms/ksyms.h).  First byte even: the bytes are a
 * System.map/kallsyms text; odd: an ELF file read through libelf (from a memory file).
 * Invariants: every name found is non-empty, has no '.' after its first character, and is
 * found again. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "ksyms/ksyms.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	if (size < 1)
		return 0;
	struct ksyms k = {0};
	if (data[0] % 2 == 0) {
		ksyms_parse_map(&k, (const char *)data + 1, size - 1);
	} else {
		int fd = memfd_create("fuzz-elf", 0);
		if (fd < 0)
			return 0;
		if (write(fd, data + 1, size - 1) == (ssize_t)(size - 1)) {
			struct kcve_err err = {0};
			(void)ksyms_read_elf_fd(&k, fd, "fuzz", &err);
		}
		close(fd);
	}
	for (size_t i = 0; i < strset_count(&k.names); i++) {
		const char *s = strset_at(&k.names, i);
		if (!*s || strchr(s + 1, '.'))
			abort();
		if (!ksyms_has(&k, s))
			abort();
	}
	ksyms_free(&k);
	return 0;
}

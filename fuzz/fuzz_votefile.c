/* libFuzzer target: reviewer vote files (review/votefile.c) and vote-file names. */
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "core/xalloc.h"
#include "review/votefile.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct votefile vf = {0};
	votefile_parse_text((const char *)data, size, &vf);
	votefile_release(&vf);
	/* the first line, NUL-terminated, as a file name */
	size_t n = 0;
	while (n < size && n < 255 && data[n] != '\n' && data[n] != '\0')
		n++;
	char *name = xstrndup((const char *)data, n);
	if (votefile_split_name(name, &vf))
		votefile_release(&vf);
	else
		votefile_release(&vf);
	free(name);
	return 0;
}

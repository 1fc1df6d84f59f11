/* Fuzz the CVE JSON record reader (jansson underneath): any input either parses into a record
 * or yields an error, never a crash or leak. */
#include <stdint.h>
#include <stdlib.h>

#include "record/reader.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct record_json r;
	struct kcve_err err;
	if (record_json_parse((const char *)data, size, &r, &err) == 0)
		record_json_release(&r);
	return 0;
}

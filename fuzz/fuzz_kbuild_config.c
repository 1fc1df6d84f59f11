/* libFuzzer target: the .config parser (kb_config_parse: CONFIG_X=value, "# ... is not set",
 * quoted strings with escapes, malformed lines) and the lookups made on its result. */
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "kbuild/kbuild.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct kb_config *c = NULL;
	struct kcve_err err;
	if (size > 1 << 20)
		return 0;
	if (kb_config_parse(&c, (const char *)data, size, "fuzz", &err) != 0)
		return 0;
	static const char *const syms[] = {"CONFIG_A", "A", "CONFIG_X86", "MODULES", "CONFIG_", ""};
	for (size_t i = 0; i < sizeof(syms) / sizeof(syms[0]); i++) {
		const char *v = kb_config_get(c, syms[i]);
		if (v)
			(void)strlen(v);
	}
	(void)kb_config_count(c);
	(void)kb_config_arch(c);
	kb_config_free(c);
	return 0;
}

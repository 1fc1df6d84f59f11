/* libFuzzer target: modprobe.d rules (check/inputs/modprobe.c) for kcve check --running.  Input: the
 * text of one configuration file (also read as a kernel command line and a modules.builtin
 * list).  Invariants: every module a rule names gets an answer whose
 * evidence is one printable line naming the file; a blocking answer comes from an install rule
 * whose command passes ck_modprobe_cmd_blocks. */
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "check/inputs/modprobe.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct ck_modprobe *mp = ck_modprobe_new();
	ck_modprobe_add_text(mp, "/etc/modprobe.d/f.conf", (const char *)data, size);
	ck_modprobe_add_cmdline(mp, (const char *)data, size);
	ck_modprobe_add_builtin(mp, (const char *)data, size);
	/* ask about every word of the input that could be a module name */
	const char *p = (const char *)data, *end = p + size;
	while (p < end) {
		size_t n = 0;
		while (p + n < end && p[n] != ' ' && p[n] != '\t' && p[n] != '\n')
			n++;
		char name[56];
		if (n && ck_module_name_norm(p, n, name, sizeof name)) {
			const char *why = NULL;
			enum ck_mp_rule r = ck_modprobe_rule(mp, name, &why);
			if ((r == CK_MP_NONE) != (why == NULL))
				abort();
			if (why) {
				if (strncmp(why, "/etc/modprobe.d/f.conf:", 23) &&
				    strncmp(why, "/proc/cmdline: ", 15))
					abort();
				for (const char *c = why; *c; c++)
					if ((unsigned char)*c < 0x20 || *c == 0x7f)
						abort();
				if (r == CK_MP_BLOCKED && !strstr(why, ": install ") &&
				    !strstr(why, ": module_blacklist="))
					abort();
			}
		}
		p += n ? n : 1;
	}
	ck_modprobe_free(mp);
	return 0;
}

/* libFuzzer target: the MAINTAINERS reader and matcher (get_maintainer.pl semantics: F:/X:
 * globs as regexes, N:/K: regexes, section walking, address splitting and dedup). The input
 * is a MAINTAINERS text; a few fixed paths are matched against it. */
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>

#include "maintainers/authority.h"
#include "maintainers/getmaint.h"
#include "maintainers/maintainers.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct maintainers *m;
	struct kcve_err err;
	if (size > 1 << 20)
		return 0;
	if (maintainers_parse(&m, (const char *)data, size, NULL, NULL, &err) != 0)
		return 0;
	static const char *const files[] = {"drivers/net/ethernet/intel/e1000/e1000_main.c",
	                                    "fs/ext4/inode.c", "Makefile", "include/linux/mm.h",
	                                    "Documentation/devicetree/bindings/x.yaml"};
	struct gm_opts o = {.keywords = false, .root = NULL};
	struct gm_result r = {0};
	gm_run(m, files, 5, &o, &r);
	gm_result_release(&r);
	struct authority a;
	authority_compute(m, files, 5, &a);
	const char *by[] = {"a@b.c"};
	struct strbuf why = STRBUF_INIT, dec = STRBUF_INIT;
	authority_decide(&a, by, 1, &why, &dec);
	sb_release(&why);
	sb_release(&dec);
	authority_release(&a);
	size_t *kw;
	size_t n = maintainers_keywords(m, (const char *)data, size < 4096 ? size : 4096, &kw);
	(void)n;
	free(kw);
	maintainers_free(m);
	return 0;
}

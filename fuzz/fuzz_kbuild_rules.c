/* libFuzzer target: the tree evaluator with the makefiles' own rules (rulesrc.c records them,
 * rulechain.c follows them from the listed objects, the default image and other directories'
 * makefiles).  The input is the makefile of directory d/ of a small kernel tree written once to
 * a temporary directory: its lists and rules, pattern and static pattern rules, cycles and
 * references to e/ and to the image are evaluated for a verdict on each source (one of the
 * three, always with a reason) and for the condition export (symbolic mode). */
#define _XOPEN_SOURCE 700 /* nftw */
#include <ftw.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "kbuild/kbuild.h"

static char root[256];
static struct kb_config *cfg;

static int put(const char *rel, const void *data, size_t n)
{
	char path[512];
	snprintf(path, sizeof(path), "%s/%s", root, rel);
	FILE *f = fopen(path, "wb");
	if (!f)
		return -1;
	int rc = fwrite(data, 1, n, f) == n ? 0 : -1;
	return fclose(f) == 0 ? rc : -1;
}

static int rm_entry(const char *path, const struct stat *st, int flag, struct FTW *ftw)
{
	(void)st, (void)flag, (void)ftw;
	return remove(path);
}

/* the temporary tree goes when the fuzzer exits */
static void cleanup(void)
{
	if (root[0])
		nftw(root, rm_entry, 16, FTW_DEPTH | FTW_PHYS);
}

static int setup(void)
{
	const char *tmp = getenv("TMPDIR") ? getenv("TMPDIR") : "/tmp";
	snprintf(root, sizeof(root), "%s/kcve-fuzz-rules-XXXXXX", tmp);
	if (!mkdtemp(root))
		return -1;
	atexit(cleanup);
	static const char *const dirs[] = {"arch", "arch/x86", "arch/x86/boot", "d", "d/sub", "e"};
	char path[512];
	for (size_t i = 0; i < sizeof(dirs) / sizeof(dirs[0]); i++) {
		snprintf(path, sizeof(path), "%s/%s", root, dirs[i]);
		if (mkdir(path, 0755) != 0)
			return -1;
	}
	static const struct {
		const char *rel, *text;
	} files[] = {
		{"Makefile", "# top\n"},
		{"Kbuild", "obj-y += d/ e/ arch/x86/\n"},
		{"arch/x86/Makefile", "boot := arch/x86/boot\nKBUILD_IMAGE := $(boot)/bzImage\n"},
		{"arch/x86/Kbuild", ""},
		{"arch/x86/boot/Makefile", "$(obj)/bzImage: $(obj)/../../../d/img.so FORCE\n\t$(call x)\n"},
		{"e/Makefile", "obj-y += x.o\n$(obj)/x.o: $(obj)/../d/a.so\n"},
		{"d/a.c", ""}, {"d/b.c", ""}, {"d/c.S", ""}, {"d/sub/s.c", ""}, {"e/x.c", ""}, {"e/y.c", ""},
	};
	for (size_t i = 0; i < sizeof(files) / sizeof(files[0]); i++)
		if (put(files[i].rel, files[i].text, strlen(files[i].text)) != 0)
			return -1;
	static const char text[] = "CONFIG_X86=y\nCONFIG_64BIT=y\nCONFIG_MODULES=y\nCONFIG_A=m\n"
				   "# CONFIG_B is not set\n";
	struct kcve_err err;
	return kb_config_parse(&cfg, text, sizeof(text) - 1, "fuzz", &err);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	if (size > 1 << 14)
		return 0;
	if (!cfg && setup() != 0)
		abort(); /* the temporary tree cannot be written: nothing to fuzz */
	if (put("d/Makefile", data, size) != 0)
		abort();
	struct kcve_err err;
	struct kb_tree *t = NULL;
	if (kb_tree_open(&t, root, cfg, NULL, &err) != 0)
		return 0;
	static const char *const paths[] = {"d/a.c", "d/b.c", "d/c.S", "d/sub/s.c", "e/x.c", "e/y.c",
					    "arch/x86/boot/z.c"};
	for (size_t i = 0; i < sizeof(paths) / sizeof(paths[0]); i++) {
		const char *reason = NULL;
		enum kb_verdict v = kb_file_verdict(t, paths[i], &reason);
		if (!reason || (v != KB_COMPILED && v != KB_NOT_COMPILED && v != KB_UNKNOWN))
			abort(); /* every verdict is one of the three, with a reason */
	}
	FILE *out = fopen("/dev/null", "w");
	if (out) {
		(void)kb_tree_export_conditions(t, out, &err);
		fclose(out);
	}
	kb_tree_close(t);
	return 0;
}

/* libFuzzer target: the Kbuild makefile reader (statements, conditionals, define, continuation
 * lines, variable expansion, make functions, rules with and without a recipe) followed by the list
 * expansions the tree evaluator does (obj-y, obj-m, lib-y, composite <name>-y/-objs).  The file
 * system is not touched (include and $(wildcard) are disabled with no_fs). */
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "kbuild/kbuild.h"
#include "kbuild/kbuild_int.h"

static struct kb_config *cfg;

/* every rule reaches the tree evaluator's rule hook: expand both sides as it does */
static void rule_hook(struct mk_ctx *c, const char *targets, const char *prereqs, bool recipe,
		      const char *file, unsigned line)
{
	(void)recipe, (void)file, (void)line;
	struct strbuf sb = STRBUF_INIT;
	mk_expand(c, targets, strlen(targets), &sb);
	mk_expand(c, prereqs, strlen(prereqs), &sb);
	sb_release(&sb);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	if (size > 1 << 16)
		return 0;
	if (!cfg) {
		static const char text[] = "CONFIG_X86=y\nCONFIG_64BIT=y\nCONFIG_MODULES=y\nCONFIG_A=m\n"
					   "CONFIG_S=\"str\"\n# CONFIG_B is not set\n";
		struct kcve_err err;
		if (kb_config_parse(&cfg, text, sizeof(text) - 1, "fuzz", &err) != 0)
			return 0;
	}
	struct mk_vars globals, locals;
	mk_vars_init(&globals, 64);
	mk_vars_init(&locals, 64);
	mk_vars_set(&globals, "srctree", 7, "/nonexistent", false);
	struct mk_ctx c;
	mk_ctx_init(&c, &locals, &globals, cfg, "/nonexistent");
	c.no_fs = true;
	c.rule_hook = rule_hook;
	c.symbolic = size > 0 && data[0] == 's'; /* both modes */
	mk_eval_text(&c, (const char *)data, size, "fuzz/Makefile");
	static const char *const lists[] = {"obj-y", "obj-m", "lib-y", "subdir-y", "foo-y", "foo-objs"};
	for (size_t i = 0; i < sizeof(lists) / sizeof(lists[0]); i++) {
		struct strbuf sb = STRBUF_INIT;
		sb_adds(&sb, "");
		mk_expand_var(&c, lists[i], &sb);
		size_t wn;
		for (const char *w = sb_str(&sb); (w = mk_next_word(w, &wn)); w += wn)
			(void)wn;
		sb_release(&sb);
	}
	mk_ctx_release(&c);
	mk_vars_free(&locals);
	mk_vars_free(&globals);
	return 0;
}

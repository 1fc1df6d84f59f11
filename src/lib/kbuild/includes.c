/* `#include "x.c"` of a sibling .c: which file includes which, and whether the include is
 * active under the config (the preprocessor layer around it).  For verdict.c, export.c and
 * pathinfo.c alike. */
#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/fileio.h"
#include "core/xalloc.h"
#include "kbuild/kbuild.h"
#include "kbuild/kbuild_tree.h"

void kbt_free_include(void *p)
{
	struct kb_include *inc = p;
	free(inc->includer);
	free(inc->why);
	free(inc);
}

/* The preprocessor layer around an #include of a .c file: `#ifdef CONFIG_X`, `#ifndef`,
 * `#if IS_ENABLED(CONFIG_X)`, `IS_BUILTIN`, `defined(CONFIG_X)`, `0`/`1`, optionally negated, are
 * decided from the config (a tristate set to m defines CONFIG_X_MODULE, not CONFIG_X); any other
 * expression is unknown. */
struct ppframe {
	int value;      /* 1 true, 0 false, -1 unknown */
	bool seen_true; /* for #elif/#else */
	char text[96];
};

static int pp_value(struct kb_tree *t, const struct kbt_pp_operand *op)
{
	if (op->kind == KBT_PP_UNKNOWN)
		return -1;
	int v;
	if (op->kind == KBT_PP_FALSE || op->kind == KBT_PP_TRUE) {
		v = op->kind == KBT_PP_TRUE;
	} else {
		char *sym = xstrndup(op->sym, op->symlen);
		const char *val = kb_config_get(t->cfg, sym);
		free(sym);
		bool y = val && !strcmp(val, "y"), m = val && !strcmp(val, "m");
		if (op->kind == KBT_PP_IS_ENABLED)
			v = y || m;
		else if (op->kind == KBT_PP_IS_MODULE)
			v = m;
		else if (op->kind == KBT_PP_IS_BUILTIN)
			v = y;
		else
			v = val && !m; /* defined(CONFIG_X): autoconf.h defines it unless =m */
	}
	return op->neg ? !v : v;
}

/* Scan the .c files of a directory once for `#include "x.c"` of a sibling; remember the
 * includer and whether the include is active under the config. */
void kbt_scan_includes(struct kb_tree *t, const char *dir)
{
	if (!strset_add(&t->scanned_dirs, dir))
		return;
	struct strbuf p = STRBUF_INIT;
	sb_addf(&p, "%s%s%s", t->ksrc, *dir ? "/" : "", dir);
	DIR *dh = opendir(sb_str(&p));
	if (!dh) {
		sb_release(&p);
		return;
	}
	struct dirent *de;
	while ((de = readdir(dh))) {
		size_t nl = strlen(de->d_name);
		if (nl < 3 || strcmp(de->d_name + nl - 2, ".c") != 0)
			continue;
		struct strbuf f = STRBUF_INIT, text = STRBUF_INIT;
		sb_addf(&f, "%s/%s", sb_str(&p), de->d_name);
		if (read_file(sb_str(&f), &text) != 0 || !strstr(sb_str(&text), ".c\"")) {
			sb_release(&f);
			sb_release(&text);
			continue;
		}
		struct ppframe st[32];
		int depth = 0, overflow = 0;
		const char *s = sb_str(&text);
		struct kbt_pp_line l;
		while (kbt_pp_next(&s, dir, &l)) {
			if (l.kind == KBT_PPL_IF) {
				if (depth == 32) {
					overflow++;
				} else {
					struct ppframe *fr = &st[depth++];
					int v = pp_value(t, &l.cond);
					fr->value = v;
					fr->seen_true = v == 1;
					int tl = (int)(l.len < 80 ? l.len : 80);
					snprintf(fr->text, sizeof(fr->text), "#%.*s", tl, l.text);
				}
			} else if (l.kind == KBT_PPL_ELIF && depth && !overflow) {
				struct ppframe *fr = &st[depth - 1];
				fr->value = fr->seen_true ? 0 : -1;
			} else if (l.kind == KBT_PPL_ELSE && depth && !overflow) {
				struct ppframe *fr = &st[depth - 1];
				if (fr->value >= 0)
					fr->value = fr->seen_true ? 0 : 1;
				fr->seen_true = true;
				size_t tl = strlen(fr->text);
				if (tl + 7 < sizeof(fr->text))
					memcpy(fr->text + tl, " #else", 7);
			} else if (l.kind == KBT_PPL_ENDIF) {
				if (overflow)
					overflow--;
				else if (depth)
					depth--;
			} else if (l.kind == KBT_PPL_INCLUDE_C && !strmap_get(&t->includes, l.include)) {
				int state = overflow ? -1 : 1;
				const char *why = "";
				for (int k = 0; k < depth; k++) {
					if (st[k].value == 0) {
						state = 0;
						why = st[k].text;
						break;
					}
					if (st[k].value < 0 && state == 1) {
						state = -1;
						why = st[k].text;
					}
				}
				struct kb_include *inc = xcalloc(1, sizeof(*inc));
				inc->includer = mk_strf("%s%s%s", dir, *dir ? "/" : "", de->d_name);
				inc->state = state;
				inc->why = xstrdup(why);
				strmap_put(&t->includes, l.include, inc);
			}
			free(l.include);
		}
		sb_release(&f);
		sb_release(&text);
	}
	closedir(dh);
	sb_release(&p);
}


/* Objects compiled from a source in another directory through an explicit rule.
 *
 * kernel/bpf/Makefile lists `obj-$(CONFIG_BPF_SYSCALL) += relo_core.o` and builds it with
 *     $(obj)/relo_core.o: $(srctree)/tools/lib/bpf/relo_core.c FORCE
 *             $(call if_changed_rule,cc_o_c)
 * so tools/lib/bpf/relo_core.c is compiled into the kernel although tools/ holds host programs.
 * The rule: when the first prerequisite of a rule with a recipe of its own (make's `$<`, the file
 * the recipe compiles) is a C or assembler source whose own object is not the target, and the
 * target is an object of the directory's lists, that source is compiled exactly when (and as) the
 * target is.  A rule without a recipe only adds a dependency to the pattern rule that compiles
 * the target's own source (`$(obj)/inat.o: $(obj)/inat-tables.c`, a generated table that inat.c
 * #includes), and a rule whose target no list names changes nothing. */
#include <stdlib.h>
#include <string.h>

#include "core/xalloc.h"
#include "kbuild/kbuild_tree.h"
#include "kbuild/paths.h"

static char *expand_words(struct mk_ctx *c, const char *text)
{
	bool saved = c->uncertain;
	char savedwhy[sizeof(c->why)];
	memcpy(savedwhy, c->why, sizeof(savedwhy));
	struct strbuf sb = STRBUF_INIT;
	mk_expand(c, text, strlen(text), &sb);
	c->uncertain = saved;
	memcpy(c->why, savedwhy, sizeof(savedwhy));
	return sb_detach(&sb);
}

/* The first prerequisite as a path from the root: "$(srctree)/tools/x.c" expands to an absolute
 * path inside the tree, "$(src)/x.c" to one from the root, "x.c" is relative to dir. */
static char *first_source(struct kb_tree *t, const char *dir, const char *prereqs)
{
	size_t wn;
	const char *w = mk_next_word(prereqs, &wn);
	if (!w || memchr(w, '%', wn))
		return NULL;
	size_t kl = strlen(t->ksrc);
	char *p;
	if (w[0] == '/') {
		if (wn <= kl + 1 || strncmp(w, t->ksrc, kl) != 0 || w[kl] != '/')
			return NULL;
		p = kbt_normalize("", w + kl + 1, wn - kl - 1);
	} else {
		p = kbt_listed_path(dir, w, wn);
	}
	char *obj = p ? kbt_object_of(p) : NULL;
	if (!obj) {
		free(p);
		return NULL;
	}
	free(obj);
	return p;
}

void kbt_rule_hook(struct mk_ctx *c, const char *targets, const char *prereqs, const char *file,
		   unsigned line)
{
	struct kbt_hookdata *hd = c->hook_data;
	struct kb_tree *t = hd->t;
	/* cheap filters: no C/assembler source named, or a target-specific variable */
	if ((!strstr(prereqs, ".c") && !strstr(prereqs, ".S") && !strstr(prereqs, ".s")) ||
	    strchr(prereqs, '=') || *prereqs == ':')
		return;
	char *pre = expand_words(c, prereqs);
	char *src = first_source(t, hd->dir, pre);
	free(pre);
	if (!src)
		return;
	char *srcobj = kbt_object_of(src);
	char *tw = expand_words(c, targets);
	const char *rel = file;
	size_t kl = strlen(t->ksrc);
	if (rel && !strncmp(rel, t->ksrc, kl) && rel[kl] == '/')
		rel += kl + 1;
	size_t wn;
	for (const char *w = tw; (w = mk_next_word(w, &wn)); w += wn) {
		if (!kbt_ends_with(w, wn, ".o") || memchr(w, '%', wn))
			continue;
		char *target = kbt_listed_path(hd->dir, w, wn);
		if (target && strcmp(target, srcobj) && !strmap_get(&t->rule_srcs, src)) {
			struct kb_rule_src *r = xcalloc(1, sizeof(*r));
			r->object = target;
			r->makefile = xstrdup(rel ? rel : "?");
			r->line = line;
			strmap_put(&t->rule_srcs, src, r);
			target = NULL;
		}
		free(target);
	}
	free(tw);
	free(srcobj);
	free(src);
}

void kbt_apply_rule_sources(struct kb_tree *t)
{
	for (size_t i = 0; i < t->rule_srcs.count; i++) {
		const struct strmap_ent *e = strmap_at(&t->rule_srcs, i);
		const struct kb_rule_src *r = e->val;
		char *srcobj = kbt_object_of(e->key);
		const char *oc = t->symbolic ? strmap_get(&t->objconds, r->object) : NULL;
		if (oc)
			kbt_add_objcond(t, srcobj, oc);
		const struct kb_obj *o = strmap_get(&t->objs, r->object);
		if (o) {
			struct strbuf reason = STRBUF_INIT;
			sb_addf(&reason, "%s, compiled from this file as %s by the explicit rule at %s:%u",
				o->reason, r->object, r->makefile, r->line);
			kbt_add_object(t, srcobj, sb_str(&reason), o->kind);
			sb_release(&reason);
		}
		const struct kb_note *note = strmap_get(&t->notes, r->object);
		if (note && !strmap_get(&t->notes, srcobj))
			strmap_put(&t->notes, srcobj, kbt_note_dup(note));
		free(srcobj);
	}
}

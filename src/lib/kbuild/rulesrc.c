/* The rules of the makefiles, recorded for rulechain.c, which follows them from the listed
 * objects (see there for what make does with them).
 *
 * Every rule of an active section is recorded per directory with its targets and prerequisites
 * expanded when the rule is read, as make does, and taken from the root of the tree ("$(srctree)/"
 * removed) but not normalised: a pattern matches the text ("nvhe/../aarch32.nvhe.o" against
 * "nvhe/%.nvhe.o").  Target-specific variables and double-colon rules are skipped.
 *
 * Kept from before: the first prerequisite of an explicit rule with a recipe, when it is a source
 * whose own object is not the target (kernel/bpf/Makefile compiles `relo_core.o` from
 * `$(srctree)/tools/lib/bpf/relo_core.c`), is noted in t->rule_srcs, so that the verdict of such a
 * source in a directory never evaluated (tools/) takes the target's verdict, also when the target
 * is not built. */
#include <stdlib.h>
#include <string.h>

#include "core/xalloc.h"
#include "kbuild/kbuild_tree.h"
#include "kbuild/paths.h"

/* Rules recorded per makefile (the real 6.1 tree's largest, the top-level Makefile, has ~130). */
#define MAX_RULES 4096

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

/* A word of a rule as make sees it, relative to the root of the tree: "$(srctree)/x" expands to
 * an absolute path inside the tree; NULL for any other absolute path.  Not normalised: a pattern
 * matches the text ("nvhe/../aarch32.nvhe.o" against "nvhe/%.nvhe.o"). */
static char *rule_word(struct kb_tree *t, const char *w, size_t wn)
{
	size_t kl = strlen(t->ksrc);
	if (w[0] != '/')
		return xstrndup(w, wn);
	if (wn <= kl + 1 || strncmp(w, t->ksrc, kl) != 0 || w[kl] != '/')
		return NULL;
	return xstrndup(w + kl + 1, wn - kl - 1);
}

char *kbt_rule_path(const char *w)
{
	return kbt_normalize("", w, strlen(w));
}

bool kbt_is_source(const char *w)
{
	size_t n = strlen(w);
	return kbt_ends_with(w, n, ".c") || kbt_ends_with(w, n, ".S") || kbt_ends_with(w, n, ".s");
}

static char **split_words(struct kb_tree *t, const char *text, size_t *n)
{
	char **v = NULL;
	size_t alloc = 0, wn;
	*n = 0;
	for (const char *w = text; (w = mk_next_word(w, &wn)); w += wn) {
		if ((wn == 5 && !memcmp(w, "FORCE", 5)) || (wn == 1 && *w == '|'))
			continue;
		char *rw = rule_word(t, w, wn);
		if (!rw)
			continue;
		XGROW(v, *n + 1, alloc);
		v[(*n)++] = rw;
	}
	return v;
}

/* The explicit first-prerequisite source of a rule with a recipe whose target is an object of
 * another name (kernel/bpf's relo_core.o): kept for the verdict of a source whose own directory
 * is not evaluated (tools/lib/bpf), which takes the target's verdict (verdict.c). */
static void note_rule_source(struct kb_tree *t, const struct kb_rule *r)
{
	if (r->tpat || r->pattern || !r->nprereqs || !kbt_is_source(r->prereqs[0]) || strchr(r->prereqs[0], '%'))
		return;
	char *src = kbt_rule_path(r->prereqs[0]);
	char *srcobj = src ? kbt_object_of(src) : NULL;
	for (size_t i = 0; srcobj && i < r->ntargets; i++) {
		const char *target = r->tnorm[i];
		if (!target || !kbt_ends_with(target, strlen(target), ".o") || !strcmp(target, srcobj) ||
		    strmap_get(&t->rule_srcs, src))
			continue;
		struct kb_rule_src *rs = xcalloc(1, sizeof(*rs));
		rs->object = xstrdup(target);
		rs->makefile = xstrdup(r->makefile);
		rs->line = r->line;
		strmap_put(&t->rule_srcs, src, rs);
	}
	free(srcobj);
	free(src);
}

void kbt_rule_hook(struct mk_ctx *c, const char *targets, const char *prereqs, bool recipe, const char *file,
		   unsigned line)
{
	struct kbt_hookdata *hd = c->hook_data;
	struct kb_tree *t = hd->t;
	/* a target-specific variable (`$(obj)/%.so: OBJCOPYFLAGS := -S`) or a double-colon rule */
	if (!hd->record_rules || strchr(prereqs, '=') || *prereqs == ':')
		return;
	char *tw = expand_words(c, targets);
	char *pw = expand_words(c, prereqs);
	struct kb_rule r = {0};
	char *colon = strchr(pw, ':');
	if (colon) { /* static pattern rule: targets: target-pattern: prerequisite-patterns */
		*colon = '\0';
		size_t n;
		char **tp = split_words(t, pw, &n);
		if (n == 1)
			r.tpat = tp[0];
		else
			for (size_t i = 0; i < n; i++)
				free(tp[i]);
		free(tp);
	}
	r.targets = split_words(t, tw, &r.ntargets);
	r.prereqs = split_words(t, colon ? colon + 1 : pw, &r.nprereqs);
	free(tw);
	free(pw);
	if (!r.ntargets || (colon && !r.tpat)) {
		kbt_free_rule_fields(&r);
		return;
	}
	r.recipe = recipe;
	r.tnorm = xcalloc(r.ntargets, sizeof(*r.tnorm));
	for (size_t i = 0; i < r.ntargets; i++) {
		if (strchr(r.targets[i], '%'))
			r.pattern = true;
		else
			r.tnorm[i] = kbt_rule_path(r.targets[i]);
	}
	if (r.pattern && r.tpat) { /* "%.o: %.o: %.c" is no rule make accepts */
		kbt_free_rule_fields(&r);
		return;
	}
	const char *rel = file;
	size_t kl = strlen(t->ksrc);
	if (rel && !strncmp(rel, t->ksrc, kl) && rel[kl] == '/')
		rel += kl + 1;
	r.makefile = xstrdup(rel ? rel : "?");
	r.line = line;
	struct kb_rules *rs = strmap_get(&t->rules, hd->dir);
	if (rs && rs->n >= MAX_RULES) { /* a real makefile has at most ~130 */
		kbt_free_rule_fields(&r);
		return;
	}
	if (!rs) {
		rs = xcalloc(1, sizeof(*rs));
		strmap_put(&t->rules, hd->dir, rs);
	}
	XGROW(rs->v, rs->n + 1, rs->alloc);
	rs->v[rs->n++] = r;
	if (recipe)
		note_rule_source(t, &rs->v[rs->n - 1]);
}

bool kbt_rule_names(const struct kb_tree *t, const char *dir, const char *obj)
{
	const struct kb_rules *rs = strmap_get(&t->rules, dir);
	for (size_t i = 0; rs && i < rs->n; i++) {
		const struct kb_rule *r = &rs->v[i];
		for (size_t k = 0; k < r->ntargets; k++)
			if (r->tnorm[k] && !strcmp(r->tnorm[k], obj))
				return true;
		for (size_t k = 0; k < r->nprereqs; k++) {
			char *p = kbt_rule_path(r->prereqs[k]);
			bool same = p && !strcmp(p, obj);
			free(p);
			if (same)
				return true;
		}
	}
	return false;
}

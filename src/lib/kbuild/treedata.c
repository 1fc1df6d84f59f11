/* The evaluator's state (struct kb_tree, kbuild_tree.h): constructors, destructors and queries
 * of its values, shared by the walk (tree.c) and what it adds (recipes.c, rulesrc.c) and by the
 * answers (verdict.c, export.c).  Calls nothing else in kbuild. */
#include <stdlib.h>
#include <string.h>

#include "core/strmap.h"
#include "core/xalloc.h"
#include "kbuild/kbuild_tree.h"

void kbt_free_obj(void *p)
{
	struct kb_obj *o = p;
	free(o->reason);
	free(o);
}

void kbt_free_dir(void *p)
{
	struct kb_dir *d = p;
	free(d->makefile);
	free(d->why_uncertain);
	free(d->reason);
	free(d->cond);
	free(d);
}

struct kb_note *kbt_note_dup(const struct kb_note *n)
{
	struct kb_note *d = xcalloc(1, sizeof(*d));
	d->enabled = n->enabled;
	d->var = xstrdup(n->var);
	d->lhs = xstrdup(n->lhs);
	d->where = xstrdup(n->where);
	return d;
}

void kbt_free_note(void *p)
{
	struct kb_note *n = p;
	if (!n)
		return;
	free(n->var);
	free(n->lhs);
	free(n->where);
	free(n);
}

void kbt_free_rule_src(void *p)
{
	struct kb_rule_src *r = p;
	free(r->object);
	free(r->makefile);
	free(r);
}

void kbt_free_rule_fields(struct kb_rule *r)
{
	for (size_t i = 0; i < r->ntargets; i++) {
		free(r->targets[i]);
		if (r->tnorm)
			free(r->tnorm[i]);
	}
	for (size_t i = 0; i < r->nprereqs; i++)
		free(r->prereqs[i]);
	free(r->targets);
	free(r->tnorm);
	free(r->prereqs);
	free(r->tpat);
	free(r->makefile);
}

void kbt_free_rules(void *p)
{
	struct kb_rules *rs = p;
	for (size_t i = 0; i < rs->n; i++)
		kbt_free_rule_fields(&rs->v[i]);
	free(rs->v);
	free(rs);
}

void kbt_add_object(struct kb_tree *t, const char *path, const char *reason, int kind)
{
	struct kb_obj *o = strmap_get(&t->objs, path);
	if (o) {
		if (kind == KBT_BUILTIN && o->kind != KBT_BUILTIN) {
			o->kind = kind;
			free(o->reason);
			o->reason = xstrdup(reason);
		}
		return;
	}
	o = xcalloc(1, sizeof(*o));
	o->kind = kind;
	o->reason = xstrdup(reason);
	strmap_put(&t->objs, path, o);
}

/* Innermost entry of map for dir or one of its ancestors. */
static const char *innermost(struct strmap *map, const char *dir, char **which)
{
	char *anc = xstrdup(dir);
	for (;;) {
		const char *v = strmap_get(map, anc);
		if (v) {
			*which = anc;
			return v;
		}
		char *slash = strrchr(anc, '/');
		if (!slash)
			break;
		*slash = '\0';
	}
	free(anc);
	*which = NULL;
	return NULL;
}

const char *kbt_custom_dir(struct kb_tree *t, const char *dir, char **which)
{
	return innermost(&t->custom_dirs, dir, which);
}

const char *kbt_clean_dir(struct kb_tree *t, const char *dir, char **which)
{
	return innermost(&t->clean_dirs, dir, which);
}

/* Exploitation evidence and modprobe mitigation stages (see triage.h). */
#include "check/stages/triage.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/cveid.h"
#include "core/strbuf.h"
#include "core/xalloc.h"
#include "core/text.h"

static int cmp_id(const void *a, const void *b)
{
	return cveid_cmp(*(char *const *)a, *(char *const *)b);
}

static int cmp_rec_id(const void *key, const void *elem)
{
	return cveid_cmp(key, *(char *const *)elem);
}

void ck_triage_init(struct ck_triage *t, const struct ck_set *s, const struct ck_kev *kev,
		    const struct ck_epss *epss)
{
	memset(t, 0, sizeof *t);
	t->kev = kev;
	t->epss = epss;
	if (!kev)
		return;
	char **ids = xcalloc(s->n + 1, sizeof *ids);
	for (size_t i = 0; i < s->n; i++)
		ids[i] = (char *)s->v[i].id;
	if (s->n)
		qsort(ids, s->n, sizeof *ids, cmp_id);
	for (size_t k = 0; k < kev->n; k++) {
		const struct ck_kev_entry *ke = &kev->v[k];
		if (!ke->linux_kernel || (s->n && bsearch(ke->id, ids, s->n, sizeof *ids, cmp_rec_id)))
			continue;
		t->untracked = xrealloc(t->untracked, (t->nuntracked + 1) * sizeof *t->untracked);
		t->untracked[t->nuntracked++] = xstrdup(ke->id);
	}
	free(ids);
}

int ck_triage_open(struct ck_triage *t, const struct ck_set *s, const char *kev_path,
		   const char *epss_path, struct kcve_err *err)
{
	memset(t, 0, sizeof *t);
	struct ck_kev *kev = kev_path ? xcalloc(1, sizeof *kev) : NULL;
	struct ck_epss *epss = epss_path ? xcalloc(1, sizeof *epss) : NULL;
	int rc = kev ? ck_kev_load(kev, kev_path, err) : 0;
	if (!rc && epss)
		rc = ck_epss_load(epss, epss_path, err);
	if (rc) {
		if (kev)
			ck_kev_release(kev);
		if (epss)
			ck_epss_release(epss);
		free(kev);
		free(epss);
		return rc;
	}
	ck_triage_init(t, s, kev, epss);
	t->own_kev = kev;
	t->own_epss = epss;
	return 0;
}

void ck_triage_release(struct ck_triage *t)
{
	if (t->own_kev)
		ck_kev_release(t->own_kev);
	if (t->own_epss)
		ck_epss_release(t->own_epss);
	free(t->own_kev);
	free(t->own_epss);
	for (size_t i = 0; i < t->nuntracked; i++)
		free(t->untracked[i]);
	free(t->untracked);
	memset(t, 0, sizeof *t);
}

void ck_run_exploitation(const struct ck_set *s, struct ck_result *R, const struct ck_triage *t)
{
	for (size_t i = 0; i < R->n; i++) {
		struct ck_entry *e = &R->e[i];
		const char *id = s->v[e->rec].id;
		const struct ck_kev_entry *ke = ck_kev_find(t->kev, id);
		e->kev = ke != NULL;
		e->kev_ransomware = ke && ke->ransomware;
		const struct ck_epss_entry *ep = ck_epss_find(t->epss, id);
		e->has_epss = ep != NULL;
		e->epss = ep ? ep->epss : 0;
		e->epss_pct = ep ? ep->percentile : 0;
	}
	R->ranked_kev = t->kev != NULL;
	R->ranked_epss = t->epss != NULL;
	R->untracked_kev = (const char *const *)t->untracked;
	R->nuntracked_kev = t->nuntracked;
}

/* One entry: the rule of every module holding a compiled file; sets mitigation and the
 * evidence. */
static void mitigate(const struct ck_record *r, struct ck_entry *e, const struct ck_modprobe *mp,
		     ck_file_fn verdict, ck_module_fn module, void *ctx)
{
	struct strbuf why = STRBUF_INIT;
	size_t nmods = 0, nblocked = 0, nlisted = 0;
	char seen[8][56];
	for (size_t f = 0; f < r->nfiles; f++) {
		const char *reason = NULL;
		if (verdict(ctx, r->files[f], &reason) != CK_FILE_COMPILED)
			continue;
		char mod[256];
		bool builtin = false;
		if (!module(ctx, r->files[f], mod, sizeof mod) ||
		    (builtin = ck_modprobe_is_builtin(mp, mod))) {
			/* built in (or not known): never mitigated by modprobe rules; the Kbuild
			 * mapping names obj-y objects too, modules.builtin says which they are */
			if (builtin)
				e->module = CK_MOD_NONE;
			sb_release(&why);
			return;
		}
		bool dup = false;
		for (size_t k = 0; k < nmods && k < 8; k++)
			dup |= !strcmp(seen[k], mod);
		if (dup)
			continue;
		if (nmods < 8)
			text_snprintf(seen[nmods], sizeof seen[nmods], "%.55s", mod);
		nmods++;
		const char *rule = NULL;
		switch (ck_modprobe_rule(mp, mod, &rule)) {
		case CK_MP_BLOCKED: nblocked++; break;
		case CK_MP_BLACKLIST: nlisted++; break;
		case CK_MP_NONE: break;
		}
		if (rule)
			sb_addf(&why, "%s%s", why.len ? "; " : "", rule);
	}
	if (nmods && nblocked == nmods) {
		e->mitigation = CK_MIT_BLOCKED;
		e->outcome = CK_OUT_MITIGATED;
		e->stage = "modprobe";
		free(e->reason);
		struct strbuf rs = STRBUF_INIT;
		sb_addf(&rs, "not affected: mitigated: the code is only in module%s that modprobe will "
			"not load (%s)", nmods > 1 ? "s" : "", why.buf);
		e->reason = sb_detach(&rs);
	} else if (nmods && nblocked + nlisted == nmods) {
		e->mitigation = CK_MIT_BLACKLIST;
	} else {
		sb_release(&why);
		return;
	}
	free(e->mitigation_why);
	e->mitigation_why = sb_detach(&why);
}

void ck_run_modprobe(const struct ck_set *s, struct ck_result *R, const struct ck_modprobe *mp,
		     ck_file_fn verdict, ck_module_fn module, void *ctx)
{
	for (size_t i = 0; i < R->n && ck_modprobe_knows_builtin(mp); i++) {
		struct ck_entry *e = &R->e[i];
		if (e->outcome == CK_OUT_AFFECTED && e->module == CK_MOD_NOT_LOADED)
			mitigate(&s->v[e->rec], e, mp, verdict, module, ctx);
	}
	ck_result_push_stage(R, "modprobe");
}

/* Exploitation evidence and modprobe mitigation stages (see triage.h). */
#include "check/triage.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/strbuf.h"
#include "core/xalloc.h"

static int cmp_id(const void *a, const void *b)
{
	return ck_cve_id_cmp(*(char *const *)a, *(char *const *)b);
}

static int cmp_rec_id(const void *key, const void *elem)
{
	return ck_cve_id_cmp(key, *(char *const *)elem);
}

/* KEV kernel ids that no record of s carries, into R->untracked_kev (sorted). */
static void untracked(const struct ck_set *s, struct ck_result *R, const struct ck_kev *kev)
{
	char **ids = xcalloc(s->n + 1, sizeof *ids);
	for (size_t i = 0; i < s->n; i++)
		ids[i] = (char *)s->v[i].id;
	if (s->n)
		qsort(ids, s->n, sizeof *ids, cmp_id);
	for (size_t k = 0; k < kev->n; k++) {
		const struct ck_kev_entry *ke = &kev->v[k];
		if (!ke->linux_kernel || (s->n && bsearch(ke->id, ids, s->n, sizeof *ids, cmp_rec_id)))
			continue;
		R->untracked_kev = xrealloc(R->untracked_kev,
					    (R->nuntracked_kev + 1) * sizeof *R->untracked_kev);
		R->untracked_kev[R->nuntracked_kev++] = xstrdup(ke->id);
	}
	free(ids);
}

void ck_run_exploitation(const struct ck_set *s, struct ck_result *R, const struct ck_kev *kev,
			 const struct ck_epss *epss)
{
	for (size_t i = 0; i < R->n; i++) {
		struct ck_entry *e = &R->e[i];
		const char *id = s->v[e->rec].id;
		const struct ck_kev_entry *ke = ck_kev_find(kev, id);
		e->kev = ke != NULL;
		e->kev_ransomware = ke && ke->ransomware;
		const struct ck_epss_entry *ep = ck_epss_find(epss, id);
		e->has_epss = ep != NULL;
		e->epss = ep ? ep->epss : 0;
		e->epss_pct = ep ? ep->percentile : 0;
	}
	R->ranked_kev = kev != NULL;
	R->ranked_epss = epss != NULL;
	if (kev)
		untracked(s, R, kev);
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
		if (!module(ctx, r->files[f], mod, sizeof mod)) {
			sb_release(&why);
			return; /* built in (or not known): never mitigated by modprobe rules */
		}
		bool dup = false;
		for (size_t k = 0; k < nmods && k < 8; k++)
			dup |= !strcmp(seen[k], mod);
		if (dup)
			continue;
		if (nmods < 8)
			snprintf(seen[nmods], sizeof seen[nmods], "%.55s", mod);
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
	for (size_t i = 0; i < R->n; i++) {
		struct ck_entry *e = &R->e[i];
		if (e->outcome == CK_OUT_AFFECTED && e->module == CK_MOD_NOT_LOADED)
			mitigate(&s->v[e->rec], e, mp, verdict, module, ctx);
	}
	ck_result_push_stage(R, "modprobe");
}
